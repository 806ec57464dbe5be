#pragma once

#include "core/runtime/device.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace ps {

class Backend;

/// A device as `--device` spells it: "cpu", "cpu-plain" (the plain CPU kernels, the oracle),
/// "cuda" or "cuda:" (device 0), "cuda:N" (N at most 1023) or "cuda-sim". Nullopt with `error`:
/// "the CUDA device index: <why>" for a "cuda:" whose N is not a number in range, else
/// "unknown device '<text>' (cpu, cpu-plain, cuda, cuda:N, cuda-sim)".
/// (Kept out of device.h, which every tensor includes.)
std::optional<Device> parseDevice(std::string_view text, std::string &error);

/// The backend for `device`: createCpuBackend, createCpuPlainBackend, createCudaBackend(index) or
/// createCudaSimBackend (cuda-sim has one device); nullptr with `reason` set as they set it. The one way the
/// debugger and the CLI create a backend for a device.
std::unique_ptr<Backend> createBackend(Device device, std::string &reason);

} // namespace ps
