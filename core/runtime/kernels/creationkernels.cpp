#include "core/runtime/kernels/creationkernels.h"

namespace ps::kernels {

bool placedOnCpu(const KernelContext &ctx)
{
    const Attribute *place = ctx.attribute("place");
    return place && place->kind() == Attribute::Kind::PlaceAttr && place->asPlace().type == Place::AllocType::Cpu;
}

Tensor hostValuesTensor(const KernelContext &ctx, const std::vector<int64_t> &shape, DataType dtype)
{
    Tensor host = Tensor::empty(shape, dtype);
    const Attribute *values = ctx.attribute("values");
    const std::vector<double> numbers = numbersAttr(ctx, "values");
    if (int64_t(numbers.size()) != host.numElements())
        throw RuntimeError("assign_value: " + std::to_string(numbers.size()) + " values for shape " + shapeText(shape));
    dispatchDtype(dtype, "assign_value", [&](auto tag) {
        using T = decltype(tag);
        T *p = host.data<T>();
        for (size_t i = 0; i < numbers.size(); ++i) {
            const bool exactInt = kIsIntegerElement<T> && values->kind() == Attribute::Kind::Array
                && values->asArray()[i].isInteger();
            p[i] = exactInt ? convertElement<T>(values->asArray()[i].asInt()) : convertElement<T>(numbers[i]);
        }
    });
    return host;
}

void fullIntArrayKernel(KernelContext &ctx)
{
    const std::vector<int64_t> values = ctx.intsAttr("value");
    Tensor out = Tensor::empty({ int64_t(values.size()) }, ctx.dtypeAttr("dtype", DataType::Float32));
    dispatchDtype(out.dtype(), "full_int_array", [&](auto tag) {
        using T = decltype(tag);
        T *p = out.data<T>();
        for (size_t i = 0; i < values.size(); ++i)
            p[i] = convertElement<T>(values[i]);
    });
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

} // namespace ps::kernels
