#pragma once

// The CUDA backend's execution policy for the shared kernels (core/runtime/kernels): operands are
// uploaded when they are host tensors, launch() is a grid-stride CUDA grid on the backend's
// stream, faults land in host-mapped memory and are raised at the next synchronize. Same
// members as cpu/cpuexec.h.

#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaruntime.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernels/indexspace.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/kernelfault.h"
#include "core/runtime/kernels/shapespec.h"

#include <string_view>
#include <vector>

PS_CUDA_NAMESPACE_BEGIN

class CudaExec
{
public:
    /// Operands and results live on the device.
    static constexpr bool kDevice = true;

    explicit CudaExec(KernelContext &ctx)
        : m_ctx(&ctx)
        , m_rt(cudaRuntime(ctx))
    {
    }
    /// For device-side helpers without an op (no inputs).
    explicit CudaExec(CudaRuntime &rt)
        : m_rt(rt)
    {
    }

    KernelContext &ctx() const { return *m_ctx; }
    CudaRuntime &runtime() const { return m_rt; }
    /// Operand `i` on the device (a host operand is uploaded); RuntimeError when absent.
    Tensor input(size_t i) const { return deviceInput(*m_ctx, i); }
    /// The tensors of list operand `i` on the device (undefined entries kept).
    std::vector<Tensor> inputList(size_t i) const;
    Tensor allocate(std::vector<int64_t> shape, DataType dtype) const
    {
        return m_rt.allocate(std::move(shape), dtype);
    }

    /// Runs f(i) for i in [0, n) on the device.
    template<class F> void launch(int64_t n, const F &f, const char *what) const
    {
        cuda::launchFlat(m_rt, n, f, what);
    }
    /// Runs f(i, offsets) for every linear index i of `space` on the device.
    template<int N, class F>
    void launchIndexed(const IndexSpace<N> &space, const F &f, const char *what) const
    {
        cuda::launchIndexed(m_rt, space, f, what);
    }

    /// The host-mapped fault record functors write (kernels/kernelfault.h).
    volatile KernelFault *fault() const { return m_rt.fault; }
    /// Faults are raised by the next synchronize (the device has not run yet).
    void raiseFaults(std::string_view) const { }

    /// dst (on this device) = src (this device or the host; same byte size).
    void copy(Tensor &dst, const Tensor &src) const;
    void gather(const Tensor &src, Tensor &dst, const StridedView &view) const;
    void scatter(const Tensor &src, Tensor &dst, const StridedView &view) const;
    /// Every element of `t` set to `value` (a double, or an int64 for an exact integer fill),
    /// converted on the host as the CPU converts it.
    void fill(Tensor &t, double value) const { fillBits(t, hostBits(t.dtype(), value)); }
    void fill(Tensor &t, int64_t value) const { fillBits(t, hostBits(t.dtype(), value)); }
    void zero(Tensor &t) const;
    /// `g` summed down to `to` (g's rank; each dim g's or 1) in double, rounded once into `dtype`.
    Tensor sumTo(const Tensor &g, const std::vector<int64_t> &to, DataType dtype) const;

    template<class Fn> static void dispatchAll(DataType dtype, const char *what, Fn &&fn)
    {
        cuda::dispatchAll(dtype, what, fn);
    }
    template<class Fn> static void dispatchFloating(DataType dtype, const char *what, Fn &&fn)
    {
        cuda::dispatchFloating(dtype, what, fn);
    }
    template<class Fn> static void dispatchIndex(DataType dtype, const char *what, Fn &&fn)
    {
        ps::dispatchIndex(dtype, what, fn);
    }

private:
    template<class V> static uint64_t hostBits(DataType dtype, V value)
    {
        uint64_t bits = 0;
        ps::dispatchDtype(dtype, "fill", [&](auto tag) {
            using T = decltype(tag);
            const T v = convertElement<T>(value);
            std::memcpy(&bits, &v, sizeof(T));
        });
        return bits;
    }
    void fillBits(Tensor &t, uint64_t bits) const;

    KernelContext *m_ctx = nullptr;
    CudaRuntime &m_rt;
};

PS_CUDA_NAMESPACE_END
