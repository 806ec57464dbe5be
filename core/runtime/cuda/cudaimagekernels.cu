// nearest_interp, bilinear_interp and grid_sample: the shared kernels of core/runtime/kernels run
// on CUDA grids (CudaExec).

#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/kernels/imagekernels.h"

PS_CUDA_NAMESPACE_BEGIN

void registerCudaImageKernels(KernelRegistry &registry)
{
    kernels::registerImageKernels<CudaExec>(registry);
}

PS_CUDA_NAMESPACE_END
