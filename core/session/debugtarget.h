#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ps {

class Backend;
class DiagnosticList;
class InferenceConfig;
class Program;
class ProgramRunner;
class TraceBundle;
struct PipelineResult;

/// What a debug session or `pirscope-cli run` executes: one program (one segment) or a dy2static
/// pipeline (its forward and backward programs as one timeline), with the trace bundle it came
/// from, if any.
struct DebugTarget
{
    std::shared_ptr<const Program> program;
    std::shared_ptr<const PipelineResult> pipeline;
    std::shared_ptr<const TraceBundle> bundle;
    /// The program's file (a `.pdiparams` next to it provides the parameters); may name a Qt
    /// resource, which the core does not read.
    std::string programPath;
    /// A readable `.pdiparams` for the program, or empty.
    std::string pdiparamsPath;
    /// The `.yml` beside the program (input shape defaults), or null.
    std::shared_ptr<const InferenceConfig> config;

    bool valid() const { return program != nullptr || pipeline != nullptr; }
    /// The programs of the timeline, in segment order: the pipeline's forward and (when not
    /// empty) backward, else the program.
    std::vector<const Program *> programs() const;
    /// The program whose inputs and parameters the run feeds (the forward of a pipeline).
    const Program *inputProgram() const;
    /// A runner on `backend` (not yet prepared).
    std::unique_ptr<ProgramRunner> makeRunner(Backend &backend) const;

    /// Fills pdiparamsPath and config from the files beside programPath (a file on disk): the
    /// `.pdiparams` and the `.yml` of the same stem. A `.yml` that does not parse leaves config
    /// null and adds a warning (file:line:col) to `warnings`.
    void findCompanions(DiagnosticList &warnings);
    /// `<dir>/<stem>.pdiparams` beside a program file when it exists (paddle.jit.save writes
    /// both), else empty.
    static std::string pdiparamsNextTo(const std::string &programPath);
};

} // namespace ps
