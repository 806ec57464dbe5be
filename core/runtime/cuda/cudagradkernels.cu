// The `*_grad` ops of elementwise, reduction, layout and embedding ops (matmul, conv, pool,
// norm and softmax grads live with their forward ops). Like the CPU oracle
// (cpugradbinarykernels.cpp, cpugradactivationkernels.cpp, cpugradreducekernels.cpp,
// cpugradshapekernels.cpp, cpugradindexkernels.cpp) every arithmetic grad computes in double
// and rounds once; broadcast dims are summed with cuda::sumToShape in double.

#include "core/runtime/cuda/cudadtype.cuh"
#include "core/runtime/cuda/cudaexec.cuh"
#include "core/runtime/cuda/cudakernels.h"
#include "core/runtime/cuda/cudaloops.cuh"
#include "core/runtime/cuda/cudaops.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/kernels/binarygradfunctors.h"
#include "core/runtime/kernels/indexingkernels.h"
#include "core/runtime/kernels/kernelargs.h"
#include "core/runtime/kernels/layoutgradkernels.h"

#include <algorithm>

PS_CUDA_NAMESPACE_BEGIN
namespace {

using namespace cuda;
using namespace kernels;
using Shape = std::vector<int64_t>;

/// Element strides of a contiguous `in` read through `out` (same rank; 0 where in has 1).
Shape strideThrough(const Shape &in, const Shape &out)
{
    Shape s = contiguousStrides(in);
    for (size_t d = 0; d < in.size(); ++d)
        if (in[d] != out[d])
            s[d] = 0;
    return s;
}

/// `grad` (shape `from`, double) summed down to `to` (same rank), cast to `dtype`, shaped `shape`.
Tensor reduceGrad(CudaRuntime &rt, const Tensor &grad, const Shape &from, const Shape &to, DataType dtype,
    const Shape &shape)
{
    const Tensor summed = sumToShape(rt, grad.reshaped(from), to);
    Tensor out = rt.allocate(shape, dtype);
    castInto(rt, summed, out);
    return out;
}

// ---- binary grads ----

using BinaryShapes = BinaryGradShapes;

template<class T, class Fn>
void binaryContributions(const CudaRuntime &rt, const BinaryShapes &b, const Tensor &x, const Tensor &y,
    const Tensor *out, const Tensor &g, double *dx, double *dy, Fn fn)
{
    IndexSpace<2> space;
    space.sizes = b.out;
    const Shape sx = strideThrough(b.x, b.out), sy = strideThrough(b.y, b.out);
    for (size_t d = 0; d < b.out.size(); ++d)
        space.strides.push_back({ sx[d], sy[d] });
    space.coalesce();
    const T *px = static_cast<const T *>(x.rawData());
    const T *py = static_cast<const T *>(y.rawData());
    const T *po = out ? static_cast<const T *>(out->rawData()) : nullptr;
    const T *pg = static_cast<const T *>(g.rawData());
    launchIndexed(
        rt, space,
        [=] __device__(int64_t i, Offsets<2> o) {
            double a, c;
            fn(double(loadElement(px[o.v[0]])), double(loadElement(py[o.v[1]])),
                po ? double(loadElement(po[i])) : 0.0, double(loadElement(pg[i])), a, c);
            if (dx)
                dx[i] = a;
            if (dy)
                dy[i] = c;
        },
        "binary grad");
}

/// Operands (x, y, [out,] out_grad); `Rule::kOutIndex` >= 0 names out's operand.
template<class Rule> void binaryGrad(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Rule fn(ctx);
    const char *what = Rule::kWhat;
    const int outIndex = Rule::kOutIndex;
    const size_t gradIndex = outIndex >= 0 ? 3 : 2;
    const Tensor x = deviceInput(ctx, 0), y = deviceInput(ctx, 1), g = deviceInput(ctx, gradIndex);
    Rule::kNumeric ? requireNumeric(g, what) : requireFloating(g, what);
    if (x.dtype() != g.dtype() || y.dtype() != g.dtype())
        throw RuntimeError(std::string(what) + ": x " + x.describe() + ", y " + y.describe()
            + " and out_grad " + g.describe() + " differ in dtype");
    const BinaryShapes b = binaryGradShapes(ctx, x, y, g);
    const Tensor out
        = outIndex >= 0 && ctx.hasInput(size_t(outIndex)) ? deviceInput(ctx, size_t(outIndex)) : Tensor();
    const bool wantX = wanted(ctx, 0), wantY = wanted(ctx, 1);
    Tensor dx = wantX ? rt.allocate(b.out, DataType::Float64) : Tensor();
    Tensor dy = wantY ? rt.allocate(b.out, DataType::Float64) : Tensor();
    cuda::dispatchArithmetic(g.dtype(), what, [&](auto tag) {
        binaryContributions<decltype(tag)>(rt, b, x, y, out.defined() ? &out : nullptr, g,
            wantX ? static_cast<double *>(dx.rawData()) : nullptr,
            wantY ? static_cast<double *>(dy.rawData()) : nullptr, fn);
    });
    if (wantX)
        ctx.setOutput(0, reduceGrad(rt, dx, b.out, b.x, x.dtype(), x.shape()));
    if (wantY)
        ctx.setOutput(1, reduceGrad(rt, dy, b.out, b.y, y.dtype(), y.shape()));
}

/// add_grad / subtract_grad: only shapes matter; dy of subtract is negated.
void addLikeGrad(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const bool subtract = ctx.opName() == "pd_op.subtract_grad";
    const Tensor x = deviceInput(ctx, 0), y = deviceInput(ctx, 1), g = deviceInput(ctx, 2);
    requireNumeric(g, subtract ? "subtract_grad" : "add_grad");
    const BinaryShapes b = binaryGradShapes(ctx, x, y, g);
    const Tensor gAligned = g.reshaped(b.out);
    if (wanted(ctx, 0))
        ctx.setOutput(0, reduceGrad(rt, gAligned, b.out, b.x, x.dtype(), x.shape()));
    if (wanted(ctx, 1)) {
        Tensor dy = reduceGrad(rt, gAligned, b.out, b.y, y.dtype(), y.shape());
        if (subtract) {
            Tensor minusOne = rt.allocate({}, dy.dtype());
            fill(rt, minusOne, -1.0);
            dy = binary(rt, BinaryOp::Multiply, dy, minusOne);
        }
        ctx.setOutput(1, dy);
    }
}

template<class T>
void whereContributions(const CudaRuntime &rt, const Shape &out, const Shape &cs, const Tensor &cond,
    const Tensor &g, double *dx, double *dy)
{
    IndexSpace<1> space;
    space.sizes = out;
    for (int64_t s : strideThrough(cs, out))
        space.strides.push_back({ s });
    space.coalesce();
    const bool *pc = static_cast<const bool *>(cond.rawData());
    const T *pg = static_cast<const T *>(g.rawData());
    launchIndexed(
        rt, space,
        [=] __device__(int64_t i, Offsets<1> o) {
            const bool take = pc[o.v[0]];
            const double gv = loadElement(pg[i]);
            dx[i] = take ? gv : 0.0;
            dy[i] = take ? 0.0 : gv;
        },
        "where_grad");
}

void whereGrad(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor cond = cast(rt, deviceInput(ctx, 0), DataType::Bool), x = deviceInput(ctx, 1),
                 y = deviceInput(ctx, 2), g = deviceInput(ctx, 3);
    requireNumeric(g, "where_grad");
    const size_t rank = std::max({ cond.rank(), x.rank(), y.rank(), g.rank() });
    const Shape out = alignShape(g.shape(), rank), cs = alignShape(cond.shape(), rank);
    Tensor dx = rt.allocate(out, DataType::Float64), dy = rt.allocate(out, DataType::Float64);
    cuda::dispatchArithmetic(g.dtype(), "where_grad", [&](auto tag) {
        whereContributions<decltype(tag)>(
            rt, out, cs, cond, g, static_cast<double *>(dx.rawData()), static_cast<double *>(dy.rawData()));
    });
    if (wanted(ctx, 0))
        ctx.setOutput(0, reduceGrad(rt, dx, out, alignShape(x.shape(), rank), x.dtype(), x.shape()));
    if (wanted(ctx, 1))
        ctx.setOutput(1, reduceGrad(rt, dy, out, alignShape(y.shape(), rank), y.dtype(), y.shape()));
}

// ---- reduction grads ----

/// The dims a reduction grad's op reduced: its axis operand (or attribute) and reduce_all.
std::vector<bool> reducedDimsOf(const KernelContext &ctx, size_t axisOperand, int64_t rank, const char *what)
{
    const Shape axes
        = ctx.hasInput(axisOperand) ? ctx.inputAsInts(axisOperand) : ctx.intsAttr("axis", Shape {});
    return reducedDims(axes, rank, ctx.boolAttr("reduce_all", false), what);
}

template<class T>
void broadcastScaled(const CudaRuntime &rt, const Tensor &g, const Shape &kept, Tensor &dx, double factor)
{
    const T *pg = static_cast<const T *>(g.rawData());
    T *pd = static_cast<T *>(dx.rawData());
    IndexSpace<1> space;
    space.sizes = dx.shape();
    for (int64_t s : strideThrough(kept, dx.shape()))
        space.strides.push_back({ s });
    space.coalesce();
    launchIndexed(
        rt, space,
        [=] __device__(
            int64_t i, Offsets<1> o) { pd[i] = storeElement<T>(double(loadElement(pg[o.v[0]])) * factor); },
        "reduce grad");
}

/// sum_grad / mean_grad (x, out_grad, axis): out_grad broadcast back (divided by the count).
void sumMeanGrad(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const bool mean = ctx.opName() == "pd_op.mean_grad";
    const char *what = mean ? "mean_grad" : "sum_grad";
    const Tensor &x = ctx.input(0);
    const Tensor g = deviceInput(ctx, 1);
    requireNumeric(g, what);
    const Shape kept = keptShape(x.shape(), reducedDimsOf(ctx, 2, int64_t(x.rank()), what));
    if (numElementsOf(kept) != g.numElements())
        throw RuntimeError(std::string(what) + ": out_grad " + g.describe()
            + " does not match the reduction of " + x.describe());
    const int64_t outCount = numElementsOf(kept), count = outCount == 0 ? 0 : x.numElements() / outCount;
    const double factor = mean ? 1.0 / double(std::max<int64_t>(count, 1)) : 1.0;
    Tensor dx = ctx.allocate(x.shape(), g.dtype());
    cuda::dispatchArithmetic(
        g.dtype(), what, [&](auto tag) { broadcastScaled<decltype(tag)>(rt, g, kept, dx, factor); });
    ctx.setOutput(0, dx);
}

void meanAllGrad(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor &x = ctx.input(0);
    const Tensor g = deviceInput(ctx, 1);
    requireFloating(g, "mean_all_grad");
    if (g.numElements() != 1)
        throw RuntimeError("mean_all_grad: out_grad must hold one element, got " + g.describe());
    Tensor dx = ctx.allocate(x.shape(), g.dtype());
    const double factor = x.numElements() ? 1.0 / double(x.numElements()) : 0.0;
    cuda::dispatchFloating(g.dtype(), "mean_all_grad", [&](auto tag) {
        broadcastScaled<decltype(tag)>(rt, g.reshaped(Shape(x.rank(), 1)), Shape(x.rank(), 1), dx, factor);
    });
    ctx.setOutput(0, dx);
}

template<class T>
void extremumTies(const CudaRuntime &rt, const Tensor &x, const Tensor &out, const Shape &kept, double *eq)
{
    const T *px = static_cast<const T *>(x.rawData());
    const T *po = static_cast<const T *>(out.rawData());
    IndexSpace<1> space;
    space.sizes = x.shape();
    for (int64_t s : strideThrough(kept, x.shape()))
        space.strides.push_back({ s });
    space.coalesce();
    launchIndexed(
        rt, space,
        [=] __device__(int64_t i, Offsets<1> o) {
            eq[i] = double(loadElement(px[i])) == double(loadElement(po[o.v[0]])) ? 1.0 : 0.0;
        },
        "max_grad");
}

template<class T>
void extremumShare(const CudaRuntime &rt, const double *eq, const double *ties, const Tensor &g,
    const Shape &kept, Tensor &dx)
{
    const T *pg = static_cast<const T *>(g.rawData());
    T *pd = static_cast<T *>(dx.rawData());
    IndexSpace<1> space;
    space.sizes = dx.shape();
    for (int64_t s : strideThrough(kept, dx.shape()))
        space.strides.push_back({ s });
    space.coalesce();
    launchIndexed(
        rt, space,
        [=] __device__(int64_t i, Offsets<1> o) {
            pd[i] = storeElement<T>(eq[i] != 0.0 ? double(loadElement(pg[o.v[0]])) / ties[o.v[0]] : 0.0);
        },
        "max_grad");
}

/// max/min/amax/amin grads (x, out, out_grad, axis): shared evenly by the elements equal to out.
void extremumGrad(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0), out = deviceInput(ctx, 1), g = deviceInput(ctx, 2);
    requireNumeric(g, "max_grad");
    const std::vector<bool> reduced = reducedDimsOf(ctx, 3, int64_t(x.rank()), "max_grad");
    const Shape kept = keptShape(x.shape(), reduced);
    if (numElementsOf(kept) != g.numElements() || out.numElements() != g.numElements()
        || x.dtype() != out.dtype())
        throw RuntimeError("max_grad: out " + out.describe() + " / out_grad " + g.describe()
            + " do not match the reduction of " + x.describe());
    Tensor eq = rt.allocate(x.shape(), DataType::Float64);
    Tensor ties = rt.allocate(kept, DataType::Float64);
    Tensor dx = ctx.allocate(x.shape(), g.dtype());
    cuda::dispatchArithmetic(x.dtype(), "max_grad", [&](auto tag) {
        extremumTies<decltype(tag)>(rt, x, out, kept, static_cast<double *>(eq.rawData()));
    });
    reduceInto(rt, eq, reduced, ReduceOp::Sum, ties);
    cuda::dispatchArithmetic(g.dtype(), "max_grad", [&](auto tag) {
        extremumShare<decltype(tag)>(rt, static_cast<const double *>(eq.rawData()),
            static_cast<const double *>(ties.rawData()), g, kept, dx);
    });
    ctx.setOutput(0, dx);
}

template<class T>
void prodShare(
    const CudaRuntime &rt, const Tensor &x, const Tensor &out, const Tensor &g, const Shape &kept, Tensor &dx)
{
    const T *px = static_cast<const T *>(x.rawData());
    const T *po = static_cast<const T *>(out.rawData());
    const T *pg = static_cast<const T *>(g.rawData());
    T *pd = static_cast<T *>(dx.rawData());
    IndexSpace<1> space;
    space.sizes = x.shape();
    for (int64_t s : strideThrough(kept, x.shape()))
        space.strides.push_back({ s });
    space.coalesce();
    launchIndexed(
        rt, space,
        [=] __device__(int64_t i, Offsets<1> o) {
            pd[i] = storeElement<T>(double(loadElement(pg[o.v[0]])) * double(loadElement(po[o.v[0]]))
                / double(loadElement(px[i])));
        },
        "prod_grad");
}

/// prod_grad (x, out, out_grad, axis): out_grad * out / x, as Paddle's ProdGradFunctor (an x of
/// 0 gives 0 / 0 = NaN, as in Paddle and the CPU oracle).
void prodGrad(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const Tensor x = deviceInput(ctx, 0), out = deviceInput(ctx, 1), g = deviceInput(ctx, 2);
    requireNumeric(g, "prod_grad");
    const Shape kept = keptShape(x.shape(), reducedDimsOf(ctx, 3, int64_t(x.rank()), "prod_grad"));
    if (numElementsOf(kept) != g.numElements() || out.numElements() != g.numElements()
        || x.dtype() != g.dtype() || out.dtype() != g.dtype())
        throw RuntimeError("prod_grad: out " + out.describe() + " / out_grad " + g.describe()
            + " do not match the reduction of " + x.describe());
    Tensor dx = ctx.allocate(x.shape(), g.dtype());
    cuda::dispatchArithmetic(
        g.dtype(), "prod_grad", [&](auto tag) { prodShare<decltype(tag)>(rt, x, out, g, kept, dx); });
    ctx.setOutput(0, dx);
}

// ---- layout grads ----

template<class I, class T>
void embeddingScatter(const CudaRuntime &rt, const Tensor &ids, const Tensor &g, double *dw, int64_t vocab,
    int64_t width, int64_t padding)
{
    const I *pi = static_cast<const I *>(ids.rawData());
    const T *pg = static_cast<const T *>(g.rawData());
    volatile KernelFault *err = rt.fault;
    launchFlat(
        rt, g.numElements(),
        [=] __device__(int64_t i) {
            const int64_t row = i / width, col = i - row * width, id = int64_t(pi[row]);
            if (padding != -1 && id == padding)
                return;
            if (id < 0 || id >= vocab) {
                raiseFault(err, KernelFaultCode::IdOutOfRange, id, vocab);
                return;
            }
            atomicAdd(dw + id * width + col, double(loadElement(pg[i])));
        },
        "embedding_grad");
}

/// embedding_grad (ids, weight, out_grad): rows of out_grad added into the weight gradient in
/// double (atomics: duplicate ids sum in any order), rounded once.
void embeddingGrad(KernelContext &ctx)
{
    CudaRuntime &rt = cudaRuntime(ctx);
    const char *what = "embedding_grad";
    const Tensor ids = deviceInput(ctx, 0), g = deviceInput(ctx, 2);
    const Tensor &w = ctx.input(1);
    requireFloating(g, what);
    if (w.rank() != 2)
        throw RuntimeError(std::string(what) + ": weight must be 2-D, got " + w.describe());
    const int64_t vocab = w.dim(0), width = w.dim(1);
    if (g.numElements() != ids.numElements() * width)
        throw RuntimeError(std::string(what) + ": out_grad " + g.describe() + " does not match ids "
            + ids.describe() + " and weight " + w.describe());
    Tensor dw = rt.allocate(w.shape(), DataType::Float64);
    fill(rt, dw, 0.0);
    const int64_t padding = ctx.intAttr("padding_idx", -1);
    ps::dispatchIndex(ids.dtype(), what, [&](auto itag) {
        cuda::dispatchFloating(g.dtype(), what, [&](auto tag) {
            embeddingScatter<decltype(itag), decltype(tag)>(
                rt, ids, g, static_cast<double *>(dw.rawData()), vocab, width, padding);
        });
    });
    Tensor out = ctx.allocate(w.shape(), w.dtype());
    castInto(rt, dw, out);
    ctx.setOutput(0, out);
}

} // namespace

void registerCudaGradKernels(KernelRegistry &registry)
{
    registry.add("pd_op.add_grad", &addLikeGrad);
    registry.add("pd_op.subtract_grad", &addLikeGrad);
    registry.add("pd_op.multiply_grad", &binaryGrad<MultiplyGrad>);
    registry.add("pd_op.divide_grad", &binaryGrad<DivideGrad>);
    registry.add("pd_op.maximum_grad", &binaryGrad<MaximumGrad>);
    registry.add("pd_op.minimum_grad", &binaryGrad<MinimumGrad>);
    registry.add("pd_op.elementwise_pow_grad", &binaryGrad<ElementwisePowGrad>);
    registry.add("pd_op.where_grad", &whereGrad);
    registry.add("pd_op.sum_grad", &sumMeanGrad);
    registry.add("pd_op.mean_grad", &sumMeanGrad);
    registry.add("pd_op.mean_all_grad", &meanAllGrad);
    for (const char *name : { "pd_op.max_grad", "pd_op.min_grad", "pd_op.amax_grad", "pd_op.amin_grad" })
        registry.add(name, &extremumGrad);

    kernels::registerLayoutGradKernels<CudaExec>(registry);
    kernels::registerIndexingGradKernels<CudaExec>(registry);
    registry.add("pd_op.prod_grad", &prodGrad);
    registry.add("pd_op.embedding_grad", &embeddingGrad);
}

PS_CUDA_NAMESPACE_END
