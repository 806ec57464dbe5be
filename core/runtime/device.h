#pragma once

#include <string>

namespace ps {

/// Where a tensor's bytes live: host memory, the memory of CUDA device `index`, or the emulated
/// device of cuda-sim (the CUDA backend compiled for the host, core/runtime/cudasim).
struct Device
{
    enum class Kind : unsigned char { Cpu, Cuda, CudaSim };
    Kind kind = Kind::Cpu;
    int index = 0;

    static Device cpu() { return {}; }
    static Device cuda(int index = 0) { return { Kind::Cuda, index }; }
    static Device cudaSim(int index = 0) { return { Kind::CudaSim, index }; }
    bool isCpu() const { return kind == Kind::Cpu; }
    /// A CUDA device, real or simulated (the same backend code runs on both).
    bool isCuda() const { return kind == Kind::Cuda || kind == Kind::CudaSim; }
    bool isSimulated() const { return kind == Kind::CudaSim; }
    /// "cpu", "cuda:0" or "cuda-sim:0".
    std::string name() const
    {
        return isCpu() ? "cpu" : (isSimulated() ? "cuda-sim:" : "cuda:") + std::to_string(index);
    }
    friend bool operator==(const Device &, const Device &) = default;
};

} // namespace ps
