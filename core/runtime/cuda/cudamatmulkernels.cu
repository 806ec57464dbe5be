// matmul, bmm and their grads through cuBLAS, and the cuda::gemm / cuda::matmul helpers the
// convolution kernels share. Row-major operands are handed to column-major cuBLAS as their
// transposes (C^T = op(B)^T op(A)^T). float32 runs in full float32 (CUBLAS_COMPUTE_32F) unless
// the backend allows TF32; float16/bfloat16 accumulate in float32; int32/int64 use a plain
// kernel with int64 accumulation, as the CPU loops do. Semantics follow
// core/runtime/cpu/cpumatmulkernels.cpp and cpugradmatmulkernels.cpp.

#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/matmulspec.h"

#include <climits>

PS_CUDA_NAMESPACE_BEGIN
namespace {

using namespace cuda;
using namespace kernels;

int checkedInt(int64_t v, const char *what)
{
    if (v < 0 || v > INT_MAX)
        throw RuntimeError(
            std::string("matmul: ") + what + " " + std::to_string(v) + " exceeds cuBLAS's int range");
    return int(v);
}

template<class T>
void integerGemm(const CudaRuntime &rt, bool ta, bool tb, int64_t M, int64_t N, int64_t K, const void *a,
    int64_t sa, const void *b, int64_t sb, void *c, int64_t sc, int64_t batch)
{
    const T *pa = static_cast<const T *>(a);
    const T *pb = static_cast<const T *>(b);
    T *pc = static_cast<T *>(c);
    launchFlat(
        rt, batch * M * N,
        [=] __device__(int64_t idx) {
            const int64_t bi = idx / (M * N), rem = idx - bi * M * N, i = rem / N, j = rem - i * N;
            const T *ab = pa + bi * sa;
            const T *bb = pb + bi * sb;
            int64_t acc = 0;
            for (int64_t q = 0; q < K; ++q)
                acc += int64_t(ta ? ab[q * M + i] : ab[i * K + q])
                    * int64_t(tb ? bb[j * K + q] : bb[q * N + j]);
            pc[bi * sc + i * N + j] = T(acc);
        },
        "integer matmul");
}

/// C_b[M,N] = op(A_b) op(B_b) over the out batch `outBatch`, with A's and B's batch dims
/// broadcast (aligned dims of size 1). One strided-batched call when each operand's batch is
/// whole or absent, else one call per batch entry.
void batchedProduct(CudaRuntime &rt, DataType dtype, bool ta, bool tb, int64_t M, int64_t N, int64_t K,
    const void *A, const std::vector<int64_t> &aDims, const void *B, const std::vector<int64_t> &bDims,
    void *C, const std::vector<int64_t> &outBatch)
{
    const int64_t batches = numElementsOf(outBatch);
    const int64_t sa = matmulUniformStride(aDims, outBatch, M * K),
                  sb = matmulUniformStride(bDims, outBatch, K * N);
    if (sa >= 0 && sb >= 0) {
        if (sb == 0 && sa != 0 && !ta) // [batch * M, K] x [K, N]: one GEMM for every row
            return gemm(rt, dtype, false, tb, batches * M, N, K, A, 0, B, 0, C, 0, 1);
        return gemm(rt, dtype, ta, tb, M, N, K, A, sa, B, sb, C, M * N, batches);
    }
    const size_t bytes = byteSize(dtype);
    for (int64_t b = 0; b < batches; ++b)
        gemm(rt, dtype, ta, tb, M, N, K,
            static_cast<const char *>(A) + matmulBatchOffset(b, aDims, outBatch) * M * K * bytes, 0,
            static_cast<const char *>(B) + matmulBatchOffset(b, bDims, outBatch) * K * N * bytes, 0,
            static_cast<char *>(C) + b * M * N * bytes, 0, 1);
}

Tensor matmulTensors(
    CudaRuntime &rt, const Tensor &x, const Tensor &y, bool tx, bool ty, const std::string &label)
{
    if (x.dtype() != y.dtype())
        throw RuntimeError(
            label + ": x " + x.describe() + " and y " + y.describe() + " have different dtypes");
    const MatmulSpec p = matmulSpec(x.shape(), y.shape(), tx, ty, label);
    Tensor out = rt.allocate(p.outShape, x.dtype());
    if (out.numElements() == 0)
        return out;
    batchedProduct(rt, x.dtype(), p.tx, p.ty, p.m, p.n, p.k, x.rawData(), p.xDims, y.rawData(), p.yDims,
        out.rawData(), p.outBatch);
    return out;
}

void matmulKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0), y = deviceInput(ctx, 1);
    ctx.setOutput(0,
        matmulTensors(rt, x, y, ctx.boolAttr("transpose_x", false), ctx.boolAttr("transpose_y", false),
            shortName(ctx)));
}

void bmmKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0), y = deviceInput(ctx, 1);
    if (x.rank() != 3 || y.rank() != 3 || x.dim(0) != y.dim(0))
        throw RuntimeError(shortName(ctx) + ": x " + shapeText(x.shape()) + " and y " + shapeText(y.shape())
            + " must be 3-D with equal batch");
    ctx.setOutput(0, matmulTensors(rt, x, y, false, false, shortName(ctx)));
}

/// One operand's gradient: computed per out-batch entry into [outBatch, rows, cols], then
/// summed over the batch dims the operand broadcast, then shaped like the operand.
Tensor reduceBatch(CudaRuntime &rt, const Tensor &full, const std::vector<int64_t> &outBatch,
    const std::vector<int64_t> &dims, int64_t rows, int64_t cols, const std::vector<int64_t> &shape)
{
    std::vector<int64_t> target = dims;
    target.insert(target.end(), { rows, cols });
    std::vector<int64_t> from = outBatch;
    from.insert(from.end(), { rows, cols });
    return sumToShape(rt, full.reshaped(from), target).reshaped(shape);
}

/// x_grad and y_grad of out = op(x) @ op(y) (CPU formulas): dx = g op(y)^T or op(y) g^T,
/// dy = op(x)^T g or g^T op(x). A single y shared by a whole batch of x rows folds the batch
/// into the GEMM rows (dx) or into the contraction (dy), as linear layers need.
void matmulGradImpl(KernelContext &ctx, bool tx, bool ty, const char *what)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    // Mixed float dtypes (the CPU oracle computes in double): everything in x's dtype, dy stored
    // in y's at the end.
    for (const Tensor &t : { x, ctx.input(1), ctx.input(2) })
        if (!isFloatingType(t.dtype()))
            throw RuntimeError(std::string(what) + " expects a floating-point tensor, got " + t.describe());
    const DataType yDtype = ctx.input(1).dtype();
    const Tensor y = cast(rt, deviceInput(ctx, 1), x.dtype()), g = cast(rt, deviceInput(ctx, 2), x.dtype());
    const MatmulSpec p = matmulSpec(x.shape(), y.shape(), tx, ty, what);
    const int64_t batches = numElementsOf(p.outBatch), m = p.m, n = p.n, k = p.k;
    if (g.numElements() != batches * m * n)
        throw RuntimeError(std::string(what) + ": out_grad " + g.describe() + " does not match x "
            + x.describe() + " and y " + y.describe());
    const DataType dtype = g.dtype();
    const bool ySingle = matmulUniformStride(p.yDims, p.outBatch, 1) == 0;
    const bool xFull = matmulUniformStride(p.xDims, p.outBatch, 1) == 1 || batches == 1;
    std::vector<int64_t> gDims = p.outBatch;
    if (wanted(ctx, 0)) {
        Tensor dx;
        if (ySingle && xFull && !p.tx) {
            dx = rt.allocate(x.shape(), dtype);
            gemm(rt, dtype, false, !p.ty, batches * m, k, n, g.rawData(), 0, y.rawData(), 0, dx.rawData(), 0,
                1);
        } else {
            const int64_t rows = p.tx ? k : m, cols = p.tx ? m : k;
            std::vector<int64_t> shape = p.outBatch;
            shape.insert(shape.end(), { rows, cols });
            Tensor full = rt.allocate(shape, dtype);
            if (!p.tx)
                batchedProduct(rt, dtype, false, !p.ty, m, k, n, g.rawData(), gDims, y.rawData(), p.yDims,
                    full.rawData(), p.outBatch);
            else
                batchedProduct(rt, dtype, p.ty, true, k, m, n, y.rawData(), p.yDims, g.rawData(), gDims,
                    full.rawData(), p.outBatch);
            dx = reduceBatch(rt, full, p.outBatch, p.xDims, rows, cols, x.shape());
        }
        ctx.setOutput(0, dx);
    }
    if (wanted(ctx, 1)) {
        Tensor dy;
        if (ySingle && xFull && !p.tx && batches > 1) {
            dy = rt.allocate(y.shape(), dtype);
            if (!p.ty)
                gemm(rt, dtype, true, false, k, n, batches * m, x.rawData(), 0, g.rawData(), 0, dy.rawData(),
                    0, 1);
            else
                gemm(rt, dtype, true, false, n, k, batches * m, g.rawData(), 0, x.rawData(), 0, dy.rawData(),
                    0, 1);
        } else {
            const int64_t rows = p.ty ? n : k, cols = p.ty ? k : n;
            std::vector<int64_t> shape = p.outBatch;
            shape.insert(shape.end(), { rows, cols });
            Tensor full = rt.allocate(shape, dtype);
            if (!p.ty)
                batchedProduct(rt, dtype, !p.tx, false, k, n, m, x.rawData(), p.xDims, g.rawData(), gDims,
                    full.rawData(), p.outBatch);
            else
                batchedProduct(rt, dtype, true, p.tx, n, k, m, g.rawData(), gDims, x.rawData(), p.xDims,
                    full.rawData(), p.outBatch);
            dy = reduceBatch(rt, full, p.outBatch, p.yDims, rows, cols, y.shape());
        }
        ctx.setOutput(1, cast(rt, dy, yDtype));
    }
}

void matmulGradKernel(KernelContext &ctx)
{
    matmulGradImpl(
        ctx, ctx.boolAttr("transpose_x", false), ctx.boolAttr("transpose_y", false), "matmul_grad");
}

void bmmGradKernel(KernelContext &ctx)
{
    if (ctx.input(0).rank() != 3 || ctx.input(1).rank() != 3)
        throw RuntimeError(
            "bmm_grad needs 3-D x and y, got " + ctx.input(0).describe() + " and " + ctx.input(1).describe());
    matmulGradImpl(ctx, false, false, "bmm_grad");
}

} // namespace

namespace cuda {

void gemm(CudaRuntime &rt, DataType dtype, bool transA, bool transB, int64_t M, int64_t N, int64_t K,
    const void *A, int64_t strideA, const void *B, int64_t strideB, void *C, int64_t strideC, int64_t batch,
    double alpha, double beta, DataType cDtype)
{
    const bool wideC
        = cDtype == DataType::Float32 && (dtype == DataType::Float16 || dtype == DataType::BFloat16);
    if (cDtype != DataType::Undefined && cDtype != dtype && !wideC)
        throw RuntimeError("matmul: a " + std::string(phiName(dtype)) + " GEMM cannot store "
            + std::string(phiName(cDtype)));
    if (M == 0 || N == 0 || batch == 0)
        return;
    if (K == 0) { // an empty contraction: C = beta * C, and beta is 0 wherever K can be 0
        if (beta != 0.0)
            throw RuntimeError("matmul: empty contraction with beta != 0");
        const size_t bytes = byteSize(wideC ? cDtype : dtype);
        for (int64_t b = 0; b < batch; ++b)
            checkCuda(cudaMemsetAsync(
                          static_cast<char *>(C) + b * strideC * bytes, 0, size_t(M * N) * bytes, rt.stream),
                "matmul zero fill");
        return;
    }
    if (dtype == DataType::Int32 || dtype == DataType::Int64) {
        if (alpha != 1.0 || beta != 0.0)
            throw RuntimeError("integer matmul supports only alpha 1, beta 0");
        if (dtype == DataType::Int32)
            integerGemm<int32_t>(rt, transA, transB, M, N, K, A, strideA, B, strideB, C, strideC, batch);
        else
            integerGemm<int64_t>(rt, transA, transB, M, N, K, A, strideA, B, strideB, C, strideC, batch);
        return;
    }
    cudaDataType_t type;
    cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
    switch (dtype) {
    case DataType::Float32:
        type = CUDA_R_32F;
        compute = rt.allowTf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
        break;
    case DataType::Float64:
        type = CUDA_R_64F;
        compute = CUBLAS_COMPUTE_64F;
        break;
    case DataType::Float16:
        type = CUDA_R_16F;
        break;
    case DataType::BFloat16:
        type = CUDA_R_16BF;
        break;
    default:
        throw RuntimeError("matmul: the CUDA kernel supports float32/64/16, bfloat16, int32 and int64, got "
            + std::string(phiName(dtype)));
    }
    const float alphaF = float(alpha), betaF = float(beta);
    const void *alphaP = compute == CUBLAS_COMPUTE_64F ? static_cast<const void *>(&alpha) : &alphaF;
    const void *betaP = compute == CUBLAS_COMPUTE_64F ? static_cast<const void *>(&beta) : &betaF;
    const int m = checkedInt(M, "M"), n = checkedInt(N, "N"), k = checkedInt(K, "K");
    const int lda = checkedInt(transA ? M : K, "lda"), ldb = checkedInt(transB ? K : N, "ldb");
    const cublasOperation_t opA = transA ? CUBLAS_OP_T : CUBLAS_OP_N,
                            opB = transB ? CUBLAS_OP_T : CUBLAS_OP_N;
    // Column-major view: C^T[N,M] = op(B)^T[N,K] op(A)^T[K,M].
    const cudaDataType_t cType = wideC ? CUDA_R_32F : type;
    if (batch == 1)
        checkCublas(cublasGemmEx(rt.cublas, opB, opA, n, m, k, alphaP, B, type, ldb, A, type, lda, betaP, C,
                        cType, n, compute, CUBLAS_GEMM_DEFAULT),
            "cublasGemmEx");
    else
        checkCublas(cublasGemmStridedBatchedEx(rt.cublas, opB, opA, n, m, k, alphaP, B, type, ldb, strideB, A,
                        type, lda, strideA, betaP, C, cType, n, strideC, checkedInt(batch, "batch"), compute,
                        CUBLAS_GEMM_DEFAULT),
            "cublasGemmStridedBatchedEx");
}

Tensor matmul(CudaRuntime &rt, const Tensor &x, const Tensor &y, bool transX, bool transY)
{
    return matmulTensors(rt, x, y, transX, transY, "matmul");
}

} // namespace cuda

void registerCudaMatmulKernels(KernelRegistry &registry)
{
    registry.add("pd_op.matmul", &matmulKernel);
    registry.add("pd_op.bmm", &bmmKernel);
    registry.add("pd_op.matmul_grad", &matmulGradKernel);
    registry.add("pd_op.bmm_grad", &bmmGradKernel);
}

PS_CUDA_NAMESPACE_END
