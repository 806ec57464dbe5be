#pragma once

// The CUDA API the CUDA backend's sources see, and the one way they launch kernels. Under nvcc
// it is the real runtime, cuBLAS and half types. Compiled by g++ with PIRSCOPE_CUDA_SIM (the
// cuda-sim backend) it is the emulation in core/runtime/cudasim: the same sources then run on
// the host against "device" memory the host cannot read, with emulated blocks, barriers and
// warps. Internal to core/runtime/cuda (and cudasim).

#include <cstddef>
#include <utility>

#include "core/runtime/cuda/cudanamespace.h"

#ifdef PIRSCOPE_CUDA_SIM
#    include "core/runtime/cudasim/simapi.h"
#else
#    include <cublas_v2.h>
#    include <cuda_bf16.h>
#    include <cuda_fp16.h>
#    include <cuda_runtime.h>
#endif

/// `extern __shared__ T name[]`: the block's dynamic shared memory (the launch's `shared` bytes).
#ifdef PIRSCOPE_CUDA_SIM
#    define PS_DYNAMIC_SHARED(T, name) T *name = static_cast<T *>(::ps::cudasim::dynamicShared())
#else
#    define PS_DYNAMIC_SHARED(T, name) extern __shared__ T name[]
#endif

// The launchers exist where a kernel can be launched: in .cu files under nvcc, and everywhere
// in cuda-sim. The backend's host .cpp files (allocator, staging, backend) are compiled by the
// host compiler in a CUDA build too, where `<<<...>>>` is no C++.
#if defined(PIRSCOPE_CUDA_SIM) || defined(__CUDACC__)
PS_CUDA_NAMESPACE_BEGIN
namespace cuda {

/// Launches `kernel` over `grid` x `block` threads with `shared` bytes of dynamic shared memory
/// on `stream`; arguments are copied at launch, as CUDA does. cuda-sim runs each block's threads
/// as fibers that meet at barriers and warp shuffles.
template<class... P, class... A>
void launchKernel(void (*kernel)(P...), dim3 grid, dim3 block, size_t shared, cudaStream_t stream, A &&...args)
{
#ifdef PIRSCOPE_CUDA_SIM
    ::ps::cudasim::launch(kernel, grid, block, shared, stream, true, std::forward<A>(args)...);
#else
    kernel<<<grid, block, shared, stream>>>(std::forward<A>(args)...);
#endif
}

/// As launchKernel for a kernel whose threads never meet (no __syncthreads, shuffle or shared
/// memory): cuda-sim then runs each thread straight through, and stops with an error if one does
/// reach a barrier. The CUDA launch is the same.
template<class... P, class... A>
void launchIndependent(void (*kernel)(P...), dim3 grid, dim3 block, size_t shared, cudaStream_t stream, A &&...args)
{
#ifdef PIRSCOPE_CUDA_SIM
    ::ps::cudasim::launch(kernel, grid, block, shared, stream, false, std::forward<A>(args)...);
#else
    kernel<<<grid, block, shared, stream>>>(std::forward<A>(args)...);
#endif
}

} // namespace cuda
PS_CUDA_NAMESPACE_END
#endif
