#include "core/ir/opnames.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_set>

namespace ps {

std::string_view internOpName(std::string_view name)
{
    static std::mutex mutex;
    static auto *names = new std::unordered_set<std::string>; // never destroyed: views outlive statics
    std::lock_guard lock(mutex);
    return *names->emplace(name).first;
}

} // namespace ps
