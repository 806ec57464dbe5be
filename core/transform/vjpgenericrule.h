#pragma once

#include "core/ir/diagnostic.h"
#include "core/transform/vjpcall.h"

#include <string_view>

namespace ps {

class GradOpBuilder;
struct OpInfo;

/// The registry-driven VJP rule used for every op whose backward is a generated `*_grad` op (see
/// VjpRules): maps the backward op's inputs, attributes and outputs onto the forward op by name.
class VjpGenericRule
{
public:
    /// Whether the YAML backward `backwardName` is an `invoke` of another op (scale_grad, ...).
    static bool isInvoke(std::string_view backwardName);
    /// Whether the generic rule can serve `forward`: its backward op is in the registry and is
    /// not an `invoke`.
    static bool applies(std::string_view forwardName);
    /// Inputs of `forward` with grad semantics (a `<name>_grad` output in its backward op).
    static std::vector<bool> gradSemantics(const OpInfo &forward, unsigned numOperands);
    static bool apply(
        GradOpBuilder &builder, const VjpCall &call, VjpResult &result, DiagnosticList &diagnostics);
};

} // namespace ps
