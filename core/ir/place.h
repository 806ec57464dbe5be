#pragma once

#include <string>

namespace ps {

/// phi::Place: an allocation type and a device id (JSON `[allocType, deviceId, "custom"]`).
struct Place
{
    enum class AllocType : signed char {
        Undefined = 0,
        Cpu = 1,
        Gpu = 2,
        GpuPinned = 3,
        Xpu = 4,
        Npu = 5,
        NpuPinned = 6,
        Ipu = 7,
        Mlu = 8,
        Custom = 9,
    };
    AllocType type = AllocType::Undefined;
    int deviceId = 0;
    std::string customDevice;

    /// `Place(cpu)`, `Place(gpu:0)`, `Place(gpu_pinned)`, `Place(undefined:0)`.
    std::string toString() const;
    /// Parses the spelling of toString() (the part inside or including `Place(...)`).
    static bool parse(const std::string &text, Place &out);
    bool operator==(const Place &) const = default;
};

} // namespace ps
