// cuda-sim's cuBLAS: the GEMMs the CUDA backend calls, computed column-major on the host exactly
// as cuBLAS defines them (C = alpha op(A) op(B) + beta C, op(X) of an m x k or k x n operand
// stored with its leading dimension), with cuBLAS's argument checks. The backend hands row-major
// tensors to column-major cuBLAS as transposes, so running this mapping for real is what tests
// it. float32 goes through a CBLAS (OpenBLAS) in column-major order when one is linked; TF32
// (CUBLAS_COMPUTE_32F_FAST_TF32, or the TF32 math mode) rounds both inputs to TF32 first;
// float16/bfloat16 compute in float32 and round the result once. GEMMs are queued on the
// handle's stream like kernels.

#include "core/runtime/cudasim/simdevice.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <memory>
#include <vector>

#ifdef PIRSCOPE_HAVE_CBLAS
#    include <cblas.h>
#endif

namespace ps::cudasim {

struct SimBlasHandle
{
    api::cudaStream_t stream = nullptr;
    api::cublasMath_t math = api::CUBLAS_DEFAULT_MATH;
    void *workspace = nullptr;
    size_t workspaceBytes = 0;
};

namespace {

using namespace api;

size_t elementBytes(cudaDataType_t t)
{
    switch (t) {
    case CUDA_R_32F:
        return 4;
    case CUDA_R_64F:
        return 8;
    case CUDA_R_16F:
    case CUDA_R_16BF:
        return 2;
    }
    return 0;
}

float toFloat(const void *p, cudaDataType_t t, size_t i)
{
    switch (t) {
    case CUDA_R_32F:
        return static_cast<const float *>(p)[i];
    case CUDA_R_64F:
        return float(static_cast<const double *>(p)[i]);
    case CUDA_R_16F:
        return float(static_cast<const Half *>(p)[i]);
    case CUDA_R_16BF:
        return float(static_cast<const BHalf *>(p)[i]);
    }
    return 0;
}

void fromFloat(void *p, cudaDataType_t t, size_t i, float v)
{
    switch (t) {
    case CUDA_R_32F:
        static_cast<float *>(p)[i] = v;
        break;
    case CUDA_R_64F:
        static_cast<double *>(p)[i] = v;
        break;
    case CUDA_R_16F:
        static_cast<Half *>(p)[i] = Half(v);
        break;
    case CUDA_R_16BF:
        static_cast<BHalf *>(p)[i] = BHalf(v);
        break;
    }
}

/// Round to TF32 (10 mantissa bits, nearest even), as tensor cores read float32 inputs.
float roundTf32(float v)
{
    uint32_t bits = std::bit_cast<uint32_t>(v);
    if ((bits & 0x7f800000u) == 0x7f800000u)
        return v;
    bits += 0xfffu + ((bits >> 13) & 1u);
    return std::bit_cast<float>(bits & ~0x1fffu);
}

struct Gemm
{
    bool transA = false, transB = false;
    int m = 0, n = 0, k = 0;
    const void *A = nullptr;
    const void *B = nullptr;
    void *C = nullptr;
    int lda = 0, ldb = 0, ldc = 0;
    long long strideA = 0, strideB = 0, strideC = 0;
    int batch = 1;
    cudaDataType_t type = CUDA_R_32F;
    cudaDataType_t cType = CUDA_R_32F;
    bool tf32 = false;
    double alpha = 1, beta = 0;
};

/// Bytes from an operand's pointer to one past its last element (column-major, `batch` copies
/// `stride` elements apart).
size_t extent(int rows, int cols, int ld, long long stride, int batch, size_t bytes)
{
    if (rows == 0 || cols == 0 || batch == 0)
        return 0;
    const size_t last = size_t(cols - 1) * size_t(ld) + size_t(rows) + size_t(batch - 1) * size_t(std::max(0LL, stride));
    return last * bytes;
}

/// One column-major product C = alpha op(A) op(B) + beta C in float (or double).
void run(const Gemm &g, int b)
{
    const size_t eb = elementBytes(g.type);
    const char *A = static_cast<const char *>(g.A) + size_t(b) * size_t(g.strideA) * eb;
    const char *B = static_cast<const char *>(g.B) + size_t(b) * size_t(g.strideB) * eb;
    char *C = static_cast<char *>(g.C) + size_t(b) * size_t(g.strideC) * elementBytes(g.cType);
    const int rowsA = g.transA ? g.k : g.m, colsA = g.transA ? g.m : g.k;
    const int rowsB = g.transB ? g.n : g.k, colsB = g.transB ? g.k : g.n;
    if (g.type == CUDA_R_64F) {
        const auto *a = reinterpret_cast<const double *>(A);
        const auto *bb = reinterpret_cast<const double *>(B);
        auto *c = reinterpret_cast<double *>(C);
#ifdef PIRSCOPE_HAVE_CBLAS
        cblas_dgemm(CblasColMajor, g.transA ? CblasTrans : CblasNoTrans, g.transB ? CblasTrans : CblasNoTrans, g.m,
            g.n, g.k, g.alpha, a, g.lda, bb, g.ldb, g.beta, c, g.ldc);
#else
        for (int j = 0; j < g.n; ++j)
            for (int i = 0; i < g.m; ++i) {
                double acc = 0;
                for (int q = 0; q < g.k; ++q)
                    acc += (g.transA ? a[i * g.lda + q] : a[q * g.lda + i]) * (g.transB ? bb[q * g.ldb + j] : bb[j * g.ldb + q]);
                c[j * g.ldc + i] = g.alpha * acc + (g.beta == 0 ? 0.0 : g.beta * c[j * g.ldc + i]);
            }
#endif
        return;
    }
#ifdef PIRSCOPE_HAVE_CBLAS
    if (g.type == CUDA_R_32F && !g.tf32) {
        cblas_sgemm(CblasColMajor, g.transA ? CblasTrans : CblasNoTrans, g.transB ? CblasTrans : CblasNoTrans, g.m,
            g.n, g.k, float(g.alpha), reinterpret_cast<const float *>(A), g.lda, reinterpret_cast<const float *>(B),
            g.ldb, float(g.beta), reinterpret_cast<float *>(C), g.ldc);
        return;
    }
#endif
    // float32 operands (converted from halves, rounded to TF32 when asked) in dense copies.
    std::vector<float> a(size_t(rowsA) * size_t(colsA)), bv(size_t(rowsB) * size_t(colsB)), c(size_t(g.m) * size_t(g.n));
    for (int j = 0; j < colsA; ++j)
        for (int i = 0; i < rowsA; ++i) {
            const float v = toFloat(A, g.type, size_t(j) * size_t(g.lda) + size_t(i));
            a[size_t(j) * size_t(rowsA) + size_t(i)] = g.tf32 ? roundTf32(v) : v;
        }
    for (int j = 0; j < colsB; ++j)
        for (int i = 0; i < rowsB; ++i) {
            const float v = toFloat(B, g.type, size_t(j) * size_t(g.ldb) + size_t(i));
            bv[size_t(j) * size_t(rowsB) + size_t(i)] = g.tf32 ? roundTf32(v) : v;
        }
    if (g.beta != 0)
        for (int j = 0; j < g.n; ++j)
            for (int i = 0; i < g.m; ++i)
                c[size_t(j) * size_t(g.m) + size_t(i)] = toFloat(C, g.cType, size_t(j) * size_t(g.ldc) + size_t(i));
#ifdef PIRSCOPE_HAVE_CBLAS
    cblas_sgemm(CblasColMajor, g.transA ? CblasTrans : CblasNoTrans, g.transB ? CblasTrans : CblasNoTrans, g.m, g.n,
        g.k, float(g.alpha), a.data(), std::max(1, rowsA), bv.data(), std::max(1, rowsB), float(g.beta), c.data(),
        std::max(1, g.m));
#else
    for (int j = 0; j < g.n; ++j)
        for (int i = 0; i < g.m; ++i) {
            float acc = 0;
            for (int q = 0; q < g.k; ++q)
                acc += (g.transA ? a[size_t(i) * size_t(rowsA) + size_t(q)] : a[size_t(q) * size_t(rowsA) + size_t(i)])
                    * (g.transB ? bv[size_t(q) * size_t(rowsB) + size_t(j)] : bv[size_t(j) * size_t(rowsB) + size_t(q)]);
            float &out = c[size_t(j) * size_t(g.m) + size_t(i)];
            out = float(g.alpha) * acc + (g.beta == 0 ? 0.0f : float(g.beta) * out);
        }
#endif
    for (int j = 0; j < g.n; ++j)
        for (int i = 0; i < g.m; ++i)
            fromFloat(C, g.cType, size_t(j) * size_t(g.ldc) + size_t(i), c[size_t(j) * size_t(g.m) + size_t(i)]);
}

cublasStatus_t gemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const void *alpha, const void *A, cudaDataType_t Atype, int lda, long long strideA, const void *B,
    cudaDataType_t Btype, int ldb, long long strideB, const void *beta, void *C, cudaDataType_t Ctype, int ldc,
    long long strideC, int batch, cublasComputeType_t compute)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    const auto validOp = [](cublasOperation_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; };
    if (!validOp(transa) || !validOp(transb) || m < 0 || n < 0 || k < 0 || batch < 0)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (lda < std::max(1, transa == CUBLAS_OP_N ? m : k) || ldb < std::max(1, transb == CUBLAS_OP_N ? k : n)
        || ldc < std::max(1, m))
        return CUBLAS_STATUS_INVALID_VALUE;
    // A and B share a type; C has it too, or is float32 under half inputs (cuBLAS's mixed GEMM).
    const bool wideC = Ctype == CUDA_R_32F && (Atype == CUDA_R_16F || Atype == CUDA_R_16BF);
    if (Atype != Btype || (Atype != Ctype && !wideC) || elementBytes(Atype) == 0)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    const bool f32Compute = compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_FAST_TF32
        || compute == CUBLAS_COMPUTE_32F_PEDANTIC || compute == CUBLAS_COMPUTE_32F_FAST_16F
        || compute == CUBLAS_COMPUTE_32F_FAST_16BF;
    const bool supported = (Atype == CUDA_R_64F && compute == CUBLAS_COMPUTE_64F)
        || (Atype == CUDA_R_32F && f32Compute)
        || ((Atype == CUDA_R_16F || Atype == CUDA_R_16BF) && (compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_PEDANTIC))
        || (Atype == CUDA_R_16F && compute == CUBLAS_COMPUTE_16F);
    if (!supported)
        return CUBLAS_STATUS_NOT_SUPPORTED;
    if (m == 0 || n == 0 || batch == 0)
        return CUBLAS_STATUS_SUCCESS;
    // A workspace set by cublasSetWorkspace must still be device memory (not freed, not lost in a
    // reset): cuBLAS may write into it.
    if (handle->workspaceBytes > 0 && !SimDevice::instance().isDevicePointer(handle->workspace, handle->workspaceBytes))
        return CUBLAS_STATUS_EXECUTION_FAILED;
    Gemm g;
    g.transA = transa != CUBLAS_OP_N;
    g.transB = transb != CUBLAS_OP_N;
    g.m = m;
    g.n = n;
    g.k = k;
    g.A = A;
    g.B = B;
    g.C = C;
    g.lda = lda;
    g.ldb = ldb;
    g.ldc = ldc;
    g.strideA = strideA;
    g.strideB = strideB;
    g.strideC = strideC;
    g.batch = batch;
    g.type = Atype;
    g.cType = Ctype;
    g.tf32 = Atype == CUDA_R_32F
        && (compute == CUBLAS_COMPUTE_32F_FAST_TF32 || (compute == CUBLAS_COMPUTE_32F && handle->math == CUBLAS_TF32_TENSOR_OP_MATH));
    // Scalars live on the host (CUBLAS_POINTER_MODE_HOST) and are read now.
    if (compute == CUBLAS_COMPUTE_64F) {
        g.alpha = *static_cast<const double *>(alpha);
        g.beta = *static_cast<const double *>(beta);
    } else if (compute == CUBLAS_COMPUTE_16F) {
        g.alpha = float(*static_cast<const Half *>(alpha));
        g.beta = float(*static_cast<const Half *>(beta));
    } else {
        g.alpha = *static_cast<const float *>(alpha);
        g.beta = *static_cast<const float *>(beta);
    }
    const size_t eb = elementBytes(Atype);
    const size_t bytesA = extent(g.transA ? k : m, g.transA ? m : k, lda, strideA, batch, eb);
    const size_t bytesB = extent(g.transB ? n : k, g.transB ? k : n, ldb, strideB, batch, eb);
    const size_t bytesC = extent(m, n, ldc, strideC, batch, elementBytes(Ctype));
    SimDevice &d = SimDevice::instance();
    const cudaError_t e = d.enqueue(handle->stream, [g, bytesA, bytesB, bytesC] {
        SimDevice &dev = SimDevice::instance();
        const struct
        {
            const void *p;
            size_t bytes;
            const char *name;
        } operands[] = { { g.A, bytesA, "A" }, { g.B, bytesB, "B" }, { g.C, bytesC, "C" } };
        for (const auto &o : operands) {
            if (o.bytes > 0 && !dev.isDevicePointer(o.p, o.bytes)) {
                dev.fail(cudaErrorIllegalAddress,
                    std::string("a cuBLAS GEMM's operand ") + o.name + " (" + std::to_string(o.bytes)
                        + " bytes from its pointer, by its leading dimension and batch stride) is not inside one device allocation");
                return;
            }
            dev.grant(o.p, o.bytes);
        }
        for (int b = 0; b < g.batch; ++b)
            run(g, b);
    });
    return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_EXECUTION_FAILED;
}

} // namespace

namespace api {

cublasStatus_t cublasCreate(cublasHandle_t *handle)
{
    if (!handle)
        return CUBLAS_STATUS_INVALID_VALUE;
    if (SimDevice::instance().stickyError() != cudaSuccess)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    *handle = new SimBlasHandle;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy(cublasHandle_t handle)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    SimDevice::instance().synchronize();
    delete handle;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = stream;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    handle->math = mode;
    return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetWorkspace(cublasHandle_t handle, void *workspace, size_t bytes)
{
    if (!handle)
        return CUBLAS_STATUS_NOT_INITIALIZED;
    if (bytes > 0 && !SimDevice::instance().isDevicePointer(workspace, bytes))
        return CUBLAS_STATUS_INVALID_VALUE;
    handle->workspace = workspace;
    handle->workspaceBytes = bytes;
    return CUBLAS_STATUS_SUCCESS;
}

const char *cublasGetStatusName(cublasStatus_t status)
{
    switch (status) {
    case CUBLAS_STATUS_SUCCESS:
        return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED:
        return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED:
        return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
        return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
        return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR:
        return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED:
        return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR:
        return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED:
        return "CUBLAS_STATUS_NOT_SUPPORTED";
    }
    return "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasGetStatusString(cublasStatus_t status)
{
    switch (status) {
    case CUBLAS_STATUS_SUCCESS:
        return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED:
        return "the library was not initialized";
    case CUBLAS_STATUS_INVALID_VALUE:
        return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_NOT_SUPPORTED:
        return "the functionality requested is not supported";
    case CUBLAS_STATUS_EXECUTION_FAILED:
        return "the GPU program failed to execute";
    default:
        break;
    }
    return cublasGetStatusName(status);
}

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const void *alpha, const void *A, cudaDataType_t Atype, int lda, const void *B, cudaDataType_t Btype,
    int ldb, const void *beta, void *C, cudaDataType_t Ctype, int ldc, cublasComputeType_t computeType,
    cublasGemmAlgo_t)
{
    return gemm(handle, transa, transb, m, n, k, alpha, A, Atype, lda, 0, B, Btype, ldb, 0, beta, C, Ctype, ldc, 0, 1,
        computeType);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
    int m, int n, int k, const void *alpha, const void *A, cudaDataType_t Atype, int lda, long long strideA,
    const void *B, cudaDataType_t Btype, int ldb, long long strideB, const void *beta, void *C,
    cudaDataType_t Ctype, int ldc, long long strideC, int batchCount, cublasComputeType_t computeType,
    cublasGemmAlgo_t)
{
    return gemm(handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, strideB, beta, C, Ctype,
        ldc, strideC, batchCount, computeType);
}

cublasStatus_t cublasSgemmStridedBatched(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
    int m, int n, int k, const float *alpha, const float *A, int lda, long long strideA, const float *B, int ldb,
    long long strideB, const float *beta, float *C, int ldc, long long strideC, int batchCount)
{
    return gemm(handle, transa, transb, m, n, k, alpha, A, CUDA_R_32F, lda, strideA, B, CUDA_R_32F, ldb, strideB, beta,
        C, CUDA_R_32F, ldc, strideC, batchCount,
        handle && handle->math == CUBLAS_TF32_TENSOR_OP_MATH ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F);
}

cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const float *alpha, const float *A, int lda, const float *B, int ldb, const float *beta, float *C, int ldc)
{
    return gemm(handle, transa, transb, m, n, k, alpha, A, CUDA_R_32F, lda, 0, B, CUDA_R_32F, ldb, 0, beta, C,
        CUDA_R_32F, ldc, 0, 1, handle && handle->math == CUBLAS_TF32_TENSOR_OP_MATH ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                                   : CUBLAS_COMPUTE_32F);
}

} // namespace api
} // namespace ps::cudasim
