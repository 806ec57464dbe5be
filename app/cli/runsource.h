#pragma once

#include "core/runtime/programrunner.h"
#include "core/session/debugsources.h"
#include "core/session/debugtarget.h"
#include "core/session/inputshapes.h"
#include "core/session/pipelinesource.h"

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace ps {
class Backend;
class JsonEmitter;
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
    /// DebugSources::defaultsFor the target (a bundle's inputs/, params/ and output_grads; else
    /// random inputs and the .pdiparams beside the program, random parameters without one), with
    /// `seed` and the `--shape NAME=DIMS` options in `shapeOptions`. False with `error` on a
    /// malformed --shape.
    bool sources(uint64_t seed, const std::vector<std::string> &shapeOptions, ps::DebugSources &out,
        std::string &error) const;
    /// `sources` applied to the target as the GUI applies them (DebugSources::applyTo; images:
    /// netpbm only), after the input shapes are checked: `shapes` receives them. False with
    /// `error`: a --shape that does not fit, the inputs that still need one (with the --shape
    /// to give), a bad file.
    bool runOptions(const ps::DebugSources &sources, ps::ProgramRunner::Options &options,
        std::vector<ps::InputShape> &shapes, std::string &error) const;
};

/// "x 1x3x736x736 (.yml: file.yml: Hpi....x (opt of min/opt/max))" per dynamic input, with the
/// shape the prepared run fed, joined by "; "; empty when no input is dynamic.
std::string shapesSummary(const std::vector<ps::InputShape> &shapes, ps::ProgramRunner &runner);
/// `"shapes": [{"name", "declared", "shape", "origin", "note"}]` for every input.
void writeShapesJson(
    ps::JsonEmitter &json, const std::vector<ps::InputShape> &shapes, ps::ProgramRunner &runner);

/// Opens `path` (a bundle folder or manifest.json, else a program file) with
/// PipelineSource::open, and for a program file the `.pdiparams` and `.yml` beside it
/// (DebugTarget::findCompanions), printing diagnostics to stderr; false with `error` set (empty
/// when the `error:` line is already printed).
/// `train` (`--mode train`): a plain forward program runs as the GUI's Train mode builds it,
/// forward + backward with ones as output gradients; `outputs` names its outputs (`--output`,
/// printer ids).
bool loadRunSource(const std::string &path, RunSource &out, std::string &error, bool train = false,
    const std::vector<std::string> &outputs = {});

class CliArguments;

/// `--seed N`, `--inputs`, `--image-norm`, `--params` as `run` reads them, applied to `options`
/// (which holds the defaults). False with `error` set.
bool applySourceOptions(const CliArguments &cli, ps::ProgramRunner::Options &options, std::string &error);
/// `--seed N` (0 when absent); false with `error` set when it is not a number.
bool seedOption(const CliArguments &cli, uint64_t &seed, std::string &error);

/// "--device cpu|cuda|cuda:N|cuda-sim": the backend, or nullptr with `error` saying why (createCudaBackend's
/// reason on a machine without CUDA).
std::unique_ptr<ps::Backend> makeBackend(const std::string &device, std::string &error);

/// "fallback: 3 ops ran on the CPU (no kernel on the device): pd_op.topk x2, pd_op.cumsum" (nothing
/// when none did).
void printFallback(std::ostream &out, const std::map<std::string, size_t> &ops, const char *indent = "");
/// `"fallback": {"count": 3, "ops": {"pd_op.topk": 2, ...}}` into the current JSON object.
void writeFallbackJson(ps::JsonEmitter &json, const std::map<std::string, size_t> &ops);

/// "float32[4, 6] min -1.2 max 3.4 mean 0.1 std 0.9" (+ " nan 3 +inf 1" when present).
std::string tensorSummary(ps::Backend &backend, const ps::Tensor &t);
/// `name` made safe as a file name ('/' and other separators replaced by '_').
std::string fileNameFor(const std::string &name);
