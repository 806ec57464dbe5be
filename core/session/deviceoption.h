#pragma once

#include "core/runtime/device.h"

#include <string>

namespace ps {

/// One entry of the debugger's device list: a device the session can run on, or one that is
/// shown disabled with the reason (the CUDA backend's message).
struct DeviceOption
{
    Device device;
    /// What users read: "CPU (oneDNN 2.6, OpenBLAS)", "CUDA:0 NVIDIA H200", "CUDA (unavailable)",
    /// "CUDA emulated on the CPU (...)", "CPU, plain kernels (...)".
    std::string label;
    bool available = true;
    /// Why it is unavailable; empty otherwise.
    std::string reason;
};

} // namespace ps
