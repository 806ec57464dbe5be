#pragma once

#include <string>

namespace ps {

/// Where a tensor's bytes live: host memory or the memory of CUDA device `index`.
struct Device
{
    enum class Kind : unsigned char { Cpu, Cuda };
    Kind kind = Kind::Cpu;
    int index = 0;

    static Device cpu() { return {}; }
    static Device cuda(int index = 0) { return { Kind::Cuda, index }; }
    bool isCpu() const { return kind == Kind::Cpu; }
    bool isCuda() const { return kind == Kind::Cuda; }
    /// "cpu" or "cuda:0".
    std::string name() const { return isCpu() ? "cpu" : "cuda:" + std::to_string(index); }
    friend bool operator==(const Device &, const Device &) = default;
};

} // namespace ps
