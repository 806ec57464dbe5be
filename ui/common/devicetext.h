#pragma once

#include "core/runtime/device.h"

#include <QString>

namespace ps {

/// How panels name a device for people: "CPU", "CPU (plain kernels)", "CUDA:0",
/// "CUDA:0 (emulated on the CPU)". Device::name() ("cuda-sim:0") is the command line's spelling.
struct DeviceText
{
    static QString of(Device device);
};

} // namespace ps
