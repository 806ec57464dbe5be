#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class KernelContext;

using KernelFn = void (*)(KernelContext &);

/// Op name ("pd_op.relu") → kernel of one backend. Filled once when the backend is created,
/// read-only afterwards (safe to share between threads).
class KernelRegistry
{
public:
    /// Replaces an earlier kernel of the same name.
    void add(std::string_view opName, KernelFn fn);
    /// nullptr when the backend has no kernel for `opName`.
    KernelFn find(std::string_view opName) const;
    bool has(std::string_view opName) const { return find(opName) != nullptr; }
    /// Sorted op names.
    std::vector<std::string> opNames() const;
    size_t size() const { return m_kernels.size(); }

private:
    struct Hash
    {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
    };
    std::unordered_map<std::string, KernelFn, Hash, std::equal_to<>> m_kernels;
};

} // namespace ps
