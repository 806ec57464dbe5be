#include "core/runtime/cpu/cpushapecopy.h"

#include "core/runtime/tensor.h"

#include "core/runtime/runtimeerror.h"

#include <cstring>

namespace ps::cpuew {
namespace {

/// Walks `view` row by row (the last dim is the inner loop) calling fn(viewOffset, flatIndex, n,
/// innerStride) per row.
template<class Fn> void forEachStridedRow(const StridedView &view, Fn &&fn)
{
    const int64_t total = numElementsOf(view.shape);
    if (total == 0)
        return;
    if (view.shape.empty()) {
        fn(view.base, int64_t(0), int64_t(1), int64_t(0));
        return;
    }
    const size_t outer = view.shape.size() - 1;
    const int64_t row = view.shape.back(), innerStride = view.strides.back();
    std::vector<int64_t> index(outer, 0);
    int64_t offset = view.base;
    for (int64_t flat = 0; flat < total; flat += row) {
        fn(offset, flat, row, innerStride);
        for (size_t d = outer; d-- > 0;) {
            offset += view.strides[d];
            if (++index[d] < view.shape[d])
                break;
            offset -= view.strides[d] * view.shape[d];
            index[d] = 0;
        }
    }
}

template<class E> void gatherTyped(const E *src, const StridedView &view, E *dst)
{
    forEachStridedRow(view, [&](int64_t offset, int64_t flat, int64_t n, int64_t stride) {
        const E *s = src + offset;
        E *d = dst + flat;
        if (stride == 1) {
            std::memcpy(d, s, size_t(n) * sizeof(E));
        } else {
            for (int64_t i = 0; i < n; ++i)
                d[i] = s[i * stride];
        }
    });
}

template<class E> void scatterTyped(const E *src, E *dst, const StridedView &view)
{
    forEachStridedRow(view, [&](int64_t offset, int64_t flat, int64_t n, int64_t stride) {
        const E *s = src + flat;
        E *d = dst + offset;
        if (stride == 1) {
            std::memmove(d, s, size_t(n) * sizeof(E));
        } else {
            for (int64_t i = 0; i < n; ++i)
                d[i * stride] = s[i];
        }
    });
}

struct Bytes16
{
    unsigned char b[16];
};

template<class Fn> void withElementType(size_t elementSize, Fn &&fn)
{
    switch (elementSize) {
    case 1:
        return fn(uint8_t {});
    case 2:
        return fn(uint16_t {});
    case 4:
        return fn(uint32_t {});
    case 8:
        return fn(uint64_t {});
    case 16:
        return fn(Bytes16 {});
    default:
        throw RuntimeError("cannot move elements of " + std::to_string(elementSize) + " bytes");
    }
}

} // namespace

void gatherStrided(const void *src, const StridedView &view, void *dst, size_t elementSize)
{
    withElementType(elementSize, [&](auto tag) {
        using E = decltype(tag);
        gatherTyped(static_cast<const E *>(src), view, static_cast<E *>(dst));
    });
}

void scatterStrided(const void *src, void *dst, const StridedView &view, size_t elementSize)
{
    withElementType(elementSize, [&](auto tag) {
        using E = decltype(tag);
        scatterTyped(static_cast<const E *>(src), static_cast<E *>(dst), view);
    });
}

} // namespace ps::cpuew
