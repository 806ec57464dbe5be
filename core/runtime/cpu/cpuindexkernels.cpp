#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/kernels/lanekernels.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <utility>
#include <vector>

namespace ps {
namespace {

template<class C> bool isNanValue(C v)
{
    if constexpr (std::is_floating_point_v<C>)
        return std::isnan(v);
    else
        return false;
}

// topk (x, k?) {axis, largest, sorted} -> values, int64 indices. Mirrors Paddle's CPU FullTopK so
// that ties come out in Paddle's order (libstdc++'s, not index order): (value, index) pairs,
// std::partial_sort when k * 64 < n, else std::nth_element then std::sort of the first k - 1;
// comparators largest: NaN first, then greater; smallest: NaN last, then less. Always sorted.
void topkKernel(KernelContext &ctx)
{
    const std::string label = kernels::shortName(ctx);
    const Tensor &x = ctx.input(0);
    const int64_t k = ctx.hasInput(1) ? int64_t(ctx.inputAsScalar(1)) : ctx.intAttr("k", 1);
    const int64_t axis = kernels::normalizeAxisOrScalar(ctx.intAttr("axis", -1), int64_t(x.rank()), label + " axis");
    const bool largest = ctx.boolAttr("largest", true);
    const AxisSplit s = splitAtAxis(x.shape(), axis);
    if (k < 0 || k > s.size)
        throw RuntimeError(label + ": k " + std::to_string(k) + " outside [0, " + std::to_string(s.size)
            + "] for x " + shapeText(x.shape()));
    std::vector<int64_t> outShape = x.shape();
    if (!outShape.empty())
        outShape[size_t(axis)] = k;
    Tensor values = Tensor::empty(outShape, x.dtype());
    Tensor indices = Tensor::empty(outShape, DataType::Int64);
    int64_t *idxOut = indices.data<int64_t>();
    dispatchDtype(x.dtype(), label.c_str(), [&](auto tag) {
        using T = decltype(tag);
        using C = ComputeType<T>;
        const T *in = x.data<T>();
        T *vals = values.data<T>();
        std::vector<std::pair<C, int64_t>> lane(static_cast<size_t>(s.size));
        auto greater = [](const std::pair<C, int64_t> &l, const std::pair<C, int64_t> &r) {
            return (isNanValue(l.first) && !isNanValue(r.first)) || l.first > r.first;
        };
        auto less = [](const std::pair<C, int64_t> &l, const std::pair<C, int64_t> &r) {
            return (!isNanValue(l.first) && isNanValue(r.first)) || l.first < r.first;
        };
        for (int64_t o = 0; o < s.outer; ++o)
            for (int64_t i = 0; i < s.inner; ++i) {
                const int64_t base = o * s.size * s.inner + i;
                for (int64_t q = 0; q < s.size; ++q)
                    lane[size_t(q)] = { convertElement<C>(in[base + q * s.inner]), q };
                if (k > 0 && k * 64 < s.size) {
                    if (largest)
                        std::partial_sort(lane.begin(), lane.begin() + k, lane.end(), greater);
                    else
                        std::partial_sort(lane.begin(), lane.begin() + k, lane.end(), less);
                } else if (k > 0) {
                    // nth_element, then a sort of the first k - 1 (the k-th is already in place).
                    if (largest) {
                        std::nth_element(lane.begin(), lane.begin() + k - 1, lane.end(), greater);
                        std::sort(lane.begin(), lane.begin() + k - 1, greater);
                    } else {
                        std::nth_element(lane.begin(), lane.begin() + k - 1, lane.end(), less);
                        std::sort(lane.begin(), lane.begin() + k - 1, less);
                    }
                }
                const int64_t outBase = o * k * s.inner + i;
                for (int64_t q = 0; q < k; ++q) {
                    idxOut[outBase + q * s.inner] = lane[size_t(q)].second;
                    vals[outBase + q * s.inner] = in[base + lane[size_t(q)].second * s.inner];
                }
            }
    });
    ctx.setOutput(0, values);
    ctx.setOutput(1, indices);
}

} // namespace

void registerCpuIndexKernels(KernelRegistry &registry)
{
    kernels::registerLaneKernels<CpuExec>(registry);
    registry.add("pd_op.topk", topkKernel);
}

} // namespace ps
