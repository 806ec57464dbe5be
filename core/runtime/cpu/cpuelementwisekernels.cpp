// The CPU backend's elementwise and tensor-creating kernels: the shared kernels of
// core/runtime/kernels run by the host loop (CpuExec).

#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/kernels/creationkernels.h"
#include "core/runtime/kernels/elementwisekernels.h"

namespace ps {

void registerCpuElementwiseKernels(KernelRegistry &registry)
{
    kernels::registerBinaryKernels<CpuExec>(registry);
    kernels::registerUnaryKernels<CpuExec>(registry);
    kernels::registerCreationKernels<CpuExec>(registry);
}

} // namespace ps
