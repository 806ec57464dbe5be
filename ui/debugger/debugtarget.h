#pragma once

#include <QString>
#include <memory>

namespace ps {

class Program;
class TraceBundle;
struct PipelineResult;

/// What a debug session executes: one program (one segment) or a dy2static pipeline (its
/// forward and backward programs as one timeline), with the trace bundle it came from, if any.
struct DebugTarget
{
    std::shared_ptr<const Program> program;
    std::shared_ptr<const PipelineResult> pipeline;
    std::shared_ptr<const TraceBundle> bundle;
    /// The program's file (a `.pdiparams` next to it provides the parameters); may be a resource.
    QString programPath;
    /// A readable `.pdiparams` for the program, or empty.
    QString pdiparamsPath;

    bool valid() const { return program != nullptr || pipeline != nullptr; }
};

} // namespace ps
