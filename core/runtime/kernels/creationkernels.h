#pragma once

// Kernels that create or copy a tensor, for both backends over an execution policy `Exec`:
// full, full_, full_with_tensor, full_like, fill, fill_, full_int_array, arange,
// assign_value(_), assign(_), assign_out_, numel, add_n. Small host-side results (full_int_array,
// numel, a `full` placed on the CPU) stay host tensors on a device backend, as in Paddle: their
// consumers read them on the host (reshape shapes, scale factors).

#include "core/ir/attribute.h"
#include "core/runtime/backend.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/elementtraits.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/runtimeerror.h"

#include <cmath>

namespace ps::kernels {

/// A `full` result up to this many elements placed on the CPU stays on the host of a device
/// backend.
constexpr int64_t kHostFullLimit = 64;

/// Operand `i` (the inplace target of full_, assign_value_) when it already has `shape` and
/// `dtype`, else a new tensor.
template<class Exec> Tensor targetOrNew(const Exec &exec, size_t i, const std::vector<int64_t> &shape, DataType dtype)
{
    if (exec.ctx().hasInput(i) && exec.ctx().inputValue(i).isTensor()) {
        const Tensor t = exec.input(i);
        if (t.shape() == shape && t.dtype() == dtype)
            return t;
    }
    return exec.allocate(shape, dtype);
}

/// The op's `place` attribute names the CPU.
bool placedOnCpu(const KernelContext &ctx);
/// A host tensor of `shape` and `dtype` holding the `values` array attribute (integers exact).
Tensor hostValuesTensor(const KernelContext &ctx, const std::vector<int64_t> &shape, DataType dtype);
/// full_int_array {value, dtype}: a 1-D host tensor of the (exact) int64 values.
void fullIntArrayKernel(KernelContext &ctx);
/// numel: a 0-d int64 host tensor (int32 when the IR declares it).
void numelKernel(KernelContext &ctx);

/// full {shape, value, dtype}; full_ (output) writes into `output` when it fits.
template<class Exec> void fullKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::vector<int64_t> shape = ctx.intsAttr("shape");
    const DataType dtype = ctx.dtypeAttr("dtype", DataType::Float32);
    const Attribute *value = ctx.attribute("value");
    const auto fillWith = [&](auto &&fill, Tensor &t) {
        if (value && value->isInteger())
            fill(t, value->asInt());
        else
            fill(t, ctx.floatAttr("value"));
    };
    if (Exec::kDevice && !isInplaceOp(ctx) && placedOnCpu(ctx) && numElementsOf(shape) <= kHostFullLimit) {
        Tensor host = Tensor::empty(shape, dtype);
        fillWith([](Tensor &t, auto v) { fillHost(t, v); }, host);
        ctx.setOutput(0, host);
        return;
    }
    Tensor out = isInplaceOp(ctx) ? targetOrNew(exec, 0, shape, dtype) : exec.allocate(shape, dtype);
    fillWith([&](Tensor &t, auto v) { exec.fill(t, v); }, out);
    ctx.setOutput(0, out);
}

/// full_with_tensor (value, shape) {dtype}.
template<class Exec> void fullWithTensorKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::vector<int64_t> shape = intsOperandOrAttr(ctx, 1, "shape");
    Tensor out = exec.allocate(shape, ctx.dtypeAttr("dtype", ctx.input(0).dtype()));
    exec.fill(out, ctx.inputAsScalar(0));
    ctx.setOutput(0, out);
}

/// full_like (x, value) {dtype}: x's shape; dtype Undefined means x's dtype.
template<class Exec> void fullLikeKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor &x = ctx.input(0);
    DataType dtype = ctx.dtypeAttr("dtype", DataType::Undefined);
    if (dtype == DataType::Undefined)
        dtype = x.dtype();
    Tensor out = exec.allocate(x.shape(), dtype);
    exec.fill(out, scalarOperandOrAttr(ctx, 1, "value"));
    ctx.setOutput(0, out);
}

/// fill / fill_ (x, value): x's shape and dtype.
template<class Exec> void fillKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    Tensor out = resultTensor(ctx, x, x.shape(), x.dtype());
    exec.fill(out, scalarOperandOrAttr(ctx, 1, "value", 0.0));
    ctx.setOutput(0, out);
}

template<class T, class C> struct ArangeMap
{
    T *out;
    C start, step;
    PS_HOST_DEVICE void operator()(int64_t i) const { out[i] = storeElement<T>(C(start + C(i) * step)); }
};

/// arange (start, end, step) {dtype}: start + i * step computed in the output type; the count is
/// ceil(|(end - start) / step|) (integers: exact). A step pointing away from end is an error, as
/// in Paddle.
template<class Exec> void arangeKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const double start = scalarOperandOrAttr(ctx, 0, "start");
    const double end = scalarOperandOrAttr(ctx, 1, "end");
    const double step = scalarOperandOrAttr(ctx, 2, "step");
    const DataType dtype = ctx.dtypeAttr("dtype", DataType::Float64);
    Exec::dispatchAll(dtype, "arange", [&](auto tag) {
        using T = decltype(tag);
        using C = ComputeOf<T>;
        if constexpr (std::is_same_v<T, bool>) {
            throw RuntimeError("arange: bool output is not supported");
        } else {
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
            Tensor out = exec.allocate({ n }, dtype);
            exec.launch(n, ArangeMap<T, C> { static_cast<T *>(out.rawData()), s, d }, "arange");
            ctx.setOutput(0, out);
        }
    });
}

/// assign_value_ (output) / assign_value () {shape, dtype, values}. Integer values are read
/// exactly; assign_value_ writes into `output` when it already fits.
template<class Exec> void assignValueKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const std::vector<int64_t> shape = ctx.intsAttr("shape");
    const DataType dtype = ctx.dtypeAttr("dtype");
    const Tensor host = hostValuesTensor(ctx, shape, dtype);
    Tensor out = isInplaceOp(ctx) ? targetOrNew(exec, 0, shape, dtype) : exec.allocate(shape, dtype);
    exec.copy(out, host);
    ctx.setOutput(0, out);
}

/// assign: a copy of x; assign_: x itself.
template<class Exec> void assignKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    if (isInplaceOp(ctx)) {
        ctx.setOutput(0, x);
        return;
    }
    Tensor out = exec.allocate(x.shape(), x.dtype());
    exec.copy(out, x);
    ctx.setOutput(0, out);
}

/// assign_out_ (x, output): x copied into `output` when it fits (else into a new tensor).
template<class Exec> void assignOutKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    const Tensor x = exec.input(0);
    Tensor out = targetOrNew(exec, 1, x.shape(), x.dtype());
    exec.copy(out, x);
    ctx.setOutput(0, out);
}

/// out[i] = sum_k inputs[k][i], accumulated in double (int64 for integers), rounded once.
template<class T> struct AddNMap
{
    using Acc = std::conditional_t<kIsFloatingElement<T>, double, int64_t>;
    const T *const *inputs;
    int64_t count;
    T *out;
    PS_HOST_DEVICE void operator()(int64_t i) const
    {
        Acc sum = 0;
        for (int64_t k = 0; k < count; ++k)
            sum += Acc(loadElement(inputs[k][i]));
        out[i] = storeElement<T>(sum);
    }
};

/// add_n(combine(inputs)): every defined input has the first one's shape and dtype.
template<class Exec> void addNKernel(KernelContext &ctx)
{
    Exec exec(ctx);
    std::vector<Tensor> list;
    for (const Tensor &t : exec.inputList(0))
        if (t.defined())
            list.push_back(t);
    if (list.empty())
        throw RuntimeError("add_n needs at least one input");
    const Tensor &first = list.front();
    requireNumeric(first, "add_n");
    for (size_t k = 0; k < list.size(); ++k)
        if (list[k].shape() != first.shape() || list[k].dtype() != first.dtype())
            throw RuntimeError("add_n input " + std::to_string(k) + " is " + list[k].describe() + ", input 0 is "
                + first.describe());
    Tensor hostPointers = Tensor::empty({ int64_t(list.size()) }, DataType::Int64);
    for (size_t k = 0; k < list.size(); ++k)
        hostPointers.data<int64_t>()[k] = int64_t(reinterpret_cast<uintptr_t>(list[k].rawData()));
    const Tensor pointers = ctx.backend().toDevice(hostPointers);
    Tensor out = exec.allocate(first.shape(), first.dtype());
    Exec::dispatchAll(first.dtype(), "add_n", [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, bool>)
            exec.launch(out.numElements(),
                AddNMap<T> { static_cast<const T *const *>(pointers.rawData()), int64_t(list.size()),
                    static_cast<T *>(out.rawData()) },
                "add_n");
    });
    ctx.setOutput(0, out);
}

template<class Exec> void registerCreationKernels(KernelRegistry &registry)
{
    registry.add("pd_op.full", &fullKernel<Exec>);
    registry.add("pd_op.full_", &fullKernel<Exec>);
    registry.add("pd_op.full_with_tensor", &fullWithTensorKernel<Exec>);
    registry.add("pd_op.full_like", &fullLikeKernel<Exec>);
    registry.add("pd_op.fill", &fillKernel<Exec>);
    registry.add("pd_op.fill_", &fillKernel<Exec>);
    registry.add("pd_op.full_int_array", &fullIntArrayKernel);
    registry.add("pd_op.arange", &arangeKernel<Exec>);
    registry.add("pd_op.assign_value", &assignValueKernel<Exec>);
    registry.add("pd_op.assign_value_", &assignValueKernel<Exec>);
    registry.add("pd_op.assign", &assignKernel<Exec>);
    registry.add("pd_op.assign_", &assignKernel<Exec>);
    registry.add("pd_op.assign_out_", &assignOutKernel<Exec>);
    registry.add("pd_op.numel", &numelKernel);
    registry.add("pd_op.add_n", &addNKernel<Exec>);
}

} // namespace ps::kernels
