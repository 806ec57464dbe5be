#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/groupnormkernels.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace ps {
namespace {

// Statistics are accumulated in double (two passes) whatever the dtype: the oracle favours
// accuracy over matching Paddle's float rounding.

// A per-channel parameter (scale, bias, running stats) as doubles; `fallback` when the operand
// is null. Throws when its element count is not `count`.
std::vector<double> channelParam(const KernelContext &ctx, size_t i, int64_t count, double fallback,
    const std::string &label, const char *what, const Tensor &x)
{
    if (!ctx.hasInput(i))
        return std::vector<double>(size_t(count), fallback);
    const Tensor &t = ctx.input(i);
    if (t.numElements() != count)
        throw RuntimeError(label + ": " + what + " " + shapeText(t.shape()) + " must hold "
            + std::to_string(count) + " elements for x " + shapeText(x.shape()));
    return t.toDoubles();
}

// Writes `values` into `t` (any floating dtype) in place.
void storeDoubles(Tensor &t, const std::vector<double> &values)
{
    dispatchDtype(t.dtype(), "store", [&](auto tag) {
        using T = decltype(tag);
        T *p = t.data<T>();
        for (size_t i = 0; i < values.size(); ++i)
            p[i] = convertElement<T>(values[i]);
    });
}

Tensor tensorOf(const std::vector<int64_t> &shape, DataType dtype, const std::vector<double> &values)
{
    return Tensor::fromDoubles(shape, dtype, values);
}

DataType statsType(DataType x)
{
    return kernels::isHalfType(x) ? DataType::Float32 : x;
}

void batchNormKernel(KernelContext &ctx)
{
    const std::string label = kernels::shortName(ctx);
    const Tensor &x = ctx.input(0);
    const ChannelView v
        = channelView(x.shape(), isChannelsLast(ctx.stringAttr("data_format", std::string("NCHW"))), label);
    const bool isTest = ctx.boolAttr("is_test", false);
    const bool globalStats
        = (isTest && !ctx.boolAttr("trainable_statistics", false)) || ctx.boolAttr("use_global_stats", false);
    const double momentum = ctx.floatAttr("momentum", 0.9);
    const double epsilon = ctx.floatAttr("epsilon", 1e-5);
    const int64_t c = v.channels;
    std::vector<double> runMean = channelParam(ctx, 1, c, 0.0, label, "mean", x);
    std::vector<double> runVar = channelParam(ctx, 2, c, 1.0, label, "variance", x);
    const std::vector<double> scale = channelParam(ctx, 3, c, 1.0, label, "scale", x);
    const std::vector<double> bias = channelParam(ctx, 4, c, 0.0, label, "bias", x);

    std::vector<double> mu(static_cast<size_t>(c)), var(static_cast<size_t>(c)),
        invStd(static_cast<size_t>(c));
    Tensor out = Tensor::empty(x.shape(), x.dtype());
    dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const T *in = x.data<T>();
        T *o = out.data<T>();
        const int64_t count = v.outer * v.inner;
        for (int64_t ch = 0; ch < c; ++ch) {
            if (globalStats) {
                mu[size_t(ch)] = runMean[size_t(ch)];
                var[size_t(ch)] = runVar[size_t(ch)];
            } else {
                double sum = 0;
                for (int64_t q = 0; q < v.outer; ++q)
                    for (int64_t i = 0; i < v.inner; ++i)
                        sum += double(convertElement<double>(in[(q * c + ch) * v.inner + i]));
                const double m = count > 0 ? sum / double(count) : 0.0;
                double sq = 0;
                for (int64_t q = 0; q < v.outer; ++q)
                    for (int64_t i = 0; i < v.inner; ++i) {
                        const double d = double(convertElement<double>(in[(q * c + ch) * v.inner + i])) - m;
                        sq += d * d;
                    }
                mu[size_t(ch)] = m;
                var[size_t(ch)] = count > 0 ? sq / double(count) : 0.0;
            }
            invStd[size_t(ch)] = 1.0 / std::sqrt(var[size_t(ch)] + epsilon);
            const double a = invStd[size_t(ch)] * scale[size_t(ch)];
            const double b = bias[size_t(ch)] - mu[size_t(ch)] * a;
            for (int64_t q = 0; q < v.outer; ++q)
                for (int64_t i = 0; i < v.inner; ++i) {
                    const int64_t idx = (q * c + ch) * v.inner + i;
                    o[idx] = convertElement<T>(double(convertElement<double>(in[idx])) * a + b);
                }
        }
    });
    ctx.setOutput(0, out);

    const DataType sdt = ctx.hasInput(1) ? ctx.input(1).dtype() : statsType(x.dtype());
    // mean_out / variance_out share the running-stat operands' storage (Paddle's inplace map
    // mean -> mean_out, variance -> variance_out), updated as running * momentum + batch * (1 - momentum)
    // with the biased batch variance.
    auto runningOutput = [&](size_t operand, std::vector<double> &running, const std::vector<double> &batch) {
        if (!globalStats)
            for (int64_t ch = 0; ch < c; ++ch)
                running[size_t(ch)] = running[size_t(ch)] * momentum + batch[size_t(ch)] * (1.0 - momentum);
        if (ctx.hasInput(operand)) {
            Tensor t = ctx.input(operand);
            if (!globalStats)
                storeDoubles(t, running);
            return t;
        }
        return tensorOf({ c }, sdt, running);
    };
    if (ctx.numOutputs() > 1)
        ctx.setOutput(1, runningOutput(1, runMean, mu));
    if (ctx.numOutputs() > 2)
        ctx.setOutput(2, runningOutput(2, runVar, var));
    // saved_mean / saved_variance: the batch mean and inverse std in training; zeros with global
    // statistics (Paddle leaves them uninitialised there).
    if (ctx.numOutputs() > 3)
        ctx.setOutput(3, tensorOf({ c }, sdt, globalStats ? std::vector<double>(size_t(c), 0.0) : mu));
    if (ctx.numOutputs() > 4)
        ctx.setOutput(4, tensorOf({ c }, sdt, globalStats ? std::vector<double>(size_t(c), 0.0) : invStd));
    if (ctx.numOutputs() > 5)
        ctx.setOutput(5, Tensor::empty({ 0 }, DataType::UInt8));
}

// Normalises `rows` groups given by `elementOf(row, k)` for k < perRow; returns per-row mean/var.
template<class T, class Index, class Affine>
void normalizeRows(const T *in, T *out, int64_t rows, int64_t perRow, double epsilon, Index &&elementOf,
    Affine &&affine, std::vector<double> &mean, std::vector<double> &var)
{
    mean.assign(size_t(rows), 0.0);
    var.assign(size_t(rows), 0.0);
    for (int64_t r = 0; r < rows; ++r) {
        double sum = 0;
        for (int64_t k = 0; k < perRow; ++k)
            sum += double(convertElement<double>(in[elementOf(r, k)]));
        const double m = perRow > 0 ? sum / double(perRow) : 0.0;
        double sq = 0;
        for (int64_t k = 0; k < perRow; ++k) {
            const double d = double(convertElement<double>(in[elementOf(r, k)])) - m;
            sq += d * d;
        }
        const double vr = perRow > 0 ? sq / double(perRow) : 0.0;
        const double inv = 1.0 / std::sqrt(vr + epsilon);
        for (int64_t k = 0; k < perRow; ++k) {
            const int64_t idx = elementOf(r, k);
            out[idx] = convertElement<T>(affine(r, k, (double(convertElement<double>(in[idx])) - m) * inv));
        }
        mean[size_t(r)] = m;
        var[size_t(r)] = vr;
    }
}

void layerNormKernel(KernelContext &ctx)
{
    const std::string label = kernels::shortName(ctx);
    const Tensor &x = ctx.input(0);
    const int64_t begin = ctx.intAttr("begin_norm_axis", 1);
    if (begin < 0 || begin > int64_t(x.rank()) || (x.rank() > 0 && begin == int64_t(x.rank())))
        throw RuntimeError(label + ": begin_norm_axis " + std::to_string(begin) + " out of range for x "
            + shapeText(x.shape()));
    const double epsilon = ctx.floatAttr("epsilon", 1e-5);
    std::vector<int64_t> lead(x.shape().begin(), x.shape().begin() + begin);
    const int64_t rows = numElementsOf(lead);
    const int64_t cols = rows > 0 ? x.numElements() / rows : 0;
    const std::vector<double> scale = channelParam(ctx, 1, cols, 1.0, label, "scale", x);
    const std::vector<double> bias = channelParam(ctx, 2, cols, 0.0, label, "bias", x);
    Tensor out = Tensor::empty(x.shape(), x.dtype());
    std::vector<double> mean, var;
    dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        normalizeRows(
            x.data<T>(), out.data<T>(), rows, cols, epsilon,
            [cols](int64_t r, int64_t k) { return r * cols + k; },
            [&](int64_t, int64_t k, double v) { return v * scale[size_t(k)] + bias[size_t(k)]; }, mean, var);
    });
    ctx.setOutput(0, out);
    if (ctx.numOutputs() > 1)
        ctx.setOutput(1, tensorOf(lead, statsType(x.dtype()), mean));
    if (ctx.numOutputs() > 2)
        ctx.setOutput(2, tensorOf(lead, statsType(x.dtype()), var));
}

} // namespace

void registerCpuNormKernels(KernelRegistry &registry)
{
    registry.add("pd_op.batch_norm", batchNormKernel);
    registry.add("pd_op.batch_norm_", batchNormKernel);
    registry.add("pd_op.layer_norm", layerNormKernel);
    kernels::registerGroupNormKernels<CpuExec>(registry);
}

} // namespace ps
