#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>

namespace ps {
namespace {

using namespace cpugrad;

/// A reduction's geometry: for every element of x, the index of its output element.
struct Reduction
{
    Shape kept;
    std::vector<int64_t> group;
    int64_t count = 1; ///< elements per output element
};

Reduction reductionOf(
    const KernelContext &ctx, const Tensor &x, const Tensor &grad, size_t axisOperand, const char *what)
{
    const std::vector<bool> reduced = reducedDims(
        axesOperandOrAttr(ctx, axisOperand), int64_t(x.rank()), ctx.boolAttr("reduce_all", false), what);
    Reduction r;
    r.kept = keptShape(x.shape(), reduced);
    if (numElementsOf(r.kept) != grad.numElements())
        throw RuntimeError(std::string(what) + ": out_grad " + grad.describe()
            + " does not match the reduction of " + x.describe());
    r.group = broadcastOffsets(r.kept, x.shape());
    const int64_t outCount = numElementsOf(r.kept);
    r.count = outCount == 0 ? 0 : x.numElements() / outCount;
    return r;
}

/// sum_grad / mean_grad (x, out_grad, axis): out_grad broadcast back, divided by the count for mean.
void sumMeanGrad(KernelContext &ctx, bool mean, const char *what)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(1);
    requireNumeric(g, what);
    const Reduction r = reductionOf(ctx, x, g, 2, what);
    const std::vector<double> gv = values(g);
    const double factor = mean ? 1.0 / double(std::max<int64_t>(r.count, 1)) : 1.0;
    std::vector<double> dx(r.group.size());
    for (size_t i = 0; i < dx.size(); ++i)
        dx[i] = gv[size_t(r.group[i])] * factor;
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

void sumGrad(KernelContext &ctx)
{
    sumMeanGrad(ctx, false, "sum_grad");
}

void meanGrad(KernelContext &ctx)
{
    sumMeanGrad(ctx, true, "mean_grad");
}

void meanAllGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(1);
    requireFloating(g, "mean_all_grad");
    if (g.numElements() != 1)
        throw RuntimeError("mean_all_grad: out_grad must hold one element, got " + g.describe());
    const double v = values(g)[0];
    std::vector<double> dx(size_t(x.numElements()), x.numElements() ? v / double(x.numElements()) : 0.0);
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

/// max_grad/min_grad/amax_grad/amin_grad (x, out, out_grad, axis): the gradient is shared evenly
/// by the elements equal to the result, as Paddle does.
void extremumGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(2);
    requireNumeric(g, "max_grad");
    const Reduction r = reductionOf(ctx, x, g, 3, "max_grad");
    const std::vector<double> xv = values(x), ov = values(ctx.input(1)), gv = values(g);
    if (ov.size() != gv.size())
        throw RuntimeError(
            "max_grad: out " + ctx.input(1).describe() + " does not match out_grad " + g.describe());
    std::vector<double> ties(gv.size(), 0.0), dx(xv.size(), 0.0);
    for (size_t i = 0; i < xv.size(); ++i)
        if (xv[i] == ov[size_t(r.group[i])])
            ties[size_t(r.group[i])] += 1.0;
    for (size_t i = 0; i < xv.size(); ++i) {
        const size_t o = size_t(r.group[i]);
        if (xv[i] == ov[o])
            dx[i] = gv[o] / ties[o];
    }
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

/// prod_grad (x, out, out_grad, axis): out_grad * out / x, as Paddle's ProdGradFunctor computes it
/// (so an x element equal to 0 gets 0 / 0 = NaN, as in Paddle).
void prodGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(2);
    requireNumeric(g, "prod_grad");
    const Reduction r = reductionOf(ctx, x, g, 3, "prod_grad");
    const std::vector<double> xv = values(x), ov = values(ctx.input(1)), gv = values(g);
    if (ov.size() != gv.size())
        throw RuntimeError(
            "prod_grad: out " + ctx.input(1).describe() + " does not match out_grad " + g.describe());
    std::vector<double> dx(xv.size());
    for (size_t i = 0; i < xv.size(); ++i) {
        const size_t o = size_t(r.group[i]);
        dx[i] = gv[o] * ov[o] / xv[i];
    }
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

/// logsumexp_grad (x, out, out_grad) with attribute axis: out_grad * exp(x - out).
void logsumexpGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(2);
    requireFloating(g, "logsumexp_grad");
    const Reduction r = reductionOf(ctx, x, g, 99, "logsumexp_grad");
    const std::vector<double> xv = values(x), ov = values(ctx.input(1)), gv = values(g);
    std::vector<double> dx(xv.size());
    for (size_t i = 0; i < xv.size(); ++i) {
        const size_t o = size_t(r.group[i]);
        dx[i] = gv[o] * std::exp(xv[i] - ov[o]);
    }
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

/// softmax_grad / log_softmax_grad (out, out_grad, axis).
void softmaxLikeGrad(KernelContext &ctx, bool logSoftmax)
{
    const char *what = logSoftmax ? "log_softmax_grad" : "softmax_grad";
    const Tensor &out = ctx.input(0), &g = ctx.input(1);
    requireFloating(g, what);
    if (out.shape() != g.shape())
        throw RuntimeError(
            std::string(what) + ": out " + out.describe() + " and out_grad " + g.describe() + " differ");
    const int64_t axis = normalizeAxisOrScalar(ctx.intAttr("axis", -1), int64_t(out.rank()), "axis");
    const AxisSplit s = splitAtAxis(out.shape(), out.rank() == 0 ? 0 : axis);
    const std::vector<double> ov = values(out), gv = values(g);
    std::vector<double> dx(ov.size());
    for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t in = 0; in < s.inner; ++in) {
            const int64_t base = o * s.size * s.inner + in;
            double sum = 0.0;
            for (int64_t k = 0; k < s.size; ++k) {
                const size_t i = size_t(base + k * s.inner);
                sum += logSoftmax ? gv[i] : gv[i] * ov[i];
            }
            for (int64_t k = 0; k < s.size; ++k) {
                const size_t i = size_t(base + k * s.inner);
                dx[i] = logSoftmax ? gv[i] - std::exp(ov[i]) * sum : ov[i] * (gv[i] - sum);
            }
        }
    ctx.setOutput(0, makeTensor(ctx, out.shape(), g.dtype(), dx));
}

void softmaxGrad(KernelContext &ctx)
{
    softmaxLikeGrad(ctx, false);
}

void logSoftmaxGrad(KernelContext &ctx)
{
    softmaxLikeGrad(ctx, true);
}

/// cumsum_grad (x, out_grad, axis): the cumulative sum of out_grad in the other direction
/// (same `exclusive`); `flatten` sums over x flattened.
void cumsumGrad(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0), &g = ctx.input(1);
    requireNumeric(g, "cumsum_grad");
    if (g.numElements() != x.numElements())
        throw RuntimeError("cumsum_grad: out_grad " + g.describe() + " does not match x " + x.describe());
    const bool flatten = ctx.boolAttr("flatten", false), exclusive = ctx.boolAttr("exclusive", false);
    const bool reverse = !ctx.boolAttr("reverse", false);
    const Shape shape = flatten || x.rank() == 0 ? Shape { x.numElements() } : x.shape();
    int64_t axis = 0;
    if (!flatten && x.rank() > 0) {
        axis = normalizeAxisOrScalar(scalarAxis(ctx, 2, -1), int64_t(x.rank()), "axis");
    }
    const AxisSplit s = splitAtAxis(shape, axis);
    const std::vector<double> gv = values(g);
    std::vector<double> dx(gv.size());
    for (int64_t o = 0; o < s.outer; ++o)
        for (int64_t in = 0; in < s.inner; ++in) {
            double run = 0.0;
            for (int64_t step = 0; step < s.size; ++step) {
                const int64_t k = reverse ? s.size - 1 - step : step;
                const size_t i = size_t(o * s.size * s.inner + k * s.inner + in);
                if (exclusive) {
                    dx[i] = run;
                    run += gv[i];
                } else {
                    run += gv[i];
                    dx[i] = run;
                }
            }
        }
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

} // namespace

void registerCpuGradReduceKernels(KernelRegistry &registry)
{
    registry.add("pd_op.sum_grad", sumGrad);
    registry.add("pd_op.mean_grad", meanGrad);
    registry.add("pd_op.mean_all_grad", meanAllGrad);
    registry.add("pd_op.max_grad", extremumGrad);
    registry.add("pd_op.min_grad", extremumGrad);
    registry.add("pd_op.amax_grad", extremumGrad);
    registry.add("pd_op.amin_grad", extremumGrad);
    registry.add("pd_op.prod_grad", prodGrad);
    registry.add("pd_op.logsumexp_grad", logsumexpGrad);
    registry.add("pd_op.softmax_grad", softmaxGrad);
    registry.add("pd_op.log_softmax_grad", logSoftmaxGrad);
    registry.add("pd_op.cumsum_grad", cumsumGrad);
}

} // namespace ps
