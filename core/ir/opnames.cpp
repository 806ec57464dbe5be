#include "core/ir/opnames.h"

#include <deque>
#include <mutex>
#include <string>
#include <unordered_set>

namespace ps {

std::string_view internOpName(std::string_view name)
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

} // namespace ps
