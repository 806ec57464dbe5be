#pragma once

// Bad data a kernel meets while it runs (an id out of range, an integer division by zero). A
// device cannot throw, so shared functors record the first such fault in a KernelFault and go on
// with a harmless value; the CPU backend raises it as a RuntimeError right after the loop, the
// CUDA backend at the next synchronize (the record lives in host-mapped memory there).

#include "core/runtime/kernels/hostdevice.h"

#include <cstdint>
#include <string>

namespace ps {

enum class KernelFaultCode : uint32_t {
    None = 0,
    IndexOutOfRange = 1, ///< gather/index_select/gather_nd/one_hot/topk indices
    IdOutOfRange = 2, ///< embedding ids
    LabelOutOfRange = 3, ///< cross-entropy labels
    DivideByZero = 4, ///< integer division or remainder
};

struct KernelFault
{
    uint32_t code = 0;
    int64_t value = 0; ///< the offending index, id or label
    int64_t limit = 0; ///< the size it had to stay below
};

/// Records a fault (racing threads may each write one; any of them is reported).
PS_HOST_DEVICE PS_INLINE void raiseFault(
    volatile KernelFault *fault, KernelFaultCode code, int64_t value = 0, int64_t limit = 0)
{
    if (!fault)
        return;
    fault->value = value;
    fault->limit = limit;
    fault->code = uint32_t(code);
}

/// "index 5 is out of range for a dim of 2", "id 7 is out of range for a vocabulary of 4",
/// "label 3 is out of range for 3 classes", "integer division by zero".
std::string faultMessage(uint32_t code, int64_t value, int64_t limit);

} // namespace ps
