#include "core/runtime/kernels/kernelfault.h"

namespace ps {

std::string faultMessage(uint32_t code, int64_t value, int64_t limit)
{
    switch (KernelFaultCode(code)) {
    case KernelFaultCode::None:
        return {};
    case KernelFaultCode::IndexOutOfRange:
        return "index " + std::to_string(value) + " is out of range for a dim of " + std::to_string(limit);
    case KernelFaultCode::IdOutOfRange:
        return "id " + std::to_string(value) + " is out of range for a vocabulary of " + std::to_string(limit);
    case KernelFaultCode::LabelOutOfRange:
        return "label " + std::to_string(value) + " is out of range for " + std::to_string(limit) + " classes";
    case KernelFaultCode::DivideByZero:
        return "integer division by zero";
    }
    return "kernel fault " + std::to_string(code);
}

} // namespace ps
