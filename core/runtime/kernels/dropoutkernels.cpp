#include "core/runtime/kernels/dropoutkernels.h"

#include <cstring>
#include <random>

namespace ps::kernels {

DropoutPlan dropoutPlan(const KernelContext &ctx, const std::vector<int64_t> &shape)
{
    const std::string label = shortName(ctx);
    DropoutPlan plan;
    plan.p = ctx.hasInput(2) ? ctx.inputAsScalar(2) : ctx.floatAttr("p", 0.5);
    if (plan.p < 0 || plan.p > 1)
        throw RuntimeError(label + ": p " + std::to_string(plan.p) + " outside [0, 1]");
    plan.isTest = ctx.boolAttr("is_test", false);
    const std::string mode = ctx.stringAttr("mode", std::string("downgrade_in_infer"));
    if (mode != "upscale_in_train" && mode != "downgrade_in_infer")
        throw RuntimeError(label + ": unknown mode '" + mode + "'");
    plan.upscale = mode == "upscale_in_train";
    plan.mask = Tensor::empty(shape, DataType::UInt8);
    uint8_t *m = plan.mask.data<uint8_t>();
    const int64_t n = plan.mask.numElements();
    if (plan.isTest || plan.p == 0) {
        std::memset(m, 1, size_t(n));
        plan.factor = plan.upscale ? 1.0 : 1.0 - plan.p;
        return plan;
    }
    const uint64_t seed = ctx.hasInput(1) ? uint64_t(ctx.inputAsScalar(1)) : uint64_t(ctx.intAttr("seed", 0));
    std::mt19937_64 rng(seed);
    for (int64_t i = 0; i < n; ++i) {
        const double u = double(rng() >> 11) * 0x1.0p-53;
        m[i] = plan.p < 1 && u >= plan.p ? 1 : 0;
    }
    plan.factor = plan.upscale ? (plan.p < 1 ? 1.0 / (1.0 - plan.p) : 0.0) : 1.0;
    return plan;
}

} // namespace ps::kernels
