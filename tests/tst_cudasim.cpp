// cuda-sim itself: the emulated device must behave like a GPU where the CUDA backend could get it
// wrong. Device memory is unreadable from the host, queued work runs only at a synchronization,
// blocks meet at barriers and shuffles, misuse and out-of-bounds accesses become CUDA's errors,
// cuBLAS is column-major with its argument checks, and a reset brings the device back.

#include "core/runtime/backend.h"
#include "core/runtime/cudasim/simapi.h"
#include "core/runtime/cudasim/simdevice.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"
#include "kernelcase.h"

#include <QtTest>
#include <cmath>
#include <cstring>
#include <vector>

namespace {

using ps::cudasim::SimDevice;

// ---- kernels (plain functions: cuda-sim runs them on the host) ----

/// out[blockIdx.x] = sum of in[blockIdx.x * 256 + t]: a shared-memory tree and a final warp
/// shuffle. Threads 128..255 past `n` leave before the barriers, which must not wait for them.
__global__ void blockSum(const float *in, float *out, int n)
{
    __shared__ float partial[256];
    const int t = int(threadIdx.x), i = int(blockIdx.x * blockDim.x) + t;
    if (i >= n && t >= 128)
        return;
    partial[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (t < 128 && i + 128 < n)
        partial[t] += partial[t + 128];
    __syncthreads();
    for (int s = 64; s >= 32; s >>= 1) {
        if (t < s)
            partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t < 32) {
        float v = partial[t];
        for (int o = 16; o > 0; o >>= 1)
            v += __shfl_down_sync(0xffffffffu, v, unsigned(o));
        if (t == 0)
            out[blockIdx.x] = v;
    }
}

__global__ void barrierKernel(int *flag)
{
    __syncthreads();
    *flag = 1;
}

__global__ void writeOnePastTheEnd(float *p, int n)
{
    if (threadIdx.x == 0)
        p[n] = 1.0f;
}

__global__ void halfWarpShuffles(float *out)
{
    if (threadIdx.x >= 16)
        return;
    out[threadIdx.x] = __shfl_down_sync(0xffffffffu, float(threadIdx.x), 1u);
}

__global__ void fill(float *p, float v, int n)
{
    for (int i = int(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += int(blockDim.x * gridDim.x))
        p[i] = v;
}

void expectSuccess(cudaError_t e)
{
    QCOMPARE(int(e), int(cudaSuccess));
}

} // namespace

class TestCudaSim : public QObject
{
    Q_OBJECT

private slots:
    void init() { expectSuccess(cudaDeviceReset()); }

    void hostReadOfDeviceMemoryCrashes()
    {
        // A fresh process (this executable in its crash mode, see main): the read must kill it.
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("PIRSCOPE_TEST_HOST_READ"), QStringLiteral("1"));
        child.setProcessEnvironment(env);
        child.start(QCoreApplication::applicationFilePath(), {});
        QVERIFY(child.waitForFinished(60000));
        const QString message = QString::fromUtf8(child.readAllStandardError());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);
        QVERIFY2(message.contains(QStringLiteral("host code touched device memory")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("of a live allocation of 4096 bytes")), qPrintable(message));
    }

    void queuedWorkRunsAtSynchronization()
    {
        cudaStream_t stream = nullptr;
        expectSuccess(cudaStreamCreate(&stream));
        float *d = nullptr, *pinned = nullptr;
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&d), 64 * sizeof(float)));
        expectSuccess(cudaHostAlloc(reinterpret_cast<void **>(&pinned), 64 * sizeof(float), cudaHostAllocDefault));
        for (int i = 0; i < 64; ++i)
            pinned[i] = float(i);
        // Pinned source: read when the copy runs, so a later host write still lands.
        expectSuccess(cudaMemcpyAsync(d, pinned, 64 * sizeof(float), cudaMemcpyHostToDevice, stream));
        pinned[0] = 100.0f;
        ps::cudasim::launch(&fill, dim3(1), dim3(32), 0, stream, false, d + 32, 7.0f, 32);
        std::vector<float> back(64, -1.0f);
        // Pinned destination: nothing arrives before the stream is synchronized.
        expectSuccess(cudaMemcpyAsync(pinned, d, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream));
        QCOMPARE(pinned[1], 1.0f);
        QCOMPARE(pinned[40], 40.0f);
        expectSuccess(cudaStreamSynchronize(stream));
        QCOMPARE(pinned[0], 100.0f);
        QCOMPARE(pinned[31], 31.0f);
        QCOMPARE(pinned[40], 7.0f);
        // Pageable destination: the copy returns done (it waits for the queue).
        expectSuccess(cudaMemcpyAsync(back.data(), d, 64 * sizeof(float), cudaMemcpyDeviceToHost, stream));
        QCOMPARE(back[63], 7.0f);
        cudaEvent_t event = nullptr;
        expectSuccess(cudaEventCreate(&event));
        expectSuccess(cudaEventRecord(event, stream));
        QCOMPARE(int(cudaEventQuery(event)), int(cudaErrorNotReady));
        expectSuccess(cudaEventSynchronize(event));
        expectSuccess(cudaEventQuery(event));
        expectSuccess(cudaEventDestroy(event));
        expectSuccess(cudaFreeHost(pinned));
        expectSuccess(cudaFree(d));
        expectSuccess(cudaStreamDestroy(stream));
    }

    void barriersAndShufflesCooperate()
    {
        const int n = 1000, block = 256, blocks = (n + block - 1) / block;
        std::vector<float> host(n);
        for (int i = 0; i < n; ++i)
            host[size_t(i)] = float(i % 17) - 3.0f;
        float *in = nullptr, *out = nullptr;
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&in), n * sizeof(float)));
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&out), blocks * sizeof(float)));
        expectSuccess(cudaMemcpy(in, host.data(), n * sizeof(float), cudaMemcpyHostToDevice));
        ps::cudasim::launch(&blockSum, dim3(blocks), dim3(block), 0, nullptr, true, in, out, n);
        expectSuccess(cudaGetLastError());
        std::vector<float> sums(blocks);
        expectSuccess(cudaMemcpy(sums.data(), out, blocks * sizeof(float), cudaMemcpyDeviceToHost));
        for (int b = 0; b < blocks; ++b) {
            double want = 0;
            for (int i = b * block; i < std::min(n, (b + 1) * block); ++i)
                want += host[size_t(i)];
            QCOMPARE(double(sums[size_t(b)]), want); // small integers: exact in any order
        }
    }

    void barrierInAnIndependentLaunchFails()
    {
        int *flag = nullptr;
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&flag), sizeof(int)));
        ps::cudasim::launch(&barrierKernel, dim3(1), dim3(32), 0, nullptr, false, flag);
        QCOMPARE(int(cudaDeviceSynchronize()), int(cudaErrorLaunchFailure));
        QVERIFY(SimDevice::instance().stickyMessage().find("__syncthreads in a kernel launched as independent")
            != std::string::npos);
        // Sticky until the device is reset.
        void *p = nullptr;
        QCOMPARE(int(cudaMalloc(&p, 16)), int(cudaErrorLaunchFailure));
        expectSuccess(cudaDeviceReset());
        expectSuccess(cudaMalloc(&p, 16));
    }

    void shuffleWithExitedLanesFails()
    {
        float *out = nullptr;
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&out), 32 * sizeof(float)));
        ps::cudasim::launch(&halfWarpShuffles, dim3(1), dim3(32), 0, nullptr, true, out);
        QCOMPARE(int(cudaDeviceSynchronize()), int(cudaErrorLaunchFailure));
        QVERIFY2(SimDevice::instance().stickyMessage().find("exited") != std::string::npos,
            SimDevice::instance().stickyMessage().c_str());
    }

    void outOfBoundsWriteIsAnIllegalAddress()
    {
        float *p = nullptr;
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&p), 256 * sizeof(float)));
        ps::cudasim::launch(&writeOnePastTheEnd, dim3(1), dim3(32), 0, nullptr, false, p, 256);
        QCOMPARE(int(cudaDeviceSynchronize()), int(cudaErrorIllegalAddress));
        const std::string message = SimDevice::instance().stickyMessage();
        QVERIFY2(message.find("0 bytes past the end of an allocation of 1024 bytes") != std::string::npos,
            message.c_str());
        expectSuccess(cudaDeviceReset());
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&p), 16));
    }

    void backendRecoversFromAFatalError()
    {
        std::string reason;
        std::unique_ptr<ps::Backend> backend = ps::createCudaSimBackend(reason);
        QVERIFY2(backend, reason.c_str());
        const std::vector<double> values { 1, 2, 3, 4 };
        const ps::Tensor host = ps::Tensor::fromDoubles({ 4 }, ps::DataType::Float32, values);
        ps::Tensor lost = backend->toDevice(host);
        backend->synchronize();
        // A kernel writes one float past the end of the tensor's block (the smallest size class,
        // 512 bytes): an illegal address, after which the context is unusable.
        ps::cudasim::launch(&writeOnePastTheEnd, dim3(1), dim3(32), 0, nullptr, false,
            static_cast<float *>(lost.rawData()), 128);
        const auto messageOf = [](const std::function<void()> &f) -> std::string {
            try {
                f();
            } catch (const ps::RuntimeError &e) {
                return e.what();
            }
            return "no error";
        };
        const std::string fatal = messageOf([&] { backend->synchronize(); });
        QVERIFY2(fatal.find("cudaErrorIllegalAddress") != std::string::npos, fatal.c_str());
        QVERIFY2(fatal.find("restart the run") != std::string::npos, fatal.c_str());
        // The backend resets the device on its next use; tensors from before say they are gone,
        // also when freed (no stale pointer reaches the allocator's free lists).
        const std::string stale = messageOf([&] { backend->toHost(lost); });
        QVERIFY2(stale.find("was lost when the device was reset") != std::string::npos, stale.c_str());
        // New work runs: uploads, statistics, and a cuBLAS GEMM with a fresh handle and workspace.
        const ps::Tensor fresh = backend->toDevice(host);
        QCOMPARE(backend->toHost(fresh).valueAsDouble(3), 4.0);
        QCOMPARE(backend->stats(fresh).max, 4.0);
        lost = ps::Tensor();
        const kernelcase::Outcome gemm = kernelcase::run(kernelcase::root() + "/nn/matmul_2d", *backend);
        QVERIFY2(gemm.error.isEmpty(), qPrintable(gemm.error));
        QVERIFY(gemm.compared > 0);
        backend->synchronize();
    }

    void copiesCheckTheirPointers()
    {
        float *d = nullptr;
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&d), 16 * sizeof(float)));
        std::vector<float> host(32);
        // Past the allocation's end: an invalid argument, nothing copied.
        QCOMPARE(int(cudaMemcpy(host.data(), d, 32 * sizeof(float), cudaMemcpyDeviceToHost)),
            int(cudaErrorInvalidValue));
        QCOMPARE(int(cudaGetLastError()), int(cudaErrorInvalidValue));
        expectSuccess(cudaGetLastError());
        QCOMPARE(int(cudaMemcpy(d, host.data(), 4, cudaMemcpyDeviceToHost)), int(cudaErrorInvalidMemcpyDirection));
        QCOMPARE(int(cudaGetLastError()), int(cudaErrorInvalidMemcpyDirection));
        // Fresh memory reads as 0xFF bytes (NaN), so an unwritten result shows.
        expectSuccess(cudaMemcpy(host.data(), d, 16 * sizeof(float), cudaMemcpyDeviceToHost));
        QVERIFY(std::isnan(host[3]));
    }

    void launchConfigurationIsChecked()
    {
        float *p = nullptr;
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&p), 64));
        ps::cudasim::launch(&fill, dim3(1), dim3(2048), 0, nullptr, false, p, 1.0f, 16);
        QCOMPARE(int(cudaGetLastError()), int(cudaErrorInvalidConfiguration));
        expectSuccess(cudaGetLastError());
        expectSuccess(cudaDeviceSynchronize());
    }

    void outOfMemoryThenMore()
    {
        size_t freeBytes = 0, total = 0;
        expectSuccess(cudaMemGetInfo(&freeBytes, &total));
        void *huge = nullptr;
        QCOMPARE(int(cudaMalloc(&huge, total + 1)), int(cudaErrorMemoryAllocation));
        QCOMPARE(int(cudaGetLastError()), int(cudaErrorMemoryAllocation));
        void *p = nullptr;
        expectSuccess(cudaMalloc(&p, 1 << 20));
        expectSuccess(cudaFree(p));
    }

    void cublasIsColumnMajor_data()
    {
        QTest::addColumn<int>("opA");
        QTest::addColumn<int>("opB");
        QTest::addColumn<int>("math");
        QTest::newRow("NN") << int(CUBLAS_OP_N) << int(CUBLAS_OP_N) << int(CUBLAS_DEFAULT_MATH);
        QTest::newRow("TN") << int(CUBLAS_OP_T) << int(CUBLAS_OP_N) << int(CUBLAS_DEFAULT_MATH);
        QTest::newRow("NT") << int(CUBLAS_OP_N) << int(CUBLAS_OP_T) << int(CUBLAS_DEFAULT_MATH);
        QTest::newRow("TT tf32") << int(CUBLAS_OP_T) << int(CUBLAS_OP_T) << int(CUBLAS_TF32_TENSOR_OP_MATH);
    }
    void cublasIsColumnMajor()
    {
        QFETCH(int, opA);
        QFETCH(int, opB);
        QFETCH(int, math);
        const int m = 5, n = 3, k = 4;
        const bool ta = opA != CUBLAS_OP_N, tb = opB != CUBLAS_OP_N;
        const int rowsA = ta ? k : m, colsA = ta ? m : k, rowsB = tb ? n : k, colsB = tb ? k : n;
        const int lda = rowsA + 2, ldb = rowsB + 1, ldc = m + 3; // leading dims larger than the rows
        std::vector<float> A(size_t(lda * colsA)), B(size_t(ldb * colsB)), C(size_t(ldc * n), 0.5f);
        for (size_t i = 0; i < A.size(); ++i)
            A[i] = float(std::sin(double(i))) * (1.0f + 1.0f / 1024.0f);
        for (size_t i = 0; i < B.size(); ++i)
            B[i] = float(std::cos(double(i)));
        float *dA, *dB, *dC;
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&dA), A.size() * 4));
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&dB), B.size() * 4));
        expectSuccess(cudaMalloc(reinterpret_cast<void **>(&dC), C.size() * 4));
        expectSuccess(cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice));
        expectSuccess(cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice));
        expectSuccess(cudaMemcpy(dC, C.data(), C.size() * 4, cudaMemcpyHostToDevice));
        cublasHandle_t h;
        QCOMPARE(int(cublasCreate(&h)), int(CUBLAS_STATUS_SUCCESS));
        QCOMPARE(int(cublasSetMathMode(h, cublasMath_t(math))), int(CUBLAS_STATUS_SUCCESS));
        const float alpha = 2.0f, beta = 0.25f;
        QCOMPARE(int(cublasGemmEx(h, cublasOperation_t(opA), cublasOperation_t(opB), m, n, k, &alpha, dA, CUDA_R_32F, lda,
                     dB, CUDA_R_32F, ldb, &beta, dC, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT)),
            int(CUBLAS_STATUS_SUCCESS));
        std::vector<float> got(C.size());
        expectSuccess(cudaMemcpy(got.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost));
        const auto tf32 = [&](float v) {
            if (math != CUBLAS_TF32_TENSOR_OP_MATH)
                return double(v);
            uint32_t bits;
            std::memcpy(&bits, &v, 4);
            bits = (bits + 0xfffu + ((bits >> 13) & 1u)) & ~0x1fffu;
            float r;
            std::memcpy(&r, &bits, 4);
            return double(r);
        };
        for (int j = 0; j < ldc && j < n; ++j)
            for (int i = 0; i < ldc; ++i) {
                const size_t at = size_t(j * ldc + i);
                if (i >= m) { // rows past m (leading-dimension padding) are not touched
                    QCOMPARE(got[at], 0.5f);
                    continue;
                }
                double want = 0;
                for (int q = 0; q < k; ++q)
                    want += tf32(ta ? A[size_t(i * lda + q)] : A[size_t(q * lda + i)])
                        * tf32(tb ? B[size_t(q * ldb + j)] : B[size_t(j * ldb + q)]);
                want = alpha * want + beta * 0.5;
                QVERIFY2(std::abs(got[at] - want) < 1e-5, qPrintable(QStringLiteral("C[%1,%2] %3 vs %4").arg(i).arg(j).arg(got[at]).arg(want)));
            }
        // cuBLAS's own argument checks.
        QCOMPARE(int(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_R_32F, m - 1, dB, CUDA_R_32F,
                     ldb, &beta, dC, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT)),
            int(CUBLAS_STATUS_INVALID_VALUE));
        QCOMPARE(int(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, dA, CUDA_R_32F, lda, dB, CUDA_R_16F, ldb,
                     &beta, dC, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT)),
            int(CUBLAS_STATUS_NOT_SUPPORTED));
        QCOMPARE(int(cublasDestroy(h)), int(CUBLAS_STATUS_SUCCESS));
    }
};

/// The child of hostReadOfDeviceMemoryCrashes: reads device memory from the host.
int readDeviceMemoryFromTheHost()
{
    void *p = nullptr;
    if (cudaMalloc(&p, 4096) != cudaSuccess)
        return 3;
    volatile const char value = *static_cast<const char *>(p); // must crash
    (void)value;
    return 0;
}

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsSet("PIRSCOPE_TEST_HOST_READ"))
        return readDeviceMemoryFromTheHost();
    QCoreApplication app(argc, argv);
    TestCudaSim test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_cudasim.moc"
