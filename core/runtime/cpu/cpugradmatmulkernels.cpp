#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/matmulspec.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>

namespace ps {
namespace {

using namespace cpugrad;

/// x_grad and y_grad of out = op(x) @ op(y) with NumPy batch broadcasting. A 1-D x is a row
/// [1, K] and a 1-D y a column [K, 1] (their transpose flags are ignored, as in Paddle); grads
/// of broadcast batch dims accumulate through GEMM with beta = 1.
void matmulGradImpl(KernelContext &ctx, bool tx, bool ty, const char *what)
{
    const Tensor &x = ctx.input(0), &y = ctx.input(1), &g = ctx.input(2);
    requireFloating(g, what);
    const MatmulSpec p = matmulSpec(x.shape(), y.shape(), tx, ty, what);
    tx = p.tx;
    ty = p.ty;
    const int64_t m = p.m, n = p.n, k = p.k, batches = p.batches();
    if (g.numElements() != batches * m * n)
        throw RuntimeError(std::string(what) + ": out_grad " + g.describe() + " does not match x "
            + x.describe() + " and y " + y.describe());
    const std::vector<double> xv = values(x), yv = values(y), gv = values(g);
    const bool wantX = wanted(ctx, 0), wantY = wanted(ctx, 1);
    std::vector<double> dx(wantX ? xv.size() : 0, 0.0), dy(wantY ? yv.size() : 0, 0.0);
    for (int64_t b = 0; b < batches; ++b) {
        const int64_t xo = matmulBatchOffset(b, p.xDims, p.outBatch);
        const int64_t yo = matmulBatchOffset(b, p.yDims, p.outBatch);
        const double *xb = xv.data() + xo * m * k;
        const double *yb = yv.data() + yo * k * n;
        const double *gb = gv.data() + b * m * n;
        if (wantX) {
            double *dxb = dx.data() + xo * m * k;
            if (!tx)
                gemm(false, !ty, m, k, n, 1.0, gb, yb, 1.0, dxb); // g · op(y)^T
            else
                gemm(ty, true, k, m, n, 1.0, yb, gb, 1.0, dxb); // op(y) · g^T
        }
        if (wantY) {
            double *dyb = dy.data() + yo * k * n;
            if (!ty)
                gemm(!tx, false, k, n, m, 1.0, xb, gb, 1.0, dyb); // op(x)^T · g
            else
                gemm(true, tx, n, k, m, 1.0, gb, xb, 1.0, dyb); // g^T · op(x)
        }
    }
    if (wantX)
        ctx.setOutput(0, makeTensor(ctx, x.shape(), x.dtype(), dx));
    if (wantY)
        ctx.setOutput(1, makeTensor(ctx, y.shape(), y.dtype(), dy));
}

void matmulGrad(KernelContext &ctx)
{
    matmulGradImpl(
        ctx, ctx.boolAttr("transpose_x", false), ctx.boolAttr("transpose_y", false), "matmul_grad");
}

void bmmGrad(KernelContext &ctx)
{
    if (ctx.input(0).rank() != 3 || ctx.input(1).rank() != 3)
        throw RuntimeError(
            "bmm_grad needs 3-D x and y, got " + ctx.input(0).describe() + " and " + ctx.input(1).describe());
    matmulGradImpl(ctx, false, false, "bmm_grad");
}

} // namespace

void registerCpuGradMatmulKernels(KernelRegistry &registry)
{
    registry.add("pd_op.matmul_grad", matmulGrad);
    registry.add("pd_op.bmm_grad", bmmGrad);
}

} // namespace ps
