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

/// cross_entropy_with_softmax_grad (label, softmax, loss_grad). Hard labels hold class ids with a
/// 1 at `axis`; rows whose label is ignore_index get no gradient. With use_softmax the input
/// gradient is (softmax - label) * loss_grad; without it, `softmax` is the probability input and
/// the gradient is -label / p * loss_grad.
void crossEntropyWithSoftmaxGrad(KernelContext &ctx)
{
    const char *what = "cross_entropy_with_softmax_grad";
    const Tensor &label = ctx.input(0), &softmax = ctx.input(1), &lossGrad = ctx.input(2);
    requireFloating(softmax, what);
    const bool soft = ctx.boolAttr("soft_label", false), useSoftmax = ctx.boolAttr("use_softmax", true);
    const int64_t ignore = ctx.intAttr("ignore_index", -100);
    const int64_t rank = int64_t(softmax.rank());
    if (rank == 0)
        throw RuntimeError(std::string(what) + " needs a softmax of rank >= 1");
    const int64_t axis = normalizeAxisOrScalar(ctx.intAttr("axis", -1), rank, "axis");
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d) {
        if (d < axis)
            outer *= softmax.dim(size_t(d));
        else if (d > axis)
            inner *= softmax.dim(size_t(d));
    }
    const int64_t classes = softmax.dim(size_t(axis));
    const std::vector<double> p = values(softmax), lg = values(lossGrad), lab = values(label);
    if (int64_t(lg.size()) != outer * inner)
        throw RuntimeError(std::string(what) + ": loss_grad " + lossGrad.describe()
            + " does not match softmax " + softmax.describe());
    if (int64_t(lab.size()) != (soft ? int64_t(p.size()) : outer * inner))
        throw RuntimeError(std::string(what) + ": label " + label.describe() + " does not match softmax "
            + softmax.describe());
    std::vector<double> dx(p.size(), 0.0);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t in = 0; in < inner; ++in) {
            const size_t row = size_t(o * inner + in);
            const double g = lg[row];
            auto at = [&](int64_t c) { return size_t((o * classes + c) * inner + in); };
            if (soft) {
                for (int64_t c = 0; c < classes; ++c) {
                    const size_t i = at(c);
                    dx[i] = useSoftmax ? (p[i] - lab[i]) * g : -lab[i] / p[i] * g;
                }
                continue;
            }
            const int64_t target = int64_t(lab[row]);
            if (target == ignore)
                continue;
            if (target < 0 || target >= classes)
                throw RuntimeError(std::string(what) + ": label " + std::to_string(target)
                    + " is out of range for " + std::to_string(classes) + " classes");
            if (useSoftmax) {
                for (int64_t c = 0; c < classes; ++c)
                    dx[at(c)] = p[at(c)] * g;
                dx[at(target)] -= g;
            } else {
                dx[at(target)] = -g / p[at(target)];
            }
        }
    ctx.setOutput(0, makeTensor(ctx, softmax.shape(), softmax.dtype(), dx));
}

/// sigmoid_cross_entropy_with_logits_grad (x, label, pos_weight, out_grad). Paddle's loss is
/// (1 - z) x + w softplus(-x) (w = pos_weight or 1), so dx = ((1 - z) - w (1 - sigmoid(x))) * dout;
/// labels equal to ignore_index get 0, and `normalize` divides by the count of the others.
void sigmoidCrossEntropyWithLogitsGrad(KernelContext &ctx)
{
    const char *what = "sigmoid_cross_entropy_with_logits_grad";
    const Tensor &x = ctx.input(0), &label = ctx.input(1), &g = ctx.input(3);
    requireFloating(g, what);
    const std::vector<double> xv = values(x), zv = values(label), gv = values(g);
    std::vector<double> wv;
    if (ctx.hasInput(2))
        wv = values(ctx.input(2));
    if (zv.size() != xv.size() || gv.size() != xv.size() || (!wv.empty() && wv.size() != xv.size()))
        throw RuntimeError(std::string(what) + ": operands do not match x " + x.describe());
    const double ignore = double(ctx.intAttr("ignore_index", -100));
    const bool normalize = ctx.boolAttr("normalize", false);
    std::vector<double> dx(xv.size(), 0.0);
    double counted = 0.0;
    for (size_t i = 0; i < xv.size(); ++i) {
        if (std::abs(zv[i] - ignore) < 1e-5)
            continue;
        counted += 1.0;
        const double w = wv.empty() ? 1.0 : wv[i];
        const double s = 1.0 / (1.0 + std::exp(-xv[i]));
        dx[i] = ((1.0 - zv[i]) - w * (1.0 - s)) * gv[i];
    }
    if (normalize && counted > 0.0)
        for (double &v : dx)
            v /= counted;
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

} // namespace

void registerCpuGradLossKernels(KernelRegistry &registry)
{
    registry.add("pd_op.cross_entropy_with_softmax_grad", crossEntropyWithSoftmaxGrad);
    registry.add("pd_op.sigmoid_cross_entropy_with_logits_grad", sigmoidCrossEntropyWithLogitsGrad);
}

} // namespace ps
