#include "core/ir/operation.h"

#include "core/ir/arena.h"
#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/opnames.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

namespace ps {

namespace {

/// The allocator of an op's shared attribute array: allocate_shared<T[]> constructs each element
/// through it, and it move-constructs them from a source list, so the array is built in one
/// pass (make_shared<T[]> would default-construct every element and then move-assign it).
template<class T> struct MoveFromAllocator
{
    using value_type = T;
    NamedAttribute **source = nullptr;

    MoveFromAllocator(NamedAttribute **s)
        : source(s)
    {
    }
    template<class U>
    MoveFromAllocator(const MoveFromAllocator<U> &o)
        : source(o.source)
    {
    }
    T *allocate(size_t n) { return std::allocator<T>().allocate(n); }
    void deallocate(T *p, size_t n) { std::allocator<T>().deallocate(p, n); }
    void construct(NamedAttribute *p)
    {
        ::new (static_cast<void *>(p)) NamedAttribute(std::move(*(*source)++));
    }
    template<class U> bool operator==(const MoveFromAllocator<U> &) const { return true; }
};

} // namespace

Operation *Operation::create(Arena &arena, std::string_view name, std::span<const Value> operands,
    std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes, unsigned numRegions)
{
    return create(arena, name, operands, resultTypes, std::span<NamedAttribute>(attributes), numRegions);
}

Operation *Operation::create(Arena &arena, std::string_view name, std::span<const Value> operands,
    std::span<const Type> resultTypes, std::span<NamedAttribute> attributesToMove, unsigned numRegions)
{
    auto *op = new (arena.allocate(sizeof(Operation), alignof(Operation))) Operation();
    op->m_name = internOpName(name);
    op->m_arena = &arena;
    op->m_numResults = unsigned(resultTypes.size());
    if (!resultTypes.empty()) {
        op->m_results = static_cast<ValueImpl *>(
            arena.allocate(sizeof(ValueImpl) * resultTypes.size(), alignof(ValueImpl)));
        for (unsigned i = 0; i < resultTypes.size(); ++i) {
            auto *impl = new (&op->m_results[i]) ValueImpl(ValueImpl::Kind::OpResult, resultTypes[i], i);
            impl->m_owner.m_op = op;
        }
    }
    op->setOperands(arena, operands);
    op->setAttributeList(attributesToMove);
    for (unsigned i = 0; i < numRegions; ++i)
        op->addRegion();
    return op;
}

Operation::~Operation()
{
    m_regions.clear();
    for (unsigned i = 0; i < m_numOperands; ++i)
        m_operands[i].~OpOperand();
    for (unsigned i = 0; i < m_numResults; ++i)
        m_results[i].~ValueImpl();
}

void Operation::destroy()
{
    this->~Operation();
}

std::string_view Operation::dialect() const
{
    const auto dot = m_name.find('.');
    return dot == std::string_view::npos ? std::string_view() : m_name.substr(0, dot);
}

std::string_view Operation::shortName() const
{
    const auto dot = m_name.find('.');
    return dot == std::string_view::npos ? m_name : m_name.substr(dot + 1);
}

std::vector<Value> Operation::operands() const
{
    std::vector<Value> out;
    out.reserve(m_numOperands);
    for (unsigned i = 0; i < m_numOperands; ++i)
        out.push_back(m_operands[i].get());
    return out;
}

void Operation::setOperands(Arena &arena, std::span<const Value> operands)
{
    for (unsigned i = 0; i < m_numOperands; ++i)
        m_operands[i].~OpOperand();
    m_numOperands = unsigned(operands.size());
    m_operands = nullptr;
    if (operands.empty())
        return;
    m_operands
        = static_cast<OpOperand *>(arena.allocate(sizeof(OpOperand) * operands.size(), alignof(OpOperand)));
    for (unsigned i = 0; i < operands.size(); ++i) {
        auto *slot = new (&m_operands[i]) OpOperand();
        slot->m_owner = this;
        slot->m_index = i;
        slot->m_value = operands[i].impl();
        slot->link();
    }
}

std::vector<Value> Operation::results() const
{
    std::vector<Value> out;
    out.reserve(m_numResults);
    for (unsigned i = 0; i < m_numResults; ++i)
        out.push_back(result(i));
    return out;
}

void Operation::setAttributeList(std::span<NamedAttribute> attributes)
{
    m_numAttributes = unsigned(attributes.size());
    if (attributes.empty()) {
        m_attributes.reset();
        return;
    }
    NamedAttribute *source = attributes.data();
    m_attributes = std::allocate_shared<NamedAttribute[]>(
        MoveFromAllocator<NamedAttribute>(&source), attributes.size());
}

void Operation::detachAttributes()
{
    if (m_attributes.use_count() <= 1)
        return;
    std::vector<NamedAttribute> copy(attributes().begin(), attributes().end());
    setAttributeList(copy);
}

Attribute *Operation::mutableAttribute(std::string_view name)
{
    if (!hasAttribute(name))
        return nullptr;
    detachAttributes();
    for (unsigned i = 0; i < m_numAttributes; ++i) {
        if (m_attributes[i].name == name)
            return &m_attributes[i].value;
    }
    return nullptr;
}

const Attribute *Operation::attribute(std::string_view name) const
{
    for (const auto &a : attributes()) {
        if (a.name == name)
            return &a.value;
    }
    return nullptr;
}

std::string Operation::stringAttribute(std::string_view name, std::string fallback) const
{
    const Attribute *a = attribute(name);
    if (!a)
        return fallback;
    switch (a->kind()) {
    case Attribute::Kind::String:
    case Attribute::Kind::TensorName:
        return a->asString();
    default:
        return fallback;
    }
}

void Operation::setAttribute(std::string_view name, Attribute value)
{
    if (Attribute *existing = mutableAttribute(name)) {
        *existing = std::move(value);
        return;
    }
    std::vector<NamedAttribute> list(attributes().begin(), attributes().end());
    list.push_back({ std::string(name), std::move(value) });
    setAttributeList(list);
}

bool Operation::removeAttribute(std::string_view name)
{
    if (!hasAttribute(name))
        return false;
    std::vector<NamedAttribute> list;
    for (const NamedAttribute &a : attributes())
        if (a.name != name)
            list.push_back(a);
    setAttributeList(list);
    return true;
}

Region &Operation::addRegion()
{
    m_regions.push_back(std::make_unique<Region>(m_arena, this));
    return *m_regions.back();
}

Operation *Operation::parentOp() const
{
    return m_parent ? m_parent->parentOp() : nullptr;
}

void Operation::walk(const std::function<void(Operation *)> &fn)
{
    fn(this);
    for (auto &region : m_regions) {
        for (size_t b = 0; b < region->numBlocks(); ++b)
            region->block(b).walk(fn);
    }
}

Operation *Operation::clone(Arena &arena, IrMapping &mapping) const
{
    // Operands and result types go through stack buffers when they fit (nearly every op): a
    // program clone makes no temporary heap allocations per op.
    constexpr unsigned kInline = 8;
    Value operandBuffer[kInline];
    Type typeBuffer[kInline];
    std::vector<Value> operandHeap;
    std::vector<Type> typeHeap;
    Value *newOperands = operandBuffer;
    Type *types = typeBuffer;
    if (m_numOperands > kInline) {
        operandHeap.resize(m_numOperands);
        newOperands = operandHeap.data();
    }
    if (m_numResults > kInline) {
        typeHeap.resize(m_numResults);
        types = typeHeap.data();
    }
    for (unsigned i = 0; i < m_numOperands; ++i)
        newOperands[i] = mapping.lookup(operand(i));
    for (unsigned i = 0; i < m_numResults; ++i)
        types[i] = m_results[i].m_type;
    Operation *copy = create(arena, m_name, std::span<const Value>(newOperands, m_numOperands),
        std::span<const Type>(types, m_numResults), std::span<NamedAttribute>(), 0);
    copy->m_attributes = m_attributes;
    copy->m_numAttributes = m_numAttributes;
    for (unsigned i = 0; i < m_numResults; ++i)
        mapping.map(result(i), copy->result(i));
    for (const auto &region : m_regions) {
        Region &newRegion = copy->addRegion();
        for (size_t b = 0; b < region->numBlocks(); ++b) {
            const Block &oldBlock = region->block(b);
            Block &newBlock = newRegion.addBlock();
            oldBlock.copyArgumentsTo(newBlock, mapping);
            for (Operation *op : oldBlock.ops())
                newBlock.push_back(op->clone(arena, mapping));
        }
    }
    return copy;
}

} // namespace ps
