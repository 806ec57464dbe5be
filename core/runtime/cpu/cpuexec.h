#pragma once

// The CPU backend's execution policy for the shared kernels (core/runtime/kernels): operands
// are host tensors, launch() is a plain loop on the calling thread, faults are raised as
// RuntimeError right after the loop. cuda/cudaexec.cuh is the CUDA twin with the same members.

#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernels/indexspace.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/kernelfault.h"
#include "core/runtime/kernels/shapespec.h"

#include <string_view>
#include <vector>

namespace ps {

class CpuExec
{
public:
    /// Operands and results live on the host.
    static constexpr bool kDevice = false;

    explicit CpuExec(KernelContext &ctx)
        : m_ctx(ctx)
    {
    }

    KernelContext &ctx() const { return m_ctx; }
    /// Operand `i` (a host tensor); RuntimeError when absent.
    Tensor input(size_t i) const { return m_ctx.input(i); }
    /// The tensors of list operand `i` (undefined entries kept).
    std::vector<Tensor> inputList(size_t i) const { return m_ctx.inputList(i); }
    Tensor allocate(std::vector<int64_t> shape, DataType dtype) const
    {
        return m_ctx.allocate(std::move(shape), dtype);
    }

    /// Runs f(i) for i in [0, n). (Static here; the CUDA twin needs its stream.)
    template<class F> static void launch(int64_t n, const F &f, const char *)
    {
        for (int64_t i = 0; i < n; ++i)
            f(i);
    }
    /// Runs f(i, offsets) for every linear index i of `space` (row-major over its sizes).
    template<int N, class F> static void launchIndexed(const IndexSpace<N> &space, const F &f, const char *)
    {
        const int64_t total = space.count();
        if (total <= 0)
            return;
        Offsets<N> off;
        for (int a = 0; a < N; ++a)
            off.v[a] = space.base[a];
        if (space.sizes.empty()) {
            f(0, off);
            return;
        }
        const size_t outer = space.sizes.size() - 1;
        const int64_t row = space.sizes.back();
        const std::array<int64_t, N> step = space.strides.back();
        std::vector<int64_t> index(outer, 0);
        for (int64_t o = 0; o < total; o += row) {
            Offsets<N> e = off;
            for (int64_t j = 0; j < row; ++j) {
                f(o + j, e);
                for (int a = 0; a < N; ++a)
                    e.v[a] += step[a];
            }
            for (size_t d = outer; d-- > 0;) {
                for (int a = 0; a < N; ++a)
                    off.v[a] += space.strides[d][a];
                if (++index[d] < space.sizes[d])
                    break;
                for (int a = 0; a < N; ++a)
                    off.v[a] -= space.strides[d][a] * space.sizes[d];
                index[d] = 0;
            }
        }
    }

    /// The fault record functors write (kernels/kernelfault.h).
    volatile KernelFault *fault() { return &m_fault; }
    /// Throws RuntimeError "WHAT: <fault>" when a functor recorded a fault.
    void raiseFaults(std::string_view what);

    /// dst = src (same byte size, any dtype); the ranges may overlap.
    void copy(Tensor &dst, const Tensor &src) const;
    /// dst (contiguous, view.shape) = src read through `view`.
    void gather(const Tensor &src, Tensor &dst, const StridedView &view) const;
    /// dst written through `view` from contiguous src (elements not in the view keep their value).
    void scatter(const Tensor &src, Tensor &dst, const StridedView &view) const;
    /// Every element of `t` set to `value` (double, or int64 for an exact integer fill).
    template<class V> void fill(Tensor &t, V value) const { kernels::fillHost(t, value); }
    /// Every byte of `t` set to zero.
    void zero(Tensor &t) const;
    /// `g` summed down to `to` (g's rank; each dim g's or 1) in double, rounded once into `dtype`.
    Tensor sumTo(const Tensor &g, const std::vector<int64_t> &to, DataType dtype) const;

    /// Calls fn(T{}) with T the host storage type of `dtype` (any runtime dtype).
    template<class Fn> static void dispatchAll(DataType dtype, const char *what, Fn &&fn)
    {
        dispatchDtype(dtype, what, fn);
    }
    /// float32, float64, float16, bfloat16.
    template<class Fn> static void dispatchFloating(DataType dtype, const char *what, Fn &&fn)
    {
        ps::dispatchFloating(dtype, what, fn);
    }
    /// int32 and int64 indices.
    template<class Fn> static void dispatchIndex(DataType dtype, const char *what, Fn &&fn)
    {
        ps::dispatchIndex(dtype, what, fn);
    }

private:
    KernelContext &m_ctx;
    KernelFault m_fault;
};

} // namespace ps
