#pragma once

#include "core/analysis/opdiff.h"

#include <vector>

namespace ps {

class Operation;

/// Pairs the ops of a program before a transformation with those after it, for OpDiff.
///
/// In order of trust: equal non-zero keys (OpKeys: a PassManager's identities or Paddle's
/// `[id:N]`); an `origin_id` attribute naming a key of the program before (Paddle's
/// pd_op_to_kernel_pass writes one); then, walking the ops after in order (producers first),
/// an op with the same name, attributes, result types and corresponding operands; the same
/// operands and the same kind of op under another name or with other attributes (`relu` →
/// `relu_`, `pd_op.matmul` → `onednn_op.matmul`, `pd_op.conv2d` → `conv2d(phi_kernel)`);
/// finally an op with the same name and attributes whose operands changed (the user of a fused
/// op), preferring the candidate whose operands and position agree most. O(ops + operands)
/// with hash maps; the last step looks at a bounded number of candidates per op.
class OpMatcher
{
public:
    /// `before`/`after` are the ops in pre-order walk order; `keysBefore`/`keysAfter` are
    /// optional (null, or one key per op). Fills `afterOf` and `beforeOf` (-1 = no counterpart)
    /// and returns how many pairs came from keys.
    static size_t match(const std::vector<const Operation *> &before,
        const std::vector<const Operation *> &after, const OpKeys *keysBefore, const OpKeys *keysAfter,
        std::vector<int32_t> &afterOf, std::vector<int32_t> &beforeOf);

    /// The op's kind ignoring dialect, kernel lowering and the inplace suffix: "relu" for
    /// `pd_op.relu`, `pd_op.relu_`, `onednn_op.relu` and `relu(phi_kernel)` (whose `op_name`
    /// attribute is `pd_op.relu`).
    static std::string canonicalName(const Operation &op);
    /// The same attributes, in any order, `origin_id` aside (a lowered op's link to its origin).
    static bool sameAttributes(const Operation &x, const Operation &y);
    /// The same name, result types and attributes (sameAttributes): what a kept op keeps.
    static bool sameContent(const Operation &x, const Operation &y);
};

} // namespace ps
