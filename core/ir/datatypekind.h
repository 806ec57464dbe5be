#pragma once

#include "core/ir/datatype.h"

namespace ps {

/// float16, bfloat16, float32 or float64: the dtypes the runtime computes in floating point
/// (float8 and complex are not among them).
inline bool isFloatingPoint(DataType t)
{
    return t == DataType::Float32 || t == DataType::Float64 || t == DataType::Float16
        || t == DataType::BFloat16;
}

} // namespace ps
