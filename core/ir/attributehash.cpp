#include "core/ir/attributehash.h"

#include "core/ir/attribute.h"

#include <bit>
#include <cstdint>
#include <functional>
#include <string>

namespace ps {

size_t hashCombine(size_t seed, size_t value)
{
    return seed ^ (value + 0x9e3779b9 + (seed << 6) + (seed >> 2));
}

size_t hashAttribute(const Attribute &a)
{
    using K = Attribute::Kind;
    size_t h = size_t(a.kind());
    switch (a.kind()) {
    case K::Null:
        break;
    case K::Bool:
    case K::Int32:
    case K::Int64:
    case K::Index:
        h = hashCombine(h, size_t(a.asInt()));
        break;
    case K::Float:
    case K::Double:
    case K::Scalar:
        h = hashCombine(h, std::bit_cast<uint64_t>(a.asDouble()));
        break;
    case K::String:
    case K::TensorName:
    case K::DataLayout:
    case K::Unknown:
        h = hashCombine(h, std::hash<std::string>()(a.asString()));
        break;
    case K::Array:
        for (const Attribute &e : a.asArray())
            h = hashCombine(h, hashAttribute(e));
        break;
    case K::IntArray:
        for (int64_t v : a.asIntArray())
            h = hashCombine(h, size_t(v));
        break;
    case K::TypeAttr:
        h = hashCombine(h, std::hash<const void *>()(a.asType().impl()));
        break;
    case K::DataTypeAttr:
        h = hashCombine(h, size_t(a.asDataType()));
        break;
    case K::PlaceAttr:
        h = hashCombine(h, hashCombine(size_t(a.asPlace().type), size_t(a.asPlace().deviceId)));
        break;
    case K::Complex64:
    case K::Complex128:
        h = hashCombine(h, std::bit_cast<uint64_t>(a.asComplex().real()));
        h = hashCombine(h, std::bit_cast<uint64_t>(a.asComplex().imag()));
        break;
    }
    return h;
}

} // namespace ps
