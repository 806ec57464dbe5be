#include "core/runtime/kernelregistry.h"

#include <algorithm>

namespace ps {

void KernelRegistry::add(std::string_view opName, KernelFn fn)
{
    m_kernels.insert_or_assign(std::string(opName), fn);
    if (auto it = m_layoutOperands.find(opName); it != m_layoutOperands.end())
        m_layoutOperands.erase(it);
}

void KernelRegistry::acceptLayout(std::string_view opName, unsigned operand)
{
    if (operand < 64)
        m_layoutOperands[std::string(opName)] |= uint64_t(1) << operand;
}

bool KernelRegistry::acceptsLayout(std::string_view opName, unsigned operand) const
{
    auto it = m_layoutOperands.find(opName);
    return it != m_layoutOperands.end() && operand < 64 && (it->second >> operand & 1) != 0;
}

KernelFn KernelRegistry::find(std::string_view opName) const
{
    auto it = m_kernels.find(opName);
    return it == m_kernels.end() ? nullptr : it->second;
}

std::vector<std::string> KernelRegistry::opNames() const
{
    std::vector<std::string> names;
    names.reserve(m_kernels.size());
    for (const auto &[name, fn] : m_kernels)
        names.push_back(name);
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace ps
