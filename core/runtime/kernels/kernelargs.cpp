#include "core/runtime/kernels/kernelargs.h"

#include "core/ir/attribute.h"
#include "core/ir/type.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernels/shapespec.h"
#include "core/runtime/runtimeerror.h"

#include <algorithm>

namespace ps::kernels {

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

bool sharesStorage(const Tensor &a, const Tensor &b)
{
    return a.storage() && a.storage() == b.storage();
}

Tensor resultTensor(
    const KernelContext &ctx, const Tensor &x, const std::vector<int64_t> &shape, DataType dtype)
{
    if (!isInplaceOp(ctx))
        return ctx.allocate(shape, dtype);
    if (x.shape() != shape || x.dtype() != dtype)
        throw RuntimeError("inplace " + shortName(ctx) + " cannot write a " + std::string(phiName(dtype))
            + shapeText(shape) + " result into its operand " + x.describe());
    return x;
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

std::vector<int64_t> axesOperandOrAttr(const KernelContext &ctx, size_t i)
{
    if (ctx.hasInput(i))
        return ctx.inputAsInts(i);
    const Attribute *a = ctx.attribute("axis");
    if (!a)
        return {};
    if (a->isInteger())
        return { ctx.intAttr("axis") };
    return ctx.intsAttr("axis");
}

int64_t scalarAxis(const KernelContext &ctx, size_t i, int64_t fallback)
{
    if (ctx.hasInput(i))
        return ctx.inputAsInts(i).at(0);
    return ctx.intAttr("axis", fallback);
}

std::vector<double> numbersAttr(const KernelContext &ctx, std::string_view name)
{
    const Attribute *a = ctx.attribute(name);
    if (!a)
        throw RuntimeError("missing attribute '" + std::string(name) + "'");
    if (a->kind() != Attribute::Kind::Array)
        return ctx.floatsAttr(name);
    std::vector<double> out;
    for (const Attribute &e : a->asArray()) {
        if (e.kind() == Attribute::Kind::Bool)
            out.push_back(e.asBool() ? 1.0 : 0.0);
        else if (e.isInteger() || e.isFloating() || e.kind() == Attribute::Kind::Scalar)
            out.push_back(e.asDouble());
        else
            throw RuntimeError("attribute '" + std::string(name) + "' holds a non-numeric element");
    }
    return out;
}

int64_t normalizeAxis(int64_t axis, int64_t rank, std::string_view what)
{
    if (axis < -rank || axis >= rank)
        throw RuntimeError(std::string(what) + " " + std::to_string(axis) + " is out of range for rank "
            + std::to_string(rank));
    return axis < 0 ? axis + rank : axis;
}

int64_t normalizeAxisOrScalar(int64_t axis, int64_t rank, std::string_view what)
{
    if (rank == 0 && (axis == 0 || axis == -1))
        return 0;
    return normalizeAxis(axis, rank, what);
}

AxisSplit splitAtAxisChecked(const std::vector<int64_t> &shape, int64_t axis, std::string_view what)
{
    return splitAtAxis(
        shape, normalizeAxisOrScalar(axis, int64_t(shape.size()), std::string(what) + " axis"));
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

bool isChannelsLast(const std::string &format)
{
    return format == "NHWC" || format == "NDHWC" || format == "NLC" || format == "NWC";
}

bool isFloatingType(DataType d)
{
    return d == DataType::Float32 || d == DataType::Float64 || d == DataType::Float16
        || d == DataType::BFloat16;
}

bool isHalfType(DataType d)
{
    return d == DataType::Float16 || d == DataType::BFloat16;
}

void requireFloating(const Tensor &t, std::string_view what)
{
    if (!isFloatingType(t.dtype()))
        throw RuntimeError(std::string(what) + " expects a floating-point tensor, got " + t.describe());
}

void requireNumeric(const Tensor &t, std::string_view what)
{
    if (t.dtype() == DataType::Bool)
        throw RuntimeError(std::string(what) + " does not support " + t.describe());
    dispatchDtype(t.dtype(), std::string(what).c_str(), [](auto) {});
}

void requireSameDtype(const Tensor &x, const Tensor &y, std::string_view what)
{
    if (x.dtype() != y.dtype())
        throw RuntimeError(std::string(what) + ": x is " + x.describe() + " but y is " + y.describe()
            + "; both operands need one dtype");
}

std::vector<int64_t> binaryResultShape(const KernelContext &ctx, const Tensor &x, const Tensor &y)
{
    try {
        return broadcastShapes(x.shape(), y.shape());
    } catch (const RuntimeError &e) {
        throw RuntimeError(
            shortName(ctx) + ": " + e.what() + " (x " + x.describe() + ", y " + y.describe() + ")");
    }
}

BinaryGradShapes binaryGradShapes(
    const KernelContext &ctx, const Tensor &x, const Tensor &y, const Tensor &grad)
{
    const int64_t axis = ctx.intAttr("axis", -1);
    BinaryGradShapes b;
    const size_t rank = std::max({ x.rank(), y.rank(), grad.rank() });
    b.out = alignShape(grad.shape(), rank);
    b.x = alignShape(x.shape(), rank, x.rank() < y.rank() ? axis : -1);
    b.y = alignShape(y.shape(), rank, y.rank() < x.rank() ? axis : -1);
    if (broadcastShapes(b.x, b.y) != b.out)
        throw RuntimeError("out_grad " + grad.describe() + " is not the broadcast of x " + x.describe()
            + " and y " + y.describe());
    return b;
}

} // namespace ps::kernels
