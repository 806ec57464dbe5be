#pragma once

#include <cstddef>

namespace ps {

/// A half-open op index range [begin, end) into a program's top block.
struct OpRange
{
    size_t begin = 0;
    size_t end = 0;

    bool empty() const { return end <= begin; }
    size_t size() const { return empty() ? 0 : end - begin; }
    bool operator==(const OpRange &) const = default;
};

} // namespace ps
