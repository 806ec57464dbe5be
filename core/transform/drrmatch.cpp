#include "core/transform/drrmatch.h"

#include <stdexcept>

namespace ps {

bool DrrMatch::hasTensor(std::string_view name) const
{
    return m_tensors.count(std::string(name)) != 0;
}

Value DrrMatch::tensor(std::string_view name) const
{
    const auto it = m_tensors.find(std::string(name));
    if (it == m_tensors.end())
        throw std::logic_error("DRR: tensor '" + std::string(name) + "' is not bound by the pattern");
    return it->second;
}

const Attribute &DrrMatch::attr(std::string_view name) const
{
    const auto it = m_attrs.find(std::string(name));
    if (it == m_attrs.end())
        throw std::logic_error("DRR: attribute '" + std::string(name) + "' is not bound by the pattern");
    return it->second;
}

std::vector<int64_t> DrrMatch::intsAttr(std::string_view name) const
{
    const Attribute &a = attr(name);
    if (a.kind() == Attribute::Kind::IntArray)
        return a.asIntArray();
    std::vector<int64_t> out;
    if (a.kind() == Attribute::Kind::Array)
        for (const Attribute &e : a.asArray())
            out.push_back(e.asInt());
    return out;
}

std::vector<int64_t> DrrMatch::shape(std::string_view tensorName) const
{
    const Value v = tensor(tensorName);
    if (v.isNull() || !v.type().isTensorLike())
        return {};
    return v.type().dims();
}

DataType DrrMatch::dtype(std::string_view tensorName) const
{
    const Value v = tensor(tensorName);
    if (v.isNull() || !v.type().isTensorLike())
        return DataType::Undefined;
    return v.type().dtype();
}

void DrrMatch::bindOp(size_t sourceOpIndex, Operation *op)
{
    if (m_ops.size() <= sourceOpIndex)
        m_ops.resize(sourceOpIndex + 1, nullptr);
    m_ops[sourceOpIndex] = op;
}

} // namespace ps
