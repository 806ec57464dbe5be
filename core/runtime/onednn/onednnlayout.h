#pragma once

#include "core/runtime/tensorlayout.h"

#include <memory>
#include <oneapi/dnnl/dnnl.hpp>

namespace ps {

class KernelContext;

/// A float32 tensor's bytes in one of oneDNN's blocked layouts (a convolution's nChw16c output),
/// kept for the oneDNN kernels that read it as it is (KernelRegistry::acceptLayout); the rest get
/// the plain tensor toPlain() reorders into.
class OneDnnLayout final : public TensorLayout
{
public:
    explicit OneDnnLayout(dnnl::memory::desc desc)
        : m_desc(std::move(desc))
    {
    }

    const dnnl::memory::desc &desc() const { return m_desc; }
    Tensor toPlain(const Tensor &t) const override;
    std::string name() const override;

    /// Operand `i` as it is when it is dense row-major or in a OneDnnLayout, else plain.
    static const Tensor &operand(const KernelContext &ctx, size_t i);
    /// `t`'s layout as oneDNN describes it: its OneDnnLayout's, else the dense row-major one.
    static dnnl::memory::desc descOf(const Tensor &t);
    /// A memory over `t`'s bytes in the layout they are in (no copy).
    static dnnl::memory memoryOf(const Tensor &t);

private:
    dnnl::memory::desc m_desc;
};

} // namespace ps
