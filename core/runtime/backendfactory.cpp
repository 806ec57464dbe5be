#include "core/runtime/backendfactory.h"

#include "core/io/numbertext.h"
#include "core/runtime/backend.h"

namespace ps {

std::optional<Device> parseDevice(std::string_view text, std::string &error)
{
    constexpr std::string_view cudaPrefix = "cuda:";
    if (text == "cpu")
        return Device::cpu();
    if (text == "cpu-plain")
        return Device::cpuPlain();
    if (text == "cuda" || text == cudaPrefix)
        return Device::cuda(0);
    if (text == "cuda-sim")
        return Device::cudaSim();
    if (text.starts_with(cudaPrefix)) {
        std::string why;
        const std::optional<uint64_t> index
            = NumberText::parseUnsigned(text.substr(cudaPrefix.size()), 1023, why);
        if (!index) {
            error = "the CUDA device index: " + why;
            return std::nullopt;
        }
        return Device::cuda(int(*index));
    }
    error = "unknown device '" + std::string(text) + "' (cpu, cpu-plain, cuda, cuda:N, cuda-sim)";
    return std::nullopt;
}

std::unique_ptr<Backend> createBackend(Device device, std::string &reason)
{
    switch (device.kind) {
    case Device::Kind::Cpu:
        return createCpuBackend();
    case Device::Kind::CpuPlain:
        return createCpuPlainBackend();
    case Device::Kind::Cuda:
        return createCudaBackend(device.index, reason);
    case Device::Kind::CudaSim:
        return createCudaSimBackend(reason);
    }
    return nullptr;
}

} // namespace ps
