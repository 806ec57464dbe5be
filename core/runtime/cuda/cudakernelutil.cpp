#include "core/runtime/cuda/cudakernelutil.h"

#include "core/ir/type.h"
#include "core/runtime/cuda/cudaruntime.h"
#include "core/runtime/runtimeerror.h"

namespace ps::cuda {

std::string shortName(const KernelContext &ctx)
{
    const std::string_view name = ctx.opName();
    const size_t dot = name.find('.');
    return std::string(dot == std::string_view::npos ? name : name.substr(dot + 1));
}

bool isInplaceOp(const KernelContext &ctx)
{
    const std::string_view name = ctx.opName();
    return !name.empty() && name.back() == '_';
}

Tensor deviceInput(KernelContext &ctx, size_t i)
{
    return deviceTensor(ctx, ctx.input(i));
}

Tensor resultTensor(KernelContext &ctx, const Tensor &x, const std::vector<int64_t> &shape, DataType dtype)
{
    if (!isInplaceOp(ctx))
        return ctx.allocate(shape, dtype);
    if (x.shape() != shape || x.dtype() != dtype)
        throw RuntimeError("inplace " + shortName(ctx) + " cannot write a " + std::string(phiName(dtype))
            + shapeText(shape) + " result into its operand " + x.describe());
    return x;
}

bool sharesStorage(const Tensor &a, const Tensor &b)
{
    return a.storage() && a.storage() == b.storage();
}

std::vector<int64_t> intsOperandOrAttr(
    const KernelContext &ctx, size_t i, std::string_view name, std::optional<std::vector<int64_t>> fallback)
{
    if (ctx.hasInput(i))
        return ctx.inputAsInts(i);
    if (ctx.attribute(name) || !fallback)
        return ctx.intsAttr(name);
    return *fallback;
}

double scalarOperandOrAttr(
    const KernelContext &ctx, size_t i, std::string_view name, std::optional<double> fallback)
{
    if (ctx.hasInput(i))
        return ctx.inputAsScalar(i);
    return ctx.floatAttr(name, fallback);
}

size_t normalizeAxis(int64_t axis, size_t rank, std::string_view what)
{
    const int64_t r = int64_t(rank);
    if (axis < -r || axis >= r)
        throw RuntimeError(std::string(what) + " " + std::to_string(axis) + " is out of range for rank "
            + std::to_string(rank));
    return size_t(axis < 0 ? axis + r : axis);
}

bool wanted(const KernelContext &ctx, size_t i)
{
    return i < ctx.numOutputs() && !ctx.outputType(i).isNull();
}

DataType declaredDtype(const KernelContext &ctx, size_t i)
{
    if (i >= ctx.numOutputs())
        return DataType::Undefined;
    const Type t = ctx.outputType(i);
    return t.kind() == Type::Kind::DenseTensor ? t.dtype() : DataType::Undefined;
}

} // namespace ps::cuda
