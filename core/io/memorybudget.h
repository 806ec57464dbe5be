#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ps {

/// The process's host-memory budget: how many bytes of tensors and file contents PIRScope holds
/// at once. The CPU allocator reserves every tensor here and readers check a file's size here
/// before reading it, so a shape of 10^12 floats or a 40 GB file is an error ("needs 4.0 TB,
/// limit 18 GB") instead of a process the OOM killer ends. Releasing what a failed session held
/// leaves the budget usable by the next. Thread-safe (lock-free counters).
///
/// The default limit is 3/4 of the memory available when it is first asked for (availableMemory():
/// on a machine whose memory others already use, a budget of 3/4 of the RAM would let the OOM
/// killer act first); the CLI's `--max-memory` and the GUI's setting change it.
class MemoryBudget
{
public:
    /// Physical memory, or the cgroup (v2 or v1) memory limit when that is lower.
    static uint64_t physicalMemory();
    /// Memory free for this process now: /proc/meminfo's MemAvailable, the cgroup's limit less its
    /// usage when lower, at most physicalMemory() (physicalMemory() where neither can be read).
    static uint64_t availableMemory();
    /// MemAvailable of a /proc/meminfo text in bytes; nullopt when absent or malformed.
    static std::optional<uint64_t> parseMemAvailable(std::string_view meminfo);
    /// 3/4 of availableMemory() at the first call, fixed from then on (what this process allocates
    /// later must not shrink its own budget).
    static uint64_t defaultLimit();
    static uint64_t limit();
    /// 0 restores the default.
    static void setLimit(uint64_t bytes);
    /// Bytes reserved and not yet released.
    static uint64_t inUse();

    /// Reserves `bytes`; false with `error` = "needs N GB, limit M GB" (+ what is already in use)
    /// when it would pass the limit.
    static bool reserve(uint64_t bytes, std::string &error);
    static void release(uint64_t bytes);
    /// Whether `bytes` more would fit now, without reserving them (a file about to be read into
    /// memory); the same message as reserve().
    static bool fits(uint64_t bytes, std::string &error);

    /// "4G", "512M", "1.5GB", "800MiB", "75%" (of physicalMemory()), "1000000" (bytes); k/M/G/T are
    /// decimal, Ki/Mi/Gi/Ti binary. nullopt with `error` on anything else or zero.
    static std::optional<uint64_t> parseSize(std::string_view text, std::string &error);
};

} // namespace ps
