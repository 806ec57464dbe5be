// The CUDA backend's layout and indexing kernels: the shared kernels of core/runtime/kernels
// run on CUDA grids (CudaExec), and the strided gather/scatter helpers other CUDA kernel files
// build on (64-bit index paths: concat and split are scatters and gathers, not pitched copies).

#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernels/indexingkernels.h"
#include "core/runtime/kernels/layoutkernels.h"
#include "core/runtime/kernels/unbindkernel.h"

PS_CUDA_NAMESPACE_BEGIN
namespace cuda {

void gatherInto(CudaRuntime &rt, const Tensor &x, Tensor &out, const std::vector<int64_t> &sizes,
    const std::vector<int64_t> &strides, int64_t base)
{
    CudaExec(rt).gather(x, out, StridedView { sizes, strides, base });
}

void scatterInto(CudaRuntime &rt, const Tensor &x, Tensor &out, const std::vector<int64_t> &sizes,
    const std::vector<int64_t> &strides, int64_t base)
{
    CudaExec(rt).scatter(x, out, StridedView { sizes, strides, base });
}

Tensor permute(CudaRuntime &rt, const Tensor &x, const std::vector<int64_t> &perm)
{
    return kernels::gatherView(CudaExec(rt), x, transposeView(x.shape(), perm));
}

} // namespace cuda

void registerCudaShapeKernels(KernelRegistry &registry)
{
    kernels::registerLayoutKernels<CudaExec>(registry);
    kernels::registerIndexingKernels<CudaExec>(registry);
    registry.add("pd_op.unbind", &kernels::unbindKernel<CudaExec>);
}

PS_CUDA_NAMESPACE_END
