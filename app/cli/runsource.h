#pragma once

#include "core/runtime/programrunner.h"
#include "core/session/debugtarget.h"
#include "core/session/pipelinesource.h"

#include <memory>
#include <string>

namespace ps {
class Backend;
class Program;
} // namespace ps

/// What `run`, `verify --numerics` and `bench run` execute, opened by core/session as the GUI
/// opens it: a trace bundle (Paddle's train program split and passed like dy2static, as forward +
/// backward segments, or its infer program for an eval-mode bundle) or a plain program file (one
/// segment).
struct RunSource
{
    std::string path;
    std::shared_ptr<const ps::PipelineSource> source;
    ps::DebugTarget target;

    const ps::TraceBundle *bundle() const { return target.bundle.get(); }
    /// A runner on `backend` (not yet prepared).
    std::unique_ptr<ps::ProgramRunner> makeRunner(ps::Backend &backend) const
    {
        return target.makeRunner(backend);
    }
    /// DebugSources::defaultsFor the target: a bundle's inputs/, params/ and output_grads;
    /// random inputs and parameters otherwise.
    ps::ProgramRunner::Options defaultOptions(uint64_t seed) const;
};

/// Opens `path` (a bundle folder or manifest.json, else a program file) with
/// PipelineSource::open, printing its diagnostics to stderr; false with `error` set (empty when
/// the `error:` line is already printed).
bool loadRunSource(const std::string &path, RunSource &out, std::string &error);

/// "--device cpu|cuda": the backend, or nullptr with `error` saying why (createCudaBackend's
/// reason on a machine without CUDA).
std::unique_ptr<ps::Backend> makeBackend(const std::string &device, std::string &error);

/// "float32[4, 6] min -1.2 max 3.4 mean 0.1 std 0.9" (+ " nan 3 +inf 1" when present).
std::string tensorSummary(ps::Backend &backend, const ps::Tensor &t);
/// `name` made safe as a file name ('/' and other separators replaced by '_').
std::string fileNameFor(const std::string &name);
