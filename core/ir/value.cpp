#include "core/ir/value.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"

namespace ps {

Block *Value::parentBlock() const
{
    if (!m_impl)
        return nullptr;
    if (m_impl->m_kind == ValueImpl::Kind::OpResult)
        return m_impl->m_owner.m_op ? m_impl->m_owner.m_op->parentBlock() : nullptr;
    return m_impl->m_owner.m_block;
}

bool Value::hasOneUse() const
{
    const OpOperand *u = firstUse();
    return u && !u->nextUse();
}

size_t Value::useCount() const
{
    size_t n = 0;
    for (const OpOperand *u = firstUse(); u; u = u->nextUse())
        ++n;
    return n;
}

void Value::replaceAllUsesWith(Value other) const
{
    if (!m_impl || other == *this)
        return;
    while (OpOperand *u = m_impl->m_firstUse)
        u->set(other);
}

void OpOperand::set(Value v)
{
    if (v.impl() == m_value)
        return;
    unlink();
    m_value = v.impl();
    link();
}

void OpOperand::link()
{
    if (!m_value)
        return;
    m_next = m_value->m_firstUse;
    if (m_next)
        m_next->m_prevNext = &m_next;
    m_prevNext = &m_value->m_firstUse;
    m_value->m_firstUse = this;
}

void OpOperand::unlink()
{
    if (!m_prevNext)
        return;
    *m_prevNext = m_next;
    if (m_next)
        m_next->m_prevNext = m_prevNext;
    m_next = nullptr;
    m_prevNext = nullptr;
}

} // namespace ps
