#pragma once

#include "core/runtime/cuda/cudanamespace.h"
#include "core/runtime/tensorstats.h"

namespace ps {
class Tensor;
}

PS_CUDA_NAMESPACE_BEGIN

struct CudaRuntime;

/// TensorStats of a device tensor in two streaming passes (moments, counts, min/max; then the
/// histogram against the device-resident min/max), one host copy of the result at the end.
/// Matches computeStatsHost: the same counts and bins, moments within double rounding.
TensorStats computeStatsCuda(CudaRuntime &rt, const Tensor &t, int bins);

PS_CUDA_NAMESPACE_END
