#pragma once

#include "core/transform/pass.h"

#include <utility>
#include <vector>

namespace ps {

class Operation;

/// Common-subexpression elimination as Paddle 3.3.1's `common_subexpression_elimination_pass`
/// (the one dy2static runs on the split forward and backward programs):
///
/// * Ops are visited in program order, nested blocks first (a nested block sees the expressions
///   of its enclosing blocks, not the other way round). `pd_op.data`, `builtin.parameter` and
///   tensor-name `builtin.constant` ops are leaves, compared by identity.
/// * Two ops are equal when they have the same name, no regions, equal values for the op's
///   declared attributes (the registry's YAML attributes: `stop_gradient`, `struct_name` and
///   other extras are ignored), equal operands (the same leaf, or recursively equal defining ops
///   and result index; `pd_op.add`, `multiply`, `maximum`, `minimum`, `logical_*`, `equal`,
///   `not_equal`, `bitwise_*` are commutative) and equal result types.
/// * An op may be replaced only when it has no side effect, all its results are dense tensors
///   (or vectors of them), none is used by `cf.yield`, `pd_op.while` or as the inplace input of
///   an inplace op, and the defining ops of its operands may be replaced too.
/// * A replaced op's uses move to the first equal op; shadow-output uses move to a new
///   `pd_op.assign` of it inserted right after it (a value may not have two shadow outputs).
///
/// O(ops) hash lookups; equality checks recurse through operand chains.
class CommonSubexpressionElimination : public Pass
{
public:
    std::string_view name() const override { return "common_subexpression_elimination_pass"; }
    std::string_view alias() const override { return "cse"; }
    std::string_view description() const override { return "merge ops that compute the same value"; }
    size_t run(Program &program) override;

    /// The (replaced op, kept op) pairs of the last run, in the order they were applied. The
    /// replaced ops are destroyed; only their addresses remain.
    const std::vector<std::pair<const Operation *, const Operation *>> &replacements() const
    {
        return m_replacements;
    }

private:
    std::vector<std::pair<const Operation *, const Operation *>> m_replacements;
};

} // namespace ps
