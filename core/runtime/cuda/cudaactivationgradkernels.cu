// The CUDA backend's activation grads: kernels/activationgradfunctors.h on CUDA grids (CudaExec).

#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/kernels/activationgradkernels.h"

PS_CUDA_NAMESPACE_BEGIN

void registerCudaActivationGradKernels(KernelRegistry &registry)
{
    kernels::registerActivationGradKernels<CudaExec>(registry);
}

PS_CUDA_NAMESPACE_END
