#include "core/ir/opnames.h"

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_set>

namespace ps {

namespace {

std::string_view internLocked(std::string_view name)
{
    static std::mutex mutex;
    // Never destroyed: views outlive statics. The set holds views into `storage` (a deque never
    // moves its strings), so a lookup of a known name allocates nothing.
    static auto *storage = new std::deque<std::string>;
    static auto *names = new std::unordered_set<std::string_view>;
    std::lock_guard lock(mutex);
    if (auto it = names->find(name); it != names->end())
        return *it;
    return *names->insert(storage->emplace_back(name)).first;
}

} // namespace

std::string_view internOpName(std::string_view name)
{
    // A view of an interned name (a reader's cached result) returns at once, with no lock and
    // no hash: interned strings never move or die, so no other string starts at their address.
    struct Interned
    {
        const char *data = nullptr;
        size_t size = 0;
    };
    // Short names sit 32 bytes apart inside `storage` (in-place strings), so the slot is a
    // multiplicative hash of the address: its low bits alone sent neighbours to the same slots.
    thread_local Interned recent[256];
    const auto slotOf = [](const char *p) -> Interned & {
        return recent[(reinterpret_cast<uintptr_t>(p) * 0x9E3779B97F4A7C15ull) >> 56];
    };
    const Interned &hit = slotOf(name.data());
    if (hit.data == name.data() && hit.size == name.size() && hit.data)
        return name;
    const std::string_view interned = internLocked(name);
    slotOf(interned.data()) = { interned.data(), interned.size() };
    return interned;
}

} // namespace ps
