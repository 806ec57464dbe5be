#include "core/analysis/opdiff.h"

namespace ps {

const char *opChangeName(OpChange change)
{
    switch (change) {
    case OpChange::Kept:
        return "kept";
    case OpChange::Changed:
        return "changed";
    case OpChange::Removed:
        return "removed";
    case OpChange::Added:
        return "added";
    }
    return "?";
}

std::string OpDiff::summary() const
{
    if (identical())
        return "no change";
    std::string s;
    auto part = [&s](const char *sign, size_t n) {
        if (n == 0)
            return;
        if (!s.empty())
            s += ' ';
        s += sign + std::to_string(n);
    };
    part("\u2212", removed);
    part("+", added);
    part("~", changed);
    return s;
}

} // namespace ps
