#pragma once

// Helpers shared by the CPU grad kernels (cpugrad*kernels.cpp). Arithmetic grads compute in
// double on host copies and convert once when they store the result: the CPU backend is the
// oracle, so accuracy wins over speed. Data-movement grads copy bytes and keep every dtype exact.

#include "core/ir/datatype.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/tensor.h"

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace ps {

class KernelContext;

namespace cpugrad {

using Shape = std::vector<int64_t>;
using kernels::axesOperandOrAttr;
using kernels::normalizeAxisOrScalar;
using kernels::requireFloating;
using kernels::requireNumeric;
using kernels::scalarAxis;
using kernels::wanted;

/// Every element of host tensor `t` as double.
std::vector<double> values(const Tensor &t);
/// A new tensor on the backend's device holding `v` converted to `dtype`.
Tensor makeTensor(const KernelContext &ctx, Shape shape, DataType dtype, std::span<const double> v);
/// A zero-filled tensor on the backend's device.
Tensor zeroTensor(const KernelContext &ctx, Shape shape, DataType dtype);
/// A deep copy of `t`'s bytes with a new shape of the same element count.
Tensor copyAs(const KernelContext &ctx, const Tensor &t, Shape shape);

/// For every element of `out` (row-major), the offset of the element of a tensor of shape `in`
/// (same rank, dims 1 or equal) that broadcasts to it.
std::vector<int64_t> broadcastOffsets(const Shape &in, const Shape &out);
/// `grad` (shape `from`) summed over the dims where `to` (same rank) is 1 and `from` is not.
std::vector<double> sumToShape(std::span<const double> grad, const Shape &from, const Shape &to);
/// C (m×n) = alpha * op(A) * op(B) + beta * C, row-major and dense; op(A) is m×k, op(B) k×n.
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
    const double *b, double beta, double *c);

/// Copies the elements of `src` (shape `srcShape`) to positions `start[d] + i[d] * step[d]` of
/// `dst` (shape `dstShape`, same rank); byte-exact for any element size.
void scatterStrided(void *dst, const Shape &dstShape, const void *src, const Shape &srcShape,
    const Shape &start, const Shape &step, size_t elementSize);
/// Reads the elements of `src` at `start[d] + i[d] * step[d]` into dense `dst` of shape `dstShape`.
void gatherStrided(void *dst, const Shape &dstShape, const void *src, const Shape &srcShape,
    const Shape &start, const Shape &step, size_t elementSize);
/// `t` with its dims permuted: result dim i is `t`'s dim perm[i]; byte-exact.
Tensor permuted(const KernelContext &ctx, const Tensor &t, const Shape &perm);

/// [n, s, c] (channels last) reordered to [n, c, s], and back.
std::vector<double> channelsFirst(std::span<const double> v, int64_t n, int64_t s, int64_t c);
std::vector<double> channelsLast(std::span<const double> v, int64_t n, int64_t c, int64_t s);

/// A 4-D image tensor as NCHW doubles (an NHWC tensor is reordered).
struct Nchw
{
    std::vector<double> v;
    int64_t n = 0, c = 0, h = 0, w = 0;
};
Nchw nchwOf(const Tensor &t, bool nhwc, std::string_view what);
/// A tensor shaped and typed like `like` holding `im` (reordered back to NHWC when `nhwc`).
Tensor storeNchw(const KernelContext &ctx, const Tensor &like, bool nhwc, const Nchw &im);

} // namespace cpugrad
} // namespace ps
