#pragma once

#include "core/io/tracebundle.h"
#include "core/ir/program.h" // runnableprogram.h needs Program complete
#include "core/transform/programroles.h"
#include "core/transform/runnableprogram.h"

#include <memory>
#include <optional>
#include <string>

namespace ps {

class PartialProgramLayer;

/// The programs a trace bundle (io's TraceBundle: manifest and files) stands for in the
/// dy2static pipeline: the roles of the origin program's values, a PartialProgramLayer over it,
/// and Paddle's own train program with the manifest's names and ranges.
class BundlePrograms
{
public:
    /// The manifest's roles in `origin` (a program loaded from `originFile`): inputs by data
    /// name, parameters by train_names.param (else parameters[].name), outputs nested as
    /// output_structure with leaves at outputs[i].defined_by. Null with errors (at the manifest's
    /// JSON path) when a name or op is not in the program.
    static std::optional<ProgramRoles> roles(const TraceBundle &bundle, const Program &origin,
        const std::string &originFile, DiagnosticList &diagnostics);
    /// loadOrigin (verified) + roles + a PartialProgramLayer of `flavour` (default: the bundle's).
    static std::unique_ptr<PartialProgramLayer> makeLayer(const TraceBundle &bundle,
        DiagnosticList &diagnostics, std::optional<PipelineFlavour> flavour = {},
        TraceBundle::ProgramSource source = TraceBundle::ProgramSource::Auto);

    /// Paddle's own train program (`whole`, read from train_program.txt) with the manifest's
    /// names and ranges; the fake name is respelled for `flavour`. Requires trainNames().
    static RunnableProgram paddleTrainProgram(
        const TraceBundle &bundle, std::unique_ptr<Program> whole, PipelineFlavour flavour);
    /// Same, loading train_program.txt; nullopt (with the reasons) when the bundle has none or it
    /// does not verify.
    static std::optional<RunnableProgram> paddleTrainProgram(
        const TraceBundle &bundle, DiagnosticList &diagnostics, std::optional<PipelineFlavour> flavour = {});
};

} // namespace ps
