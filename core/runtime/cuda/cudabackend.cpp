#include "core/runtime/cuda/cudabackend.h"

#include "core/runtime/cuda/cudacachingallocator.h"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudapinnedstaging.h"
#include "core/runtime/cuda/cudaruntime.h"
#include "core/runtime/cuda/cudastatistics.h"
#include "core/runtime/fusedkernels.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/kernels/kernelfault.h"
#include "core/runtime/tensor.h"

#include <new>

PS_CUDA_NAMESPACE_BEGIN
namespace {

cudaEvent_t event(void *e)
{
    return static_cast<cudaEvent_t>(e);
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
        // cuBLAS's advice: 32 MiB of workspace on Hopper, 4 MiB before it.
        rt->cublasWorkspaceBytes = size_t(prop.major >= 9 ? 32 : 4) << 20;
        rt->allocator = &cudaAllocator(index);
        return std::unique_ptr<Backend>(new CudaBackend(std::move(rt), deviceName));
    } catch (const RuntimeError &e) {
        reason = e.what();
        cudaGetLastError();
        return nullptr;
    }
}

CudaBackend::CudaBackend(std::unique_ptr<CudaRuntime> runtime, std::string deviceName)
    : m_runtime(std::move(runtime))
    , m_deviceName(std::move(deviceName))
{
    const CudaDeviceHealth health = cudaDeviceHealth(m_runtime->device);
    m_resets = health.resets;
    try {
        if (health.lost)
            ensureUsable();
        else
            createHandles();
    } catch (...) {
        destroyHandles();
        throw;
    }
    registerCudaElementwiseKernels(m_kernels);
    registerCudaShapeKernels(m_kernels);
    registerCudaReduceKernels(m_kernels);
    registerCudaMatmulKernels(m_kernels);
    registerCudaConvKernels(m_kernels);
    registerCudaPoolKernels(m_kernels);
    registerCudaNormKernels(m_kernels);
    registerCudaSoftmaxKernels(m_kernels);
    registerCudaImageKernels(m_kernels);
    registerCudaLaneKernels(m_kernels);
    registerCudaGradKernels(m_kernels);
    registerFusedKernels(m_kernels);
}

CudaBackend::~CudaBackend()
{
    cudaSetDevice(m_runtime->device);
    if (m_runtime->stream)
        cudaStreamSynchronize(m_runtime->stream);
    destroyHandles();
    cudaGetLastError();
}

void CudaBackend::createHandles()
{
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    // A blocking stream: it also orders against anything queued on the legacy stream.
    checkCuda(cudaStreamCreate(&m_runtime->stream), "cudaStreamCreate");
    checkCublas(cublasCreate(&m_runtime->cublas), "cublasCreate");
    checkCublas(cublasSetStream(m_runtime->cublas, m_runtime->stream), "cublasSetStream");
    checkCublas(cublasSetMathMode(m_runtime->cublas,
                    m_runtime->allowTf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH),
        "cublasSetMathMode");
    m_cublasWorkspace = Tensor({ int64_t(m_runtime->cublasWorkspaceBytes) }, DataType::UInt8, *m_runtime->allocator);
    checkCublas(cublasSetWorkspace(m_runtime->cublas, m_cublasWorkspace.rawData(), m_cublasWorkspace.byteSize()),
        "cublasSetWorkspace");
    m_staging = std::make_unique<CudaPinnedStaging>();
    cudaEvent_t start = nullptr;
    cudaEvent_t stop = nullptr;
    checkCuda(cudaEventCreate(&start), "cudaEventCreate");
    m_timerStart = start;
    checkCuda(cudaEventCreate(&stop), "cudaEventCreate");
    m_timerStop = stop;
    checkCuda(cudaHostAlloc(&m_errorWord, sizeof(KernelFault), cudaHostAllocMapped),
        "cudaHostAlloc (kernel fault record)");
    new (m_errorWord) KernelFault();
    void *devicePtr = nullptr;
    checkCuda(cudaHostGetDevicePointer(&devicePtr, m_errorWord, 0), "cudaHostGetDevicePointer");
    m_runtime->fault = static_cast<volatile KernelFault *>(devicePtr);
}

void CudaBackend::destroyHandles()
{
    // Errors are ignored: after a fatal error these calls fail, yet free their host side.
    m_staging.reset();
    if (m_timerStart)
        cudaEventDestroy(event(m_timerStart));
    if (m_timerStop)
        cudaEventDestroy(event(m_timerStop));
    if (m_errorWord)
        cudaFreeHost(m_errorWord);
    if (m_runtime->cublas)
        cublasDestroy(m_runtime->cublas);
    if (m_runtime->stream)
        cudaStreamDestroy(m_runtime->stream);
    m_cublasWorkspace = Tensor();
    m_timerStart = m_timerStop = m_errorWord = nullptr;
    m_runtime->cublas = nullptr;
    m_runtime->stream = nullptr;
    m_runtime->fault = nullptr;
    cudaGetLastError();
}

void CudaBackend::ensureUsable()
{
    const CudaDeviceHealth health = cudaDeviceHealth(m_runtime->device);
    if (!health.lost && health.resets == m_resets)
        return;
    bool destroyed = false;
    const uint64_t resets = resetLostCudaDevice(m_runtime->device, [&] {
        destroyHandles();
        destroyed = true;
        cudaSetDevice(m_runtime->device);
        cudaDeviceReset();
        cudaGetLastError();
        m_runtime->allocator->forgetAfterReset();
    });
    if (!destroyed) {
        // Another backend reset the device: these handles died with its context (and may be
        // reused by the new one), so they are dropped without another CUDA call.
        if (m_staging)
            m_staging->abandon();
        m_staging.reset();
        m_cublasWorkspace = Tensor();
        m_timerStart = m_timerStop = m_errorWord = nullptr;
        m_runtime->cublas = nullptr;
        m_runtime->stream = nullptr;
        m_runtime->fault = nullptr;
    }
    m_resets = resets;
    createHandles();
}

CudaRuntime &CudaBackend::runtime()
{
    ensureUsable();
    return *m_runtime;
}

Device CudaBackend::device() const
{
    return cudaDevice(m_runtime->device);
}

std::string CudaBackend::name() const
{
#ifdef PIRSCOPE_CUDA_SIM
    return "cuda-sim:" + std::to_string(m_runtime->device) + " (the CUDA backend on the host)";
#else
    return "CUDA:" + std::to_string(m_runtime->device) + " " + m_deviceName;
#endif
}

Allocator &CudaBackend::allocator()
{
    return *m_runtime->allocator;
}

void CudaBackend::checkDeviceError()
{
    auto *fault = static_cast<volatile KernelFault *>(m_errorWord);
    const uint32_t code = fault->code;
    if (code != 0) {
        fault->code = 0;
        throw RuntimeError("a CUDA kernel met bad data since the last synchronize: "
            + faultMessage(code, fault->value, fault->limit));
    }
}

Tensor CudaBackend::toHost(const Tensor &t)
{
    ensureUsable();
    if (!t.defined() || t.device().isCpu())
        return t;
    if (t.device() != device())
        throw RuntimeError("the " + name() + " backend cannot read a " + t.device().name() + " tensor");
    requireLive(t);
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    Tensor host = Tensor::empty(t.shape(), t.dtype());
    m_staging->download(host.rawData(), t.rawData(), t.byteSize(), m_runtime->stream);
    checkDeviceError();
    return host;
}

Tensor CudaBackend::toDevice(const Tensor &t)
{
    ensureUsable();
    if (!t.defined() || t.device() == device())
        return t;
    if (!t.device().isCpu() && t.device().kind != device().kind)
        throw RuntimeError("the " + name() + " backend cannot read a " + t.device().name() + " tensor");
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    Tensor out(t.shape(), t.dtype(), *m_runtime->allocator);
    if (!t.device().isCpu()) {
        checkCuda(cudaMemcpyPeerAsync(out.rawData(), m_runtime->device, t.rawData(), t.device().index,
                      t.byteSize(), m_runtime->stream),
            "cudaMemcpyPeerAsync");
        return out;
    }
    m_staging->upload(out.rawData(), t.rawData(), t.byteSize(), m_runtime->stream);
    return out;
}

void CudaBackend::copy(const Tensor &src, Tensor &dst)
{
    ensureUsable();
    if (src.byteSize() != dst.byteSize())
        throw RuntimeError("copy of " + src.describe() + " into " + dst.describe());
    if (dst.device() != device() || (!src.device().isCpu() && src.device() != device()))
        throw RuntimeError(name() + " cannot copy " + src.device().name() + " to " + dst.device().name());
    requireLive(src);
    requireLive(dst);
    if (src.byteSize() == 0 || src.rawData() == dst.rawData())
        return;
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    if (src.device().isCpu())
        m_staging->upload(dst.rawData(), src.rawData(), src.byteSize(), m_runtime->stream);
    else
        checkCuda(cudaMemcpyAsync(dst.rawData(), src.rawData(), src.byteSize(), cudaMemcpyDeviceToDevice,
                      m_runtime->stream),
            "device copy");
}

void CudaBackend::fillBytes(Tensor &t, unsigned char byte)
{
    ensureUsable();
    if (t.device() != device())
        throw RuntimeError(name() + " cannot fill a " + t.device().name() + " tensor");
    requireLive(t);
    if (t.byteSize() == 0)
        return;
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    checkCuda(cudaMemsetAsync(t.rawData(), byte, t.byteSize(), m_runtime->stream), "device fill");
}

void CudaBackend::synchronize()
{
    ensureUsable();
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    checkCuda(cudaStreamSynchronize(m_runtime->stream), "cudaStreamSynchronize");
    checkDeviceError();
}

TensorStats CudaBackend::stats(const Tensor &t, int bins)
{
    ensureUsable();
    if (!t.defined() || t.device().isCpu())
        return computeStatsHost(t, bins);
    requireLive(t);
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    return computeStatsCuda(*m_runtime, t, bins);
}

void CudaBackend::setAllowTf32(bool allow)
{
    ensureUsable();
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
    ensureUsable();
    checkCuda(cudaEventRecord(event(m_timerStart), m_runtime->stream), "cudaEventRecord");
}

double CudaBackend::elapsedMs()
{
    ensureUsable();
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

PS_CUDA_NAMESPACE_END

#ifdef PIRSCOPE_CUDA_SIM
std::unique_ptr<ps::Backend> ps::createCudaSimBackend(std::string &reason)
{
    return CudaBackend::create(0, reason);
}
#endif
