#include "core/runtime/tensorcomparison.h"

#include "core/runtime/tensor.h"

#include <cmath>
#include <sstream>

namespace ps {

std::string TensorComparison::summary() const
{
    std::ostringstream s;
    s.precision(6);
    if (!shapesMatch)
        return "shapes differ";
    if (!dtypesMatch)
        s << "dtypes differ; ";
    if (mismatches == 0) {
        s << "ok (max abs " << maxAbsError << ", max rel " << maxRelError << ")";
        return s.str();
    }
    s << mismatches << " of " << count << " elements differ; worst at " << worstIndex << ": " << worstActual
      << " vs " << worstExpected << " (max abs " << maxAbsError << ", max rel " << maxRelError << ")";
    return s.str();
}

TensorComparison TensorComparison::compare(
    const Tensor &actual, const Tensor &expected, double rtol, double atol)
{
    TensorComparison c;
    c.dtypesMatch = actual.dtype() == expected.dtype();
    if (actual.shape() != expected.shape()) {
        // A 1-element tensor against a 0-d one (Paddle's [1] vs []) still compares its value.
        if (!(actual.numElements() == 1 && expected.numElements() == 1)) {
            c.shapesMatch = false;
            return c;
        }
    }
    c.count = expected.numElements();
    const std::vector<double> a = actual.toDoubles();
    const std::vector<double> e = expected.toDoubles();
    double worstExcess = -1;
    for (size_t i = 0; i < e.size(); ++i) {
        const double x = a[i], y = e[i];
        if (!std::isfinite(x) || !std::isfinite(y)) {
            if (!close(x, y, rtol, atol)) {
                ++c.mismatches;
                c.maxToleranceRatio = INFINITY;
                if (worstExcess < INFINITY) {
                    worstExcess = INFINITY;
                    c.worstIndex = int64_t(i);
                    c.worstActual = x;
                    c.worstExpected = y;
                }
            }
            continue;
        }
        const double diff = std::fabs(x - y);
        c.maxAbsError = std::max(c.maxAbsError, diff);
        if (diff > 0 && std::fabs(y) > atol)
            c.maxRelError = std::max(c.maxRelError, diff / std::fabs(y));
        if (const double bound = atol + rtol * std::fabs(y); bound > 0)
            c.maxToleranceRatio = std::max(c.maxToleranceRatio, diff / bound);
        else if (diff > 0)
            c.maxToleranceRatio = INFINITY;
        if (!close(x, y, rtol, atol)) {
            const double excess = diff - (atol + rtol * std::fabs(y));
            ++c.mismatches;
            if (excess > worstExcess) {
                worstExcess = excess;
                c.worstIndex = int64_t(i);
                c.worstActual = x;
                c.worstExpected = y;
            }
        }
    }
    return c;
}

} // namespace ps
