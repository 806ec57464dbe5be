#pragma once

#include "core/runtime/tensor.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ps {

/// Element-wise comparison of two host tensors of the same shape, or of one element each (a 0-d
/// scalar against Paddle's [1]), any readable dtypes, compared in double, for the inspector: the
/// element rule is the core's TensorComparison::close (|a - b| <= atol + rtol * |b|, b being the
/// reference); this adds the difference tensor and the first mismatch's N-d index. No Qt; one
/// pass over the elements.
class TensorCompare
{
public:
    struct Options
    {
        double rtol = 1e-5;
        double atol = 1e-8;
        bool equalNan = true; ///< NaN against NaN matches (a NaN against a number never does)
        std::string nameA = "a";
        std::string nameB = "b";
    };

    struct Result
    {
        bool ok = false; ///< false: `error` says why nothing was compared
        std::string error;
        std::string nameA, nameB; ///< from the options, for the summary
        /// Set when the shapes differ but both hold one element ([] against [1]): compared anyway.
        std::string note;
        int64_t count = 0;
        double maxAbsError = 0; ///< over pairs where both are finite
        double maxRelError = 0; ///< |a - b| / |b| over finite pairs with b != 0
        int64_t mismatchCount = 0; ///< elements beyond tolerance (NaN/Inf disagreements included)
        int64_t firstMismatch = -1; ///< row-major offset, -1 when everything matches
        std::vector<int64_t> firstMismatchIndex; ///< its N-d index (empty when none)
        double firstA = 0, firstB = 0; ///< the two values there
        Tensor diff; ///< float64, a - b, 0 where both are the same NaN/Inf, NaN where only one is NaN

        bool allClose() const { return ok && mismatchCount == 0; }
        /// One paragraph for the UI: errors, count beyond tolerance, first mismatch.
        std::string summary() const;
    };

    static Result compare(const Tensor &a, const Tensor &b, const Options &options);
    static Result compare(const Tensor &a, const Tensor &b) { return compare(a, b, Options()); }
};

} // namespace ps
