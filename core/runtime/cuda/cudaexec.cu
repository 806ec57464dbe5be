#include "core/runtime/backend.h"
#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernels/elementwisekernels.h"

PS_CUDA_NAMESPACE_BEGIN
namespace {

template<class E> struct FillMap
{
    E *p;
    E bits;
    PS_HOST_DEVICE void operator()(int64_t i) const { p[i] = bits; }
};

template<class E> struct GatherMap
{
    const E *in;
    E *out;
    PS_HOST_DEVICE void operator()(int64_t i, Offsets<1> o) const { out[i] = in[o.v[0]]; }
};

template<class E> struct ScatterMap
{
    const E *in;
    E *out;
    PS_HOST_DEVICE void operator()(int64_t i, Offsets<1> o) const { out[o.v[0]] = in[i]; }
};

} // namespace

std::vector<Tensor> CudaExec::inputList(size_t i) const
{
    std::vector<Tensor> list;
    for (const Tensor &t : m_ctx->inputList(i))
        list.push_back(t.defined() ? deviceTensor(*m_ctx, t) : t);
    return list;
}

void CudaExec::copy(Tensor &dst, const Tensor &src) const
{
    if (dst.byteSize() != src.byteSize())
        throw RuntimeError("copy of " + src.describe() + " into " + dst.describe());
    if (src.byteSize() == 0 || dst.rawData() == src.rawData())
        return;
    const bool fromHost = src.device().isCpu();
    checkCuda(cudaMemcpyAsync(dst.rawData(), src.rawData(), src.byteSize(),
                  fromHost ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice, m_rt.stream),
        fromHost ? "host-to-device copy" : "device copy");
}

void CudaExec::gather(const Tensor &src, Tensor &dst, const StridedView &view) const
{
    const IndexSpace<1> space = viewSpace(view);
    kernels::dispatchBySize(src.elementSize(), "gather", [&](auto tag) {
        using E = decltype(tag);
        launchIndexed(space,
            GatherMap<E> { static_cast<const E *>(src.rawData()), static_cast<E *>(dst.rawData()) },
            "gather");
    });
}

void CudaExec::scatter(const Tensor &src, Tensor &dst, const StridedView &view) const
{
    const IndexSpace<1> space = viewSpace(view);
    kernels::dispatchBySize(src.elementSize(), "scatter", [&](auto tag) {
        using E = decltype(tag);
        launchIndexed(space,
            ScatterMap<E> { static_cast<const E *>(src.rawData()), static_cast<E *>(dst.rawData()) },
            "scatter");
    });
}

void CudaExec::fillBits(Tensor &t, uint64_t bits) const
{
    if (t.numElements() == 0)
        return;
    if (t.device().isCpu()) {
        for (int64_t i = 0; i < t.numElements(); ++i)
            std::memcpy(
                static_cast<char *>(t.rawData()) + size_t(i) * t.elementSize(), &bits, t.elementSize());
        return;
    }
    kernels::dispatchBySize(t.elementSize(), "fill", [&](auto tag) {
        using E = decltype(tag);
        launch(t.numElements(), FillMap<E> { static_cast<E *>(t.rawData()), E(bits) }, "fill");
    });
}

void CudaExec::zero(Tensor &t) const
{
    if (t.byteSize() > 0)
        checkCuda(cudaMemsetAsync(t.rawData(), 0, t.byteSize(), m_rt.stream), "zero fill");
}

Tensor CudaExec::sumTo(const Tensor &g, const std::vector<int64_t> &to, DataType dtype) const
{
    const Tensor summed = cuda::sumToShape(m_rt, g, to);
    Tensor out = m_rt.allocate(to, dtype);
    cuda::castInto(m_rt, summed, out);
    return out;
}

PS_CUDA_NAMESPACE_END
