#pragma once

#include <cstdint>
#include <span>

namespace ps {

/// True when `actual` (a tensor's shape) fits `declared` (an IR type's dims): same rank, and
/// every declared dim that is not dynamic (-1) equal.
inline bool staticDimsMatch(std::span<const int64_t> declared, std::span<const int64_t> actual)
{
    if (declared.size() != actual.size())
        return false;
    for (size_t i = 0; i < declared.size(); ++i)
        if (declared[i] >= 0 && declared[i] != actual[i])
            return false;
    return true;
}

} // namespace ps
