#include "core/runtime/onednn/onednnlayout.h"

#include "core/runtime/kernelcontext.h"
#include "core/runtime/onednn/onednnengine.h"
#include "core/runtime/onednn/onednnutil.h"
#include "core/runtime/tensor.h"

namespace ps {

Tensor OneDnnLayout::toPlain(const Tensor &t) const
{
    Tensor plain = Tensor::empty(t.shape(), t.dtype());
    OneDnnEngine::instance().reorder(memoryOf(t), userMemory(plainDesc(t.shape()), plain));
    return plain;
}

std::string OneDnnLayout::name() const
{
    return "oneDNN's blocked layout";
}

const Tensor &OneDnnLayout::operand(const KernelContext &ctx, size_t i)
{
    const Tensor &t = ctx.inputKeepingLayout(i);
    return !t.hasLayout() || dynamic_cast<const OneDnnLayout *>(t.layout().get()) ? t : ctx.input(i);
}

dnnl::memory::desc OneDnnLayout::descOf(const Tensor &t)
{
    if (const auto *layout = dynamic_cast<const OneDnnLayout *>(t.layout().get()))
        return layout->desc();
    return plainDesc(t.shape());
}

dnnl::memory OneDnnLayout::memoryOf(const Tensor &t)
{
    return dnnl::memory(descOf(t), OneDnnEngine::instance().engine(), const_cast<void *>(t.layoutData()));
}

} // namespace ps
