// The CPU backend's layout and indexing kernels: the shared kernels of core/runtime/kernels run
// by the host loop (CpuExec); elements move row by row with memcpy (cpushapecopy.cpp).

#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/kernels/indexingkernels.h"
#include "core/runtime/kernels/layoutkernels.h"
#include "core/runtime/kernels/unbindkernel.h"

namespace ps {

void registerCpuShapeKernels(KernelRegistry &registry)
{
    kernels::registerLayoutKernels<CpuExec>(registry);
    kernels::registerIndexingKernels<CpuExec>(registry);
    registry.add("pd_op.unbind", &kernels::unbindKernel<CpuExec>);
}

} // namespace ps
