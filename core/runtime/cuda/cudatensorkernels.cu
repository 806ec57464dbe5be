// Ops that create or copy a tensor: full, full_, full_with_tensor, full_like, fill, fill_,
// full_int_array, arange, assign_value(_), assign(_), assign_out_, numel, add_n. Semantics
// follow core/runtime/cpu/cpuelementwisecreate.cpp. full_int_array, numel and a small `full`
// placed on the CPU stay host tensors, as in Paddle: their consumers read them on the host
// (reshape shapes, scale factors), and kernels upload them when they need them on the device.

#include "core/ir/attribute.h"
#include "core/runtime/backend.h"
#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudakernelutil.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelregistry.h"

#include <cmath>
#include <cstring>

namespace ps {
namespace {

using namespace cuda;

/// Host `full` results up to this many elements stay on the host when the op asks for the CPU.
constexpr int64_t kHostFullLimit = 64;

template<class E> void fillBits(const CudaRuntime &rt, void *dst, int64_t n, E bits)
{
    E *p = static_cast<E *>(dst);
    launchFlat(
        rt, n, [=] __device__(int64_t i) { p[i] = bits; }, "fill");
}

void hostFill(Tensor &t, double value)
{
    ps::dispatchDtype(t.dtype(), "fill", [&](auto tag) {
        using T = decltype(tag);
        const T v = convertElement<T>(value);
        T *p = t.data<T>();
        for (int64_t i = 0; i < t.numElements(); ++i)
            p[i] = v;
    });
}

bool placedOnCpu(const KernelContext &ctx)
{
    const Attribute *place = ctx.attribute("place");
    return place && place->kind() == Attribute::Kind::PlaceAttr
        && place->asPlace().type == Place::AllocType::Cpu;
}

Tensor targetOrNew(KernelContext &ctx, size_t i, const std::vector<int64_t> &shape, DataType dtype)
{
    if (ctx.hasInput(i) && ctx.inputValue(i).isTensor()) {
        const Tensor t = deviceInput(ctx, i);
        if (t.shape() == shape && t.dtype() == dtype)
            return t;
    }
    return ctx.allocate(shape, dtype);
}

void fullKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const std::vector<int64_t> shape = ctx.intsAttr("shape");
    const DataType dtype = ctx.dtypeAttr("dtype", DataType::Float32);
    const double value = ctx.floatAttr("value");
    if (!isInplaceOp(ctx) && placedOnCpu(ctx) && numElementsOf(shape) <= kHostFullLimit) {
        Tensor host = Tensor::empty(shape, dtype);
        hostFill(host, value);
        ctx.setOutput(0, host);
        return;
    }
    Tensor out = isInplaceOp(ctx) ? targetOrNew(ctx, 0, shape, dtype) : ctx.allocate(shape, dtype);
    fill(rt, out, value);
    ctx.setOutput(0, out);
}

void fullWithTensorKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const std::vector<int64_t> shape = intsOperandOrAttr(ctx, 1, "shape");
    Tensor out = ctx.allocate(shape, ctx.dtypeAttr("dtype", ctx.input(0).dtype()));
    fill(rt, out, ctx.inputAsScalar(0));
    ctx.setOutput(0, out);
}

void fullLikeKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor &x = ctx.input(0);
    DataType dtype = ctx.dtypeAttr("dtype", DataType::Undefined);
    if (dtype == DataType::Undefined)
        dtype = x.dtype();
    Tensor out = ctx.allocate(x.shape(), dtype);
    fill(rt, out, scalarOperandOrAttr(ctx, 1, "value"));
    ctx.setOutput(0, out);
}

void fillKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    Tensor out = resultTensor(ctx, x, x.shape(), x.dtype());
    fill(rt, out, scalarOperandOrAttr(ctx, 1, "value", 0.0));
    ctx.setOutput(0, out);
}

void fullIntArrayKernel(KernelContext &ctx)
{
    const std::vector<int64_t> values = ctx.intsAttr("value");
    Tensor out = Tensor::empty({ int64_t(values.size()) }, ctx.dtypeAttr("dtype", DataType::Float32));
    ps::dispatchDtype(out.dtype(), "full_int_array", [&](auto tag) {
        using T = decltype(tag);
        T *p = out.data<T>();
        for (size_t i = 0; i < values.size(); ++i)
            p[i] = convertElement<T>(values[i]);
    });
    ctx.setOutput(0, out);
}

template<class T> void runArange(const CudaRuntime &rt, Tensor &out, Acc<T> start, Acc<T> step)
{
    T *p = static_cast<T *>(out.rawData());
    launchFlat(
        rt, out.numElements(),
        [=] __device__(int64_t i) { p[i] = store<T>(Acc<T>(start + Acc<T>(i) * step)); }, "arange");
}

void arangeKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const double start = scalarOperandOrAttr(ctx, 0, "start");
    const double end = scalarOperandOrAttr(ctx, 1, "end");
    const double step = scalarOperandOrAttr(ctx, 2, "step");
    const DataType dtype = ctx.dtypeAttr("dtype", DataType::Float64);
    dispatchArithmetic(dtype, "arange", [&](auto tag) {
        using T = decltype(tag);
        using C = Acc<T>;
        const C s = C(start), e = C(end), d = C(step);
        if (d == C(0))
            throw RuntimeError("arange: step is 0");
        if ((s < e && d < C(0)) || (s > e && d > C(0)))
            throw RuntimeError("arange: step " + std::to_string(step) + " points away from end "
                + std::to_string(end) + " (start " + std::to_string(start) + ")");
        int64_t n = 0;
        if constexpr (std::is_integral_v<C>) {
            const int64_t span = int64_t(e) - int64_t(s), absStep = d < 0 ? -int64_t(d) : int64_t(d);
            n = ((span < 0 ? -span : span) + absStep - 1) / absStep;
        } else {
            const C count = std::ceil(std::fabs((e - s) / d));
            if (!std::isfinite(count))
                throw RuntimeError("arange: start, end and step give no finite count");
            n = int64_t(count);
        }
        Tensor out = ctx.allocate({ n }, dtype);
        runArange<T>(rt, out, s, d);
        ctx.setOutput(0, out);
    });
}

/// Built on the host exactly as the CPU kernel does, then uploaded.
void assignValueKernel(KernelContext &ctx)
{
    const std::vector<int64_t> shape = ctx.intsAttr("shape");
    const DataType dtype = ctx.dtypeAttr("dtype");
    const Attribute *values = ctx.attribute("values");
    if (!values || values->kind() != Attribute::Kind::Array)
        throw RuntimeError("assign_value: missing attribute 'values'");
    Tensor host = Tensor::empty(shape, dtype);
    if (int64_t(values->asArray().size()) != host.numElements())
        throw RuntimeError("assign_value: " + std::to_string(values->asArray().size()) + " values for shape "
            + shapeText(shape));
    ps::dispatchDtype(dtype, "assign_value", [&](auto tag) {
        using T = decltype(tag);
        T *p = host.data<T>();
        for (size_t i = 0; i < values->asArray().size(); ++i) {
            const Attribute &e = values->asArray()[i];
            if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
                if (e.isInteger()) {
                    p[i] = convertElement<T>(e.asInt());
                    continue;
                }
            }
            const double v = e.kind() == Attribute::Kind::Bool ? (e.asBool() ? 1.0 : 0.0) : e.asDouble();
            p[i] = convertElement<T>(v);
        }
    });
    CudaRuntime &rt = cudaRuntime(ctx);
    Tensor out = isInplaceOp(ctx) ? targetOrNew(ctx, 0, shape, dtype) : ctx.allocate(shape, dtype);
    const Tensor uploaded = ctx.backend().toDevice(host);
    if (out.byteSize() > 0)
        checkCuda(cudaMemcpyAsync(
                      out.rawData(), uploaded.rawData(), out.byteSize(), cudaMemcpyDeviceToDevice, rt.stream),
            "assign_value");
    ctx.setOutput(0, out);
}

void assignKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    ctx.setOutput(0, isInplaceOp(ctx) ? x : cuda::copy(rt, x));
}

void assignOutKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0);
    Tensor out = targetOrNew(ctx, 1, x.shape(), x.dtype());
    if (out.rawData() != x.rawData() && x.byteSize() > 0)
        checkCuda(
            cudaMemcpyAsync(out.rawData(), x.rawData(), x.byteSize(), cudaMemcpyDeviceToDevice, rt.stream),
            "assign_out_");
    ctx.setOutput(0, out);
}

void numelKernel(KernelContext &ctx)
{
    const int64_t n = ctx.input(0).numElements();
    const DataType declared = declaredDtype(ctx, 0);
    Tensor out = Tensor::empty({}, declared == DataType::Int32 ? DataType::Int32 : DataType::Int64);
    if (out.dtype() == DataType::Int32)
        out.data<int32_t>()[0] = int32_t(n);
    else
        out.data<int64_t>()[0] = n;
    ctx.setOutput(0, out);
}

template<class T> void runAddN(const CudaRuntime &rt, const Tensor &pointers, int64_t count, Tensor &out)
{
    const T *const *inputs = static_cast<const T *const *>(pointers.rawData());
    T *po = static_cast<T *>(out.rawData());
    launchFlat(
        rt, out.numElements(),
        [=] __device__(int64_t i) {
            ReduceAcc<T> sum = 0;
            for (int64_t k = 0; k < count; ++k)
                sum += ReduceAcc<T>(load(inputs[k][i]));
            po[i] = store<T>(sum);
        },
        "add_n");
}

/// add_n(combine(inputs)): every input has the first one's shape; summed in double (int64 for
/// integers) and rounded once, as the CPU kernel does.
void addNKernel(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    std::vector<Tensor> list;
    for (const Tensor &t : ctx.inputList(0))
        if (t.defined())
            list.push_back(deviceTensor(ctx, t));
    if (list.empty())
        throw RuntimeError("add_n needs at least one input");
    const Tensor &first = list.front();
    for (size_t k = 0; k < list.size(); ++k)
        if (list[k].shape() != first.shape() || list[k].dtype() != first.dtype())
            throw RuntimeError("add_n input " + std::to_string(k) + " is " + list[k].describe()
                + ", input 0 is " + first.describe());
    Tensor hostPointers = Tensor::empty({ int64_t(list.size()) }, DataType::Int64);
    for (size_t k = 0; k < list.size(); ++k)
        hostPointers.data<int64_t>()[k] = int64_t(reinterpret_cast<uintptr_t>(list[k].rawData()));
    const Tensor pointers = ctx.backend().toDevice(hostPointers);
    Tensor out = ctx.allocate(first.shape(), first.dtype());
    dispatchArithmetic(first.dtype(), "add_n",
        [&](auto tag) { runAddN<decltype(tag)>(rt, pointers, int64_t(list.size()), out); });
    ctx.setOutput(0, out);
}

} // namespace

namespace cuda {

void fill(CudaRuntime &rt, Tensor &t, double value)
{
    if (t.numElements() == 0)
        return;
    if (t.device().isCpu()) {
        hostFill(t, value);
        return;
    }
    // The value's bit pattern in the tensor's dtype, converted on the host as the CPU does.
    uint64_t bits = 0;
    ps::dispatchDtype(t.dtype(), "fill", [&](auto tag) {
        using T = decltype(tag);
        const T v = convertElement<T>(value);
        std::memcpy(&bits, &v, sizeof(T));
    });
    switch (t.elementSize()) {
    case 1:
        return fillBits<uint8_t>(rt, t.rawData(), t.numElements(), uint8_t(bits));
    case 2:
        return fillBits<uint16_t>(rt, t.rawData(), t.numElements(), uint16_t(bits));
    case 4:
        return fillBits<uint32_t>(rt, t.rawData(), t.numElements(), uint32_t(bits));
    default:
        return fillBits<uint64_t>(rt, t.rawData(), t.numElements(), bits);
    }
}

} // namespace cuda

void registerCudaTensorKernels(KernelRegistry &registry)
{
    registry.add("pd_op.full", &fullKernel);
    registry.add("pd_op.full_", &fullKernel);
    registry.add("pd_op.full_with_tensor", &fullWithTensorKernel);
    registry.add("pd_op.full_like", &fullLikeKernel);
    registry.add("pd_op.fill", &fillKernel);
    registry.add("pd_op.fill_", &fillKernel);
    registry.add("pd_op.full_int_array", &fullIntArrayKernel);
    registry.add("pd_op.arange", &arangeKernel);
    registry.add("pd_op.assign_value", &assignValueKernel);
    registry.add("pd_op.assign_value_", &assignValueKernel);
    registry.add("pd_op.assign", &assignKernel);
    registry.add("pd_op.assign_", &assignKernel);
    registry.add("pd_op.assign_out_", &assignOutKernel);
    registry.add("pd_op.numel", &numelKernel);
    registry.add("pd_op.add_n", &addNKernel);
}

} // namespace ps
