#include "core/runtime/cpu/cpugemm.h"

#include "core/runtime/runtimeerror.h"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#ifdef PIRSCOPE_HAVE_CBLAS
#    include <cblas.h>
#endif

namespace ps {
namespace {

void checkDims(int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc)
{
    for (int64_t v : { m, n, k, lda, ldb, ldc })
        if (v < 0 || v > INT_MAX)
            throw RuntimeError("gemm: dimension " + std::to_string(v) + " outside the 32-bit BLAS range");
}

#ifndef PIRSCOPE_HAVE_CBLAS
// Built-in GEMM: C = beta*C, then op(A) is packed row-major (m x k) and op(B) row-major (k x n)
// so the inner loop is a contiguous axpy over a block of C's row; blocks of k keep B's rows in
// cache. Accumulates in T.
template<class T>
void gemmLoops(bool transA, bool transB, int64_t m, int64_t n, int64_t k, T alpha, const T *a, int64_t lda,
    const T *b, int64_t ldb, T beta, T *c, int64_t ldc)
{
    for (int64_t i = 0; i < m; ++i) {
        T *row = c + i * ldc;
        if (beta == T(0))
            std::fill(row, row + n, T(0));
        else if (beta != T(1))
            for (int64_t j = 0; j < n; ++j)
                row[j] *= beta;
    }
    if (m == 0 || n == 0 || k == 0)
        return;
    std::vector<T> bPacked;
    const T *bp = b;
    int64_t bld = ldb;
    if (transB) {
        bPacked.resize(size_t(k * n));
        for (int64_t j = 0; j < n; ++j)
            for (int64_t p = 0; p < k; ++p)
                bPacked[size_t(p * n + j)] = b[j * ldb + p];
        bp = bPacked.data();
        bld = n;
    }
    // Four rows of C per pass reuse each loaded row of B four times.
    constexpr int64_t kBlockK = 256;
    constexpr int64_t kBlockN = 512;
    auto aAt = [&](int64_t i, int64_t p) { return alpha * (transA ? a[p * lda + i] : a[i * lda + p]); };
    for (int64_t p0 = 0; p0 < k; p0 += kBlockK) {
        const int64_t p1 = std::min(k, p0 + kBlockK);
        for (int64_t j0 = 0; j0 < n; j0 += kBlockN) {
            const int64_t j1 = std::min(n, j0 + kBlockN);
            int64_t i = 0;
            for (; i + 4 <= m; i += 4) {
                T *__restrict c0 = c + i * ldc;
                T *__restrict c1 = c0 + ldc;
                T *__restrict c2 = c1 + ldc;
                T *__restrict c3 = c2 + ldc;
                for (int64_t p = p0; p < p1; ++p) {
                    const T a0 = aAt(i, p), a1 = aAt(i + 1, p), a2 = aAt(i + 2, p), a3 = aAt(i + 3, p);
                    const T *brow = bp + p * bld;
                    for (int64_t j = j0; j < j1; ++j) {
                        const T bv = brow[j];
                        c0[j] += a0 * bv;
                        c1[j] += a1 * bv;
                        c2[j] += a2 * bv;
                        c3[j] += a3 * bv;
                    }
                }
            }
            for (; i < m; ++i) {
                T *row = c + i * ldc;
                for (int64_t p = p0; p < p1; ++p) {
                    const T av = aAt(i, p);
                    const T *brow = bp + p * bld;
                    for (int64_t j = j0; j < j1; ++j)
                        row[j] += av * brow[j];
                }
            }
        }
    }
}
#endif

} // namespace

void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
    const float *b, int64_t ldb, float beta, float *c, int64_t ldc)
{
    checkDims(m, n, k, lda, ldb, ldc);
    if (m == 0 || n == 0)
        return;
#ifdef PIRSCOPE_HAVE_CBLAS
    if (k == 0) {
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j)
                c[i * ldc + j] = beta == 0.0f ? 0.0f : beta * c[i * ldc + j];
        return;
    }
    cblas_sgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, int(m),
        int(n), int(k), alpha, a, int(std::max<int64_t>(lda, 1)), b, int(std::max<int64_t>(ldb, 1)), beta, c,
        int(std::max<int64_t>(ldc, 1)));
#else
    gemmLoops(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#endif
}

void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
    int64_t lda, const double *b, int64_t ldb, double beta, double *c, int64_t ldc)
{
    checkDims(m, n, k, lda, ldb, ldc);
    if (m == 0 || n == 0)
        return;
#ifdef PIRSCOPE_HAVE_CBLAS
    if (k == 0) {
        for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j)
                c[i * ldc + j] = beta == 0.0 ? 0.0 : beta * c[i * ldc + j];
        return;
    }
    cblas_dgemm(CblasRowMajor, transA ? CblasTrans : CblasNoTrans, transB ? CblasTrans : CblasNoTrans, int(m),
        int(n), int(k), alpha, a, int(std::max<int64_t>(lda, 1)), b, int(std::max<int64_t>(ldb, 1)), beta, c,
        int(std::max<int64_t>(ldc, 1)));
#else
    gemmLoops(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
#endif
}

bool gemmUsesBlas()
{
#ifdef PIRSCOPE_HAVE_CBLAS
    return true;
#else
    return false;
#endif
}

} // namespace ps
