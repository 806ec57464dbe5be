// nearest_interp, bilinear_interp and grid_sample: the shared kernels of core/runtime/kernels
// run by the host loop (CpuExec).

#include "core/runtime/cpu/cpuexec.h"
#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/kernels/imagekernels.h"

namespace ps {

void registerCpuImageKernels(KernelRegistry &registry)
{
    kernels::registerImageKernels<CpuExec>(registry);
}

} // namespace ps
