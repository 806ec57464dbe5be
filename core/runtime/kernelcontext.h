#pragma once

#include "core/ir/attribute.h"
#include "core/ir/datatype.h"
#include "core/ir/type.h"
#include "core/runtime/runtimevalue.h"
#include "core/runtime/tensor.h"

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Backend;
class Operation;

/// What a kernel sees of one op execution: the op (attributes, declared result types), its
/// operands' runtime values in operand order, and slots for its results in result order. A
/// kernel computes output shapes itself (IR types may hold -1 dims), allocates outputs with
/// allocate() on the backend's device and stores them with setOutput(). Kernels throw
/// RuntimeError with a message that names the problem (the interpreter adds op and value).
///
/// Inplace ops (`relu_`, `batch_norm_`, `add_`) may write into an input's storage and set that
/// tensor as the output, as Paddle does.
class KernelContext
{
public:
    /// `inputs[i]` is operand i's value (nullptr for a null operand).
    KernelContext(const Operation &op, std::vector<const RuntimeValue *> inputs, Backend &backend);

    /// Runs `op`'s kernel on `backend` alone, outside any interpreter, on `operands` (one per
    /// operand; a null RuntimeValue for an absent one): its results, or nullopt with `error` when
    /// the backend has no kernel of its own for the op or the kernel throws.
    static std::optional<std::vector<RuntimeValue>> runAlone(
        const Operation &op, const std::vector<RuntimeValue> &operands, Backend &backend, std::string &error);

    const Operation &op() const { return m_op; }
    /// "pd_op.relu".
    std::string_view opName() const;
    Backend &backend() const { return m_backend; }

    size_t numInputs() const { return m_inputs.size(); }
    /// Operand `i` exists and holds a defined tensor or a list (optional inputs may be null).
    bool hasInput(size_t i) const;
    /// Throws RuntimeError when operand `i` is absent or not a tensor. Dense row-major: a tensor
    /// in a kernel library's layout (TensorLayout) is converted here, once per context, so every
    /// kernel (and a plain kernel a oneDNN one hands a case to) reads plain values.
    const Tensor &input(size_t i) const;
    /// Operand `i` as it is, in a kernel library's layout or not: for the kernels that accept
    /// it (KernelRegistry::acceptLayout).
    const Tensor &inputKeepingLayout(size_t i) const;
    /// Throws RuntimeError when operand `i` is not a list (a `builtin.combine` result).
    const std::vector<Tensor> &inputList(size_t i) const;
    /// Dense row-major tensors, as input().
    const RuntimeValue &inputValue(size_t i) const;
    /// An integer tensor (any int dtype, any device: copied to the host) or a list of 0-d/1-element
    /// integer tensors, as a vector: `shape`, `axis`, `starts` operands made by full_int_array,
    /// combine or shape64.
    std::vector<int64_t> inputAsInts(size_t i) const;
    /// A 0-d or 1-element tensor as double (copied to the host when needed): `scale` or `min` operands.
    double inputAsScalar(size_t i) const;

    size_t numOutputs() const { return m_outputs.size(); }
    /// The IR's declared type of result `i` (dtype is reliable; dims may hold -1).
    Type outputType(size_t i) const;
    void setOutput(size_t i, Tensor t);
    void setOutputList(size_t i, std::vector<Tensor> list);
    RuntimeValue &output(size_t i) { return m_outputs[i]; }
    std::vector<RuntimeValue> takeOutputs() { return std::move(m_outputs); }

    /// Result 0 may be left in a kernel library's layout: every use of it reads that layout as
    /// it is (the interpreter says so; false outside one).
    bool mayKeepLayout() const { return m_mayKeepLayout; }
    void setMayKeepLayout(bool may) { m_mayKeepLayout = may; }
    /// input() replaces an operand in a kernel library's layout by its plain tensor where it
    /// is (the interpreter's value, which then stays plain for every later reader: one
    /// conversion per value, not one per reader), not in a copy of this context's. Set by the
    /// interpreter, whose values these are; a kernel then must not hold a reference from
    /// inputKeepingLayout(i) across input(i).
    void setConvertInPlace(bool inPlace) { m_convertInPlace = inPlace; }

    /// The kernel may write its result into operand `i`'s buffer (and hand that tensor out as
    /// the result): nothing reads the operand's value after this op and nothing else holds its
    /// storage (the interpreter says so; false outside one). What a fused convolution does with
    /// a dying residual, as Paddle's oneDNN kernel does.
    bool mayOverwriteInput(size_t i) const { return m_overwritable && m_overwritable(i); }
    void setOverwritableInputs(std::function<bool(size_t)> overwritable)
    {
        m_overwritable = std::move(overwritable);
    }

    /// A new tensor on the backend's device; contents uninitialised.
    Tensor allocate(std::vector<int64_t> shape, DataType dtype) const;

    /// nullptr when the op has no such attribute.
    const Attribute *attribute(std::string_view name) const;
    /// Typed attribute access; throw RuntimeError naming the attribute when it is absent (and
    /// no fallback is given) or of another kind. Int accepts Int32/Int64/Index; Float accepts
    /// Float/Double/Int; Ints accepts IntArray or an Array of ints; DataType accepts DataTypeAttr.
    bool boolAttr(std::string_view name, std::optional<bool> fallback = std::nullopt) const;
    int64_t intAttr(std::string_view name, std::optional<int64_t> fallback = std::nullopt) const;
    double floatAttr(std::string_view name, std::optional<double> fallback = std::nullopt) const;
    std::string stringAttr(std::string_view name, std::optional<std::string> fallback = std::nullopt) const;
    std::vector<int64_t> intsAttr(
        std::string_view name, std::optional<std::vector<int64_t>> fallback = std::nullopt) const;
    std::vector<double> floatsAttr(
        std::string_view name, std::optional<std::vector<double>> fallback = std::nullopt) const;
    DataType dtypeAttr(std::string_view name, std::optional<DataType> fallback = std::nullopt) const;

private:
    const Operation &m_op;
    std::vector<const RuntimeValue *> m_inputs;
    std::vector<RuntimeValue> m_outputs;
    Backend &m_backend;
    /// Plain copies of the operands that came in a kernel library's layout (by operand index).
    mutable std::vector<RuntimeValue> m_plainInputs;
    bool m_mayKeepLayout = false;
    bool m_convertInPlace = false;
    std::function<bool(size_t)> m_overwritable;
};

} // namespace ps
