#include "core/runtime/kernelcomposer.h"

#include "core/dialect/opregistry.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/runtime/backend.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"

namespace ps {

namespace {

Type typeOf(const RuntimeValue &v)
{
    if (v.isTensor() && v.tensor().defined())
        return Type::denseTensor(v.tensor().dtype(), v.tensor().shape());
    if (v.isList()) {
        std::vector<Type> elements;
        for (const Tensor &t : v.list())
            elements.push_back(Type::denseTensor(t.dtype(), t.shape()));
        return Type::vector(std::move(elements));
    }
    return Type::null();
}

} // namespace

KernelComposer::KernelComposer(const KernelContext &context)
    : m_backend(context.backend())
{
}

KernelComposer::KernelComposer(Backend &backend)
    : m_backend(backend)
{
}

std::vector<RuntimeValue> KernelComposer::run(std::string_view opName,
    const std::vector<RuntimeValue> &inputs, std::vector<NamedAttribute> attributes,
    std::vector<Type> resultTypes)
{
    const KernelFn fn = m_backend.kernels().find(opName);
    if (!fn)
        throw RuntimeError(
            std::string(opName) + " has no kernel on " + m_backend.name() + " (needed by the fused op)");
    Block &block = m_scratch.block();
    std::vector<Value> operands;
    std::vector<const RuntimeValue *> pointers;
    for (const RuntimeValue &v : inputs) {
        const Type t = typeOf(v);
        operands.push_back(t.isNull() ? Value() : block.addArgument(t));
        pointers.push_back(v.isNull() ? nullptr : &v);
    }
    if (resultTypes.empty()) {
        size_t numResults = 1;
        if (const OpInfo *info = OpRegistry::instance().lookup(opName))
            numResults = size_t(info->numOutputs);
        const DataType dtype
            = !inputs.empty() && inputs[0].isTensor() ? inputs[0].tensor().dtype() : DataType::Float32;
        resultTypes.assign(numResults, Type::denseTensor(dtype, { -1 }));
    }
    Operation *op
        = Operation::create(m_scratch.arena(), opName, operands, resultTypes, std::move(attributes));
    block.push_back(op);
    KernelContext context(*op, std::move(pointers), m_backend);
    fn(context);
    return context.takeOutputs();
}

Tensor KernelComposer::tensor(std::string_view opName, const std::vector<RuntimeValue> &inputs,
    std::vector<NamedAttribute> attributes, std::vector<Type> resultTypes)
{
    std::vector<RuntimeValue> results = run(opName, inputs, std::move(attributes), std::move(resultTypes));
    if (results.empty() || !results[0].isTensor())
        throw RuntimeError(std::string(opName) + " gave no tensor");
    return results[0].tensor();
}

} // namespace ps
