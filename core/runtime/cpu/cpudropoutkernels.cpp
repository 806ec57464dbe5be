// dropout and dropout_grad: the shared kernels of core/runtime/kernels run by the host loop.

#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/kernels/dropoutkernels.h"

namespace ps {

void registerCpuDropoutKernels(KernelRegistry &registry)
{
    kernels::registerDropoutKernels<CpuExec>(registry);
}

} // namespace ps
