#pragma once

#include "core/io/loadresult.h"
#include "core/io/tracebundle.h"
#include "core/transform/programroles.h"
#include "core/transform/runnableprogram.h"

#include <QString>
#include <memory>

namespace ps {

class Program;

/// What the dy2static pipeline is computed from: an origin program with the roles of its values,
/// the flavour and where it came from (a trace bundle or a plain program file). Immutable once
/// built and shared between the UI thread and the pipeline workers, which only clone `origin`.
struct PipelineSource
{
    enum class Kind { Bundle, Program };

    Kind kind = Kind::Program;
    QString path; ///< the bundle folder, or the program file
    QString title; ///< the bundle's name, or the file name
    std::shared_ptr<const Program> origin;
    LoadResult::Format format = LoadResult::Format::Unknown;
    double loadSeconds = 0;
    ProgramRoles roles; ///< values of `origin`
    PipelineFlavour flavour = PipelineFlavour::Newest;
    /// The mode a fresh window shows: the bundle's `training`; train for a plain program already
    /// in the train layout, infer otherwise.
    bool training = false;
    std::shared_ptr<const TraceBundle> bundle; ///< null for a plain program

    /// Opens what `path` names: a trace bundle (folder or manifest.json), else a program file
    /// or a ":/" resource (PIR JSON or text). Null with the problems in `diagnostics` (which
    /// also receives the warnings of a successful load).
    static std::shared_ptr<const PipelineSource> open(const QString &path, DiagnosticList &diagnostics);
    /// Opens a bundle (folder or manifest.json): the manifest, the origin program (program.json,
    /// else program.txt) and the manifest's roles. Null with the problems in `diagnostics`.
    static std::shared_ptr<const PipelineSource> fromBundle(const QString &path, DiagnosticList &diagnostics);
    /// A plain program: roles from its data / parameter / shadow_output / fetch ops (the results
    /// nothing uses when it has no output op).
    static std::shared_ptr<const PipelineSource> fromProgram(
        std::unique_ptr<Program> program, const QString &path, LoadResult::Format format, double loadSeconds);
};

} // namespace ps
