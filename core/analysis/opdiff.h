#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ps {

class Operation;

/// Stable op identities for one program: one key per op in pre-order walk order (nested ops
/// included); 0 means unknown. Two programs' ops with the same non-zero key are the same op
/// (a PassManager run gives every live op a key; Paddle's `[id:N]` is one).
using OpKeys = std::vector<uint64_t>;

/// What happened to one op between two programs.
enum class OpChange : unsigned char {
    Kept, ///< the same op, same name, attributes and result types, reading the same values
    /// The same op with another name, other attributes or other result types, or rewired: an
    /// operand now comes from another op (a fused op's users, CSE's survivor's users).
    Changed,
    Removed, ///< only in the program before
    Added, ///< only in the program after
};

/// "kept", "changed", "removed", "added".
const char *opChangeName(OpChange change);

/// The op-level difference between a program before and after a transformation: which ops
/// survive (and whether they changed), which were removed and which added, and for added ops
/// the removed ops they replace (a fusion: `pd_op.fc` from matmul + add + relu). Built by
/// ProgramDiff::ops(); indices are positions in `before` / `after`.
struct OpDiff
{
    /// Every op of each program in pre-order walk order. The pointers are into the programs that
    /// were diffed: valid while those live.
    std::vector<const Operation *> before;
    std::vector<const Operation *> after;
    /// Counterpart of each op of `before` in `after`, or -1 when removed; and back.
    std::vector<int32_t> afterOf;
    std::vector<int32_t> beforeOf;
    /// Per op of `before` (Kept, Changed or Removed) and of `after` (Kept, Changed or Added).
    std::vector<OpChange> beforeChange;
    std::vector<OpChange> afterChange;
    /// For each op of `after` (empty for most): the removed ops it was made from. An added op
    /// whose users read a removed op before was made from that op and the removed ops it was
    /// computed from (up to another such op's); the other added ops connected to it (a folded
    /// weight feeding a fused op) share its list.
    std::vector<std::vector<int32_t>> fusedFrom;
    /// The added ops that stand for a rewrite (the `pd_op.fc`, not the parameter folded into
    /// it): those made from removed ops of their own, in program order. Indices into `after`.
    std::vector<int32_t> rewrites;
    /// For each op of `before` (empty for most): the ops of `after` that now give its users
    /// what it gave them (the surviving twin after CSE, the fused op after a fusion).
    std::vector<std::vector<int32_t>> replacedBy;

    size_t kept = 0;
    size_t changed = 0;
    size_t removed = 0;
    size_t added = 0;
    /// Ops matched by their keys (OpKeys, `[id:N]`, `origin_id`), the rest by structure.
    size_t matchedByKey = 0;

    bool identical() const { return changed == 0 && removed == 0 && added == 0; }

    /// "−3 +1 ~2" (removed, added, changed; only the non-zero parts), "no change" when identical.
    std::string summary() const;
};

} // namespace ps
