#pragma once

#include "core/runtime/device.h"
#include "core/runtime/programrunner.h"
#include "core/session/debugsources.h"
#include "core/session/debugtarget.h"
#include "core/session/inputshapes.h"
#include "core/session/pipelinesource.h"

#include <map>
#include <memory>
#include <optional>
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
    /// The input shapes a run with `sources` gives the target into `shapes`, each resolved. False
    /// with `error`: a --shape that does not fit, the inputs that still need one (with the
    /// --shape to give).
    bool checkShapes(
        const ps::DebugSources &sources, std::vector<ps::InputShape> &shapes, std::string &error) const;
    /// `sources` applied to the target as the GUI applies them (DebugSources::applyTo; images:
    /// netpbm only), after checkShapes. False with `error`: checkShapes's, a bad file.
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

/// SourceOptions (`--seed N`, `--inputs`, `--image-norm`, `--params`) over the defaults in
/// `options`. False with `error` set.
bool applySourceOptions(const CliArguments &cli, ps::ProgramRunner::Options &options, std::string &error);

/// `--device TEXT` (parseDevice): nullopt with `error` as the command prints it ("unknown device
/// 'tpu' (cpu, cpu-plain, cuda, cuda:N, cuda-sim)", "--device cuda:x: the CUDA device index: ...").
std::optional<ps::Device> deviceOption(const std::string &text, std::string &error);
/// Why `--device TEXT` cannot run: "--device cuda: <createBackend's reason>".
std::string deviceUnavailable(const std::string &text, const std::string &reason);
/// "--device cpu|cpu-plain|cuda|cuda:N|cuda-sim": the backend (createBackend), or nullptr with `error`
/// saying why (deviceOption's message, or deviceUnavailable's on a machine without CUDA).
std::unique_ptr<ps::Backend> makeBackend(const std::string &text, std::string &error);

/// "fallback: 3 ops ran on the CPU (no kernel on the device): pd_op.topk x2, pd_op.cumsum" (nothing
/// when none did).
void printFallback(std::ostream &out, const std::map<std::string, size_t> &ops, const char *indent = "");
/// `"fallback": {"count": 3, "ops": {"pd_op.topk": 2, ...}}` into the current JSON object.
void writeFallbackJson(ps::JsonEmitter &json, const std::map<std::string, size_t> &ops);

/// "float32[4, 6] min -1.2 max 3.4 mean 0.1 std 0.9" (+ " nan 3 +inf 1" when present).
std::string tensorSummary(ps::Backend &backend, const ps::Tensor &t);
/// `name` made safe as a file name ('/' and other separators replaced by '_').
std::string fileNameFor(const std::string &name);
