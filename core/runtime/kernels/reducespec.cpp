#include "core/runtime/kernels/reducespec.h"

#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/runtimeerror.h"

namespace ps::kernels {

ReduceSpec reduceShape(const std::vector<int64_t> &shape, std::vector<bool> reduced, bool keepdim)
{
    ReduceSpec s;
    s.reduced = std::move(reduced);
    for (size_t i = 0; i < shape.size(); ++i) {
        if (s.reduced[i]) {
            s.reduceCount *= shape[i];
            if (keepdim)
                s.outShape.push_back(1);
        } else {
            s.outShape.push_back(shape[i]);
            s.outCount *= shape[i];
        }
    }
    return s;
}

ReduceSpec reduceSpec(
    const KernelContext &ctx, ReduceOp op, const std::vector<int64_t> &shape, DataType dtype)
{
    const std::string label = shortName(ctx);
    const bool logical = op == ReduceOp::All || op == ReduceOp::Any;
    const std::vector<int64_t> axes = logical && !ctx.hasInput(1)
        ? ctx.intsAttr("axis", std::vector<int64_t> {})
        : axesOperandOrAttr(ctx, 1);
    const bool keepdim = ctx.boolAttr("keepdim", ctx.boolAttr("keep_dim", false));
    ReduceSpec s = reduceShape(
        shape, reducedDims(axes, int64_t(shape.size()), ctx.boolAttr("reduce_all", false), label + " axis"), keepdim);
    if ((op == ReduceOp::Max || op == ReduceOp::Min) && s.reduceCount == 0 && s.outCount > 0)
        throw RuntimeError(label + ": cannot reduce an empty range of x " + shapeText(shape));
    s.outType = dtype;
    if (op == ReduceOp::Sum) {
        s.outType = ctx.dtypeAttr("dtype", DataType::Undefined);
        if (s.outType == DataType::Undefined)
            s.outType = dtype == DataType::Bool || dtype == DataType::Int32 ? DataType::Int64 : dtype;
    } else if (logical) {
        s.outType = DataType::Bool;
    }
    return s;
}

} // namespace ps::kernels
