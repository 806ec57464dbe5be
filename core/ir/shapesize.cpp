#include "core/ir/shapesize.h"

#include <cstdio>
#include <limits>

namespace ps {

std::optional<int64_t> ShapeSize::product(std::span<const int64_t> dims)
{
    int64_t n = 1;
    for (int64_t d : dims)
        if (__builtin_mul_overflow(n, d, &n))
            return std::nullopt;
    return n;
}

std::optional<int64_t> ShapeSize::elements(std::span<const int64_t> dims)
{
    for (int64_t d : dims)
        if (d < 0)
            return std::nullopt;
    return product(dims);
}

std::optional<uint64_t> ShapeSize::bytes(std::span<const int64_t> dims, DataType dtype)
{
    const std::optional<int64_t> n = elements(dims);
    int64_t out = 0;
    if (!n || __builtin_mul_overflow(*n, int64_t(byteSize(dtype)), &out))
        return std::nullopt;
    return uint64_t(out);
}

std::string ShapeSize::whyInvalid(std::span<const int64_t> dims, DataType dtype)
{
    for (size_t i = 0; i < dims.size(); ++i)
        if (dims[i] < 0)
            return "dimension " + std::to_string(i) + " of " + shapeText(dims) + " is "
                + std::to_string(dims[i]);
    if (!product(dims))
        return shapeText(dims) + " has more than 2^63 elements";
    return std::string(phiName(dtype)) + shapeText(dims) + " needs more than 2^63 bytes";
}

std::string ShapeSize::formatBytes(uint64_t bytes)
{
    if (bytes < 10000)
        return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    static const char *const kUnits[] = { "kB", "MB", "GB", "TB", "PB", "EB" };
    double v = double(bytes) / 1000.0;
    size_t unit = 0;
    while (v >= 1000.0 && unit + 1 < std::size(kUnits)) {
        v /= 1000.0;
        ++unit;
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, v < 10 ? "%.1f %s" : "%.0f %s", v, kUnits[unit]);
    return buffer;
}

std::string ShapeSize::shapeText(std::span<const int64_t> dims, size_t maxDims)
{
    std::string s = "[";
    const size_t shown = dims.size() <= maxDims ? dims.size() : maxDims;
    for (size_t i = 0; i < shown; ++i)
        s += (i ? ", " : "") + std::to_string(dims[i]);
    if (shown < dims.size())
        s += ", ... " + std::to_string(dims.size()) + " dims";
    return s + "]";
}

} // namespace ps
