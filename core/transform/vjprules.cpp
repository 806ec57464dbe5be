#include "core/transform/vjprules.h"

#include "core/dialect/opregistry.h"
#include "core/ir/operation.h"
#include "core/transform/vjpcontrolflow.h"
#include "core/transform/vjpgenericrule.h"
#include "core/transform/vjpspecialrules.h"

#include <string>

namespace ps {

VjpRules::VjpRules()
{
    addInvokeVjpRules(m_rules);
    addControlFlowVjpRules(m_rules);
}

const VjpRules &VjpRules::instance()
{
    static const VjpRules rules;
    return rules;
}

bool VjpRules::hasVjp(const Operation &op) const
{
    if (m_rules.count(op.name()))
        return true;
    const OpInfo *info = OpRegistry::instance().lookup(op.name());
    return info && !info->backward.empty();
}

std::vector<bool> VjpRules::gradSemantics(const Operation &op) const
{
    const OpInfo *info = OpRegistry::instance().lookup(op.name());
    if (!info)
        return std::vector<bool>(op.numOperands(), false);
    if (VjpGenericRule::applies(op.name()))
        return VjpGenericRule::gradSemantics(*info, op.numOperands());
    // A backward that is an `invoke` of another op: every tensor input is differentiable.
    std::vector<bool> semantics(op.numOperands(), false);
    if (info->backward.empty())
        return semantics;
    for (int i = 0; i < info->numInputs && unsigned(i) < op.numOperands(); ++i)
        semantics[size_t(i)] = !info->inputs[i].mutableAttribute;
    return semantics;
}

bool VjpRules::apply(
    GradOpBuilder &builder, const VjpCall &call, VjpResult &result, DiagnosticList &diagnostics) const
{
    if (auto it = m_rules.find(call.op->name()); it != m_rules.end())
        return it->second(builder, call, result, diagnostics);
    if (VjpGenericRule::applies(call.op->name()))
        return VjpGenericRule::apply(builder, call, result, diagnostics);
    diagnostics.error({}, "op '" + std::string(call.op->name()) + "' has no VJP rule in PIRScope");
    return false;
}

} // namespace ps
