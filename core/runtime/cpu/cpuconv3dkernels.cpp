#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/conv3dspec.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <vector>

namespace ps {
namespace {

// The reference conv3d (the oracle the oneDNN kernel is checked against): every output element
// is the plain sum over its window, NCDHW, accumulated in the compute type. O(out * window); the
// models with conv3d that PIRScope meets are small volumes.
template<class T> void conv3dForward(const Conv3dSpec &s, const T *in, const T *filter, T *out)
{
    const int64_t cig = s.inChannelsPerGroup(), cog = s.outChannelsPerGroup();
    const int64_t inVolume = s.in[0] * s.in[1] * s.in[2];
    const int64_t kVolume = s.kernel[0] * s.kernel[1] * s.kernel[2];
    for (int64_t n = 0; n < s.batch; ++n)
        for (int64_t oc = 0; oc < s.outChannels; ++oc) {
            const int64_t firstIn = (oc / cog) * cig;
            const T *w = filter + oc * cig * kVolume;
            for (int64_t od = 0; od < s.out[0]; ++od)
                for (int64_t oh = 0; oh < s.out[1]; ++oh)
                    for (int64_t ow = 0; ow < s.out[2]; ++ow) {
                        T sum = T(0);
                        for (int64_t ic = 0; ic < cig; ++ic) {
                            const T *image = in + (n * s.inChannels + firstIn + ic) * inVolume;
                            for (int64_t kd = 0; kd < s.kernel[0]; ++kd) {
                                const int64_t id = od * s.stride[0] - s.padBegin[0] + kd * s.dilation[0];
                                if (id < 0 || id >= s.in[0])
                                    continue;
                                for (int64_t kh = 0; kh < s.kernel[1]; ++kh) {
                                    const int64_t ih = oh * s.stride[1] - s.padBegin[1] + kh * s.dilation[1];
                                    if (ih < 0 || ih >= s.in[1])
                                        continue;
                                    for (int64_t kw = 0; kw < s.kernel[2]; ++kw) {
                                        const int64_t iw
                                            = ow * s.stride[2] - s.padBegin[2] + kw * s.dilation[2];
                                        if (iw < 0 || iw >= s.in[2])
                                            continue;
                                        sum += image[(id * s.in[1] + ih) * s.in[2] + iw]
                                            * w[((ic * s.kernel[0] + kd) * s.kernel[1] + kh) * s.kernel[2]
                                                + kw];
                                    }
                                }
                            }
                        }
                        out[(((n * s.outChannels + oc) * s.out[0] + od) * s.out[1] + oh) * s.out[2] + ow]
                            = sum;
                    }
        }
}

// NDHWC <-> NCDHW through the 4-D permutation: the three spatial dims seen as one.
Tensor ndhwcToNcdhw(const Tensor &t)
{
    const Tensor flat = t.reshaped({ t.dim(0), 1, t.dim(1) * t.dim(2) * t.dim(3), t.dim(4) });
    return permuteChannels(flat, true).reshaped({ t.dim(0), t.dim(4), t.dim(1), t.dim(2), t.dim(3) });
}

Tensor ncdhwToNdhwc(const Tensor &t)
{
    const Tensor flat = t.reshaped({ t.dim(0), t.dim(1), 1, t.dim(2) * t.dim(3) * t.dim(4) });
    return permuteChannels(flat, false).reshaped({ t.dim(0), t.dim(2), t.dim(3), t.dim(4), t.dim(1) });
}

void conv3dKernel(KernelContext &ctx)
{
    const Tensor &input = ctx.input(0);
    const Tensor &filter = ctx.input(1);
    const std::string label = kernels::shortName(ctx);
    const Conv3dSpec s = Conv3dSpec::forward(ctx, input.shape(), filter.shape());
    const DataType compute = convComputeType(label, input, filter);
    Tensor in = convertTensor(input, compute);
    const Tensor w = convertTensor(filter, compute);
    if (s.channelsLast)
        in = ndhwcToNcdhw(in);
    Conv3dSpec ncdhw = s;
    ncdhw.channelsLast = false;
    Tensor out = Tensor::empty(ncdhw.outputShape(), compute);
    if (compute == DataType::Float64)
        conv3dForward(ncdhw, in.data<double>(), w.data<double>(), out.data<double>());
    else
        conv3dForward(ncdhw, in.data<float>(), w.data<float>(), out.data<float>());
    if (s.channelsLast)
        out = ncdhwToNdhwc(out);
    ctx.setOutput(0, convertTensor(out, input.dtype()));
}

} // namespace

void registerCpuConv3dKernels(KernelRegistry &registry)
{
    registry.add("pd_op.conv3d", conv3dKernel);
}

} // namespace ps
