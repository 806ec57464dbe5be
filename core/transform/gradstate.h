#pragma once

#include "core/transform/gradmap.h"

#include <unordered_map>
#include <unordered_set>

namespace ps {

/// The bookkeeping of one backward pass (ir_backward.py's `State`): the gradients gathered per
/// forward value, the gradients that were summed into one, and for control flow the map from
/// values yielded inside a block to the results of its op. Copied (deeply) for each sub-block.
struct GradState
{
    GradMap valueToGrad;
    GradMap valueToSumGrad;
    /// Filled by turnMap(): gradient value → forward value.
    std::unordered_map<Value, Value> gradToValue;
    /// Filled by turnMap(): gradient values that were summed.
    std::unordered_set<Value> summedGrads;
    std::unordered_map<Value, Value> insideToOutside;

    /// `State.turn_map()`: rebuilds gradToValue and summedGrads from the first entry of each list.
    void turnMap();
};

} // namespace ps
