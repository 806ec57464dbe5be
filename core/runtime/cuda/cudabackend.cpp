#include "core/runtime/cuda/cudabackend.h"

#include "core/runtime/cuda/cudacachingallocator.h"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudapinnedstaging.h"
#include "core/runtime/cuda/cudaruntime.h"
#include "core/runtime/cuda/cudastatistics.h"
#include "core/runtime/fusedkernels.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

namespace ps {
namespace {

cudaEvent_t event(void *e)
{
    return static_cast<cudaEvent_t>(e);
}

std::string deviceErrorText(uint32_t code)
{
    switch (CudaDeviceError(code)) {
    case CudaDeviceError::IndexOutOfRange:
        return "a CUDA kernel met an index out of range (embedding ids) since the last synchronize";
    case CudaDeviceError::LabelOutOfRange:
        return "a CUDA kernel met a label out of range (cross-entropy) since the last synchronize";
    case CudaDeviceError::DivideByZero:
        return "integer division by zero in a CUDA kernel since the last synchronize";
    default:
        return "a CUDA kernel reported device error " + std::to_string(code);
    }
}

} // namespace

std::unique_ptr<Backend> CudaBackend::create(int index, std::string &reason)
{
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        reason = std::string("cudaGetDeviceCount: ") + cudaGetErrorString(err);
        cudaGetLastError();
        return nullptr;
    }
    if (count == 0) {
        reason = "cudaGetDeviceCount: no CUDA device";
        return nullptr;
    }
    if (index < 0 || index >= count) {
        reason = "CUDA device " + std::to_string(index) + " does not exist (" + std::to_string(count)
            + " devices)";
        return nullptr;
    }
    auto rt = std::make_unique<CudaRuntime>();
    rt->device = index;
    std::string deviceName;
    try {
        checkCuda(cudaSetDevice(index), "cudaSetDevice");
        cudaDeviceProp prop {};
        checkCuda(cudaGetDeviceProperties(&prop, index), "cudaGetDeviceProperties");
        deviceName = prop.name;
        rt->smCount = std::max(1, prop.multiProcessorCount);
        rt->maxThreadsPerSm = std::max(256, prop.maxThreadsPerMultiProcessor);
        // A blocking stream: it also orders against anything queued on the legacy stream.
        checkCuda(cudaStreamCreate(&rt->stream), "cudaStreamCreate");
        checkCublas(cublasCreate(&rt->cublas), "cublasCreate");
        checkCublas(cublasSetStream(rt->cublas, rt->stream), "cublasSetStream");
        checkCublas(cublasSetMathMode(rt->cublas, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
        rt->allocator = &cudaAllocator(index);
    } catch (const RuntimeError &e) {
        reason = e.what();
        if (rt->cublas)
            cublasDestroy(rt->cublas);
        if (rt->stream)
            cudaStreamDestroy(rt->stream);
        cudaGetLastError();
        return nullptr;
    }
    try {
        return std::unique_ptr<Backend>(new CudaBackend(std::move(rt), deviceName));
    } catch (const RuntimeError &e) {
        reason = e.what();
        return nullptr;
    }
}

CudaBackend::CudaBackend(std::unique_ptr<CudaRuntime> runtime, std::string deviceName)
    : m_runtime(std::move(runtime))
    , m_staging(std::make_unique<CudaPinnedStaging>())
    , m_deviceName(std::move(deviceName))
{
    cudaEvent_t start = nullptr, stop = nullptr;
    checkCuda(cudaEventCreate(&start), "cudaEventCreate");
    m_timerStart = start;
    checkCuda(cudaEventCreate(&stop), "cudaEventCreate");
    m_timerStop = stop;
    checkCuda(cudaHostAlloc(&m_errorWord, sizeof(uint32_t), cudaHostAllocMapped),
        "cudaHostAlloc (device-error word)");
    *static_cast<volatile uint32_t *>(m_errorWord) = 0;
    void *devicePtr = nullptr;
    checkCuda(cudaHostGetDevicePointer(&devicePtr, m_errorWord, 0), "cudaHostGetDevicePointer");
    m_runtime->deviceError = static_cast<volatile uint32_t *>(devicePtr);

    registerCudaElementwiseKernels(m_kernels);
    registerCudaUnaryKernels(m_kernels);
    registerCudaTensorKernels(m_kernels);
    registerCudaShapeKernels(m_kernels);
    registerCudaIndexingKernels(m_kernels);
    registerCudaReduceKernels(m_kernels);
    registerCudaMatmulKernels(m_kernels);
    registerCudaConvKernels(m_kernels);
    registerCudaPoolKernels(m_kernels);
    registerCudaNormKernels(m_kernels);
    registerCudaSoftmaxKernels(m_kernels);
    registerCudaInterpKernels(m_kernels);
    registerCudaGradKernels(m_kernels);
    registerCudaActivationGradKernels(m_kernels);
    registerFusedKernels(m_kernels);
}

CudaBackend::~CudaBackend()
{
    cudaSetDevice(m_runtime->device);
    cudaStreamSynchronize(m_runtime->stream);
    m_staging.reset();
    if (m_timerStart)
        cudaEventDestroy(event(m_timerStart));
    if (m_timerStop)
        cudaEventDestroy(event(m_timerStop));
    if (m_errorWord)
        cudaFreeHost(m_errorWord);
    cublasDestroy(m_runtime->cublas);
    cudaStreamDestroy(m_runtime->stream);
    cudaGetLastError();
}

Device CudaBackend::device() const
{
    return Device::cuda(m_runtime->device);
}

std::string CudaBackend::name() const
{
    return "CUDA:" + std::to_string(m_runtime->device) + " " + m_deviceName;
}

Allocator &CudaBackend::allocator()
{
    return *m_runtime->allocator;
}

void CudaBackend::checkDeviceError()
{
    auto *word = static_cast<volatile uint32_t *>(m_errorWord);
    const uint32_t code = *word;
    if (code != 0) {
        *word = 0;
        throw RuntimeError(deviceErrorText(code));
    }
}

Tensor CudaBackend::toHost(const Tensor &t)
{
    if (!t.defined() || t.device().isCpu())
        return t;
    if (t.device() != device())
        throw RuntimeError("the " + name() + " backend cannot read a " + t.device().name() + " tensor");
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    Tensor host = Tensor::empty(t.shape(), t.dtype());
    m_staging->download(host.rawData(), t.rawData(), t.byteSize(), m_runtime->stream);
    checkDeviceError();
    return host;
}

Tensor CudaBackend::toDevice(const Tensor &t)
{
    if (!t.defined() || t.device() == device())
        return t;
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    Tensor out(t.shape(), t.dtype(), *m_runtime->allocator);
    if (t.device().isCuda()) {
        checkCuda(cudaMemcpyPeerAsync(out.rawData(), m_runtime->device, t.rawData(), t.device().index,
                      t.byteSize(), m_runtime->stream),
            "cudaMemcpyPeerAsync");
        return out;
    }
    m_staging->upload(out.rawData(), t.rawData(), t.byteSize(), m_runtime->stream);
    return out;
}

void CudaBackend::synchronize()
{
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    checkCuda(cudaStreamSynchronize(m_runtime->stream), "cudaStreamSynchronize");
    checkDeviceError();
}

TensorStats CudaBackend::stats(const Tensor &t, int bins)
{
    if (!t.defined() || t.device().isCpu())
        return computeStatsHost(t, bins);
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    return computeStatsCuda(*m_runtime, t, bins);
}

void CudaBackend::setAllowTf32(bool allow)
{
    m_runtime->allowTf32 = allow;
    checkCublas(
        cublasSetMathMode(m_runtime->cublas, allow ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
        "cublasSetMathMode");
}

bool CudaBackend::allowTf32() const
{
    return m_runtime->allowTf32;
}

void CudaBackend::startTimer()
{
    checkCuda(cudaEventRecord(event(m_timerStart), m_runtime->stream), "cudaEventRecord");
}

double CudaBackend::elapsedMs()
{
    checkCuda(cudaEventRecord(event(m_timerStop), m_runtime->stream), "cudaEventRecord");
    checkCuda(cudaEventSynchronize(event(m_timerStop)), "cudaEventSynchronize");
    float ms = 0;
    checkCuda(cudaEventElapsedTime(&ms, event(m_timerStart), event(m_timerStop)), "cudaEventElapsedTime");
    return ms;
}

CudaBackend::MemoryInfo CudaBackend::memoryInfo() const
{
    MemoryInfo info;
    info.inUse = m_runtime->allocator->bytesInUse();
    info.cached = m_runtime->allocator->bytesCached();
    info.peak = m_runtime->allocator->peakBytesInUse();
    cudaSetDevice(m_runtime->device);
    if (cudaMemGetInfo(&info.deviceFree, &info.deviceTotal) != cudaSuccess)
        cudaGetLastError();
    return info;
}

void CudaBackend::releaseCache()
{
    m_runtime->allocator->releaseCache();
}

} // namespace ps
