#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/cpu/cpunnfamilies.h"

namespace ps {

void registerCpuNnKernels(KernelRegistry &registry)
{
    registerCpuMatmulKernels(registry);
    registerCpuConvKernels(registry);
    registerCpuConv3dKernels(registry);
    registerCpuPoolKernels(registry);
    registerCpuNormKernels(registry);
    registerCpuSoftmaxKernels(registry);
    registerCpuDropoutKernels(registry);
    registerCpuImageKernels(registry);
    registerCpuReduceKernels(registry);
    registerCpuIndexKernels(registry);
}

} // namespace ps
