#pragma once

#include "core/ir/type.h"

#include <QString>
#include <cstdint>
#include <vector>

namespace ps {

/// How the panels spell types and shapes for people: Paddle's printer spelling (generation C),
/// with a dynamic dim written `?` as MLIR does (`tensor<?x16x?x?xf32>`), not -1, which reads
/// like a size.
struct DisplayText
{
    /// `tensor<?x16x?x?xf32>`, `vec[tensor<2xi64>, ...]`.
    static QString type(Type type);
    /// `[?, 3, 224, 224]`.
    static QString shape(const std::vector<int64_t> &dims);
    /// Replaces every dynamic dim (`-1` between `<`/`x` and `x`) of a printed type by `?`.
    static QString dynamicDims(QString printed);
};

} // namespace ps
