#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/reducespec.h"
#include "core/runtime/kernels/rowreducekernels.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace ps {
namespace {

// A reduction over a set of axes. Adjacent dims of the same kind (reduced or kept) are merged
// and size-1 dims dropped, so the common cases (last axis, leading axes, all) become one or two
// tight strided loops.
struct ReducePlan
{
    std::vector<int64_t> outShape;
    std::vector<int64_t> keptSize, keptStride; // merged kept dims (row-major order of the output)
    std::vector<int64_t> redSize, redStride; // merged reduced dims
    int64_t outCount = 1;
    int64_t reduceCount = 1;
};

ReducePlan makePlan(const std::vector<int64_t> &shape, const std::vector<bool> &reduced, bool keepdim)
{
    const int64_t rank = int64_t(shape.size());
    ReducePlan p;
    std::vector<int64_t> strides(size_t(rank), 1);
    for (int64_t i = rank - 2; i >= 0; --i)
        strides[size_t(i)] = strides[size_t(i + 1)] * shape[size_t(i + 1)];
    int lastKind = -1; // 0 kept, 1 reduced
    for (int64_t i = 0; i < rank; ++i) {
        const int64_t d = shape[size_t(i)];
        if (reduced[size_t(i)]) {
            if (keepdim)
                p.outShape.push_back(1);
            p.reduceCount *= d;
        } else {
            p.outShape.push_back(d);
            p.outCount *= d;
        }
        if (d == 1)
            continue;
        const int kind = reduced[size_t(i)] ? 1 : 0;
        auto &sizes = kind ? p.redSize : p.keptSize;
        auto &strs = kind ? p.redStride : p.keptStride;
        if (kind == lastKind && !sizes.empty()) {
            sizes.back() *= d;
            strs.back() = strides[size_t(i)];
        } else {
            sizes.push_back(d);
            strs.push_back(strides[size_t(i)]);
        }
        lastKind = kind;
    }
    return p;
}

// Calls visit(out, base) for every output element `out` with its first input offset, then the
// per-output lane loop lane(base, step) walks the reduced elements: `step(fn)` calls fn(offset)
// for each reduced offset.
template<class Visit> void forEachOutput(const ReducePlan &p, Visit &&visit)
{
    if (p.outCount == 0)
        return;
    const size_t k = p.keptSize.size();
    if (k == 0) {
        visit(0, 0);
        return;
    }
    std::vector<int64_t> idx(k, 0);
    int64_t base = 0;
    for (int64_t o = 0; o < p.outCount; ++o) {
        visit(o, base);
        for (size_t d = k; d > 0; --d) {
            const size_t j = d - 1;
            base += p.keptStride[j];
            if (++idx[j] < p.keptSize[j])
                break;
            base -= p.keptStride[j] * p.keptSize[j];
            idx[j] = 0;
        }
    }
}

template<class Fn> void forEachReduced(const ReducePlan &p, int64_t base, std::vector<int64_t> &idx, Fn &&fn)
{
    const size_t r = p.redSize.size();
    if (p.reduceCount == 0)
        return;
    if (r == 0) {
        fn(base);
        return;
    }
    const int64_t innerSize = p.redSize[r - 1], innerStride = p.redStride[r - 1];
    idx.assign(r, 0);
    int64_t off = base;
    while (true) {
        for (int64_t i = 0; i < innerSize; ++i)
            fn(off + i * innerStride);
        size_t d = r - 1;
        while (true) {
            if (d == 0)
                return;
            --d;
            off += p.redStride[d];
            if (++idx[d] < p.redSize[d])
                break;
            off -= p.redStride[d] * p.redSize[d];
            idx[d] = 0;
        }
    }
}

bool keepdimOf(const KernelContext &ctx)
{
    return ctx.boolAttr("keepdim", ctx.boolAttr("keep_dim", false));
}

using kernels::ReduceOp;

template<class T> constexpr bool isFloatLike = !std::is_integral_v<T>;

template<class T, class O> void reduceTyped(const Tensor &x, Tensor &out, const ReducePlan &p, ReduceOp op)
{
    const T *in = x.data<T>();
    O *o = out.data<O>();
    std::vector<int64_t> scratch;
    // Integers accumulate modulo 2^64 (unsigned: no undefined overflow), read back as int64:
    // the two's complement wrap Paddle's int64 kernels give.
    using Acc = std::conditional_t<isFloatLike<T>, double, uint64_t>;
    using Wide = std::conditional_t<isFloatLike<T>, double, int64_t>;
    forEachOutput(p, [&](int64_t oi, int64_t base) {
        switch (op) {
        case ReduceOp::Sum:
        case ReduceOp::Mean: {
            Acc acc = 0;
            forEachReduced(p, base, scratch, [&](int64_t i) { acc += Acc(convertElement<Wide>(in[i])); });
            if (op == ReduceOp::Sum) {
                o[oi] = convertElement<O>(Wide(acc));
            } else {
                const double m = p.reduceCount > 0 ? double(Wide(acc)) / double(p.reduceCount)
                                                   : std::numeric_limits<double>::quiet_NaN();
                o[oi] = convertElement<O>(m);
            }
            break;
        }
        case ReduceOp::Prod: {
            Acc acc = 1;
            forEachReduced(p, base, scratch, [&](int64_t i) { acc *= Acc(convertElement<Wide>(in[i])); });
            o[oi] = convertElement<O>(Wide(acc));
            break;
        }
        case ReduceOp::Max:
        case ReduceOp::Min: {
            using C = ComputeType<T>;
            C best {};
            bool first = true, nan = false;
            const bool isMax = op == ReduceOp::Max;
            forEachReduced(p, base, scratch, [&](int64_t i) {
                const C v = convertElement<C>(in[i]);
                if constexpr (isFloatLike<T>)
                    nan |= std::isnan(v);
                if (first || (isMax ? v > best : v < best))
                    best = v;
                first = false;
            });
            if constexpr (isFloatLike<T>)
                if (nan)
                    best = std::numeric_limits<C>::quiet_NaN();
            o[oi] = convertElement<O>(best);
            break;
        }
        case ReduceOp::All:
        case ReduceOp::Any: {
            bool acc = op == ReduceOp::All;
            forEachReduced(p, base, scratch, [&](int64_t i) {
                const bool v = convertElement<bool>(in[i]);
                acc = op == ReduceOp::All ? (acc && v) : (acc || v);
            });
            o[oi] = convertElement<O>(acc);
            break;
        }
        }
    });
}

void reduceKernel(KernelContext &ctx, ReduceOp op)
{
    const std::string label = kernels::shortName(ctx);
    const Tensor &x = ctx.input(0);
    const kernels::ReduceSpec spec = kernels::reduceSpec(ctx, op, x.shape(), x.dtype());
    const ReducePlan p = makePlan(x.shape(), spec.reduced, keepdimOf(ctx));
    const DataType outType = spec.outType;
    Tensor out = Tensor::empty(p.outShape, outType);
    dispatchDtype(x.dtype(), label.c_str(), [&](auto tin) {
        using T = decltype(tin);
        dispatchDtype(outType, label.c_str(), [&](auto tout) {
            using O = decltype(tout);
            reduceTyped<T, O>(x, out, p, op);
        });
    });
    ctx.setOutput(0, out);
}

void sumKernel(KernelContext &ctx)
{
    reduceKernel(ctx, ReduceOp::Sum);
}
void meanKernel(KernelContext &ctx)
{
    reduceKernel(ctx, ReduceOp::Mean);
}
void prodKernel(KernelContext &ctx)
{
    reduceKernel(ctx, ReduceOp::Prod);
}
void maxKernel(KernelContext &ctx)
{
    reduceKernel(ctx, ReduceOp::Max);
}
void minKernel(KernelContext &ctx)
{
    reduceKernel(ctx, ReduceOp::Min);
}
void allKernel(KernelContext &ctx)
{
    reduceKernel(ctx, ReduceOp::All);
}
void anyKernel(KernelContext &ctx)
{
    reduceKernel(ctx, ReduceOp::Any);
}

} // namespace

void registerCpuReduceKernels(KernelRegistry &registry)
{
    registry.add("pd_op.sum", sumKernel);
    registry.add("pd_op.mean", meanKernel);
    registry.add("pd_op.prod", prodKernel);
    registry.add("pd_op.max", maxKernel);
    registry.add("pd_op.min", minKernel);
    registry.add("pd_op.amax", maxKernel);
    registry.add("pd_op.amin", minKernel);
    registry.add("pd_op.all", allKernel);
    registry.add("pd_op.any", anyKernel);
    kernels::registerRowReduceKernels<CpuExec>(registry);
}

} // namespace ps
