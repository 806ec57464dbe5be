#include "core/runtime/backend.h"

#ifdef PIRSCOPE_HAVE_CUDA
#    include "core/runtime/cuda/cudabackend.h"
#endif

namespace ps {

std::unique_ptr<Backend> createCudaBackend(int index, std::string &reason)
{
#ifdef PIRSCOPE_HAVE_CUDA
    return CudaBackend::create(index, reason);
#else
    (void)index;
    reason = "this build has no CUDA backend (nvcc was not found when it was configured)";
    return nullptr;
#endif
}

#ifndef PIRSCOPE_HAVE_CUDA_SIM
std::unique_ptr<Backend> createCudaSimBackend(std::string &reason)
{
    reason = "this build has no cuda-sim backend (configured with PIRSCOPE_CUDA_SIM=OFF)";
    return nullptr;
}
#endif

} // namespace ps
