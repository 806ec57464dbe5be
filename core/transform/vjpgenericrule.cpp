#include "core/transform/vjpgenericrule.h"

#include "core/dialect/opregistry.h"
#include "core/ir/operation.h"
#include "core/transform/gradattributes.h"
#include "core/transform/gradopbuilder.h"

#include <string>
#include <unordered_set>

namespace ps {

namespace {

constexpr std::string_view kGradSuffix = "_grad";

int indexOfInput(const OpInfo &info, std::string_view name)
{
    for (int i = 0; i < info.numInputs; ++i) {
        if (info.inputs[i].name == name)
            return i;
    }
    return -1;
}

int indexOfOutput(const OpInfo &info, std::string_view name)
{
    for (int i = 0; i < info.numOutputs; ++i) {
        if (info.outputs[i].name == name)
            return i;
    }
    return -1;
}

std::string_view gradStem(std::string_view name)
{
    return name.ends_with(kGradSuffix) ? name.substr(0, name.size() - kGradSuffix.size())
                                       : std::string_view();
}

Value first(const std::vector<std::vector<Value>> &lists, int index)
{
    if (index < 0 || size_t(index) >= lists.size() || lists[size_t(index)].empty())
        return {};
    return lists[size_t(index)].front();
}

struct Context
{
    const VjpCall &call;
    const OpInfo &forward;
    const OpInfo &backward;
    GradOpBuilder &builder;
    DiagnosticList &diagnostics;

    bool fail(const std::string &what) const
    {
        diagnostics.error({}, "VJP of '" + std::string(forward.name) + "': " + what);
        return false;
    }
};

/// Backward ops whose inputs in Paddle 3.3.1 differ from the op YAML the registry was generated
/// from (develop, 2025-02): the 3.3.1 operand names, in order.
const std::vector<std::string_view> *paddle331Inputs(std::string_view backward)
{
    static const std::vector<std::string_view> instanceNorm { "x", "scale", "bias", "saved_mean",
        "saved_variance", "y_grad" };
    return backward == "pd_op.instance_norm_grad" ? &instanceNorm : nullptr;
}

/// The operand the backward op gets for its input `in`, or false when it cannot be mapped.
bool mapOperand(const Context &c, const OpInputInfo &in, Value &out)
{
    if (const std::string_view stem = gradStem(in.name); !stem.empty()) {
        if (const int o = indexOfOutput(c.forward, stem); o >= 0) {
            if (c.forward.outputs[o].type == "Tensor[]") {
                out = c.builder.combine(c.call.outGrads[size_t(o)]);
                return true;
            }
            out = first(c.call.outGrads, o);
            return true;
        }
    }
    if (const int i = indexOfInput(c.forward, in.name); i >= 0) {
        const bool absent = unsigned(i) < c.call.op->numOperands() && !c.call.op->operand(unsigned(i));
        if (c.forward.inputs[i].type == "Tensor[]" && size_t(i) < c.call.inputs.size() && !absent) {
            out = c.builder.combine(c.call.inputs[size_t(i)]);
            return true;
        }
        out = first(c.call.inputs, i);
        return true;
    }
    if (const int o = indexOfOutput(c.forward, in.name); o >= 0) {
        out = first(c.call.outputs, o);
        return true;
    }
    if (in.optional) {
        out = Value();
        return true;
    }
    return c.fail(
        "no forward value for input '" + std::string(in.name) + "' of " + std::string(c.backward.name));
}

bool mapAttribute(const Context &c, const OpAttributeInfo &info, std::vector<NamedAttribute> &out)
{
    if (const Attribute *a = c.call.op->attribute(info.name)) {
        out.push_back({ std::string(info.name), GradAttributes::coerce(*a, info.type) });
        return true;
    }
    for (int i = 0; i < c.forward.numAttributes; ++i) {
        if (c.forward.attributes[i].name == info.name && !c.forward.attributes[i].defaultValue.empty()) {
            if (auto a = GradAttributes::fromYamlDefault(c.forward.attributes[i].defaultValue, info.type)) {
                out.push_back({ std::string(info.name), std::move(*a) });
                return true;
            }
        }
    }
    if (auto a = GradAttributes::fromYamlDefault(info.defaultValue, info.type)) {
        out.push_back({ std::string(info.name), std::move(*a) });
        return true;
    }
    return c.fail(
        "no value for attribute '" + std::string(info.name) + "' of " + std::string(c.backward.name));
}

/// Position of input `i` among the inputs with grad semantics, or -1.
int semanticPosition(const std::vector<bool> &semantics, int i)
{
    int position = 0;
    for (int k = 0; k < i; ++k)
        position += semantics[size_t(k)] ? 1 : 0;
    return semantics[size_t(i)] ? position : -1;
}

bool stopped(const VjpCall &call, int position, size_t element)
{
    if (position < 0 || size_t(position) >= call.stopGradients.size())
        return true;
    const auto &flags = call.stopGradients[size_t(position)];
    return element >= flags.size() || flags[element];
}

} // namespace

bool VjpGenericRule::isInvoke(std::string_view backwardName)
{
    // First-order backwards whose YAML entry is an `invoke` of another op: Paddle's VJP emits that
    // op, never the `*_grad` op the registry lists.
    static const std::unordered_set<std::string_view> invoke {
        "pd_op.as_complex_grad",
        "pd_op.as_real_grad",
        "pd_op.c_concat_grad",
        "pd_op.cast_grad",
        "pd_op.conj_grad",
        "pd_op.flip_grad",
        "pd_op.global_gather_grad",
        "pd_op.global_scatter_grad",
        "pd_op.mp_allreduce_sum_grad",
        "pd_op.reverse_grad",
        "pd_op.scale_grad",
        "pd_op.sign_grad",
        "pd_op.split_grad",
        "pd_op.split_with_num_grad",
        "pd_op.unbind_grad",
        "pd_op.assign_grad",
        "pd_op.exponential__grad",
        "pd_op.print_grad",
    };
    return invoke.count(backwardName) != 0;
}

bool VjpGenericRule::applies(std::string_view forwardName)
{
    const OpInfo *forward = OpRegistry::instance().lookup(forwardName);
    return forward && !forward->backward.empty() && !isInvoke(forward->backward)
        && OpRegistry::instance().lookup(forward->backward);
}

std::vector<bool> VjpGenericRule::gradSemantics(const OpInfo &forward, unsigned numOperands)
{
    std::vector<bool> semantics(numOperands, false);
    const OpInfo *backward
        = forward.backward.empty() ? nullptr : OpRegistry::instance().lookup(forward.backward);
    if (!backward)
        return semantics;
    for (int i = 0; i < forward.numInputs && unsigned(i) < numOperands; ++i) {
        if (forward.inputs[i].mutableAttribute)
            continue;
        const std::string gradName = std::string(forward.inputs[i].name) + std::string(kGradSuffix);
        semantics[size_t(i)] = indexOfOutput(*backward, gradName) >= 0;
    }
    return semantics;
}

bool VjpGenericRule::apply(
    GradOpBuilder &builder, const VjpCall &call, VjpResult &result, DiagnosticList &diagnostics)
{
    const OpInfo *forward = OpRegistry::instance().lookup(call.op->name());
    const OpInfo *backward = forward ? OpRegistry::instance().lookup(forward->backward) : nullptr;
    if (!backward) {
        diagnostics.error({}, "op '" + std::string(call.op->name()) + "' has no VJP rule in PIRScope");
        return false;
    }
    const Context c { call, *forward, *backward, builder, diagnostics };
    const std::vector<bool> semantics = gradSemantics(*forward, call.op->numOperands());

    std::vector<OpInputInfo> inputs(backward->inputs, backward->inputs + backward->numInputs);
    if (const auto *names = paddle331Inputs(backward->name)) {
        inputs.clear();
        for (std::string_view name : *names)
            inputs.push_back(OpInputInfo { name, "Tensor", true, false, false, {}, {} });
    }
    std::vector<Value> operands(inputs.size());
    for (size_t k = 0; k < inputs.size(); ++k) {
        if (!mapOperand(c, inputs[k], operands[k]))
            return false;
    }
    std::vector<NamedAttribute> attributes;
    for (int k = 0; k < backward->numAttributes; ++k) {
        if (!mapAttribute(c, backward->attributes[k], attributes))
            return false;
    }

    // Result types: those of the forward inputs; null where the input stops gradient.
    std::vector<Type> types;
    std::vector<int> forwardInput(size_t(backward->numOutputs), -1);
    for (int k = 0; k < backward->numOutputs; ++k) {
        const int i = indexOfInput(*forward, gradStem(backward->outputs[k].name));
        if (i < 0 || size_t(i) >= call.inputs.size())
            return c.fail(
                "backward output '" + std::string(backward->outputs[k].name) + "' has no forward input");
        forwardInput[size_t(k)] = i;
        const auto &values = call.inputs[size_t(i)];
        if (forward->inputs[i].type == "Tensor[]") {
            std::vector<Type> elements;
            for (Value v : values)
                elements.push_back(v.type());
            types.push_back(Type::vector(std::move(elements)));
        } else {
            const bool stop = stopped(call, semanticPosition(semantics, i), 0);
            types.push_back(stop || values.empty() || !values.front() ? Type::null() : values.front().type());
        }
    }
    Operation *grad = builder.create(backward->name, operands, types, std::move(attributes));

    result.assign(call.stopGradients.size(), {});
    for (int k = 0; k < backward->numOutputs; ++k) {
        const int i = forwardInput[size_t(k)];
        const int position = semanticPosition(semantics, i);
        if (position < 0 || size_t(position) >= result.size())
            continue;
        auto &slot = result[size_t(position)];
        if (forward->inputs[i].type != "Tensor[]") {
            slot.push_back(stopped(call, position, 0) ? Value() : grad->result(unsigned(k)));
            continue;
        }
        Operation *split = builder.split(grad->result(unsigned(k)));
        for (unsigned e = 0; e < split->numResults(); ++e) {
            if (stopped(call, position, e)) {
                split->result(e).setType(Type::null());
                slot.push_back(Value());
            } else {
                slot.push_back(split->result(e));
            }
        }
    }
    return true;
}

} // namespace ps
