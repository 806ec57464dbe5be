#pragma once

#include "core/runtime/programrunner.h"

namespace ps {

struct PipelineResult;

/// What run_program receives of `pipeline` (its programs after the passes and program_attr's
/// names), for a ProgramRunner: runtime knows nothing of transform's PipelineResult.
ProgramRunner::Split runProgramSplit(const PipelineResult &pipeline);

} // namespace ps
