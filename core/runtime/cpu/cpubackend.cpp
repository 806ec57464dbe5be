#include "core/runtime/cpu/cpubackend.h"

#include "core/runtime/allocator.h"
#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/fusedkernels.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#ifdef PIRSCOPE_HAVE_DNNL
#    include "core/runtime/onednn/onednnengine.h"
#    include "core/runtime/onednn/onednnkernels.h"
#endif

namespace ps {

const KernelRegistry &plainCpuKernels()
{
    static const KernelRegistry registry = [] {
        KernelRegistry r;
        registerCpuElementwiseKernels(r);
        registerCpuShapeKernels(r);
        registerCpuNnKernels(r);
        registerCpuGradKernels(r);
        registerFusedKernels(r);
        return r;
    }();
    return registry;
}

CpuBackend::CpuBackend(Kernels kernels)
    : m_kernels(plainCpuKernels())
    , m_plain(kernels == Kernels::Plain)
{
#ifdef PIRSCOPE_HAVE_DNNL
    if (!m_plain)
        registerOneDnnKernels(m_kernels);
#endif
}

bool CpuBackend::hasOneDnn()
{
#ifdef PIRSCOPE_HAVE_DNNL
    return true;
#else
    return false;
#endif
}

std::string CpuBackend::name() const
{
#ifdef PIRSCOPE_HAVE_CBLAS
    const std::string blas = "OpenBLAS";
#else
    const std::string blas;
#endif
    if (m_plain)
        return blas.empty() ? "CPU plain" : "CPU plain (" + blas + ")";
#ifdef PIRSCOPE_HAVE_DNNL
    return "CPU (" + oneDnnVersionText() + (blas.empty() ? "" : ", " + blas) + ")";
#else
    return "CPU (" + (blas.empty() ? std::string() : blas + "; ")
        + "built without oneDNN: the plain kernels)";
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
    return std::make_unique<CpuBackend>(CpuBackend::Kernels::OneDnn);
}

std::unique_ptr<Backend> createCpuPlainBackend()
{
    return std::make_unique<CpuBackend>(CpuBackend::Kernels::Plain);
}

} // namespace ps
