#include "core/runtime/kernelregistry.h"

#include "core/dialect/onednnplacement.h"

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
    if (it == m_layoutOperands.end() && !m_kernels.contains(opName))
        if (const std::string_view equivalent = OneDnnPlacement::paddleEquivalent(opName);
            !equivalent.empty())
            it = m_layoutOperands.find(equivalent);
    return it != m_layoutOperands.end() && operand < 64 && (it->second >> operand & 1) != 0;
}

KernelFn KernelRegistry::find(std::string_view opName) const
{
    auto it = m_kernels.find(opName);
    if (it != m_kernels.end())
        return it->second;
    const std::string_view equivalent = OneDnnPlacement::paddleEquivalent(opName);
    if (equivalent.empty())
        return nullptr;
    it = m_kernels.find(equivalent);
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
