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
    checkCuda(cudaHostAlloc(&m_errorWord, sizeof(KernelFault), cudaHostAllocMapped),
        "cudaHostAlloc (kernel fault record)");
    new (m_errorWord) KernelFault();
    void *devicePtr = nullptr;
    checkCuda(cudaHostGetDevicePointer(&devicePtr, m_errorWord, 0), "cudaHostGetDevicePointer");
    m_runtime->fault = static_cast<volatile KernelFault *>(devicePtr);

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
    if (src.byteSize() != dst.byteSize())
        throw RuntimeError("copy of " + src.describe() + " into " + dst.describe());
    if (dst.device() != device() || (!src.device().isCpu() && src.device() != device()))
        throw RuntimeError(name() + " cannot copy " + src.device().name() + " to " + dst.device().name());
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
    if (t.device() != device())
        throw RuntimeError(name() + " cannot fill a " + t.device().name() + " tensor");
    if (t.byteSize() == 0)
        return;
    checkCuda(cudaSetDevice(m_runtime->device), "cudaSetDevice");
    checkCuda(cudaMemsetAsync(t.rawData(), byte, t.byteSize(), m_runtime->stream), "device fill");
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

PS_CUDA_NAMESPACE_END

#ifdef PIRSCOPE_CUDA_SIM
std::unique_ptr<ps::Backend> ps::createCudaSimBackend(std::string &reason)
{
    return CudaBackend::create(0, reason);
}
#endif
