// Interpreter: the ops it runs itself (scope access, vectors, stacks).

#include "core/dialect/ops.h"
#include "core/ir/operation.h"
#include "core/runtime/backend.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensorstack.h"

#include <array>
#include <cstring>

namespace ps {
namespace {

constexpr std::array<std::string_view, 14> kBuiltins = { ops::kData, ops::kFeed, ops::kParameter,
    ops::kShadowOutput, ops::kSetParameter, ops::kFetch, ops::kConstant, ops::kCombine, ops::kBuiltinSplit,
    ops::kBuiltinSlice, ops::kStackCreate, ops::kTuplePush, ops::kTuplePop, ops::kHasElements };

const std::shared_ptr<TensorStack> &stackOf(const RuntimeValue &v, const Operation &op)
{
    if (!v.isStack())
        throw RuntimeError(std::string(op.name()) + " operand 0 is not a stack");
    return v.stack();
}

} // namespace

bool Interpreter::isBuiltinOp(std::string_view name)
{
    if (name == "pd_op.has_elements")
        return true;
    for (std::string_view b : kBuiltins)
        if (b == name)
            return true;
    return false;
}

RuntimeValue Interpreter::fromScope(const std::string &name, std::string_view what) const
{
    const RuntimeValue *v = m_scope.find(name);
    if (!v) {
        std::string message = std::string(what) + " '" + name + "' is not in the scope";
        if (const FreedVariable *f = m_scope.freedInfo(name))
            message += " (freed: " + std::string(freeReasonText(f->reason)) + ")";
        throw RuntimeError(message);
    }
    if (v->isTensor() && v->tensor().defined() && v->tensor().device() != m_backend.device())
        return RuntimeValue(m_backend.toDevice(v->tensor()));
    return *v;
}

void Interpreter::runBuiltin(const Operation &op, std::vector<RuntimeValue> &results)
{
    const std::string_view name = op.name();
    auto requireAttribute = [&op](std::string_view attribute) {
        const std::string value = op.stringAttribute(attribute);
        if (value.empty())
            throw RuntimeError("missing attribute '" + std::string(attribute) + "'");
        return value;
    };
    if (name == ops::kData || name == ops::kFeed) {
        results.at(0) = fromScope(requireAttribute("name"), "input");
    } else if (name == ops::kParameter) {
        results.at(0) = fromScope(requireAttribute("parameter_name"), "parameter");
    } else if (name == ops::kConstant) {
        const Attribute *value = op.attribute("value");
        if (!value || value->kind() != Attribute::Kind::TensorName)
            throw RuntimeError("only tensor-name constants are supported");
        results.at(0) = fromScope(value->asString(), "constant tensor");
    } else if (name == ops::kShadowOutput || name == ops::kSetParameter) {
        if (op.numOperands() == 1 && !op.operand(0).isNull())
            m_scope.set(requireAttribute(name == ops::kShadowOutput ? "output_name" : "parameter_name"),
                operandValue(op, 0));
    } else if (name == ops::kFetch) {
        const RuntimeValue &v = operandValue(op, 0);
        m_scope.set(requireAttribute("name"), v);
        if (op.numResults() > 0)
            results[0] = v;
    } else if (name == ops::kCombine) {
        std::vector<Tensor> list;
        for (unsigned i = 0; i < op.numOperands(); ++i) {
            const RuntimeValue &v = operandValue(op, i);
            if (!v.isNull() && !v.isTensor())
                throw RuntimeError("operand " + std::to_string(i) + " is not a tensor");
            list.push_back(v.isTensor() ? v.tensor() : Tensor());
        }
        results.at(0) = RuntimeValue(std::move(list));
    } else if (name == ops::kBuiltinSplit) {
        const RuntimeValue &v = operandValue(op, 0);
        if (!v.isList() || v.list().size() != op.numResults())
            throw RuntimeError(
                "builtin.split needs a list of " + std::to_string(op.numResults()) + " tensors");
        for (unsigned i = 0; i < op.numResults(); ++i)
            results[i] = RuntimeValue(v.list()[i]);
    } else if (name == ops::kBuiltinSlice) {
        const RuntimeValue &v = operandValue(op, 0);
        const Attribute *index = op.attribute("index");
        if (!index || !index->isInteger())
            throw RuntimeError("missing attribute 'index'");
        if (!v.isList() || index->asInt() < 0 || size_t(index->asInt()) >= v.list().size())
            throw RuntimeError("builtin.slice index " + std::to_string(index->asInt()) + " is out of range");
        results.at(0) = RuntimeValue(v.list()[size_t(index->asInt())]);
    } else if (name == ops::kStackCreate) {
        auto stack = std::make_shared<TensorStack>();
        for (RuntimeValue &r : results)
            r = RuntimeValue(stack);
    } else if (name == ops::kTuplePush) {
        const auto &stack = stackOf(operandValue(op, 0), op);
        std::vector<Tensor> tuple;
        for (unsigned i = 1; i < op.numOperands(); ++i) {
            const RuntimeValue &v = operandValue(op, i);
            tuple.push_back(v.isTensor() ? v.tensor() : Tensor());
        }
        stack->push(std::move(tuple));
    } else if (name == ops::kTuplePop) {
        const auto &stack = stackOf(operandValue(op, 0), op);
        std::vector<Tensor> tuple = stack->pop();
        if (tuple.size() != op.numResults())
            throw RuntimeError("popped a tuple of " + std::to_string(tuple.size()) + " tensors for "
                + std::to_string(op.numResults()) + " results");
        for (size_t i = 0; i < tuple.size(); ++i)
            results[i] = RuntimeValue(std::move(tuple[i]));
    } else if (name == ops::kHasElements || name == "pd_op.has_elements") {
        const auto &stack = stackOf(operandValue(op, 0), op);
        std::vector<int64_t> shape { 1 };
        const Type type = op.numResults() ? op.result(0).type() : Type();
        if (type && type.kind() == Type::Kind::DenseTensor && numElementsOf(type.dims()) == 1)
            shape = type.dims();
        Tensor flag = Tensor::empty(shape, DataType::Bool);
        *flag.data<bool>() = !stack->empty();
        results.at(0) = RuntimeValue(m_backend.toDevice(flag));
    } else {
        throw RuntimeError("not a builtin op");
    }
}

} // namespace ps
