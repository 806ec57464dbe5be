#include "core/session/referencefiles.h"

#include "core/analysis/valuenames.h"
#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/pipelineresult.h"

namespace ps {

void ReferenceFiles::addInputsAndParameters(const TraceBundle &bundle)
{
    for (const TraceBundle::Tensor &t : bundle.inputs())
        if (!t.file.empty())
            m_byName.emplace(t.name, bundle.filePath(t.file));
    for (const TraceBundle::Tensor &t : bundle.parameters())
        if (!t.file.empty())
            m_byName.emplace(t.name, bundle.filePath(t.file));
}

ReferenceFiles ReferenceFiles::forProgram(const TraceBundle &bundle, const Program &origin)
{
    ReferenceFiles r;
    r.addInputsAndParameters(bundle);
    const Block &top = origin.block();
    for (const TraceBundle::Output &o : bundle.outputs()) {
        if (o.file.empty() || o.opIndex >= top.size() || o.resultIndex >= top.op(o.opIndex)->numResults())
            continue;
        r.m_byValue.emplace(
            top.op(o.opIndex)->result(unsigned(o.resultIndex)).impl(), bundle.filePath(o.file));
    }
    // Paddle's intermediates of its train program: the forward part has the origin's op indices.
    if (const auto forward = bundle.forwardRange();
        forward && bundle.intermediatesProgram() == "train_program" && forward->begin == 0) {
        for (const TraceBundle::Intermediate &v : bundle.intermediates())
            if (v.opIndex < forward->end && v.opIndex < top.size() && top.op(v.opIndex)->name() == v.opName
                && v.resultIndex < top.op(v.opIndex)->numResults())
                r.m_byValue.emplace(
                    top.op(v.opIndex)->result(unsigned(v.resultIndex)).impl(), bundle.filePath(v.file));
    }
    return r;
}

ReferenceFiles ReferenceFiles::forPipeline(const TraceBundle &bundle, const PipelineResult &pipeline)
{
    ReferenceFiles r;
    r.addInputsAndParameters(bundle);
    for (const TraceBundle::Output &o : bundle.outputs()) {
        if (o.file.empty())
            continue;
        for (const std::string &name : { o.name, o.foName })
            if (!name.empty())
                r.m_byName.emplace(name, bundle.filePath(o.file));
    }
    // Gradients: bx_g[k] is the gradient of fx[k], bp_g[k] of fp[k].
    const SplitNames &names = pipeline.attributeNames;
    auto addGrads = [&](SplitKey of, SplitKey grad, const std::vector<TraceBundle::Tensor> &tensors) {
        const std::vector<std::string> &keys = names[of];
        const std::vector<std::string> &grads = names[grad];
        for (size_t k = 0; k < keys.size() && k < grads.size(); ++k) {
            for (const TraceBundle::Tensor &t : tensors)
                if (t.name == keys[k] && !t.gradFile.empty() && !grads[k].empty())
                    r.m_byName.emplace(grads[k], bundle.filePath(t.gradFile));
        }
    };
    addGrads(SplitKey::Fx, SplitKey::BxG, bundle.inputs());
    addGrads(SplitKey::Fp, SplitKey::BpG, bundle.parameters());
    r.m_byName.erase(bundle.fakeValueName());
    // Paddle's intermediates (of its whole train program) on their clones in the split programs.
    if (bundle.intermediatesProgram() == "train_program" && pipeline.training) {
        const std::vector<SplitOpIndex> &at = pipeline.wholeToSplit;
        for (const TraceBundle::Intermediate &v : bundle.intermediates()) {
            if (v.opIndex >= at.size() || at[v.opIndex].segment < 0)
                continue;
            const Program *program
                = at[v.opIndex].segment == 0 ? pipeline.forward.get() : pipeline.backward.get();
            if (!program || at[v.opIndex].index >= program->block().size())
                continue;
            const Operation *op = program->block().op(at[v.opIndex].index);
            if (v.resultIndex < op->numResults())
                r.m_byValue.emplace(op->result(unsigned(v.resultIndex)).impl(), bundle.filePath(v.file));
        }
    }
    return r;
}

std::string ReferenceFiles::fileForName(const std::string &name) const
{
    auto it = m_byName.find(name);
    return it == m_byName.end() ? std::string() : it->second;
}

std::string ReferenceFiles::fileFor(Value value) const
{
    if (!value)
        return {};
    auto it = m_byValue.find(value.impl());
    if (it != m_byValue.end())
        return it->second;
    if (value.isKeywordArgument())
        return fileForName(value.keyword());
    for (const std::string &name : ValueNames::allNameStrings(value)) {
        std::string file = fileForName(name);
        if (!file.empty())
            return file;
    }
    return {};
}

} // namespace ps
