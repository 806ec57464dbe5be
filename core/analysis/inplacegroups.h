#pragma once

#include "core/dialect/opinfo.h"
#include "core/ir/value.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class Operation;
class Program;

/// Result `output` of `op` shares its buffer with operand `input` (inplace or view pair).
struct InplaceEdge
{
    const Operation *op = nullptr;
    int output = 0;
    int input = 0;
};

/// One union-find set: values that share one buffer through inplace ops.
struct InplaceGroup
{
    Value root;
    /// `value2name[root]` when has_name(root): the name every shadow_output of the group is
    /// renamed to. nullopt when the root has no name-defining op.
    std::optional<std::string> rootName;
    /// Paddle name analysis first name of the root (may differ from rootName, e.g. a data op
    /// whose value is also shadow-output under another name, or a kwarg root).
    std::optional<std::string> rootFirstName;
    std::vector<Value> members; ///< program order; the root included
    std::vector<InplaceEdge> edges; ///< op order
};

/// A `reset_shadow_output_name` that deal_inplace_values performs.
struct ShadowOutputRename
{
    Value value;
    Operation *op = nullptr; ///< the builtin.shadow_output (of program 1)
    std::string from;
    std::string to;
};

/// A kwarg move in program 2 that follows a rename: uses of kwarg `from` go to kwarg `to`,
/// which is created (same type) when `created`; `from` is erased.
struct KwargMove
{
    std::string from;
    std::string to;
    bool created = false;
};

/// The 3.0-era `RunnableProgram.deal_inplace_values(program1, program2=None)`, computed
/// without mutating anything; apply() then performs it. With no program 2 this is also the
/// seed's single-program `deal_inplace_values(program)` (the seed has no kwarg step).
///
/// `has_name(v)`: v has a name-defining op among program 1's top-level ops (the first
/// set_parameter/shadow_output using v, or the parameter/data op defining v). For each
/// top-level op and each (out, in) of its inplace info: left = result(out), right =
/// operand(in); `union(right, left)` if has_name(left) else `union(left, right)`. Then, for
/// each element in insertion order whose root has a name and whose own name-defining op is a
/// shadow_output named differently from `value2name[root]`, that op is renamed, and in
/// program 2 the kwarg of the old name moves to the new one. O(ops + elements).
class InplaceGroups
{
public:
    /// Inplace pairs of an op (output index ← operand index). The default asks OpRegistry
    /// for the op's name, then for its `op_name` attribute (kernel ops).
    using InplaceInfoFn = std::function<std::vector<OpIndexPair>(const Operation *)>;

    explicit InplaceGroups(
        const Program &program1, const Program *program2 = nullptr, InplaceInfoFn inplaceInfo = {});

    static std::vector<OpIndexPair> registryInplaceInfo(const Operation *op);

    const std::vector<InplaceGroup> &groups() const { return m_groups; }
    const std::vector<ShadowOutputRename> &renames() const { return m_renames; }
    /// Kwarg moves apply() would make in program 2, simulated in rename order.
    const std::vector<KwargMove> &kwargMoves() const { return m_kwargMoves; }

    /// The group holding `value`, or nullptr.
    const InplaceGroup *groupOf(Value value) const;
    /// The seed's has_name over program 1.
    bool hasName(Value value) const { return m_nameDefiningOp.count(value) != 0; }
    /// The seed's `_get_name_defining_op`, or nullptr.
    const Operation *nameDefiningOp(Value value) const;

    /// Performs the renames (sets `output_name`) and, when a program 2 was given, the kwarg
    /// moves. `program1`/`program2` must be the programs given to the constructor (else
    /// nothing happens and false is returned). Call once; the analysis is stale afterwards.
    bool apply(Program &program1, Program *program2 = nullptr) const;

private:
    const Program *m_program1;
    const Program *m_program2;
    std::unordered_map<Value, Operation *> m_nameDefiningOp;
    std::vector<InplaceGroup> m_groups;
    std::unordered_map<Value, size_t> m_groupOf;
    std::vector<ShadowOutputRename> m_renames;
    std::vector<KwargMove> m_kwargMoves;
};

} // namespace ps
