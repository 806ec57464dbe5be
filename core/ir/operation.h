#pragma once

#include "core/ir/attribute.h"
#include "core/ir/value.h"

#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace ps {

class Arena;
class Block;
class IrMapping;
class Region;

/// One PIR operation. It owns its results (ValueImpl array), its operand slots and its
/// regions; its memory comes from the owning Program's Arena. Create with Builder or
/// Operation::create; a Block owns the ops it holds and destroys them.
class Operation
{
public:
    /// `name` is the full dialect name ("pd_op.matmul"); it is interned process-wide.
    static Operation *create(Arena &arena, std::string_view name, std::span<const Value> operands,
        std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes = {},
        unsigned numRegions = 0);
    /// As above, moving the attributes out of `attributesToMove` (a reader's reused buffer).
    static Operation *create(Arena &arena, std::string_view name, std::span<const Value> operands,
        std::span<const Type> resultTypes, std::span<NamedAttribute> attributesToMove, unsigned numRegions);
    /// Runs the destructor (unlinks operands, destroys regions); the arena keeps the memory.
    /// The op must already be out of its block.
    void destroy();

    std::string_view name() const { return m_name; }
    /// "pd_op" of "pd_op.matmul"; empty when the name has no dot.
    std::string_view dialect() const;
    /// "matmul" of "pd_op.matmul".
    std::string_view shortName() const;

    unsigned numOperands() const { return m_numOperands; }
    Value operand(unsigned i) const { return m_operands[i].get(); }
    OpOperand &opOperand(unsigned i) { return m_operands[i]; }
    void setOperand(unsigned i, Value v) { m_operands[i].set(v); }
    std::vector<Value> operands() const;
    /// Replaces the operand list (the count may change). O(old + new).
    void setOperands(Arena &arena, std::span<const Value> operands);

    unsigned numResults() const { return m_numResults; }
    Value result(unsigned i) const { return Value(&m_results[i]); }
    std::vector<Value> results() const;

    std::span<const NamedAttribute> attributes() const { return { m_attributes.get(), m_numAttributes }; }
    /// The attribute to change in place, or nullptr when absent; detaches the op's list from the
    /// clones that share it first (copy on write).
    Attribute *mutableAttribute(std::string_view name);
    /// nullptr when absent. O(#attributes).
    const Attribute *attribute(std::string_view name) const;
    bool hasAttribute(std::string_view name) const { return attribute(name) != nullptr; }
    /// String attribute value or `fallback`.
    std::string stringAttribute(std::string_view name, std::string fallback = {}) const;
    /// Replaces an existing attribute in place or appends a new one.
    void setAttribute(std::string_view name, Attribute value);
    bool removeAttribute(std::string_view name);

    unsigned numRegions() const { return unsigned(m_regions.size()); }
    Region &region(unsigned i) { return *m_regions[i]; }
    const Region &region(unsigned i) const { return *m_regions[i]; }
    Region &addRegion();

    Block *parentBlock() const { return m_parent; }
    /// The op whose region holds this op's block; nullptr at top level.
    Operation *parentOp() const;

    /// Pre-order walk over this op and every op nested in its regions.
    void walk(const std::function<void(Operation *)> &fn);

    /// Deep copy (regions included) into `arena`; operands are looked up in `mapping`, and
    /// every result and block argument of the copy is recorded there. The copy has no block.
    Operation *clone(Arena &arena, IrMapping &mapping) const;

private:
    friend class Block;
    Operation() = default;
    void setAttributeList(std::span<NamedAttribute> attributes);
    void detachAttributes();
    ~Operation();

    std::string_view m_name;
    OpOperand *m_operands = nullptr;
    ValueImpl *m_results = nullptr;
    unsigned m_numOperands = 0;
    unsigned m_numResults = 0;
    /// Shared by an op and its clones until one of them changes it, so cloning a program copies no
    /// attribute; one allocation holds the count and the items, so a lookup costs one cache miss.
    /// nullptr when the op has none.
    std::shared_ptr<NamedAttribute[]> m_attributes;
    unsigned m_numAttributes = 0;
    std::vector<std::unique_ptr<Region>> m_regions;
    Block *m_parent = nullptr;
    Arena *m_arena = nullptr;
};

} // namespace ps
