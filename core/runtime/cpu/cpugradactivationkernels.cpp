// The CPU backend's activation grads: the shared rules of core/runtime/kernels run by the host
// loop (CpuExec), in double as every CPU grad.

#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/kernels/activationgradkernels.h"

namespace ps {

void registerCpuGradActivationKernels(KernelRegistry &registry)
{
    kernels::registerActivationGradKernels<CpuExec>(registry);
}

} // namespace ps
