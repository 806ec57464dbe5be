#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/kernels/poolspec.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <cmath>
#include <limits>
#include <vector>

namespace ps {
namespace {

// NCHW pooling of `in` into `out`. Max propagates NaN (an oracle should surface it; Paddle's
// comparison would skip it); a max window wholly in padding yields the lowest finite value, as
// Paddle's -FLT_MAX initial. Avg sums in double.
template<class T> void poolNchw(const PoolSpec &s, const T *in, T *out)
{
    using C = ComputeType<T>;
    std::vector<PoolSpec::Window> rows(static_cast<size_t>(s.outH)), cols(static_cast<size_t>(s.outW));
    for (int64_t oh = 0; oh < s.outH; ++oh)
        rows[size_t(oh)] = s.rowWindow(oh);
    for (int64_t ow = 0; ow < s.outW; ++ow)
        cols[size_t(ow)] = s.colWindow(ow);
    const int64_t planes = s.batch * s.channels;
    for (int64_t p = 0; p < planes; ++p) {
        const T *plane = in + p * s.inH * s.inW;
        T *o = out + p * s.outH * s.outW;
        for (int64_t oh = 0; oh < s.outH; ++oh) {
            const PoolSpec::Window &r = rows[size_t(oh)];
            for (int64_t ow = 0; ow < s.outW; ++ow) {
                const PoolSpec::Window &c = cols[size_t(ow)];
                if (s.isMax) {
                    // Once best is NaN no comparison replaces it: NaN propagates.
                    C best = std::numeric_limits<C>::lowest();
                    for (int64_t h = r.begin; h < r.end; ++h) {
                        const T *row = plane + h * s.inW;
                        for (int64_t w = c.begin; w < c.end; ++w) {
                            const C v = convertElement<C>(row[w]);
                            if (v > best || v != v)
                                best = v;
                        }
                    }
                    o[oh * s.outW + ow] = convertElement<T>(best);
                } else {
                    double sum = 0;
                    for (int64_t h = r.begin; h < r.end; ++h)
                        for (int64_t w = c.begin; w < c.end; ++w)
                            sum += double(convertElement<C>(plane[h * s.inW + w]));
                    o[oh * s.outW + ow] = convertElement<T>(C(sum / s.divisor(r, c)));
                }
            }
        }
    }
}

void pool2dKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    std::vector<int64_t> kernel;
    if (ctx.hasInput(1))
        kernel = ctx.inputAsInts(1);
    else
        kernel = ctx.intsAttr("kernel_size", ctx.intsAttr("ksize", std::vector<int64_t> {}));
    const PoolSpec s = PoolSpec::fromContext(ctx, x.shape(), kernel);
    const std::string label = kernels::shortName(ctx);
    dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        Tensor in = s.channelsLast ? permuteChannels(x, true) : x;
        PoolSpec nchw = s;
        nchw.channelsLast = false;
        Tensor out = Tensor::empty(nchw.outputShape(), x.dtype());
        if (out.numElements() > 0)
            poolNchw<T>(nchw, in.data<T>(), out.data<T>());
        ctx.setOutput(0, s.channelsLast ? permuteChannels(out, false) : out);
    });
}

} // namespace

void registerCpuPoolKernels(KernelRegistry &registry)
{
    registry.add("pd_op.pool2d", pool2dKernel);
}

} // namespace ps
