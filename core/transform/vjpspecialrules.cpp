#include "core/transform/vjpspecialrules.h"

#include "core/dialect/ops.h"
#include "core/ir/operation.h"
#include "core/transform/gradopbuilder.h"

namespace ps {

namespace {

Value input(const VjpCall &call, size_t i)
{
    return i < call.inputs.size() && !call.inputs[i].empty() ? call.inputs[i].front() : Value();
}

Value outGrad(const VjpCall &call)
{
    return !call.outGrads.empty() && !call.outGrads.front().empty() ? call.outGrads.front().front() : Value();
}

bool xStopped(const VjpCall &call)
{
    return call.stopGradients.empty() || call.stopGradients.front().empty()
        || call.stopGradients.front().front();
}

/// One gradient for the single differentiable input `x`.
bool single(VjpResult &result, const VjpCall &call, Value grad)
{
    result.assign(1, { xStopped(call) ? Value() : grad });
    return true;
}

bool scaleRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    const Value operands[] = { outGrad(call), input(call, 1) };
    const Type type = operands[0].type();
    Operation *op = b.create(ops::kScale, operands, std::span<const Type>(&type, 1),
        { { "bias", Attribute::f32(0.0f) }, { "bias_after_scale", Attribute::boolean(true) } });
    return single(result, call, op->result(0));
}

bool castRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    const Value grad = outGrad(call);
    const Type x = input(call, 0).type();
    const Type g = grad.type();
    const Type type = g.kind() == Type::Kind::DenseTensor
        ? Type::denseTensor(x.dtype(), g.dims(), g.layout(), g.lod(), g.offset())
        : x;
    Operation *op = b.create(ops::kCast, std::span<const Value>(&grad, 1), std::span<const Type>(&type, 1),
        { { "dtype", Attribute::dataType(x.dtype()) } });
    return single(result, call, op->result(0));
}

bool assignRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    const Value grad = outGrad(call);
    const Type type = grad.type();
    Operation *op = b.create(ops::kAssign, std::span<const Value>(&grad, 1), std::span<const Type>(&type, 1));
    return single(result, call, op->result(0));
}

/// split and split_with_num: the axis is their last operand.
bool splitRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &diagnostics)
{
    if (call.outGrads.empty() || call.inputs.size() < 2) {
        diagnostics.error({}, "VJP of '" + std::string(call.op->name()) + "': unexpected operands");
        return false;
    }
    const Value operands[] = { b.combine(call.outGrads.front()), input(call, call.inputs.size() - 1) };
    const Type type = input(call, 0).type();
    Operation *op = b.create(ops::kConcat, operands, std::span<const Type>(&type, 1));
    return single(result, call, op->result(0));
}

/// An op of `name` on the output gradient only, typed `type`, with `attributes` copied by name
/// from the forward op.
bool unaryRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, std::string_view name, Type type,
    std::initializer_list<const char *> attributes)
{
    const Value grad = outGrad(call);
    std::vector<NamedAttribute> attrs;
    for (const char *attr : attributes) {
        if (const Attribute *a = call.op->attribute(attr))
            attrs.push_back({ attr, *a });
    }
    Operation *op
        = b.create(name, std::span<const Value>(&grad, 1), std::span<const Type>(&type, 1), std::move(attrs));
    return single(result, call, op->result(0));
}

bool flipRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    return unaryRule(b, call, result, "pd_op.flip", outGrad(call).type(), { "axis" });
}

bool conjRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    return unaryRule(b, call, result, "pd_op.conj", outGrad(call).type(), {});
}

bool asComplexRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    return unaryRule(b, call, result, "pd_op.as_real", input(call, 0).type(), {});
}

bool asRealRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    return unaryRule(b, call, result, "pd_op.as_complex", input(call, 0).type(), {});
}

/// sign: `scale(out_grad, 0.0, 0.0, true)`; the scale operand is a new `pd_op.full`.
bool signRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    const Value operands[] = { outGrad(call), b.full(0.0)->result(0) };
    const Type type = operands[0].type();
    Operation *op = b.create(ops::kScale, operands, std::span<const Type>(&type, 1),
        { { "bias", Attribute::f32(0.0f) }, { "bias_after_scale", Attribute::boolean(true) } });
    return single(result, call, op->result(0));
}

/// unbind: `stack(combine(out_grads), axis)`.
bool unbindRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    const Value stacked = b.combine(call.outGrads.front());
    const Type type = input(call, 0).type();
    std::vector<NamedAttribute> attrs;
    if (const Attribute *a = call.op->attribute("axis"))
        attrs.push_back({ "axis", *a });
    Operation *op = b.create(
        ops::kStack, std::span<const Value>(&stacked, 1), std::span<const Type>(&type, 1), std::move(attrs));
    return single(result, call, op->result(0));
}

} // namespace

void addInvokeVjpRules(std::unordered_map<std::string_view, VjpRule> &rules)
{
    rules.emplace(ops::kScale, scaleRule);
    rules.emplace("pd_op.scale_", scaleRule);
    rules.emplace(ops::kCast, castRule);
    rules.emplace("pd_op.cast_", castRule);
    rules.emplace(ops::kAssign, assignRule);
    rules.emplace("pd_op.assign_", assignRule);
    rules.emplace("pd_op.split", splitRule);
    rules.emplace("pd_op.split_with_num", splitRule);
    rules.emplace("pd_op.flip", flipRule);
    rules.emplace("pd_op.conj", conjRule);
    rules.emplace("pd_op.as_complex", asComplexRule);
    rules.emplace("pd_op.as_real", asRealRule);
    rules.emplace(ops::kSign, signRule);
    rules.emplace(ops::kUnbind, unbindRule);
}

} // namespace ps
