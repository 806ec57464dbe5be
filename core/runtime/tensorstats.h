#pragma once

#include <cstdint>
#include <vector>

namespace ps {

class Tensor;

/// Summary of one tensor. min/max/mean/std are over finite elements only (NaN when there are
/// none); the histogram spans [min, max] of the finite elements in `histogram.size()` equal bins.
struct TensorStats
{
    int64_t count = 0;
    double min = 0;
    double max = 0;
    double mean = 0;
    double std = 0; ///< population standard deviation
    int64_t nanCount = 0;
    int64_t posInfCount = 0;
    int64_t negInfCount = 0;
    int64_t zeroCount = 0;
    std::vector<int64_t> histogram;

    bool allFinite() const { return nanCount == 0 && posInfCount == 0 && negInfCount == 0; }
};

/// Host implementation (the oracle for the CUDA one): one pass for the moments (Welford in
/// double), one for the histogram. `bins` may be 0.
TensorStats computeStatsHost(const Tensor &t, int bins = 64);

} // namespace ps
