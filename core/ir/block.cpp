#include "core/ir/block.h"

#include "core/ir/arena.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/region.h"

#include <algorithm>
#include <iterator>

namespace ps {

Block::~Block()
{
    // Destroy back to front so uses disappear before their definitions.
    for (auto it = m_ops.rbegin(); it != m_ops.rend(); ++it)
        (*it)->destroy();
    m_ops.clear();
    for (ValueImpl *v : m_args)
        v->~ValueImpl();
    for (ValueImpl *v : m_kwargs)
        v->~ValueImpl();
}

Operation *Block::parentOp() const
{
    return m_parent ? m_parent->parentOp() : nullptr;
}

Program *Block::program() const
{
    return m_parent ? m_parent->program() : nullptr;
}

long Block::indexOf(const Operation *op) const
{
    auto it = std::find(m_ops.begin(), m_ops.end(), op);
    return it == m_ops.end() ? -1 : long(it - m_ops.begin());
}

void Block::push_back(Operation *op)
{
    op->m_parent = this;
    m_ops.push_back(op);
}

void Block::insert(size_t pos, Operation *op)
{
    op->m_parent = this;
    m_ops.insert(m_ops.begin() + long(std::min(pos, m_ops.size())), op);
}

void Block::take(Operation *op)
{
    // Searched from the back: the ops taken out are almost always recent ones (autodiff prunes
    // the grad ops it just appended), which keeps pruning a large program linear.
    auto it = std::find(m_ops.rbegin(), m_ops.rend(), op);
    if (it != m_ops.rend()) {
        m_ops.erase(std::next(it).base());
        op->m_parent = nullptr;
    }
}

void Block::erase(Operation *op)
{
    take(op);
    op->destroy();
}

void Block::replace(size_t index, Operation *op)
{
    Operation *old = m_ops.at(index);
    op->m_parent = this;
    m_ops[index] = op;
    old->m_parent = nullptr;
    old->destroy();
}

size_t Block::eraseIf(const std::function<bool(Operation *)> &pred)
{
    std::vector<Operation *> doomed;
    auto keep = std::stable_partition(m_ops.begin(), m_ops.end(), [&](Operation *op) { return !pred(op); });
    doomed.assign(keep, m_ops.end());
    m_ops.erase(keep, m_ops.end());
    for (auto it = doomed.rbegin(); it != doomed.rend(); ++it) {
        (*it)->m_parent = nullptr;
        (*it)->destroy();
    }
    return doomed.size();
}

std::vector<Value> Block::arguments() const
{
    std::vector<Value> out;
    out.reserve(m_args.size());
    for (ValueImpl *v : m_args)
        out.emplace_back(v);
    return out;
}

Value Block::addArgument(Type type)
{
    auto *impl
        = m_parent->arena().make<ValueImpl>(ValueImpl::Kind::BlockArgument, type, uint32_t(m_args.size()));
    impl->m_owner.m_block = this;
    m_args.push_back(impl);
    return Value(impl);
}

std::vector<Value> Block::kwargs() const
{
    std::vector<Value> out;
    out.reserve(m_kwargs.size());
    for (ValueImpl *v : m_kwargs)
        out.emplace_back(v);
    return out;
}

Value Block::kwarg(std::string_view key) const
{
    for (ValueImpl *v : m_kwargs) {
        if (v->m_key == key)
            return Value(v);
    }
    return Value();
}

Value Block::addKwarg(std::string key, Type type)
{
    auto *impl = m_parent->arena().make<ValueImpl>(
        ValueImpl::Kind::KeywordArgument, type, uint32_t(m_kwargs.size()));
    impl->m_owner.m_block = this;
    impl->m_key = std::move(key);
    m_kwargs.push_back(impl);
    return Value(impl);
}

bool Block::eraseKwarg(std::string_view key)
{
    for (auto it = m_kwargs.begin(); it != m_kwargs.end(); ++it) {
        if ((*it)->m_key == key) {
            const size_t index = size_t(it - m_kwargs.begin());
            if (index < m_kwargAttributes.size())
                m_kwargAttributes.erase(m_kwargAttributes.begin() + long(index));
            (*it)->~ValueImpl();
            m_kwargs.erase(it);
            for (size_t i = 0; i < m_kwargs.size(); ++i)
                m_kwargs[i]->m_index = uint32_t(i);
            return true;
        }
    }
    return false;
}

const std::vector<NamedAttribute> &Block::valueAttributes(Value argument) const
{
    static const std::vector<NamedAttribute> kNone;
    if (!argument || argument.isOpResult() || argument.parentBlock() != this)
        return kNone;
    const auto &list = argument.isKeywordArgument() ? m_kwargAttributes : m_argAttributes;
    return argument.index() < list.size() ? list[argument.index()] : kNone;
}

void Block::setValueAttributes(Value argument, std::vector<NamedAttribute> attributes)
{
    if (!argument || argument.isOpResult() || argument.parentBlock() != this)
        return;
    auto &list = argument.isKeywordArgument() ? m_kwargAttributes : m_argAttributes;
    if (list.size() <= argument.index()) {
        if (attributes.empty())
            return;
        list.resize(argument.index() + 1);
    }
    list[argument.index()] = std::move(attributes);
}

void Block::copyArgumentsTo(Block &to, IrMapping &mapping) const
{
    for (size_t a = 0; a < numArguments(); ++a) {
        const Value copy = to.addArgument(argument(a).type());
        to.setValueAttributes(copy, valueAttributes(argument(a)));
        mapping.map(argument(a), copy);
    }
    for (size_t k = 0; k < numKwargs(); ++k) {
        const Value copy = to.addKwarg(kwargAt(k).keyword(), kwargAt(k).type());
        to.setValueAttributes(copy, valueAttributes(kwargAt(k)));
        mapping.map(kwargAt(k), copy);
    }
}

bool Block::hasValueAttributes() const
{
    for (const auto *list : { &m_argAttributes, &m_kwargAttributes })
        for (const auto &attributes : *list)
            if (!attributes.empty())
                return true;
    return false;
}

void Block::walk(const std::function<void(Operation *)> &fn) const
{
    for (Operation *op : m_ops)
        op->walk(fn);
}

} // namespace ps
