#pragma once

#include "core/analysis/shapeinference.h"

#include <vector>

namespace ps {

class Operation;

/// The per-op shape rules of ShapeInference, as Paddle's InferMeta functions state them.
class ShapeRules
{
public:
    using Info = ShapeInference::Info;

    /// At most this many elements of a tensor's contents are propagated (shape-like tensors are
    /// small; anything larger is data, not a shape).
    static constexpr size_t kMaxData = 64;

    /// Applies the rule for `op` to its operands' infos (null for a null operand), filling one
    /// Info per result: a known shape, or unknown with why. False when `op` has no rule (the
    /// caller then falls back to the declared types).
    static bool apply(
        const Operation &op, const std::vector<const Info *> &operands, std::vector<Info> &results);
};

} // namespace ps
