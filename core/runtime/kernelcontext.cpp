#include "core/runtime/kernelcontext.h"

#include "core/ir/operation.h"
#include "core/runtime/backend.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

namespace ps {
namespace {

std::string quoted(std::string_view name)
{
    return "attribute '" + std::string(name) + "'";
}

} // namespace

std::optional<std::vector<RuntimeValue>> KernelContext::runAlone(
    const Operation &op, const std::vector<RuntimeValue> &operands, Backend &backend, std::string &error)
{
    const KernelFn kernel = backend.kernels().find(op.name());
    if (!kernel) {
        error = "no " + backend.name() + " kernel of its own for " + std::string(op.name());
        return std::nullopt;
    }
    std::vector<const RuntimeValue *> pointers;
    for (const RuntimeValue &v : operands)
        pointers.push_back(v.isNull() ? nullptr : &v);
    KernelContext context(op, std::move(pointers), backend);
    try {
        kernel(context);
    } catch (const std::exception &e) {
        error = std::string(op.name()) + ": " + e.what();
        return std::nullopt;
    }
    return context.takeOutputs();
}

KernelContext::KernelContext(const Operation &op, std::vector<const RuntimeValue *> inputs, Backend &backend)
    : m_op(op)
    , m_inputs(std::move(inputs))
    , m_outputs(op.numResults())
    , m_backend(backend)
{
}

std::string_view KernelContext::opName() const
{
    return m_op.name();
}

bool KernelContext::hasInput(size_t i) const
{
    if (i >= m_inputs.size() || !m_inputs[i] || m_inputs[i]->isNull())
        return false;
    return !m_inputs[i]->isTensor() || m_inputs[i]->tensor().defined();
}

const RuntimeValue &KernelContext::inputValue(size_t i) const
{
    static const RuntimeValue kNull;
    if (i >= m_inputs.size() || !m_inputs[i])
        return kNull;
    const RuntimeValue &v = *m_inputs[i];
    if (!v.isTensor() || !v.tensor().hasLayout())
        return v;
    if (m_convertInPlace) {
        const_cast<RuntimeValue &>(v) = RuntimeValue(v.tensor().plain());
        return v;
    }
    if (m_plainInputs.size() < m_inputs.size())
        m_plainInputs.resize(m_inputs.size());
    if (m_plainInputs[i].isNull())
        m_plainInputs[i] = RuntimeValue(v.tensor().plain());
    return m_plainInputs[i];
}

namespace {

const Tensor &tensorOf(const RuntimeValue &v, size_t i)
{
    if (!v.isTensor() || !v.tensor().defined())
        throw RuntimeError("operand " + std::to_string(i)
            + (v.isList() ? " is a tensor list, expected a tensor" : " has no value"));
    return v.tensor();
}

} // namespace

const Tensor &KernelContext::input(size_t i) const
{
    return tensorOf(inputValue(i), i);
}

const Tensor &KernelContext::inputKeepingLayout(size_t i) const
{
    static const RuntimeValue kNull;
    return tensorOf(i < m_inputs.size() && m_inputs[i] ? *m_inputs[i] : kNull, i);
}

const std::vector<Tensor> &KernelContext::inputList(size_t i) const
{
    const RuntimeValue &v = inputValue(i);
    if (!v.isList())
        throw RuntimeError("operand " + std::to_string(i) + " is not a tensor list");
    return v.list();
}

std::vector<int64_t> KernelContext::inputAsInts(size_t i) const
{
    auto append = [this, i](const Tensor &t, std::vector<int64_t> &out) {
        const Tensor host = m_backend.toHost(t);
        if (host.dtype() != DataType::Int64 && host.dtype() != DataType::Int32
            && host.dtype() != DataType::Int16 && host.dtype() != DataType::Int8
            && host.dtype() != DataType::UInt8)
            throw RuntimeError(
                "operand " + std::to_string(i) + " must be an integer tensor, got " + host.describe());
        // Exact: an int64 such as INT64_MAX (Python's "to the end") does not survive a double.
        const int64_t n = host.numElements();
        switch (host.dtype()) {
        case DataType::Int64:
            out.insert(out.end(), host.data<int64_t>(), host.data<int64_t>() + n);
            break;
        case DataType::Int32:
            out.insert(out.end(), host.data<int32_t>(), host.data<int32_t>() + n);
            break;
        case DataType::Int16:
            out.insert(out.end(), host.data<int16_t>(), host.data<int16_t>() + n);
            break;
        case DataType::Int8:
            out.insert(out.end(), host.data<int8_t>(), host.data<int8_t>() + n);
            break;
        default:
            out.insert(out.end(), host.data<uint8_t>(), host.data<uint8_t>() + n);
            break;
        }
    };
    std::vector<int64_t> out;
    const RuntimeValue &v = inputValue(i);
    if (v.isList()) {
        for (const Tensor &t : v.list())
            append(t, out);
    } else {
        append(input(i), out);
    }
    return out;
}

double KernelContext::inputAsScalar(size_t i) const
{
    const Tensor host = m_backend.toHost(input(i));
    if (host.numElements() != 1)
        throw RuntimeError("operand " + std::to_string(i) + " must hold one element, got " + host.describe());
    return host.valueAsDouble(0);
}

Type KernelContext::outputType(size_t i) const
{
    return m_op.result(unsigned(i)).type();
}

void KernelContext::setOutput(size_t i, Tensor t)
{
    if (i >= m_outputs.size())
        throw RuntimeError("kernel wrote result " + std::to_string(i) + " of an op with "
            + std::to_string(m_outputs.size()) + " results");
    m_outputs[i] = RuntimeValue(std::move(t));
}

void KernelContext::setOutputList(size_t i, std::vector<Tensor> list)
{
    if (i >= m_outputs.size())
        throw RuntimeError("kernel wrote result " + std::to_string(i) + " of an op with "
            + std::to_string(m_outputs.size()) + " results");
    m_outputs[i] = RuntimeValue(std::move(list));
}

Tensor KernelContext::allocate(std::vector<int64_t> shape, DataType dtype) const
{
    return Tensor(std::move(shape), dtype, m_backend.allocator());
}

const Attribute *KernelContext::attribute(std::string_view name) const
{
    return m_op.attribute(name);
}

bool KernelContext::boolAttr(std::string_view name, std::optional<bool> fallback) const
{
    const Attribute *a = attribute(name);
    if (!a)
        return fallback ? *fallback : throw RuntimeError("missing " + quoted(name));
    if (a->kind() != Attribute::Kind::Bool)
        throw RuntimeError(quoted(name) + " is not a bool");
    return a->asBool();
}

int64_t KernelContext::intAttr(std::string_view name, std::optional<int64_t> fallback) const
{
    const Attribute *a = attribute(name);
    if (!a)
        return fallback ? *fallback : throw RuntimeError("missing " + quoted(name));
    if (a->isInteger() || a->kind() == Attribute::Kind::Bool)
        return a->asInt();
    if (a->kind() == Attribute::Kind::Scalar)
        return int64_t(a->asDouble());
    throw RuntimeError(quoted(name) + " is not an integer");
}

double KernelContext::floatAttr(std::string_view name, std::optional<double> fallback) const
{
    const Attribute *a = attribute(name);
    if (!a)
        return fallback ? *fallback : throw RuntimeError("missing " + quoted(name));
    if (a->isFloating() || a->isInteger() || a->kind() == Attribute::Kind::Scalar)
        return a->asDouble();
    throw RuntimeError(quoted(name) + " is not a number");
}

std::string KernelContext::stringAttr(std::string_view name, std::optional<std::string> fallback) const
{
    const Attribute *a = attribute(name);
    if (!a)
        return fallback ? *fallback : throw RuntimeError("missing " + quoted(name));
    if (a->kind() != Attribute::Kind::String && a->kind() != Attribute::Kind::DataLayout
        && a->kind() != Attribute::Kind::TensorName)
        throw RuntimeError(quoted(name) + " is not a string");
    return a->asString();
}

std::vector<int64_t> KernelContext::intsAttr(
    std::string_view name, std::optional<std::vector<int64_t>> fallback) const
{
    const Attribute *a = attribute(name);
    if (!a)
        return fallback ? *fallback : throw RuntimeError("missing " + quoted(name));
    if (a->kind() == Attribute::Kind::IntArray)
        return a->asIntArray();
    if (a->kind() != Attribute::Kind::Array)
        throw RuntimeError(quoted(name) + " is not an integer array");
    std::vector<int64_t> out;
    for (const Attribute &e : a->asArray()) {
        if (!e.isInteger())
            throw RuntimeError(quoted(name) + " holds a non-integer element");
        out.push_back(e.asInt());
    }
    return out;
}

std::vector<double> KernelContext::floatsAttr(
    std::string_view name, std::optional<std::vector<double>> fallback) const
{
    const Attribute *a = attribute(name);
    if (!a)
        return fallback ? *fallback : throw RuntimeError("missing " + quoted(name));
    if (a->kind() == Attribute::Kind::IntArray)
        return std::vector<double>(a->asIntArray().begin(), a->asIntArray().end());
    if (a->kind() != Attribute::Kind::Array)
        throw RuntimeError(quoted(name) + " is not an array");
    std::vector<double> out;
    for (const Attribute &e : a->asArray()) {
        if (!e.isInteger() && !e.isFloating())
            throw RuntimeError(quoted(name) + " holds a non-numeric element");
        out.push_back(e.asDouble());
    }
    return out;
}

DataType KernelContext::dtypeAttr(std::string_view name, std::optional<DataType> fallback) const
{
    const Attribute *a = attribute(name);
    if (!a)
        return fallback ? *fallback : throw RuntimeError("missing " + quoted(name));
    if (a->kind() != Attribute::Kind::DataTypeAttr)
        throw RuntimeError(quoted(name) + " is not a data type");
    return a->asDataType();
}

} // namespace ps
