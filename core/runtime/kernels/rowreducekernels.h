#pragma once

// p_norm and logsumexp for both backends over an execution policy `Exec`: x is viewed as rows
// [outputs, reduced elements] (a gather moves the reduced dims last unless they already are),
// and one functor per output row folds its row in double, as the CPU oracle always did. One
// thread per row on the device: these ops are rare and small in the programs PIRScope runs.

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/elementtraits.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/layoutkernels.h"
#include "core/runtime/kernels/reducespec.h"

#include <limits>
#include <string>

namespace ps::kernels {

/// p_norm's fold: count non-zeros (p = 0), max |x| (p = inf), min |x| (p = -inf), or
/// (sum |x|^p)^(1/p).
enum class PNormMode { Count, Max, Min, Power };

template<class T> struct PNormRows
{
    const T *in;
    T *out;
    int64_t width;
    double porder, start;
    PNormMode mode;
    PS_HOST_DEVICE void operator()(int64_t o) const
    {
        const T *row = in + o * width;
        double acc = start;
        for (int64_t j = 0; j < width; ++j) {
            const double a = km::fabs(double(loadElement(row[j])));
            if (mode == PNormMode::Max)
                acc = acc < a ? a : acc;
            else if (mode == PNormMode::Min)
                acc = a < acc ? a : acc;
            else if (mode == PNormMode::Count)
                acc += a != 0 ? 1.0 : 0.0;
            else
                acc += km::pow(a, porder);
        }
        out[o] = storeElement<T>(mode == PNormMode::Power ? km::pow(acc, 1.0 / porder) : acc);
    }
};

/// log(sum exp(x)) shifted by the row's max; a row whose max is infinite (or that is empty)
/// gives that max.
template<class T> struct LogSumExpRows
{
    const T *in;
    T *out;
    int64_t width;
    double infinity;
    PS_HOST_DEVICE void operator()(int64_t o) const
    {
        const T *row = in + o * width;
        double mx = -infinity;
        for (int64_t j = 0; j < width; ++j) {
            const double v = double(loadElement(row[j]));
            mx = mx < v ? v : mx;
        }
        if (mx == infinity || mx == -infinity) {
            out[o] = storeElement<T>(mx);
            return;
        }
        double sum = 0;
        for (int64_t j = 0; j < width; ++j)
            sum += km::exp(double(loadElement(row[j])) - mx);
        out[o] = storeElement<T>(mx + km::log(sum));
    }
};

/// x as contiguous rows [outCount, reduceCount]: x itself when the reduced dims are already
/// last, else a copy with the kept dims first.
template<class Exec> Tensor reducedLast(const Exec &exec, const Tensor &x, const std::vector<bool> &reduced)
{
    std::vector<int64_t> perm;
    for (size_t d = 0; d < reduced.size(); ++d)
        if (!reduced[d])
            perm.push_back(int64_t(d));
    for (size_t d = 0; d < reduced.size(); ++d)
        if (reduced[d])
            perm.push_back(int64_t(d));
    bool inOrder = true;
    for (size_t d = 0; d < perm.size(); ++d)
        inOrder = inOrder && perm[d] == int64_t(d);
    return inOrder ? x : gatherView(exec, x, transposeView(x.shape(), perm));
}

/// p_norm (x) {porder, axis, epsilon, keepdim, asvector}: asvector reduces every axis.
template<class Exec> void pNormKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = exec.input(0);
    const double porder = ctx.floatAttr("porder", 2.0);
    const bool asVector = ctx.boolAttr("asvector", false);
    const std::vector<int64_t> axes
        = asVector ? std::vector<int64_t> {} : std::vector<int64_t> { ctx.intAttr("axis", -1) };
    const ReduceSpec s = reduceShape(x.shape(),
        reducedDims(axes, int64_t(x.rank()), asVector, label + " axis"), ctx.boolAttr("keepdim", false));
    const double infinity = std::numeric_limits<double>::infinity();
    const bool inf = porder == infinity || porder == -infinity;
    const PNormMode mode = inf ? (porder > 0 ? PNormMode::Max : PNormMode::Min)
                               : (porder == 0 ? PNormMode::Count : PNormMode::Power);
    Tensor out = exec.allocate(s.outShape, x.dtype());
    Exec::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const Tensor rows = reducedLast(exec, x, s.reduced);
        exec.launch(s.outCount,
            PNormRows<T> { static_cast<const T *>(rows.rawData()), static_cast<T *>(out.rawData()),
                s.reduceCount, porder, mode == PNormMode::Min ? infinity : 0.0, mode },
            label.c_str());
    });
    ctx.setOutput(0, out);
}

/// logsumexp (x) {axis, keepdim, reduce_all}.
template<class Exec> void logsumexpKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::string label = shortName(ctx);
    const Tensor x = exec.input(0);
    const ReduceSpec s = reduceShape(x.shape(),
        reducedDims(ctx.intsAttr("axis", std::vector<int64_t> {}), int64_t(x.rank()),
            ctx.boolAttr("reduce_all", false), label + " axis"),
        ctx.boolAttr("keepdim", ctx.boolAttr("keep_dim", false)));
    Tensor out = exec.allocate(s.outShape, x.dtype());
    Exec::dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const Tensor rows = reducedLast(exec, x, s.reduced);
        exec.launch(s.outCount,
            LogSumExpRows<T> { static_cast<const T *>(rows.rawData()), static_cast<T *>(out.rawData()),
                s.reduceCount, std::numeric_limits<double>::infinity() },
            label.c_str());
    });
    ctx.setOutput(0, out);
}

template<class Exec> void registerRowReduceKernels(KernelRegistry &registry)
{
    registry.add("pd_op.p_norm", &pNormKernel<Exec>);
    registry.add("pd_op.logsumexp", &logsumexpKernel<Exec>);
}

} // namespace ps::kernels
