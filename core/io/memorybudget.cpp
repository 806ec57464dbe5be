#include "core/io/memorybudget.h"

#include "core/io/numbertext.h"
#include "core/ir/shapesize.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace ps {
namespace {

std::atomic<uint64_t> g_limit { 0 }; // 0: default
std::atomic<uint64_t> g_inUse { 0 };

std::optional<uint64_t> readLimitFile(const char *path)
{
    std::ifstream in(path);
    std::string text;
    if (!in || !(in >> text) || text == "max")
        return std::nullopt;
    std::string error;
    return NumberText::parseUnsigned(text, UINT64_MAX, error);
}

std::string message(uint64_t bytes, uint64_t inUse, uint64_t limit)
{
    std::string s = "needs " + ShapeSize::formatBytes(bytes) + ", limit " + ShapeSize::formatBytes(limit);
    if (inUse > 0)
        s += " (" + ShapeSize::formatBytes(inUse) + " already in use)";
    return s;
}

} // namespace

uint64_t MemoryBudget::physicalMemory()
{
    static const uint64_t total = [] {
        const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGE_SIZE);
        uint64_t bytes
            = pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : (uint64_t(8) << 30);
        for (const char *file :
            { "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes" })
            if (std::optional<uint64_t> cgroup = readLimitFile(file);
                cgroup && *cgroup > 0 && *cgroup < bytes)
                bytes = *cgroup;
        return bytes;
    }();
    return total;
}

std::optional<uint64_t> MemoryBudget::parseMemAvailable(std::string_view meminfo)
{
    static constexpr std::string_view kKey = "MemAvailable:";
    size_t at = meminfo.find(kKey);
    while (at != std::string_view::npos && at > 0 && meminfo[at - 1] != '\n')
        at = meminfo.find(kKey, at + 1);
    if (at == std::string_view::npos)
        return std::nullopt;
    std::string_view rest = meminfo.substr(at + kKey.size());
    rest = rest.substr(0, rest.find('\n'));
    const size_t begin = rest.find_first_not_of(' ');
    if (begin == std::string_view::npos)
        return std::nullopt;
    rest = rest.substr(begin);
    const size_t unit = rest.find(" kB");
    if (unit == std::string_view::npos || rest.find_first_not_of(' ', unit + 3) != std::string_view::npos)
        return std::nullopt;
    std::string why;
    const std::optional<uint64_t> kilobytes
        = NumberText::parseUnsigned(rest.substr(0, unit), UINT64_MAX / 1024, why);
    if (!kilobytes)
        return std::nullopt;
    return *kilobytes * 1024;
}

uint64_t MemoryBudget::availableMemory()
{
    uint64_t bytes = physicalMemory();
    std::ifstream in("/proc/meminfo");
    const std::string meminfo((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (const std::optional<uint64_t> available = parseMemAvailable(meminfo); available && *available > 0)
        bytes = std::min(bytes, *available);
    const std::pair<const char *, const char *> cgroups[] = {
        { "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current" },
        { "/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes" },
    };
    for (const auto &[limitFile, usageFile] : cgroups) {
        const std::optional<uint64_t> limit = readLimitFile(limitFile), usage = readLimitFile(usageFile);
        if (limit && usage && *usage < *limit)
            bytes = std::min(bytes, *limit - *usage);
    }
    return bytes;
}

uint64_t MemoryBudget::defaultLimit()
{
    static const uint64_t limit = availableMemory() / 4 * 3;
    return limit;
}

uint64_t MemoryBudget::limit()
{
    const uint64_t l = g_limit.load(std::memory_order_relaxed);
    return l ? l : defaultLimit();
}

void MemoryBudget::setLimit(uint64_t bytes)
{
    g_limit.store(bytes, std::memory_order_relaxed);
}

uint64_t MemoryBudget::inUse()
{
    return g_inUse.load(std::memory_order_relaxed);
}

bool MemoryBudget::reserve(uint64_t bytes, std::string &error)
{
    const uint64_t max = limit();
    uint64_t used = g_inUse.load(std::memory_order_relaxed);
    do {
        if (bytes > max || used > max - bytes) {
            error = message(bytes, used, max);
            return false;
        }
    } while (!g_inUse.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
    return true;
}

void MemoryBudget::release(uint64_t bytes)
{
    g_inUse.fetch_sub(bytes, std::memory_order_relaxed);
}

bool MemoryBudget::fits(uint64_t bytes, std::string &error)
{
    const uint64_t max = limit(), used = inUse();
    if (bytes <= max && used <= max - bytes)
        return true;
    error = message(bytes, used, max);
    return false;
}

std::optional<uint64_t> MemoryBudget::parseSize(std::string_view text, std::string &error)
{
    const size_t numberEnd = std::min(text.find_first_not_of("0123456789."), text.size());
    std::string unit(text.substr(numberEnd));
    for (char &c : unit)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    double scale = 0; // 0: not a unit
    if (unit.empty() || unit == "b") {
        scale = 1;
    } else if (unit == "%") {
        scale = double(physicalMemory()) / 100.0;
    } else if (const size_t prefix = std::string_view("kmgt").find(unit[0]); prefix != std::string::npos) {
        const std::string_view suffix = std::string_view(unit).substr(1);
        const double base = suffix.empty() || suffix == "b" ? 1000.0
            : suffix == "i" || suffix == "ib"               ? 1024.0
                                                            : 0.0;
        scale = std::pow(base, double(prefix + 1));
    }
    std::string why;
    const std::optional<double> number = NumberText::parseFinite(text.substr(0, numberEnd), 0, 1e18, why);
    if (scale == 0 || !number) {
        error = "expected a size such as 4G, 512M, 1.5GiB or 75%, got " + NumberText::quote(text);
        return std::nullopt;
    }
    const double bytes = *number * scale;
    if (bytes < 1 || bytes >= 1.8e19) {
        error = NumberText::quote(text) + " is not a usable memory limit";
        return std::nullopt;
    }
    return uint64_t(bytes);
}

} // namespace ps
