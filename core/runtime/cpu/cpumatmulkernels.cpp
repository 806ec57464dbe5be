#include "core/runtime/cpu/cpugemm.h"
#include "core/runtime/cpu/cpumatmul.h"
#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cstring>

namespace ps {
namespace {

// The shapes of one matmul after 1-D promotion and batch broadcasting.
struct MatmulPlan
{
    int64_t m = 1, n = 1, k = 1;
    std::vector<int64_t> batch; // broadcast batch dims
    std::vector<int64_t> xStride; // per batch dim, in matrices (0 where broadcast)
    std::vector<int64_t> yStride;
    int64_t batchCount = 1;
    bool xBatchIsFull = false; // x's batch equals the output batch (no broadcast on x)
    bool yIsSingle = false; // y holds one matrix shared by every batch entry
    std::vector<int64_t> outShape;
};

MatmulPlan plan(const Tensor &x, const Tensor &y, bool tx, bool ty, const std::string &label)
{
    auto fail = [&](const std::string &why) {
        throw RuntimeError(label + ": x " + shapeText(x.shape()) + (tx ? " (transposed)" : "") + " and y "
            + shapeText(y.shape()) + (ty ? " (transposed)" : "") + " do not fit: " + why);
    };
    if (x.rank() == 0 || y.rank() == 0)
        fail("operands must have at least one dimension");
    std::vector<int64_t> xs = x.shape(), ys = y.shape();
    const bool xVector = xs.size() == 1, yVector = ys.size() == 1;
    if (xVector) {
        xs = { 1, xs[0] };
        tx = false;
    }
    if (yVector) {
        ys = { ys[0], 1 };
        ty = false;
    }
    MatmulPlan p;
    const size_t xr = xs.size(), yr = ys.size();
    p.m = tx ? xs[xr - 1] : xs[xr - 2];
    const int64_t kx = tx ? xs[xr - 2] : xs[xr - 1];
    const int64_t ky = ty ? ys[yr - 1] : ys[yr - 2];
    p.n = ty ? ys[yr - 2] : ys[yr - 1];
    if (kx != ky)
        fail("contracted dims " + std::to_string(kx) + " and " + std::to_string(ky) + " differ");
    p.k = kx;
    const size_t xb = xr - 2, yb = yr - 2, nb = std::max(xb, yb);
    p.batch.assign(nb, 1);
    std::vector<int64_t> xDims(nb, 1), yDims(nb, 1);
    for (size_t i = 0; i < xb; ++i)
        xDims[nb - xb + i] = xs[i];
    for (size_t i = 0; i < yb; ++i)
        yDims[nb - yb + i] = ys[i];
    for (size_t i = 0; i < nb; ++i) {
        if (xDims[i] != yDims[i] && xDims[i] != 1 && yDims[i] != 1)
            fail("batch dims " + std::to_string(xDims[i]) + " and " + std::to_string(yDims[i])
                + " do not broadcast");
        p.batch[i] = xDims[i] == 1 ? yDims[i] : xDims[i];
    }
    p.xStride.assign(nb, 0);
    p.yStride.assign(nb, 0);
    int64_t xs_ = 1, ys_ = 1;
    for (size_t i = nb; i-- > 0;) {
        p.xStride[i] = xDims[i] == 1 ? 0 : xs_;
        p.yStride[i] = yDims[i] == 1 ? 0 : ys_;
        xs_ *= xDims[i];
        ys_ *= yDims[i];
    }
    p.batchCount = numElementsOf(p.batch);
    p.xBatchIsFull = xs_ == p.batchCount;
    p.yIsSingle = ys_ == 1;
    p.outShape = p.batch;
    if (!xVector)
        p.outShape.push_back(p.m);
    if (!yVector)
        p.outShape.push_back(p.n);
    return p;
}

// Offsets (in matrices) of batch entry `b` into x and y.
void batchOffsets(const MatmulPlan &p, int64_t b, int64_t &xo, int64_t &yo)
{
    xo = 0;
    yo = 0;
    for (size_t i = p.batch.size(); i-- > 0;) {
        const int64_t idx = b % p.batch[i];
        b /= p.batch[i];
        xo += idx * p.xStride[i];
        yo += idx * p.yStride[i];
    }
}

template<class T> void matmulBlas(const MatmulPlan &p, const T *x, const T *y, T *out, bool tx, bool ty)
{
    const int64_t lda = tx ? p.m : p.k, ldb = ty ? p.k : p.n;
    if (p.yIsSingle && p.xBatchIsFull && !tx) {
        // [batch * M, K] x [K, N]: one call for a whole batch of rows (linear layers).
        gemm(false, ty, p.batchCount * p.m, p.n, p.k, T(1), x, lda, y, ldb, T(0), out, p.n);
        return;
    }
    for (int64_t b = 0; b < p.batchCount; ++b) {
        int64_t xo, yo;
        batchOffsets(p, b, xo, yo);
        gemm(tx, ty, p.m, p.n, p.k, T(1), x + xo * p.m * p.k, lda, y + yo * p.k * p.n, ldb, T(0),
            out + b * p.m * p.n, p.n);
    }
}

template<class T> void matmulLoops(const MatmulPlan &p, const T *x, const T *y, T *out, bool tx, bool ty)
{
    for (int64_t b = 0; b < p.batchCount; ++b) {
        int64_t xo, yo;
        batchOffsets(p, b, xo, yo);
        const T *xm = x + xo * p.m * p.k;
        const T *ym = y + yo * p.k * p.n;
        T *om = out + b * p.m * p.n;
        for (int64_t i = 0; i < p.m; ++i)
            for (int64_t j = 0; j < p.n; ++j) {
                int64_t acc = 0;
                for (int64_t q = 0; q < p.k; ++q)
                    acc += int64_t(tx ? xm[q * p.m + i] : xm[i * p.k + q])
                        * int64_t(ty ? ym[j * p.k + q] : ym[q * p.n + j]);
                om[i * p.n + j] = T(acc);
            }
    }
}

void matmulKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const Tensor &y = ctx.input(1);
    const bool tx = ctx.boolAttr("transpose_x", false);
    const bool ty = ctx.boolAttr("transpose_y", false);
    ctx.setOutput(0, cpuMatmul(x, y, tx, ty, kernels::shortName(ctx)));
}

void bmmKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    const Tensor &y = ctx.input(1);
    if (x.rank() != 3 || y.rank() != 3 || x.dim(0) != y.dim(0))
        throw RuntimeError(kernels::shortName(ctx) + ": x " + shapeText(x.shape()) + " and y " + shapeText(y.shape())
            + " must be 3-D with equal batch");
    ctx.setOutput(0, cpuMatmul(x, y, false, false, kernels::shortName(ctx)));
}

} // namespace

Tensor cpuMatmul(const Tensor &x, const Tensor &y, bool transposeX, bool transposeY, const std::string &label)
{
    if (x.dtype() != y.dtype())
        throw RuntimeError(
            label + ": x " + x.describe() + " and y " + y.describe() + " have different dtypes");
    const MatmulPlan p = plan(x, y, transposeX, transposeY, label);
    const bool tx = transposeX && x.rank() > 1, ty = transposeY && y.rank() > 1;
    Tensor out = Tensor::empty(p.outShape, x.dtype());
    if (out.numElements() == 0)
        return out;
    switch (x.dtype()) {
    case DataType::Float32:
        matmulBlas(p, x.data<float>(), y.data<float>(), out.data<float>(), tx, ty);
        break;
    case DataType::Float64:
        matmulBlas(p, x.data<double>(), y.data<double>(), out.data<double>(), tx, ty);
        break;
    case DataType::Float16:
    case DataType::BFloat16: {
        const Tensor xf = convertTensor(x, DataType::Float32), yf = convertTensor(y, DataType::Float32);
        Tensor of = Tensor::empty(p.outShape, DataType::Float32);
        matmulBlas(p, xf.data<float>(), yf.data<float>(), of.data<float>(), tx, ty);
        return convertTensor(of, x.dtype());
    }
    case DataType::Int32:
        matmulLoops(p, x.data<int32_t>(), y.data<int32_t>(), out.data<int32_t>(), tx, ty);
        break;
    case DataType::Int64:
        matmulLoops(p, x.data<int64_t>(), y.data<int64_t>(), out.data<int64_t>(), tx, ty);
        break;
    default:
        throw RuntimeError(label + ": unsupported dtype " + std::string(phiName(x.dtype())));
    }
    return out;
}

void registerCpuMatmulKernels(KernelRegistry &registry)
{
    registry.add("pd_op.matmul", matmulKernel);
    registry.add("pd_op.bmm", bmmKernel);
}

} // namespace ps
