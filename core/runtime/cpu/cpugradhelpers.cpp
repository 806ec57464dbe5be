#include "core/runtime/cpu/cpugradhelpers.h"

#include "core/runtime/cpu/cpugemm.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cstring>

namespace ps::cpugrad {

std::vector<double> values(const Tensor &t)
{
    return t.toDoubles();
}

Tensor makeTensor(const KernelContext &ctx, Shape shape, DataType dtype, std::span<const double> v)
{
    Tensor t = ctx.allocate(std::move(shape), dtype);
    if (size_t(t.numElements()) != v.size())
        throw RuntimeError("internal: " + std::to_string(v.size()) + " values for " + t.describe());
    dispatchDtype(dtype, "grad result", [&](auto tag) {
        using T = decltype(tag);
        T *out = t.data<T>();
        for (size_t i = 0; i < v.size(); ++i)
            out[i] = convertElement<T>(v[i]);
    });
    return t;
}

Tensor zeroTensor(const KernelContext &ctx, Shape shape, DataType dtype)
{
    Tensor t = ctx.allocate(std::move(shape), dtype);
    std::memset(t.rawData(), 0, t.byteSize());
    return t;
}

Tensor copyAs(const KernelContext &ctx, const Tensor &t, Shape shape)
{
    if (numElementsOf(shape) != t.numElements())
        throw RuntimeError("cannot give " + t.describe() + " the shape " + shapeText(shape));
    Tensor out = ctx.allocate(std::move(shape), t.dtype());
    std::memcpy(out.rawData(), t.rawData(), t.byteSize());
    return out;
}

std::vector<int64_t> broadcastOffsets(const Shape &in, const Shape &out)
{
    if (in.size() != out.size())
        throw RuntimeError("internal: broadcast of rank " + std::to_string(in.size()) + " to rank "
            + std::to_string(out.size()));
    const size_t rank = out.size();
    Shape strides = contiguousStrides(in);
    for (size_t d = 0; d < rank; ++d) {
        if (in[d] != out[d]) {
            if (in[d] != 1)
                throw RuntimeError("shape " + shapeText(in) + " does not broadcast to " + shapeText(out));
            strides[d] = 0;
        }
    }
    const int64_t n = numElementsOf(out);
    std::vector<int64_t> offsets(size_t(std::max<int64_t>(n, 0)));
    if (n <= 0)
        return offsets;
    Shape index(rank, 0);
    int64_t offset = 0;
    for (int64_t i = 0; i < n; ++i) {
        offsets[size_t(i)] = offset;
        for (size_t d = rank; d-- > 0;) {
            offset += strides[d];
            if (++index[d] < out[d])
                break;
            offset -= strides[d] * out[d];
            index[d] = 0;
        }
    }
    return offsets;
}

std::vector<double> sumToShape(std::span<const double> grad, const Shape &from, const Shape &to)
{
    std::vector<double> out(size_t(numElementsOf(to)), 0.0);
    if (from == to) {
        std::copy(grad.begin(), grad.end(), out.begin());
        return out;
    }
    const std::vector<int64_t> offsets = broadcastOffsets(to, from);
    for (size_t i = 0; i < offsets.size(); ++i)
        out[size_t(offsets[i])] += grad[i];
    return out;
}

void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
    const double *b, double beta, double *c)
{
    ps::gemm(transA, transB, m, n, k, alpha, a, transA ? m : k, b, transB ? k : n, beta, c, n);
}

namespace {

/// Calls fn(dstOffset, srcOffset, run) for every innermost run of elements, offsets in elements.
template<class Fn>
void forEachStrided(
    const Shape &denseShape, const Shape &stridedShape, const Shape &start, const Shape &step, Fn fn)
{
    const size_t rank = denseShape.size();
    if (stridedShape.size() != rank || start.size() != rank || step.size() != rank)
        throw RuntimeError("internal: strided copy of mismatched ranks");
    if (numElementsOf(denseShape) == 0)
        return;
    if (rank == 0) {
        fn(int64_t(0), int64_t(0), int64_t(1));
        return;
    }
    const Shape stridedStrides = contiguousStrides(stridedShape);
    int64_t base = 0;
    for (size_t d = 0; d < rank; ++d)
        base += start[d] * stridedStrides[d];
    const int64_t inner = denseShape[rank - 1];
    const bool contiguous = step[rank - 1] == 1;
    const int64_t outer = numElementsOf(denseShape) / inner;
    Shape index(rank - 1, 0);
    for (int64_t o = 0; o < outer; ++o) {
        int64_t off = base;
        for (size_t d = 0; d + 1 < rank; ++d)
            off += index[d] * step[d] * stridedStrides[d];
        if (contiguous) {
            fn(o * inner, off, inner);
        } else {
            for (int64_t j = 0; j < inner; ++j)
                fn(o * inner + j, off + j * step[rank - 1] * stridedStrides[rank - 1], int64_t(1));
        }
        for (size_t d = rank - 1; d-- > 0;) {
            if (++index[d] < denseShape[d])
                break;
            index[d] = 0;
        }
    }
}

} // namespace

void scatterStrided(void *dst, const Shape &dstShape, const void *src, const Shape &srcShape,
    const Shape &start, const Shape &step, size_t elementSize)
{
    auto *d = static_cast<char *>(dst);
    const auto *s = static_cast<const char *>(src);
    forEachStrided(srcShape, dstShape, start, step, [&](int64_t dense, int64_t strided, int64_t run) {
        std::memcpy(
            d + size_t(strided) * elementSize, s + size_t(dense) * elementSize, size_t(run) * elementSize);
    });
}

void gatherStrided(void *dst, const Shape &dstShape, const void *src, const Shape &srcShape,
    const Shape &start, const Shape &step, size_t elementSize)
{
    auto *d = static_cast<char *>(dst);
    const auto *s = static_cast<const char *>(src);
    forEachStrided(dstShape, srcShape, start, step, [&](int64_t dense, int64_t strided, int64_t run) {
        std::memcpy(
            d + size_t(dense) * elementSize, s + size_t(strided) * elementSize, size_t(run) * elementSize);
    });
}

Tensor permuted(const KernelContext &ctx, const Tensor &t, const Shape &perm)
{
    const size_t rank = t.rank();
    if (perm.size() != rank)
        throw RuntimeError("perm of " + std::to_string(perm.size()) + " dims for " + t.describe());
    Shape outShape(rank), srcStrides(rank);
    const Shape inStrides = contiguousStrides(t.shape());
    std::vector<bool> seen(rank, false);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t p = normalizeAxisOrScalar(perm[i], int64_t(rank), "perm entry");
        if (seen[size_t(p)])
            throw RuntimeError("perm repeats dim " + std::to_string(p));
        seen[size_t(p)] = true;
        outShape[i] = t.dim(size_t(p));
        srcStrides[i] = inStrides[size_t(p)];
    }
    Tensor out = ctx.allocate(outShape, t.dtype());
    const size_t es = t.elementSize();
    const auto *src = static_cast<const char *>(t.rawData());
    auto *dst = static_cast<char *>(out.rawData());
    const int64_t n = out.numElements();
    Shape index(rank, 0);
    int64_t off = 0;
    for (int64_t i = 0; i < n; ++i) {
        std::memcpy(dst + size_t(i) * es, src + size_t(off) * es, es);
        for (size_t d = rank; d-- > 0;) {
            off += srcStrides[d];
            if (++index[d] < outShape[d])
                break;
            off -= srcStrides[d] * outShape[d];
            index[d] = 0;
        }
    }
    return out;
}

std::vector<double> channelsFirst(std::span<const double> v, int64_t n, int64_t s, int64_t c)
{
    std::vector<double> out(v.size());
    for (int64_t b = 0; b < n; ++b)
        for (int64_t i = 0; i < s; ++i)
            for (int64_t ch = 0; ch < c; ++ch)
                out[size_t((b * c + ch) * s + i)] = v[size_t((b * s + i) * c + ch)];
    return out;
}

std::vector<double> channelsLast(std::span<const double> v, int64_t n, int64_t c, int64_t s)
{
    std::vector<double> out(v.size());
    for (int64_t b = 0; b < n; ++b)
        for (int64_t ch = 0; ch < c; ++ch)
            for (int64_t i = 0; i < s; ++i)
                out[size_t((b * s + i) * c + ch)] = v[size_t((b * c + ch) * s + i)];
    return out;
}

Nchw nchwOf(const Tensor &t, bool nhwc, std::string_view what)
{
    if (t.rank() != 4)
        throw RuntimeError(std::string(what) + " needs a 4-D tensor, got " + t.describe());
    Nchw im;
    im.n = t.dim(0);
    im.c = nhwc ? t.dim(3) : t.dim(1);
    im.h = nhwc ? t.dim(1) : t.dim(2);
    im.w = nhwc ? t.dim(2) : t.dim(3);
    im.v = values(t);
    if (nhwc)
        im.v = channelsFirst(im.v, im.n, im.h * im.w, im.c);
    return im;
}

Tensor storeNchw(const KernelContext &ctx, const Tensor &like, bool nhwc, const Nchw &im)
{
    return makeTensor(
        ctx, like.shape(), like.dtype(), nhwc ? channelsLast(im.v, im.n, im.c, im.h * im.w) : im.v);
}

} // namespace ps::cpugrad
