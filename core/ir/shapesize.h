#pragma once

#include "core/ir/datatype.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace ps {

/// Overflow-checked sizes of dense tensors: the one place that multiplies dims. Tensor, the
/// allocator, the kernels' numElementsOf and every reader (.npy, .pdiparams, manifests) go
/// through it, so a shape like [2^62, 4] is an error, never a wrapped-around small buffer.
class ShapeSize
{
public:
    /// Product of `dims` (1 for none), -1 dims (the IR's dynamic dims) included with their sign;
    /// nullopt when the product leaves int64.
    static std::optional<int64_t> product(std::span<const int64_t> dims);
    /// Number of elements of a concrete shape; nullopt when a dim is negative or the count
    /// leaves int64.
    static std::optional<int64_t> elements(std::span<const int64_t> dims);
    /// elements(dims) * byteSize(dtype); nullopt as elements() or when the bytes leave int64.
    static std::optional<uint64_t> bytes(std::span<const int64_t> dims, DataType dtype);
    /// Why elements()/bytes() gave nullopt: "dimension 0 is -3", "[4611686018427387904, 4]
    /// float32 needs more than 2^63 bytes" (the shape text cut to a readable length).
    static std::string whyInvalid(std::span<const int64_t> dims, DataType dtype);

    /// "143 bytes", "4.4 GB", "512 MB" (decimal units: what `ls -lh --si` and the budget print).
    static std::string formatBytes(uint64_t bytes);
    /// "[2, 3]", at most `maxDims` dims shown ("[1, 1, ... 1000000 dims]").
    static std::string shapeText(std::span<const int64_t> dims, size_t maxDims = 16);
};

} // namespace ps
