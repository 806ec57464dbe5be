#include "core/session/targetshapes.h"

#include "core/ir/block.h"
#include "core/ir/program.h"
#include "core/session/debugtarget.h"
#include "core/transform/forwardbackwardcut.h"
#include "core/transform/pipelineresult.h"

namespace ps {

ShapeInference::InputDims TargetShapes::dimsOf(const std::vector<InputShape> &shapes)
{
    ShapeInference::InputDims dims;
    for (const InputShape &s : shapes)
        if (s.resolved())
            dims[s.name] = s.shape;
    return dims;
}

TargetShapes TargetShapes::infer(const DebugTarget &target, const std::vector<InputShape> &inputs)
{
    TargetShapes out;
    const ShapeInference::InputDims dims = dimsOf(inputs);
    if (!target.pipeline) {
        if (target.program)
            out.m_programs.push_back(ShapeInference::run(*target.program, dims));
        return out;
    }
    const PipelineResult &pipeline = *target.pipeline;
    if (!pipeline.forward)
        return out;
    out.m_programs.push_back(ShapeInference::run(*pipeline.forward, dims));
    if (!pipeline.backward || pipeline.backward->block().numKwargs() == 0)
        return out;
    const ShapeInference &forward = out.m_programs.front();
    std::unordered_map<const ValueImpl *, std::vector<int64_t>> arguments;
    for (const CrossingValue &c : ForwardBackwardCut::of(pipeline))
        if (c.forward && c.backward)
            if (const InferredShape *s = forward.shape(c.forward); s && s->known())
                arguments[c.backward.impl()] = s->dims;
    // bo_g[k] is the gradient of fo[k]: the same shape.
    const std::vector<Value> &outputs = pipeline.attributeValues[SplitKey::Fo];
    const std::vector<Value> &grads = pipeline.attributeValues[SplitKey::BoG];
    for (size_t k = 0; k < outputs.size() && k < grads.size(); ++k)
        if (outputs[k] && grads[k])
            if (const InferredShape *s = forward.shape(outputs[k]); s && s->known())
                arguments[grads[k].impl()] = s->dims;
    out.m_programs.push_back(ShapeInference::run(*pipeline.backward, dims, arguments));
    return out;
}

const InferredShape *TargetShapes::shape(Value v) const
{
    for (const ShapeInference &s : m_programs)
        if (const InferredShape *found = s.shape(v))
            return found;
    return nullptr;
}

std::optional<int64_t> TargetShapes::bytes(Value v) const
{
    for (const ShapeInference &s : m_programs)
        if (s.shape(v))
            return s.bytes(v);
    return std::nullopt;
}

std::unordered_map<const ValueImpl *, int64_t> TargetShapes::knownBytes() const
{
    std::unordered_map<const ValueImpl *, int64_t> out;
    for (const ShapeInference &s : m_programs)
        out.merge(s.knownBytes());
    return out;
}

size_t TargetShapes::tensorValues() const
{
    size_t n = 0;
    for (const ShapeInference &s : m_programs)
        n += s.tensorValues();
    return n;
}

size_t TargetShapes::inferredValues() const
{
    size_t n = 0;
    for (const ShapeInference &s : m_programs)
        n += s.inferredValues();
    return n;
}

} // namespace ps
