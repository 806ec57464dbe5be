#include "globaloptions.h"

#include "core/io/memorybudget.h"
#include "core/io/numbertext.h"
#include "core/runtime/interpreter.h"

#include <optional>

namespace {

/// The value of `--name VALUE` or `--name=VALUE` at args[i], removed from `args` with the option;
/// nullopt when args[i] is another argument. `missing` is set when the value is absent.
std::optional<std::string> take(
    std::vector<std::string> &args, size_t i, const std::string &name, bool &missing)
{
    const std::string option = "--" + name;
    std::string value;
    size_t consumed = 1;
    if (args[i] == option) {
        if (i + 1 >= args.size()) {
            missing = true;
            return std::nullopt;
        }
        value = args[i + 1];
        consumed = 2;
    } else if (args[i].rfind(option + "=", 0) == 0) {
        value = args[i].substr(option.size() + 1);
    } else {
        return std::nullopt;
    }
    args.erase(args.begin() + std::ptrdiff_t(i), args.begin() + std::ptrdiff_t(i + consumed));
    return value;
}

} // namespace

bool applyGlobalOptions(std::vector<std::string> &args, bool runs, std::string &error)
{
    for (size_t i = 0; i < args.size();) {
        bool missing = false;
        if (const std::optional<std::string> value = take(args, i, "max-memory", missing)) {
            std::string why;
            const std::optional<uint64_t> bytes = ps::MemoryBudget::parseSize(*value, why);
            if (!bytes) {
                error = "--max-memory: " + why;
                return false;
            }
            ps::MemoryBudget::setLimit(*bytes);
        } else if (const std::optional<std::string> ops = take(args, i, "max-ops", missing)) {
            if (!runs) {
                error = "--max-ops bounds the commands that run a program (run, verify, passes, memory, "
                        "reduce, bench run)";
                return false;
            }
            std::string why;
            const std::optional<uint64_t> n = ps::NumberText::parseUnsigned(*ops, 1, UINT64_MAX, why);
            if (!n) {
                error = "--max-ops: " + why;
                return false;
            }
            ps::Interpreter::setDefaultMaxOps(*n);
        } else if (missing) {
            error = "option " + args[i] + " needs a value"
                + (args[i] == "--max-memory" ? " (4G, 512M, 75%)" : " (a number of ops)");
            return false;
        } else {
            ++i;
        }
    }
    return true;
}
