#pragma once

#include <cstddef>
#include <vector>

namespace ps {

/// The grad ops autodiff made from one forward op, as top-level op indices: of one whole train
/// program, or of a split forward program (`forwardOp`) and backward program (`gradOps`).
struct GradOpLink
{
    size_t forwardOp = 0;
    std::vector<size_t> gradOps;

    bool operator==(const GradOpLink &) const = default;
};

} // namespace ps
