#include "core/session/runprogramsplit.h"

#include "core/ir/program.h"
#include "core/transform/pipelineresult.h"

namespace ps {

ProgramRunner::Split runProgramSplit(const PipelineResult &pipeline)
{
    const SplitNames &names = pipeline.attributeNames;
    ProgramRunner::Split split;
    split.forward = pipeline.forward;
    split.backward = pipeline.backward;
    split.inputs = names[SplitKey::Fx];
    split.parameters = names[SplitKey::Fp];
    split.outputs = names[SplitKey::Fo];
    split.outputGrads = names[SplitKey::BoG];
    split.inputGrads = names[SplitKey::BxG];
    split.parameterGrads = names[SplitKey::BpG];
    split.noNeedBuffers = names[SplitKey::NoNeedBuffers];
    split.fakeName = std::string(fakeValueName(pipeline.flavour));
    return split;
}

} // namespace ps
