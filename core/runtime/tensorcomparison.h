#pragma once

#include <cmath>
#include <cstdint>
#include <string>

namespace ps {

class Tensor;

/// How two host tensors differ. Elements match when |a - e| <= atol + rtol * |e|; NaN matches
/// NaN and an infinity matches the same infinity; integer and bool tensors must be equal
/// (atol/rtol apply to their values converted to double).
struct TensorComparison
{
    bool shapesMatch = true;
    bool dtypesMatch = true;
    int64_t count = 0;
    int64_t mismatches = 0;
    /// Row-major index of the worst element (largest excess over the tolerance), -1 when none.
    int64_t worstIndex = -1;
    double worstActual = 0;
    double worstExpected = 0;
    double maxAbsError = 0;
    /// max |a - e| / |e| over the elements with |e| > atol (smaller ones are judged by atol alone;
    /// their relative error says nothing).
    double maxRelError = 0;
    /// max |a - e| / (atol + rtol * |e|): above 1 is beyond the tolerance (infinite for a NaN or
    /// infinity that does not match).
    double maxToleranceRatio = 0;

    bool ok() const { return shapesMatch && dtypesMatch && mismatches == 0; }
    /// "ok (max abs 1e-7, max rel 3e-6)" or "3 of 24 elements differ; worst at 5: 1.5 vs 1.2 ...".
    std::string summary() const;

    /// The element rule, the one definition PIRScope uses (the interpreter's differential mode,
    /// `verify --numerics`, the inspector's compare): |a - e| <= atol + rtol * |e| for finite
    /// values (NumPy's allclose, `e` the reference); NaN matches NaN when `equalNan`; an infinity
    /// matches only the same infinity.
    static bool close(double actual, double expected, double rtol, double atol, bool equalNan = true)
    {
        if (std::isfinite(actual) && std::isfinite(expected))
            return std::fabs(actual - expected) <= atol + rtol * std::fabs(expected);
        if (std::isnan(actual) || std::isnan(expected))
            return equalNan && std::isnan(actual) && std::isnan(expected);
        return actual == expected;
    }

    /// Compares `actual` with `expected`; both must be host tensors. A dtype difference is
    /// reported (dtypesMatch false) but the values are still compared.
    static TensorComparison compare(const Tensor &actual, const Tensor &expected, double rtol, double atol);
};

} // namespace ps
