#include "ui/inspector/tensorcompare.h"

#include "core/runtime/tensorcomparison.h"
#include "ui/common/devicetext.h"
#include "ui/inspector/tensorslice.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace ps {

namespace {

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

std::string indexString(const std::vector<int64_t> &index)
{
    std::string s = "(";
    for (size_t i = 0; i < index.size(); ++i)
        s += (i ? ", " : "") + std::to_string(index[i]);
    return s + ")";
}

} // namespace

TensorCompare::Result TensorCompare::compare(const Tensor &a, const Tensor &b, const Options &options)
{
    Result r;
    r.nameA = options.nameA;
    r.nameB = options.nameB;
    auto readable = [&](const Tensor &t, const std::string &name) {
        if (!t.defined())
            r.error = name + " is undefined";
        else if (!t.device().isCpu())
            r.error = name + " is on " + DeviceText::of(t.device()).toStdString() + "; compare host copies";
        else if (!TensorSlice::canRead(t))
            r.error = name + " has dtype " + std::string(phiName(t.dtype())) + ", which cannot be compared";
        return r.error.empty();
    };
    if (!readable(a, options.nameA) || !readable(b, options.nameB))
        return r;
    if (a.shape() != b.shape()) {
        // A scalar against a one-element tensor is the same value (Paddle saves a 0-d loss as
        // [1]); TensorComparison::compare accepts it the same way.
        if (a.numElements() != 1 || b.numElements() != 1) {
            r.error = "shape mismatch: " + options.nameA + " is " + a.describe() + ", " + options.nameB
                + " is " + b.describe();
            return r;
        }
        r.note = options.nameA + " is " + a.describe() + ", " + options.nameB + " is " + b.describe()
            + ": one element each, compared as one value";
    }
    r.ok = true;
    r.count = a.numElements();
    r.diff = Tensor::empty(a.shape(), DataType::Float64);
    double *diff = r.diff.data<double>();
    // Flat 1-D slices read any dtype as double through one function pointer.
    const TensorSlice sa(a.reshaped({ r.count })), sb(b.reshaped({ r.count }));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int64_t i = 0; i < r.count; ++i) {
        const double x = sa.value(i, 0), y = sb.value(i, 0);
        const bool match = TensorComparison::close(x, y, options.rtol, options.atol, options.equalNan);
        if (std::isfinite(x) && std::isfinite(y)) {
            const double err = std::abs(x - y);
            diff[i] = x - y;
            r.maxAbsError = std::max(r.maxAbsError, err);
            if (y != 0)
                r.maxRelError = std::max(r.maxRelError, err / std::abs(y));
        } else if (std::isnan(x) || std::isnan(y)) {
            diff[i] = std::isnan(x) && std::isnan(y) ? 0 : nan;
        } else {
            diff[i] = x == y ? 0 : x - y; // at least one infinity
        }
        if (!match) {
            if (r.firstMismatch < 0) {
                r.firstMismatch = i;
                r.firstA = x;
                r.firstB = y;
            }
            ++r.mismatchCount;
        }
    }
    if (r.firstMismatch >= 0)
        r.firstMismatchIndex = TensorSlice::unflatten(r.firstMismatch, a.shape());
    return r;
}

std::string TensorCompare::Result::summary() const
{
    if (!ok)
        return error;
    std::string s = (note.empty() ? std::string() : note + "; ") + std::to_string(count)
        + " elements; max abs error " + number(maxAbsError) + ", max rel error " + number(maxRelError) + "; ";
    if (mismatchCount == 0)
        return s + "all within tolerance.";
    return s + std::to_string(mismatchCount) + " beyond tolerance; first at "
        + indexString(firstMismatchIndex) + ": " + nameA + " " + number(firstA) + " vs " + nameB + " "
        + number(firstB) + ".";
}

} // namespace ps
