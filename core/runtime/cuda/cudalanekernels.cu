// argmax, argmin, cumsum, topk (one thread per lane), dropout and dropout_grad: the shared
// kernels of core/runtime/kernels run on CUDA grids (CudaExec).

#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/kernels/dropoutkernels.h"
#include "core/runtime/kernels/lanekernels.h"

PS_CUDA_NAMESPACE_BEGIN

void registerCudaLaneKernels(KernelRegistry &registry)
{
    kernels::registerLaneKernels<CudaExec>(registry);
    registry.add("pd_op.topk", &kernels::topkKernel<CudaExec>);
    kernels::registerDropoutKernels<CudaExec>(registry);
}

PS_CUDA_NAMESPACE_END
