#include "core/runtime/kernelregistry.h"

#include <algorithm>

namespace ps {

void KernelRegistry::add(std::string_view opName, KernelFn fn)
{
    m_kernels.insert_or_assign(std::string(opName), fn);
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
