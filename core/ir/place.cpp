#include "core/ir/place.h"

#include <cstdlib>
#include <string_view>

namespace ps {

namespace {

constexpr std::string_view kAllocNames[]
    = { "undefined", "cpu", "gpu", "gpu_pinned", "xpu", "npu", "npu_pinned", "ipu", "mlu", "custom_device" };

} // namespace

std::string Place::toString() const
{
    const int t = static_cast<int>(type);
    if (type == AllocType::Cpu)
        return "Place(cpu)";
    if (type == AllocType::GpuPinned)
        return "Place(gpu_pinned)";
    if (type == AllocType::NpuPinned)
        return "Place(npu_pinned)";
    std::string name = (type == AllocType::Custom && !customDevice.empty())
        ? customDevice
        : std::string(t >= 0 && t < 10 ? kAllocNames[t] : "undefined");
    return "Place(" + name + ":" + std::to_string(deviceId) + ")";
}

bool Place::parse(const std::string &text, Place &out)
{
    std::string_view s(text);
    if (s.starts_with("Place(") && s.ends_with(")"))
        s = s.substr(6, s.size() - 7);
    std::string_view name = s;
    int id = 0;
    if (auto colon = s.find(':'); colon != std::string_view::npos) {
        name = s.substr(0, colon);
        std::string idText(s.substr(colon + 1));
        char *end = nullptr;
        id = int(std::strtol(idText.c_str(), &end, 10));
        if (idText.empty() || *end != '\0')
            return false;
    }
    Place p;
    p.deviceId = id;
    bool found = false;
    for (int i = 0; i < 10; ++i) {
        if (kAllocNames[i] == name) {
            p.type = static_cast<AllocType>(i);
            found = true;
            break;
        }
    }
    if (!found) {
        if (name.empty())
            return false;
        p.type = AllocType::Custom;
        p.customDevice = std::string(name);
    }
    out = p;
    return true;
}

} // namespace ps
