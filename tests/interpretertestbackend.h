#pragma once

// A tiny host backend for the interpreter tests: a handful of float/int kernels computed through
// doubles, independent of the real CPU kernels. TestBackend(true) has a pd_op.scale that is off
// by 1e-3 (the differential-mode test).

#include "core/ir/operation.h"
#include "core/runtime/allocator.h"
#include "core/runtime/backend.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <cmath>
#include <functional>

namespace testbackend {

inline std::vector<double> values(const ps::Tensor &t)
{
    return t.toDoubles();
}

inline void unary(ps::KernelContext &ctx, const std::function<double(double)> &fn)
{
    const ps::Tensor &x = ctx.input(0);
    std::vector<double> v = values(x);
    for (double &e : v)
        e = fn(e);
    ctx.setOutput(0, ps::Tensor::fromDoubles(x.shape(), x.dtype(), v));
}

/// Same shapes, or `y` with one element (broadcast).
inline void binary(ps::KernelContext &ctx, ps::DataType out, const std::function<double(double, double)> &fn)
{
    const ps::Tensor &x = ctx.input(0);
    const ps::Tensor &y = ctx.input(1);
    if (x.shape() != y.shape() && y.numElements() != 1)
        throw ps::RuntimeError("shapes differ: " + x.describe() + " and " + y.describe());
    std::vector<double> a = values(x), b = values(y);
    for (size_t i = 0; i < a.size(); ++i)
        a[i] = fn(a[i], b[b.size() == 1 ? 0 : i]);
    ctx.setOutput(0, ps::Tensor::fromDoubles(x.shape(), out == ps::DataType::Undefined ? x.dtype() : out, a));
}

inline void full(ps::KernelContext &ctx)
{
    const std::vector<int64_t> shape = ctx.intsAttr("shape");
    std::vector<double> v(size_t(ps::numElementsOf(shape)), ctx.floatAttr("value"));
    ctx.setOutput(0, ps::Tensor::fromDoubles(shape, ctx.dtypeAttr("dtype"), v));
}

inline void scale(ps::KernelContext &ctx)
{
    const double s = ctx.inputAsScalar(1);
    const double b = ctx.floatAttr("bias", 0.0);
    unary(ctx, [s, b](double x) { return x * s + b; });
}

inline void mean(ps::KernelContext &ctx)
{
    const std::vector<double> v = values(ctx.input(0));
    double sum = 0;
    for (double e : v)
        sum += e;
    const double m = sum / double(v.size());
    ctx.setOutput(0, ps::Tensor::fromDoubles({}, ctx.input(0).dtype(), std::span<const double>(&m, 1)));
}

class TestBackend final : public ps::Backend
{
public:
    explicit TestBackend(bool wrongScale = false)
        : m_wrongScale(wrongScale)
    {
        m_kernels.add("pd_op.full", full);
        m_kernels.add("pd_op.scale", wrongScale ? +[](ps::KernelContext &ctx) {
            const double s = ctx.inputAsScalar(1);
            const double b = ctx.floatAttr("bias", 0.0);
            unary(ctx, [s, b](double x) { return x * s + b + 1e-3; });
        }
                                                : scale);
        m_kernels.add("pd_op.mean", mean);
        m_kernels.add(
            "pd_op.log", [](ps::KernelContext &ctx) { unary(ctx, [](double x) { return std::log(x); }); });
        m_kernels.add("pd_op.add", [](ps::KernelContext &ctx) {
            binary(ctx, ps::DataType::Undefined, [](double a, double b) { return a + b; });
        });
        m_kernels.add("pd_op.multiply", [](ps::KernelContext &ctx) {
            binary(ctx, ps::DataType::Undefined, [](double a, double b) { return a * b; });
        });
        m_kernels.add("pd_op.less_than", [](ps::KernelContext &ctx) {
            binary(ctx, ps::DataType::Bool, [](double a, double b) { return a < b ? 1.0 : 0.0; });
        });
        m_kernels.add("pd_op.greater_than", [](ps::KernelContext &ctx) {
            binary(ctx, ps::DataType::Bool, [](double a, double b) { return a > b ? 1.0 : 0.0; });
        });
    }
    ps::Device device() const override { return ps::Device::cpu(); }
    std::string name() const override { return m_wrongScale ? "test backend (wrong scale)" : "test backend"; }
    ps::Allocator &allocator() override { return ps::cpuAllocator(); }
    const ps::KernelRegistry &kernels() const override { return m_kernels; }
    ps::Tensor toHost(const ps::Tensor &t) override { return t; }
    ps::Tensor toDevice(const ps::Tensor &t) override { return t; }
    ps::TensorStats stats(const ps::Tensor &t, int bins) override { return ps::computeStatsHost(t, bins); }

private:
    bool m_wrongScale;
    ps::KernelRegistry m_kernels;
};

} // namespace testbackend
