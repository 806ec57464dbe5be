#include "core/runtime/cuda/cudaruntime.h"

#include "core/runtime/cuda/cudabackend.h"
#include "core/runtime/cuda/cudacachingallocator.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>

PS_CUDA_NAMESPACE_BEGIN

unsigned CudaRuntime::gridFor(int64_t n, int block) const
{
    const int64_t blocks = (n + block - 1) / block;
    const int64_t cap = int64_t(smCount) * std::max(1, maxThreadsPerSm / block) * 4;
    return unsigned(std::clamp<int64_t>(blocks, 1, cap));
}

Tensor CudaRuntime::allocate(std::vector<int64_t> shape, DataType dtype) const
{
    return Tensor(std::move(shape), dtype, *allocator);
}

CudaRuntime &cudaRuntime(KernelContext &ctx)
{
    auto *backend = dynamic_cast<CudaBackend *>(&ctx.backend());
    if (!backend)
        throw RuntimeError("a CUDA kernel ran on the " + ctx.backend().name() + " backend");
    CudaRuntime &rt = backend->runtime();
    int current = -1;
    if (cudaGetDevice(&current) != cudaSuccess || current != rt.device)
        checkCuda(cudaSetDevice(rt.device), "cudaSetDevice");
    return rt;
}

Tensor deviceTensor(KernelContext &ctx, const Tensor &t)
{
    if (t.defined() && t.device() == ctx.backend().device())
        return t;
    return ctx.backend().toDevice(t);
}

Tensor deviceInput(KernelContext &ctx, size_t i)
{
    return deviceTensor(ctx, ctx.input(i));
}

void checkCuda(cudaError_t err, const char *what)
{
    if (err == cudaSuccess)
        return;
    cudaGetLastError();
    throw RuntimeError(
        std::string(what) + ": " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

void checkCublas(cublasStatus_t status, const char *what)
{
    if (status == CUBLAS_STATUS_SUCCESS)
        return;
    throw RuntimeError(
        std::string(what) + ": " + cublasGetStatusName(status) + " (" + cublasGetStatusString(status) + ")");
}

void checkLaunch(const char *what)
{
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        throw RuntimeError(std::string(what) + ": kernel launch failed: " + cudaGetErrorName(err) + " ("
            + cudaGetErrorString(err) + ")");
}

PS_CUDA_NAMESPACE_END
