#pragma once

#include "core/ir/type.h"

#include <cstdint>
#include <functional>
#include <string>

namespace ps {

class Block;
class Operation;
class OpOperand;

/// Storage of one SSA value: an op result, a positional block argument or a keyword block
/// argument (kwarg). Owned by its Operation (results) or allocated in the Program's arena
/// (block arguments); never copied or moved once handed out.
class ValueImpl
{
public:
    enum class Kind : unsigned char { OpResult, BlockArgument, KeywordArgument };

    ValueImpl(Kind kind, Type type, uint32_t index)
        : m_type(type)
        , m_index(index)
        , m_kind(kind)
    {
    }
    ValueImpl(const ValueImpl &) = delete;
    ValueImpl &operator=(const ValueImpl &) = delete;

private:
    friend class Value;
    friend class OpOperand;
    friend class Operation;
    friend class Block;

    Type m_type;
    OpOperand *m_firstUse = nullptr;
    union {
        Operation *m_op; ///< OpResult
        Block *m_block; ///< block arguments
    } m_owner { nullptr };
    uint32_t m_index = 0; ///< result index or positional argument index
    Kind m_kind;
    std::string m_key; ///< kwarg keyword
};

/// A pointer-sized handle to an SSA value (or the null value). Cheap to copy, hashable,
/// compared by identity.
class Value
{
public:
    Value() = default;
    explicit Value(ValueImpl *impl)
        : m_impl(impl)
    {
    }

    bool isNull() const { return m_impl == nullptr; }
    explicit operator bool() const { return m_impl != nullptr; }

    Type type() const { return m_impl ? m_impl->m_type : Type(); }
    void setType(Type t) { m_impl->m_type = t; }

    bool isOpResult() const { return m_impl && m_impl->m_kind == ValueImpl::Kind::OpResult; }
    bool isBlockArgument() const { return m_impl && m_impl->m_kind == ValueImpl::Kind::BlockArgument; }
    bool isKeywordArgument() const { return m_impl && m_impl->m_kind == ValueImpl::Kind::KeywordArgument; }

    /// The defining operation, or nullptr for block arguments and the null value.
    Operation *definingOp() const { return isOpResult() ? m_impl->m_owner.m_op : nullptr; }
    /// Block of a block argument, or the block of the defining op.
    Block *parentBlock() const;
    /// Result index (op results) or argument index (positional block arguments).
    uint32_t index() const { return m_impl->m_index; }
    /// Keyword of a kwarg; empty otherwise.
    const std::string &keyword() const { return m_impl->m_key; }

    /// Intrusive use list, most recent use first. O(1) to start, O(uses) to walk.
    OpOperand *firstUse() const { return m_impl ? m_impl->m_firstUse : nullptr; }
    bool hasUses() const { return firstUse() != nullptr; }
    bool hasOneUse() const;
    size_t useCount() const;
    /// Rewrites every use of this value to `other`. O(uses).
    void replaceAllUsesWith(Value other) const;

    ValueImpl *impl() const { return m_impl; }
    bool operator==(const Value &o) const { return m_impl == o.m_impl; }
    bool operator!=(const Value &o) const { return m_impl != o.m_impl; }
    bool operator<(const Value &o) const { return m_impl < o.m_impl; }

private:
    ValueImpl *m_impl = nullptr;
};

/// One operand slot of an Operation, linked into the use list of the value it holds.
class OpOperand
{
public:
    OpOperand() = default;
    OpOperand(const OpOperand &) = delete;
    OpOperand &operator=(const OpOperand &) = delete;
    ~OpOperand() { unlink(); }

    Value get() const { return Value(m_value); }
    void set(Value v);
    Operation *owner() const { return m_owner; }
    uint32_t index() const { return m_index; }
    OpOperand *nextUse() const { return m_next; }

private:
    friend class Operation;
    void link();
    void unlink();

    ValueImpl *m_value = nullptr;
    Operation *m_owner = nullptr;
    OpOperand *m_next = nullptr;
    OpOperand **m_prevNext = nullptr; ///< address of the pointer that points to this operand
    uint32_t m_index = 0;
};

} // namespace ps

template<> struct std::hash<ps::Value>
{
    size_t operator()(const ps::Value &v) const noexcept { return std::hash<const void *>()(v.impl()); }
};
