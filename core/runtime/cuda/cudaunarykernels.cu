// The CUDA backend's unary kernels: kernels/unaryfunctors.h on CUDA grids (CudaExec).

#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/kernels/elementwisekernels.h"

PS_CUDA_NAMESPACE_BEGIN

void registerCudaUnaryKernels(KernelRegistry &registry)
{
    kernels::registerUnaryKernels<CudaExec>(registry);
}

PS_CUDA_NAMESPACE_END
