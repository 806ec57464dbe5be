#pragma once

#include <cstdint>

namespace ps {

// Row-major GEMM for the CPU kernels: C = alpha * op(A) * op(B) + beta * C, where op(A) is
// m x k (A is k x m when transA), op(B) is k x n (B is n x k when transB), and lda/ldb/ldc are
// the row strides of A, B and C as stored. Goes through cblas_sgemm/cblas_dgemm when the build
// found a CBLAS (PIRSCOPE_HAVE_CBLAS), otherwise through built-in cache-blocked loops (same
// results within float rounding). beta == 0 ignores C's previous contents (NaN included).
// Thread-safe; m, n or k may be 0. Dimensions above INT32_MAX throw RuntimeError.

void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k, float alpha, const float *a, int64_t lda,
    const float *b, int64_t ldb, float beta, float *c, int64_t ldc);
void gemm(bool transA, bool transB, int64_t m, int64_t n, int64_t k, double alpha, const double *a,
    int64_t lda, const double *b, int64_t ldb, double beta, double *c, int64_t ldc);

/// True when gemm() goes through a CBLAS.
bool gemmUsesBlas();

} // namespace ps
