#pragma once

#include "core/ir/diagnostic.h"
#include "core/transform/vjpcall.h"

#include <functional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class GradOpBuilder;
class Operation;

/// A VJP rule: appends the grad ops of `call.op` at the builder's insertion point and fills
/// `result` (one entry per input with grad semantics). Returns false with an error diagnostic
/// when it cannot.
using VjpRule = std::function<bool(GradOpBuilder &, const VjpCall &, VjpResult &, DiagnosticList &)>;

/// The VJP rules of PIRScope's autodiff, keyed by forward op name: Paddle's `VjpInterface`
/// implementations with prim (decomposition) off.
///
/// Most ops use one generic rule driven by the op registry, which is how Paddle's generated
/// `*_vjp` code works: the backward op named in the op YAML, its inputs taken by name from the
/// forward op (`x` → forward input, `out` → forward output, `out_grad` → gradient of `out`,
/// mutable attributes → the forward operand of the same name), its attributes copied from the
/// forward op or set to their YAML defaults, a `Tensor[]` input re-combined and its gradient
/// split, and results whose input stops gradient typed null. The YAML `invoke` backwards (scale,
/// cast, assign, split) and the control-flow ops have hand-written rules.
class VjpRules
{
public:
    static const VjpRules &instance();

    /// Paddle's `core.has_vjp(op)`: the op has a VJP (whether or not PIRScope implements it).
    bool hasVjp(const Operation &op) const;
    /// Paddle's `op.get_input_grad_semantics()` for ops other than builtin.combine and control
    /// flow: one flag per operand, true where the backward op yields `<input>_grad`.
    std::vector<bool> gradSemantics(const Operation &op) const;
    /// Runs the rule of `call.op`; an op without one gets the error
    /// "op '<name>' has no VJP rule in PIRScope".
    bool apply(
        GradOpBuilder &builder, const VjpCall &call, VjpResult &result, DiagnosticList &diagnostics) const;

private:
    VjpRules();

    std::unordered_map<std::string_view, VjpRule> m_rules;
};

} // namespace ps
