// The CUDA backend's binary and tensor-creating kernels: the shared kernels of
// core/runtime/kernels run on CUDA grids (CudaExec), and the tensor-level helpers (binary, cast,
// copy, fill) other CUDA kernel files build on. Unary and activation-grad kernels have files of
// their own (cudaunarykernels.cu, cudaactivationgradkernels.cu).

#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernels/creationkernels.h"
#include "core/runtime/kernels/elementwisekernels.h"

PS_CUDA_NAMESPACE_BEGIN
namespace {

template<class Op> Tensor binaryWith(CudaRuntime &rt, const Tensor &x, const Tensor &y)
{
    const CudaExec exec(rt);
    kernels::requireSameDtype(x, y, "binary");
    Tensor out = rt.allocate(broadcastShapes(x.shape(), y.shape()), x.dtype());
    Op op;
    op.fault = rt.fault;
    cuda::dispatchArithmetic(x.dtype(), "binary", [&](auto tag) {
        using T = decltype(tag);
        kernels::runBinary<CudaExec, T, T>(exec, op, x, y, out);
    });
    return out;
}

} // namespace

namespace cuda {

Tensor binary(CudaRuntime &rt, BinaryOp op, const Tensor &x, const Tensor &y)
{
    using namespace kernels;
    switch (op) {
    case BinaryOp::Add:
        return binaryWith<AddOp>(rt, x, y);
    case BinaryOp::Subtract:
        return binaryWith<SubtractOp>(rt, x, y);
    case BinaryOp::Multiply:
        return binaryWith<MultiplyOp>(rt, x, y);
    case BinaryOp::Divide:
        return binaryWith<DivideOp>(rt, x, y);
    case BinaryOp::Maximum:
        return binaryWith<MaximumOp>(rt, x, y);
    case BinaryOp::Minimum:
        return binaryWith<MinimumOp>(rt, x, y);
    case BinaryOp::Pow:
        return binaryWith<PowOp>(rt, x, y);
    case BinaryOp::FloorDivide:
        return binaryWith<FloorDivideOp>(rt, x, y);
    case BinaryOp::Remainder:
        return binaryWith<RemainderOp>(rt, x, y);
    }
    throw RuntimeError("binary: unknown op");
}

Tensor cast(CudaRuntime &rt, const Tensor &x, DataType dtype)
{
    return kernels::castTo(CudaExec(rt), x, dtype);
}

void castInto(CudaRuntime &rt, const Tensor &x, Tensor &out)
{
    kernels::castInto(CudaExec(rt), x, out);
}

Tensor copy(CudaRuntime &rt, const Tensor &x)
{
    const CudaExec exec(rt);
    Tensor out = rt.allocate(x.shape(), x.dtype());
    exec.copy(out, x);
    return out;
}

void fill(CudaRuntime &rt, Tensor &t, double value)
{
    CudaExec(rt).fill(t, value);
}

} // namespace cuda

void registerCudaElementwiseKernels(KernelRegistry &registry)
{
    kernels::registerBinaryKernels<CudaExec>(registry);
    kernels::registerCreationKernels<CudaExec>(registry);
    registerCudaUnaryKernels(registry);
    registerCudaActivationGradKernels(registry);
}

PS_CUDA_NAMESPACE_END
