#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/kernelregistry.h"

namespace ps {

void registerCpuElementwiseKernels(KernelRegistry &)
{
}

} // namespace ps
