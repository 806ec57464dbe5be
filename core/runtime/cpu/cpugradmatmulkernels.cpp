#include "core/runtime/cpu/cpugradfamilies.h"
#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
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
    Shape xm = x.shape(), ym = y.shape();
    if (xm.empty() || ym.empty())
        throw RuntimeError(
            std::string(what) + " needs tensors of rank >= 1, got " + x.describe() + " and " + y.describe());
    if (xm.size() == 1) {
        xm = { 1, xm[0] };
        tx = false;
    }
    if (ym.size() == 1) {
        ym = { ym[0], 1 };
        ty = false;
    }
    const size_t xr = xm.size(), yr = ym.size();
    const int64_t m = tx ? xm[xr - 1] : xm[xr - 2], k = tx ? xm[xr - 2] : xm[xr - 1];
    const int64_t ky = ty ? ym[yr - 1] : ym[yr - 2], n = ty ? ym[yr - 2] : ym[yr - 1];
    if (k != ky)
        throw RuntimeError(
            std::string(what) + ": contraction dims differ, x " + x.describe() + " y " + y.describe());
    const Shape xBatch(xm.begin(), xm.end() - 2), yBatch(ym.begin(), ym.end() - 2);
    const Shape outBatch = broadcastShapes(xBatch, yBatch);
    const int64_t batches = numElementsOf(outBatch);
    if (g.numElements() != batches * m * n)
        throw RuntimeError(std::string(what) + ": out_grad " + g.describe() + " does not match x "
            + x.describe() + " and y " + y.describe());
    const std::vector<int64_t> xo = broadcastOffsets(alignShape(xBatch, outBatch.size()), outBatch);
    const std::vector<int64_t> yo = broadcastOffsets(alignShape(yBatch, outBatch.size()), outBatch);
    const std::vector<double> xv = values(x), yv = values(y), gv = values(g);
    const bool wantX = wanted(ctx, 0), wantY = wanted(ctx, 1);
    std::vector<double> dx(wantX ? xv.size() : 0, 0.0), dy(wantY ? yv.size() : 0, 0.0);
    for (int64_t b = 0; b < batches; ++b) {
        const double *xb = xv.data() + xo[size_t(b)] * m * k;
        const double *yb = yv.data() + yo[size_t(b)] * k * n;
        const double *gb = gv.data() + b * m * n;
        if (wantX) {
            double *dxb = dx.data() + xo[size_t(b)] * m * k;
            if (!tx)
                gemm(false, !ty, m, k, n, 1.0, gb, yb, 1.0, dxb); // g · op(y)^T
            else
                gemm(ty, true, k, m, n, 1.0, yb, gb, 1.0, dxb); // op(y) · g^T
        }
        if (wantY) {
            double *dyb = dy.data() + yo[size_t(b)] * k * n;
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
