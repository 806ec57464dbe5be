#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/kernelregistry.h"

namespace ps {

void registerCpuGradKernels(KernelRegistry &registry)
{
    registerCpuGradBinaryKernels(registry);
    registerCpuGradActivationKernels(registry);
    registerCpuGradMatmulKernels(registry);
    registerCpuGradConvKernels(registry);
    registerCpuGradPoolKernels(registry);
    registerCpuGradNormKernels(registry);
    registerCpuGradReduceKernels(registry);
    registerCpuGradShapeKernels(registry);
    registerCpuGradIndexKernels(registry);
    registerCpuGradLossKernels(registry);
}

} // namespace ps
