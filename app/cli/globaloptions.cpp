#include "globaloptions.h"

#include "core/io/memorybudget.h"

bool applyGlobalOptions(std::vector<std::string> &args, std::string &error)
{
    static const std::string kMaxMemory = "--max-memory";
    for (size_t i = 0; i < args.size();) {
        std::string value;
        size_t consumed = 1;
        if (args[i] == kMaxMemory) {
            if (i + 1 >= args.size()) {
                error = "option --max-memory needs a value (4G, 512M, 75%)";
                return false;
            }
            value = args[i + 1];
            consumed = 2;
        } else if (args[i].rfind(kMaxMemory + "=", 0) == 0) {
            value = args[i].substr(kMaxMemory.size() + 1);
        } else {
            ++i;
            continue;
        }
        std::string why;
        const std::optional<uint64_t> bytes = ps::MemoryBudget::parseSize(value, why);
        if (!bytes) {
            error = "--max-memory: " + why;
            return false;
        }
        ps::MemoryBudget::setLimit(*bytes);
        args.erase(args.begin() + std::ptrdiff_t(i), args.begin() + std::ptrdiff_t(i + consumed));
    }
    return true;
}
