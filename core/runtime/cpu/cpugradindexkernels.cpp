#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>

namespace ps {
namespace {

using namespace cpugrad;

/// Integer index values of a tensor (int32/int64).
std::vector<int64_t> indexValues(const Tensor &t, const char *what)
{
    if (t.dtype() != DataType::Int32 && t.dtype() != DataType::Int64)
        throw RuntimeError(std::string(what) + ": index must be int32 or int64, got " + t.describe());
    std::vector<int64_t> out(size_t(t.numElements()));
    if (t.dtype() == DataType::Int64)
        std::copy(t.data<int64_t>(), t.data<int64_t>() + out.size(), out.begin());
    else
        std::copy(t.data<int32_t>(), t.data<int32_t>() + out.size(), out.begin());
    return out;
}

int64_t checkedIndex(int64_t i, int64_t dim, const char *what)
{
    if (i < -dim || i >= dim)
        throw RuntimeError(std::string(what) + ": index " + std::to_string(i)
            + " is out of range for a dim of " + std::to_string(dim));
    return i < 0 ? i + dim : i;
}

/// gather_grad (x, index, out_grad, axis) and index_select_grad (x, index, out_grad; attr axis):
/// out_grad scatter-added into zeros of x's shape along axis.
void gatherGrad(KernelContext &ctx)
{
    const char *what = "gather_grad";
    const Tensor &x = ctx.input(0), &index = ctx.input(1), &g = ctx.input(2);
    requireNumeric(g, what);
    const int64_t a = ctx.hasInput(3) ? ctx.inputAsInts(3).at(0) : ctx.intAttr("axis", ctx.intAttr("dim", 0));
    const int64_t axis = normalizeAxisOrScalar(a, int64_t(x.rank()), "axis");
    const std::vector<int64_t> idx = indexValues(index, what);
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < x.rank(); ++d) {
        if (int64_t(d) < axis)
            outer *= x.dim(d);
        else if (int64_t(d) > axis)
            inner *= x.dim(d);
    }
    const int64_t dim = x.dim(size_t(axis)), n = int64_t(idx.size());
    if (g.numElements() != outer * n * inner)
        throw RuntimeError(std::string(what) + ": out_grad " + g.describe() + " does not match x "
            + x.describe() + " gathered by " + index.describe());
    const std::vector<double> gv = values(g);
    std::vector<double> dx(size_t(x.numElements()), 0.0);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < n; ++j) {
            const int64_t src = checkedIndex(idx[size_t(j)], dim, what);
            for (int64_t in = 0; in < inner; ++in)
                dx[size_t((o * dim + src) * inner + in)] += gv[size_t((o * n + j) * inner + in)];
        }
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

/// gather_nd_grad (x, index, out_grad): index [..., k] addresses x's first k dims.
void gatherNdGrad(KernelContext &ctx)
{
    const char *what = "gather_nd_grad";
    const Tensor &x = ctx.input(0), &index = ctx.input(1), &g = ctx.input(2);
    requireNumeric(g, what);
    const std::vector<int64_t> idx = indexValues(index, what);
    const int64_t k = index.rank() == 0 ? 0 : index.dim(index.rank() - 1);
    if (k > int64_t(x.rank()))
        throw RuntimeError(
            std::string(what) + ": index depth " + std::to_string(k) + " exceeds x " + x.describe());
    const int64_t count = k == 0 ? 1 : int64_t(idx.size()) / k;
    int64_t slice = 1;
    for (size_t d = size_t(k); d < x.rank(); ++d)
        slice *= x.dim(d);
    if (g.numElements() != count * slice)
        throw RuntimeError(
            std::string(what) + ": out_grad " + g.describe() + " does not match index " + index.describe());
    const Shape strides = contiguousStrides(x.shape());
    const std::vector<double> gv = values(g);
    std::vector<double> dx(size_t(x.numElements()), 0.0);
    for (int64_t i = 0; i < count; ++i) {
        int64_t off = 0;
        for (int64_t d = 0; d < k; ++d)
            off += checkedIndex(idx[size_t(i * k + d)], x.dim(size_t(d)), what) * strides[size_t(d)];
        for (int64_t j = 0; j < slice; ++j)
            dx[size_t(off + j)] += gv[size_t(i * slice + j)];
    }
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

/// topk_grad (x, indices, out_grad, k): out_grad scattered to `indices` along axis.
void topkGrad(KernelContext &ctx)
{
    const char *what = "topk_grad";
    const Tensor &x = ctx.input(0), &indices = ctx.input(1), &g = ctx.input(2);
    requireNumeric(g, what);
    if (indices.shape() != g.shape() || indices.rank() != x.rank())
        throw RuntimeError(std::string(what) + ": indices " + indices.describe() + " and out_grad "
            + g.describe() + " do not match x " + x.describe());
    const int64_t axis
        = x.rank() == 0 ? 0 : normalizeAxisOrScalar(ctx.intAttr("axis", -1), int64_t(x.rank()), "axis");
    const std::vector<int64_t> idx = indexValues(indices, what);
    int64_t outer = 1, inner = 1;
    for (size_t d = 0; d < x.rank(); ++d) {
        if (int64_t(d) < axis)
            outer *= x.dim(d);
        else if (int64_t(d) > axis)
            inner *= x.dim(d);
    }
    const int64_t dim = x.rank() == 0 ? 1 : x.dim(size_t(axis));
    const int64_t k = x.rank() == 0 ? 1 : g.dim(size_t(axis));
    const std::vector<double> gv = values(g);
    std::vector<double> dx(size_t(x.numElements()), 0.0);
    for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < k; ++j)
            for (int64_t in = 0; in < inner; ++in) {
                const size_t gi = size_t((o * k + j) * inner + in);
                const int64_t src = checkedIndex(idx[gi], dim, what);
                dx[size_t((o * dim + src) * inner + in)] += gv[gi];
            }
    ctx.setOutput(0, makeTensor(ctx, x.shape(), g.dtype(), dx));
}

/// embedding_grad (x, weight, out_grad): rows of out_grad summed into the rows their ids name;
/// ids equal to padding_idx (-1: none) get nothing.
void embeddingGrad(KernelContext &ctx)
{
    const char *what = "embedding_grad";
    const Tensor &ids = ctx.input(0), &w = ctx.input(1), &g = ctx.input(2);
    requireFloating(g, what);
    if (w.rank() != 2)
        throw RuntimeError(std::string(what) + ": weight must be 2-D, got " + w.describe());
    const int64_t vocab = w.dim(0), width = w.dim(1);
    const std::vector<int64_t> idv = indexValues(ids, what);
    if (g.numElements() != int64_t(idv.size()) * width)
        throw RuntimeError(std::string(what) + ": out_grad " + g.describe() + " does not match ids "
            + ids.describe() + " and weight " + w.describe());
    const int64_t padding = ctx.intAttr("padding_idx", -1);
    const std::vector<double> gv = values(g);
    std::vector<double> dw(size_t(w.numElements()), 0.0);
    for (size_t i = 0; i < idv.size(); ++i) {
        const int64_t id = idv[i];
        if (padding != -1 && id == padding)
            continue;
        if (id < 0 || id >= vocab)
            throw RuntimeError(std::string(what) + ": id " + std::to_string(id) + " is out of range for "
                + std::to_string(vocab) + " rows");
        for (int64_t j = 0; j < width; ++j)
            dw[size_t(id * width + j)] += gv[i * size_t(width) + size_t(j)];
    }
    ctx.setOutput(0, makeTensor(ctx, w.shape(), w.dtype(), dw));
}

} // namespace

void registerCpuGradIndexKernels(KernelRegistry &registry)
{
    registry.add("pd_op.gather_grad", gatherGrad);
    registry.add("pd_op.index_select_grad", gatherGrad);
    registry.add("pd_op.gather_nd_grad", gatherNdGrad);
    registry.add("pd_op.topk_grad", topkGrad);
    registry.add("pd_op.embedding_grad", embeddingGrad);
}

} // namespace ps
