#pragma once

#include "core/transform/passmanager.h"
#include "core/transform/passtimeline.h"
#include "core/transform/runnableprogram.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ps {

class Program;

/// Where an op of the whole train program ended up after the split and the passes.
struct SplitOpIndex
{
    int segment = -1; ///< 0 forward, 1 backward, -1 no clone (shadow outputs, removed by a pass)
    size_t index = 0; ///< top-level op index in that program
};

/// An immutable snapshot of one dy2static pipeline run (PartialProgramLayer::snapshot()): every
/// program is a private copy, so the snapshot stays valid when the layer changes or dies, and
/// can be shared between threads. Attribute values point into `forward`/`backward`.
struct PipelineResult
{
    PipelineFlavour flavour = PipelineFlavour::Newest;
    bool training = true;

    /// The main program with PartialProgramLayer's `output_<k>` shadow outputs.
    std::shared_ptr<const Program> origin;
    /// The whole program split_program received (train: with the backward appended).
    std::shared_ptr<const Program> whole;
    RunnableProgram::Names names;
    OpRange forwardRange;
    OpRange backwardRange;

    /// split_program's output, before any pass, and its attributes as names (program_name_attr).
    std::shared_ptr<const Program> splitForward;
    std::shared_ptr<const Program> splitBackward;
    SplitNames splitNames;

    /// What run_program receives: the programs after the passes and program_attr's renames, and
    /// program_attr itself.
    std::shared_ptr<const Program> forward;
    std::shared_ptr<const Program> backward;
    SplitNames attributeNames;
    SplitValues attributeValues;
    std::vector<std::pair<std::string, std::string>> renames;

    /// Train: for each forward op with grad ops, top-level op indices into `whole` (empty when
    /// the train program came without them, e.g. from a file).
    std::vector<GradOpLink> gradOps;
    /// The same links as top-level op indices of `forward` and `backward`; a link whose forward
    /// op a pass removed is dropped, as are grad ops a pass removed.
    std::vector<GradOpLink> splitGradOps;

    /// For each top-level op of `whole`, its clone in `forward`/`backward` (after the passes):
    /// what maps values computed on the whole program (Paddle's intermediates) onto the split
    /// programs. Empty when split_program's clones could not be followed op by op.
    std::vector<SplitOpIndex> wholeToSplit;
    /// One step per pass run (forward and backward programs), with the programs before and
    /// after it unless the layer's setRecordPassSteps(false).
    std::vector<PassTimelineStep> passLog;
    /// Parameters the flavour pruned as unused (seed and 3.0 `_prune_unused_params`).
    std::vector<std::string> prunedParameters;
    /// Everything Paddle would have rejected or that could not be reproduced.
    std::vector<std::string> diagnostics;

    bool ok() const { return forward != nullptr && backward != nullptr; }
};

} // namespace ps
