#pragma once

#include "core/runtime/tensorstats.h"

namespace ps {

struct CudaRuntime;
class Tensor;

/// TensorStats of a device tensor in two streaming passes (moments, counts, min/max; then the
/// histogram against the device-resident min/max), one host copy of the result at the end.
/// Matches computeStatsHost: the same counts and bins, moments within double rounding.
TensorStats computeStatsCuda(CudaRuntime &rt, const Tensor &t, int bins);

} // namespace ps
