#include "core/runtime/cpu/cpubackend.h"

#include "core/runtime/allocator.h"
#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/fusedkernels.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

namespace ps {

CpuBackend::CpuBackend()
{
    registerCpuElementwiseKernels(m_kernels);
    registerCpuShapeKernels(m_kernels);
    registerCpuNnKernels(m_kernels);
    registerCpuGradKernels(m_kernels);
    registerFusedKernels(m_kernels);
}

std::string CpuBackend::name() const
{
#ifdef PIRSCOPE_HAVE_CBLAS
    return "CPU (OpenBLAS)";
#else
    return "CPU";
#endif
}

Allocator &CpuBackend::allocator()
{
    return cpuAllocator();
}

Tensor CpuBackend::toHost(const Tensor &t)
{
    if (!t.device().isCpu())
        throw RuntimeError("the CPU backend cannot read a " + t.device().name() + " tensor; use its backend");
    return t;
}

Tensor CpuBackend::toDevice(const Tensor &t)
{
    return toHost(t);
}

TensorStats CpuBackend::stats(const Tensor &t, int bins)
{
    return computeStatsHost(toHost(t), bins);
}

std::unique_ptr<Backend> createCpuBackend()
{
    return std::make_unique<CpuBackend>();
}

} // namespace ps
