// The reshape family: results are views of operand 0's storage, so one host function serves
// every backend (a device tensor stays where it is).

#include "core/runtime/kernels/indexingkernels.h"
#include "core/runtime/kernels/layoutkernels.h"

namespace ps::kernels {
namespace {

/// reshape (x, shape): 0 copies x's dim at that index, one -1 is inferred.
void reshapeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    ctx.setOutput(0, x.reshaped(reshapeTarget(x.shape(), intsOperandOrAttr(ctx, 1, "shape"), x.describe())));
}

/// flatten {start_axis, stop_axis}: dims start..stop merged into one; 0-d becomes [1].
void flattenKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    ctx.setOutput(0,
        x.reshaped(flattenShape(x.shape(), ctx.intAttr("start_axis", 1), ctx.intAttr("stop_axis", 1), x.describe())));
}

/// squeeze (x, axis): the listed size-1 dims removed; no axes removes every size-1 dim.
void squeezeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    ctx.setOutput(0, x.reshaped(squeezeShape(x.shape(), intsOperandOrAttr(ctx, 1, "axis", std::vector<int64_t> {}))));
}

/// unsqueeze (x, axis): a 1 inserted per axis, in order.
void unsqueezeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    ctx.setOutput(0, x.reshaped(unsqueezeShape(x.shape(), intsOperandOrAttr(ctx, 1, "axis"))));
}

} // namespace

void registerViewKernels(KernelRegistry &registry)
{
    for (const char *suffix : { "", "_" }) {
        const std::string s(suffix);
        registry.add("pd_op.reshape" + s, &reshapeKernel);
        registry.add("pd_op.flatten" + s, &flattenKernel);
        registry.add("pd_op.squeeze" + s, &squeezeKernel);
        registry.add("pd_op.unsqueeze" + s, &unsqueezeKernel);
    }
}

} // namespace ps::kernels

namespace ps::kernels {

void shapeKernel(KernelContext &ctx)
{
    const Tensor &x = ctx.input(0);
    DataType dtype = ctx.opName() == "pd_op.shape64" ? DataType::Int64 : DataType::Int32;
    const DataType declared = declaredDtype(ctx, 0);
    if (declared == DataType::Int32 || declared == DataType::Int64)
        dtype = declared;
    Tensor out = Tensor::empty({ int64_t(x.rank()) }, dtype);
    for (size_t i = 0; i < x.rank(); ++i) {
        if (dtype == DataType::Int64)
            out.data<int64_t>()[i] = x.dim(i);
        else
            out.data<int32_t>()[i] = int32_t(x.dim(i));
    }
    ctx.setOutput(0, out);
}

} // namespace ps::kernels
