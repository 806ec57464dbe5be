#pragma once

#include "core/ir/attribute.h"
#include "core/ir/value.h"

#include <functional>
#include <string_view>
#include <vector>

namespace ps {

class IrMapping;
class Operation;
class Program;
class Region;

/// An ordered list of operations with positional arguments and keyword arguments (kwargs).
/// Owns its ops. Ops are kept in a vector: index access is O(1) (Paddle addresses ops by
/// index ranges); insertion and erase are O(n).
class Block
{
public:
    explicit Block(Region *parent)
        : m_parent(parent)
    {
    }
    Block(const Block &) = delete;
    Block &operator=(const Block &) = delete;
    ~Block();

    Region *parentRegion() const { return m_parent; }
    Operation *parentOp() const;
    Program *program() const;

    const std::vector<Operation *> &ops() const { return m_ops; }
    size_t size() const { return m_ops.size(); }
    bool empty() const { return m_ops.empty(); }
    Operation *op(size_t i) const { return m_ops[i]; }
    Operation *back() const { return m_ops.empty() ? nullptr : m_ops.back(); }
    /// Position of `op` in this block, or -1. O(n).
    long indexOf(const Operation *op) const;

    void push_back(Operation *op);
    void insert(size_t pos, Operation *op);
    /// Removes `op` from the block without destroying it.
    void take(Operation *op);
    /// Removes and destroys `op`. Its results must have no uses left.
    void erase(Operation *op);
    /// Puts `op` (in no block) at position `index` in place of the op there, which is destroyed:
    /// its results must have no uses left. O(1): a pass that swaps many ops stays linear.
    void replace(size_t index, Operation *op);
    /// Removes and destroys every op for which `pred` is true, in one pass. O(n).
    size_t eraseIf(const std::function<bool(Operation *)> &pred);

    size_t numArguments() const { return m_args.size(); }
    Value argument(size_t i) const { return Value(m_args[i]); }
    std::vector<Value> arguments() const;
    Value addArgument(Type type);

    size_t numKwargs() const { return m_kwargs.size(); }
    Value kwargAt(size_t i) const { return Value(m_kwargs[i]); }
    std::vector<Value> kwargs() const;
    /// The kwarg with this keyword, or null. O(#kwargs).
    Value kwarg(std::string_view key) const;
    /// Appends a kwarg; a kwarg with the same key must not exist.
    Value addKwarg(std::string key, Type type);
    /// Removes the kwarg; it must have no uses. Returns false when absent.
    bool eraseKwarg(std::string_view key);

    /// The value attributes of one of this block's arguments or kwargs (`stop_gradient`,
    /// `persistable`: Paddle prints them at the value's first use, `%arg_0 {stop_gradient:false}`).
    /// Empty for none and for values of other blocks.
    const std::vector<NamedAttribute> &valueAttributes(Value argument) const;
    /// Replaces them (in the given order); `argument` must be an argument or kwarg of this block.
    void setValueAttributes(Value argument, std::vector<NamedAttribute> attributes);
    /// Adds a copy of each argument and kwarg (type, keyword, attributes) to `to`, mapping each.
    void copyArgumentsTo(Block &to, IrMapping &mapping) const;
    /// Whether any argument or kwarg has attributes.
    bool hasValueAttributes() const;

    /// Pre-order walk over every op of this block and its nested regions.
    void walk(const std::function<void(Operation *)> &fn) const;

private:
    Region *m_parent;
    std::vector<Operation *> m_ops;
    std::vector<ValueImpl *> m_args;
    std::vector<ValueImpl *> m_kwargs;
    /// Parallel to m_args / m_kwargs; grown on first use only (most blocks have none).
    std::vector<std::vector<NamedAttribute>> m_argAttributes;
    std::vector<std::vector<NamedAttribute>> m_kwargAttributes;
};

} // namespace ps
