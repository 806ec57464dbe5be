// Ops that create or copy a tensor: full, full_, full_like, full_with_tensor, fill,
// full_int_array, arange, assign_value(_), assign, assign_out_, numel.

#include "core/ir/attribute.h"
#include "core/runtime/cpu/cpuelementwisecommon.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"

#include <cmath>
#include <cstring>

namespace ps::cpuew {
namespace {

/// Every element of `t` set to `value` (double, or int64 for an exact integer fill).
template<class V> void fillWith(Tensor &t, V value, const char *what)
{
    dispatchDtype(t.dtype(), what, [&](auto tag) {
        using T = decltype(tag);
        const T v = convertElement<T>(value);
        T *p = t.data<T>();
        const int64_t n = t.numElements();
        for (int64_t i = 0; i < n; ++i)
            p[i] = v;
    });
}

/// Operand `i` (the inplace target of full_, assign_value_) when it already has `shape` and
/// `dtype`, else a new tensor.
Tensor targetOrNew(const KernelContext &ctx, size_t i, const std::vector<int64_t> &shape, DataType dtype)
{
    if (ctx.hasInput(i) && ctx.inputValue(i).isTensor()) {
        const Tensor &t = ctx.input(i);
        if (t.shape() == shape && t.dtype() == dtype)
            return t;
    }
    return ctx.allocate(shape, dtype);
}

/// full {shape, value, dtype}; full_ (output) writes into `output` when it fits.
void fullKernel(KernelContext &ctx)
{
    const std::vector<int64_t> shape = ctx.intsAttr("shape");
    const DataType dtype = ctx.dtypeAttr("dtype", DataType::Float32);
    Tensor out = isInplaceOp(ctx) ? targetOrNew(ctx, 0, shape, dtype) : ctx.allocate(shape, dtype);
    const Attribute *value = ctx.attribute("value");
    if (value && value->isInteger())
        fillWith(out, value->asInt(), "full");
    else
        fillWith(out, ctx.floatAttr("value"), "full");
    ctx.setOutput(0, out);
}

/// full_with_tensor (value, shape) {dtype}.
void fullWithTensorKernel(KernelContext &ctx)
{
    const std::vector<int64_t> shape = intsOperandOrAttr(ctx, 1, "shape");
    Tensor out = ctx.allocate(shape, ctx.dtypeAttr("dtype", ctx.input(0).dtype()));
    fillWith(out, ctx.inputAsScalar(0), "full_with_tensor");
    ctx.setOutput(0, out);
}

/// full_like (x, value) {dtype}: x's shape; dtype Undefined means x's dtype.
void fullLikeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    DataType dtype = ctx.dtypeAttr("dtype", DataType::Undefined);
    if (dtype == DataType::Undefined)
        dtype = x.dtype();
    Tensor out = ctx.allocate(x.shape(), dtype);
    fillWith(out, scalarOperandOrAttr(ctx, 1, "value"), "full_like");
    ctx.setOutput(0, out);
}

/// fill / fill_ (x, value): x's shape and dtype.
void fillKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    Tensor out = resultTensor(ctx, x.shape(), x.dtype());
    fillWith(out, scalarOperandOrAttr(ctx, 1, "value", 0.0), "fill");
    ctx.setOutput(0, out);
}

/// full_int_array {value, dtype}: a 1-D tensor of the (exact) int64 values.
void fullIntArrayKernel(KernelContext &ctx)
{
    const std::vector<int64_t> values = ctx.intsAttr("value");
    Tensor out = ctx.allocate({ int64_t(values.size()) }, ctx.dtypeAttr("dtype", DataType::Float32));
    dispatchDtype(out.dtype(), "full_int_array", [&](auto tag) {
        using T = decltype(tag);
        T *p = out.data<T>();
        for (size_t i = 0; i < values.size(); ++i)
            p[i] = convertElement<T>(values[i]);
    });
    ctx.setOutput(0, out);
}

/// arange (start, end, step) {dtype}: start + i * step computed in the output type; the count is
/// ceil(|(end - start) / step|) (integers: exact). A step pointing away from end is an error, as
/// in Paddle.
void arangeKernel(KernelContext &ctx)
{
    const double start = scalarOperandOrAttr(ctx, 0, "start");
    const double end = scalarOperandOrAttr(ctx, 1, "end");
    const double step = scalarOperandOrAttr(ctx, 2, "step");
    const DataType dtype = ctx.dtypeAttr("dtype", DataType::Float64);
    Tensor out;
    dispatchDtype(dtype, "arange", [&](auto tag) {
        using T = decltype(tag);
        using C = ComputeType<T>;
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
            out = ctx.allocate({ n }, dtype);
            T *p = out.data<T>();
            for (int64_t i = 0; i < n; ++i)
                p[i] = convertElement<T>(C(s + C(i) * d));
        }
    });
    ctx.setOutput(0, out);
}

/// assign_value_ (output) / assign_value () {shape, dtype, values}. Integer values are read
/// exactly; assign_value_ writes into `output` when it already fits.
void assignValueKernel(KernelContext &ctx)
{
    const std::vector<int64_t> shape = ctx.intsAttr("shape");
    const DataType dtype = ctx.dtypeAttr("dtype");
    Tensor out = isInplaceOp(ctx) ? targetOrNew(ctx, 0, shape, dtype) : ctx.allocate(shape, dtype);
    const Attribute *values = ctx.attribute("values");
    const std::vector<double> numbers = numbersAttr(ctx, "values");
    if (int64_t(numbers.size()) != out.numElements())
        throw RuntimeError(
            "assign_value: " + std::to_string(numbers.size()) + " values for shape " + shapeText(shape));
    dispatchDtype(dtype, "assign_value", [&](auto tag) {
        using T = decltype(tag);
        T *p = out.data<T>();
        for (size_t i = 0; i < numbers.size(); ++i) {
            const bool exactInt = kIsInteger<T> && values->kind() == Attribute::Kind::Array
                && values->asArray()[i].isInteger();
            p[i] = exactInt ? convertElement<T>(values->asArray()[i].asInt()) : convertElement<T>(numbers[i]);
        }
    });
    ctx.setOutput(0, out);
}

/// assign: a copy of x; assign_: x itself.
void assignKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    if (isInplaceOp(ctx)) {
        ctx.setOutput(0, x);
        return;
    }
    Tensor out = ctx.allocate(x.shape(), x.dtype());
    std::memcpy(out.rawData(), x.rawData(), x.byteSize());
    ctx.setOutput(0, out);
}

/// assign_out_ (x, output): x copied into `output` when it fits (else into a new tensor).
void assignOutKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    Tensor out = targetOrNew(ctx, 1, x.shape(), x.dtype());
    if (out.rawData() != x.rawData())
        std::memmove(out.rawData(), x.rawData(), x.byteSize());
    ctx.setOutput(0, out);
}

/// numel: a 0-d int64 tensor (int32 when the IR declares it).
void numelKernel(KernelContext &ctx)
{
    const int64_t n = ctx.input(0).numElements();
    const DataType declared = ctx.outputType(0) ? ctx.outputType(0).dtype() : DataType::Int64;
    Tensor out = ctx.allocate({}, declared == DataType::Int32 ? DataType::Int32 : DataType::Int64);
    if (out.dtype() == DataType::Int32)
        out.data<int32_t>()[0] = int32_t(n);
    else
        out.data<int64_t>()[0] = n;
    ctx.setOutput(0, out);
}

} // namespace

void registerCreationKernels(KernelRegistry &registry)
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
}

} // namespace ps::cpuew
