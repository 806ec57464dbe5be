#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <cstring>
#include <random>

namespace ps {
namespace {

// dropout(x, seed_tensor?, p) {is_test, mode, seed, fix_seed} -> out, mask (uint8).
// Inference (is_test) and p == 0: out = x ("upscale_in_train") or x * (1 - p)
// ("downgrade_in_infer"), mask all ones. Training with p > 0: a deterministic mask from
// std::mt19937_64 seeded with the seed_tensor value, else the `seed` attribute (whether or not
// fix_seed is set: a debugger run must be reproducible), keeping an element when a uniform
// [0, 1) draw is >= p; "upscale_in_train" scales kept elements by 1 / (1 - p). The mask will not
// match Paddle's random stream.
void dropoutKernel(KernelContext &ctx)
{
    const std::string label = nnOpLabel(ctx);
    const Tensor &x = ctx.input(0);
    const double p = ctx.hasInput(2) ? ctx.inputAsScalar(2) : ctx.floatAttr("p", 0.5);
    if (p < 0 || p > 1)
        throw RuntimeError(label + ": p " + std::to_string(p) + " outside [0, 1]");
    const bool isTest = ctx.boolAttr("is_test", false);
    const std::string mode = ctx.stringAttr("mode", std::string("downgrade_in_infer"));
    if (mode != "upscale_in_train" && mode != "downgrade_in_infer")
        throw RuntimeError(label + ": unknown mode '" + mode + "'");
    const bool upscale = mode == "upscale_in_train";
    const int64_t n = x.numElements();
    Tensor out = Tensor::empty(x.shape(), x.dtype());
    Tensor mask = Tensor::empty(x.shape(), DataType::UInt8);
    uint8_t *m = mask.data<uint8_t>();
    if (isTest || p == 0) {
        std::memset(m, 1, size_t(n));
    } else {
        const uint64_t seed
            = ctx.hasInput(1) ? uint64_t(ctx.inputAsScalar(1)) : uint64_t(ctx.intAttr("seed", 0));
        std::mt19937_64 rng(seed);
        for (int64_t i = 0; i < n; ++i) {
            const double u = double(rng() >> 11) * 0x1.0p-53;
            m[i] = p < 1 && u >= p ? 1 : 0;
        }
    }
    dispatchFloating(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        const T *in = x.data<T>();
        T *o = out.data<T>();
        double factor = 1.0;
        if (isTest || p == 0)
            factor = upscale ? 1.0 : 1.0 - p;
        else
            factor = upscale ? (p < 1 ? 1.0 / (1.0 - p) : 0.0) : 1.0;
        for (int64_t i = 0; i < n; ++i)
            o[i] = m[i] ? convertElement<T>(double(convertElement<double>(in[i])) * factor)
                        : convertElement<T>(0.0);
    });
    ctx.setOutput(0, out);
    if (ctx.numOutputs() > 1)
        ctx.setOutput(1, mask);
}

} // namespace

void registerCpuDropoutKernels(KernelRegistry &registry)
{
    registry.add("pd_op.dropout", dropoutKernel);
}

} // namespace ps
