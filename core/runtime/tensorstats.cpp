#include "core/runtime/tensorstats.h"

#include "core/runtime/dtypedispatch.h"
#include "core/runtime/tensor.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ps {

TensorStats computeStatsHost(const Tensor &t, int bins)
{
    TensorStats s;
    s.count = t.numElements();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    dispatchDtype(t.dtype(), "statistics", [&](auto tag) {
        using T = decltype(tag);
        const T *p = t.data<T>();
        double mean = 0, m2 = 0;
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        int64_t finite = 0;
        for (int64_t i = 0; i < s.count; ++i) {
            const double v = convertElement<double>(p[i]);
            if (std::isnan(v)) {
                ++s.nanCount;
                continue;
            }
            if (std::isinf(v)) {
                ++(v > 0 ? s.posInfCount : s.negInfCount);
                continue;
            }
            if (v == 0)
                ++s.zeroCount;
            ++finite;
            const double delta = v - mean;
            mean += delta / double(finite);
            m2 += delta * (v - mean);
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        s.min = finite ? lo : nan;
        s.max = finite ? hi : nan;
        s.mean = finite ? mean : nan;
        s.std = finite ? std::sqrt(m2 / double(finite)) : nan;
        if (bins <= 0 || finite == 0)
            return;
        s.histogram.assign(size_t(bins), 0);
        const double width = (hi - lo) / bins;
        for (int64_t i = 0; i < s.count; ++i) {
            const double v = convertElement<double>(p[i]);
            if (!std::isfinite(v))
                continue;
            int b = width > 0 ? int((v - lo) / width) : 0;
            ++s.histogram[size_t(std::clamp(b, 0, bins - 1))];
        }
    });
    return s;
}

} // namespace ps
