#pragma once

#include <cstdint>
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
    /// Replaces an earlier kernel of the same name (and what it accepted: acceptLayout()).
    void add(std::string_view opName, KernelFn fn);
    /// `opName`'s kernel reads operand `operand` in a kernel library's own layout as it is
    /// (KernelContext::inputKeepingLayout), and writes result 0 in one when allowed
    /// (KernelContext::mayKeepLayout): the interpreter then lets a producer keep its layout for it.
    void acceptLayout(std::string_view opName, unsigned operand);
    bool acceptsLayout(std::string_view opName, unsigned operand) const;
    /// nullptr when the backend has no kernel for `opName`. A `onednn_op.X` that
    /// onednn_placement_pass makes from `pd_op.X` (OneDnnPlacement) runs `pd_op.X`'s kernel
    /// unless one of its own was added; so does acceptsLayout().
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
    /// Op name → bit i: operand i is accepted in a kernel library's layout.
    std::unordered_map<std::string, uint64_t, Hash, std::equal_to<>> m_layoutOperands;
};

} // namespace ps
