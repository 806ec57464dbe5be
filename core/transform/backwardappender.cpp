#include "core/transform/backwardappender.h"

#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/appendshadowoutputs.h"
#include "core/transform/autodiff.h"
#include "core/transform/gradopbuilder.h"
#include "core/transform/gradstopgradient.h"

#include <algorithm>
#include <unordered_map>

namespace ps {

namespace {

bool isFake(Value v)
{
    return v.isNull() || !v.type();
}

std::vector<Value> withoutFakes(const std::vector<Value> &values)
{
    std::vector<Value> out;
    std::copy_if(values.begin(), values.end(), std::back_inserter(out), [](Value v) { return !isFake(v); });
    return out;
}

/// The groups as op indices of `block` (autodiff may insert ops above the forward ops, so the
/// indices are taken once everything is in place).
std::vector<GradOpLink> gradOpLinks(const Block &block, const std::vector<GradOpGroup> &groups)
{
    std::unordered_map<const Operation *, size_t> index;
    for (size_t i = 0; i < block.size(); ++i)
        index.emplace(block.op(i), i);
    std::vector<GradOpLink> links;
    for (const GradOpGroup &group : groups) {
        auto forward = index.find(group.forward);
        if (forward == index.end())
            continue;
        GradOpLink link { forward->second, {} };
        for (const Operation *op : group.grads)
            if (auto it = index.find(op); it != index.end())
                link.gradOps.push_back(it->second);
        if (!link.gradOps.empty())
            links.push_back(std::move(link));
    }
    return links;
}

} // namespace

TrainProgram BackwardAppender::append(Program &program, const std::vector<Value> &inputs,
    const std::vector<Value> &params, const std::vector<Value> &outputs)
{
    TrainProgram train;
    train.inputs = inputs;
    train.params = params;
    train.outputs = outputs;
    Block &block = program.block();
    size_t forwardEnd = block.size();
    const Operation *forwardEndOp = block.back();

    GradOpBuilder builder(program);
    builder.setInsertionPointToEnd(block);
    std::vector<Value> seeds;
    std::vector<Value> targets;
    for (Value out : outputs) {
        if (valueStopGradient(out)) {
            seeds.push_back(Value());
        } else {
            seeds.push_back(builder.fullLike(out, 1.0)->result(0));
            targets.push_back(out);
        }
    }
    appendShadowOutputs(program, seeds, block.size(), "grad_input_");
    const size_t between = block.size() - forwardEnd;

    std::vector<Value> combined = inputs;
    combined.insert(combined.end(), params.begin(), params.end());
    std::vector<Value> grads(combined.size());
    std::vector<GradOpGroup> gradOps;
    if (!targets.empty()) {
        GradResult result = Autodiff::grad(program, targets, combined, withoutFakes(seeds));
        train.diagnostics.append(result.diagnostics);
        if (!result.ok())
            return train;
        grads = result.grads;
        gradOps = std::move(result.gradOps);
        if (forwardEndOp)
            forwardEnd = size_t(block.indexOf(forwardEndOp) + 1);
    }
    train.inputGrads.assign(grads.begin(), grads.begin() + long(inputs.size()));
    train.paramGrads.assign(grads.begin() + long(inputs.size()), grads.end());
    train.outputGrads = seeds;

    std::vector<Value> gradOutputs = train.inputGrads;
    gradOutputs.insert(gradOutputs.end(), train.paramGrads.begin(), train.paramGrads.end());
    const size_t backwardEnd = block.size();
    appendShadowOutputs(program, withoutFakes(gradOutputs), backwardEnd, "grad_output_");

    train.forwardRange = { 0, forwardEnd };
    train.backwardRange = { forwardEnd + between, backwardEnd };
    train.gradOps = gradOpLinks(block, gradOps);
    return train;
}

TrainProgram BackwardAppender::fromOrigin(const Program &origin, const std::vector<Value> &inputs,
    const std::vector<Value> &params, const std::vector<Value> &outputs)
{
    IrMapping mapping;
    std::unique_ptr<Program> clone = origin.clone(&mapping);
    auto mapAll = [&](const std::vector<Value> &values) {
        std::vector<Value> out;
        for (Value v : values)
            out.push_back(v ? mapping.lookup(v) : v);
        return out;
    };
    TrainProgram train = append(*clone, mapAll(inputs), mapAll(params), mapAll(outputs));
    train.program = std::move(clone);
    return train;
}

} // namespace ps
