#pragma once

#include <string>

namespace ps {

/// Where a tensor's bytes live and which backend computes: host memory (the CPU backend, on
/// oneDNN where the build has it, or `cpu-plain`, its oracle: the same host memory, the plain
/// kernels), the memory of CUDA device `index`, or the emulated device of cuda-sim (the CUDA
/// backend compiled for the host, core/runtime/cudasim). Host tensors are always Device::cpu().
struct Device
{
    enum class Kind : unsigned char { Cpu, Cuda, CudaSim, CpuPlain };
    Kind kind = Kind::Cpu;
    int index = 0;

    static Device cpu() { return {}; }
    static Device cpuPlain() { return { Kind::CpuPlain, 0 }; }
    static Device cuda(int index = 0) { return { Kind::Cuda, index }; }
    static Device cudaSim(int index = 0) { return { Kind::CudaSim, index }; }
    /// Host memory: the CPU backend or the plain one.
    bool isCpu() const { return kind == Kind::Cpu || kind == Kind::CpuPlain; }
    bool isPlainCpu() const { return kind == Kind::CpuPlain; }
    /// A CUDA device, real or simulated (the same backend code runs on both).
    bool isCuda() const { return kind == Kind::Cuda || kind == Kind::CudaSim; }
    bool isSimulated() const { return kind == Kind::CudaSim; }
    /// "cpu", "cpu-plain", "cuda:0" or "cuda-sim:0".
    std::string name() const
    {
        if (isCpu())
            return isPlainCpu() ? "cpu-plain" : "cpu";
        return (isSimulated() ? "cuda-sim:" : "cuda:") + std::to_string(index);
    }
    friend bool operator==(const Device &, const Device &) = default;
};

} // namespace ps
