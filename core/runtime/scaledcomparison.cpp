#include "core/runtime/scaledcomparison.h"

#include "core/runtime/tensor.h"

#include <cmath>
#include <vector>

namespace ps {

double rootMeanSquare(const Tensor &t)
{
    const std::vector<double> values = t.toDoubles();
    double sum = 0;
    size_t count = 0;
    for (double v : values) {
        if (std::isfinite(v)) {
            sum += v * v;
            ++count;
        }
    }
    return count ? std::sqrt(sum / double(count)) : 0.0;
}

TensorComparison compareToScale(const Tensor &actual, const Tensor &expected, double rtol, double atol)
{
    return TensorComparison::compare(actual, expected, rtol, atol + rtol * rootMeanSquare(expected));
}

} // namespace ps
