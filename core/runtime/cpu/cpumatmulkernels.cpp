#include "core/runtime/cpu/cpugemm.h"
#include "core/runtime/cpu/cpumatmul.h"
#include "core/runtime/cpu/cpunnfamilies.h"
#include "core/runtime/cpu/cpunnutil.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/matmulspec.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <cstring>

namespace ps {
namespace {

// Matrix offsets of output batch entry `b` into x and y.
void batchOffsets(const MatmulSpec &p, int64_t b, int64_t &xo, int64_t &yo)
{
    xo = matmulBatchOffset(b, p.xDims, p.outBatch);
    yo = matmulBatchOffset(b, p.yDims, p.outBatch);
}

template<class T> void matmulBlas(const MatmulSpec &p, const T *x, const T *y, T *out)
{
    const bool tx = p.tx, ty = p.ty;
    const int64_t lda = tx ? p.m : p.k, ldb = ty ? p.k : p.n, batches = p.batches();
    const bool ySingle = matmulUniformStride(p.yDims, p.outBatch, 1) == 0;
    const bool xFull = matmulUniformStride(p.xDims, p.outBatch, 1) == 1 || batches == 1;
    if (ySingle && xFull && !tx) {
        // [batch * M, K] x [K, N]: one call for a whole batch of rows (linear layers).
        gemm(false, ty, batches * p.m, p.n, p.k, T(1), x, lda, y, ldb, T(0), out, p.n);
        return;
    }
    for (int64_t b = 0; b < batches; ++b) {
        int64_t xo, yo;
        batchOffsets(p, b, xo, yo);
        gemm(tx, ty, p.m, p.n, p.k, T(1), x + xo * p.m * p.k, lda, y + yo * p.k * p.n, ldb, T(0),
            out + b * p.m * p.n, p.n);
    }
}

template<class T> void matmulLoops(const MatmulSpec &p, const T *x, const T *y, T *out)
{
    const bool tx = p.tx, ty = p.ty;
    for (int64_t b = 0, batches = p.batches(); b < batches; ++b) {
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
        throw RuntimeError(kernels::shortName(ctx) + ": x " + shapeText(x.shape()) + " and y "
            + shapeText(y.shape()) + " must be 3-D with equal batch");
    ctx.setOutput(0, cpuMatmul(x, y, false, false, kernels::shortName(ctx)));
}

} // namespace

Tensor cpuMatmul(const Tensor &x, const Tensor &y, bool transposeX, bool transposeY, const std::string &label)
{
    if (x.dtype() != y.dtype())
        throw RuntimeError(
            label + ": x " + x.describe() + " and y " + y.describe() + " have different dtypes");
    const MatmulSpec p = matmulSpec(x.shape(), y.shape(), transposeX, transposeY, label);
    Tensor out = Tensor::empty(p.outShape, x.dtype());
    if (out.numElements() == 0)
        return out;
    switch (x.dtype()) {
    case DataType::Float32:
        matmulBlas(p, x.data<float>(), y.data<float>(), out.data<float>());
        break;
    case DataType::Float64:
        matmulBlas(p, x.data<double>(), y.data<double>(), out.data<double>());
        break;
    case DataType::Float16:
    case DataType::BFloat16: {
        const Tensor xf = convertTensor(x, DataType::Float32), yf = convertTensor(y, DataType::Float32);
        Tensor of = Tensor::empty(p.outShape, DataType::Float32);
        matmulBlas(p, xf.data<float>(), yf.data<float>(), of.data<float>());
        return convertTensor(of, x.dtype());
    }
    case DataType::Int32:
        matmulLoops(p, x.data<int32_t>(), y.data<int32_t>(), out.data<int32_t>());
        break;
    case DataType::Int64:
        matmulLoops(p, x.data<int64_t>(), y.data<int64_t>(), out.data<int64_t>());
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
