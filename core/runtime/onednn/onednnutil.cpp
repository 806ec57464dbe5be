#include "core/runtime/onednn/onednnutil.h"

#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/onednn/onednnengine.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <cmath>
#include <cstring>
#include <string_view>

namespace ps {

bool oneDnnFusedActivation(const std::string &name, float alpha, float beta, std::vector<OneDnnEltwise> &out)
{
    using a = dnnl::algorithm;
    if (name.empty())
        out = {};
    else if (name == "relu")
        out = { { a::eltwise_relu } };
    else if (name == "leaky_relu")
        out = { { a::eltwise_relu, alpha } };
    else if (name == "relu6")
        out = { { a::eltwise_clip, 0.0f, 6.0f } };
    else if (name == "clip")
        out = { { a::eltwise_clip, alpha, beta } };
    else if (name == "sigmoid")
        out = { { a::eltwise_logistic } };
    else if (name == "tanh")
        out = { { a::eltwise_tanh } };
    else if (name == "abs")
        out = { { a::eltwise_abs } };
    else if (name == "sqrt")
        out = { { a::eltwise_sqrt } };
    else if (name == "mish")
        out = { { a::eltwise_mish } };
    else if (name == "swish")
        out = { { a::eltwise_swish, alpha } };
    else if (name == "gelu" || name == "gelu_erf")
        out = { { a::eltwise_gelu_erf } };
    else if (name == "gelu_tanh")
        out = { { a::eltwise_gelu_tanh } };
    else if (name == "hard_swish" && std::abs(alpha - 1.0f / 6.0f) < 1e-6f && std::abs(beta - 0.5f) < 1e-6f)
        out = { { a::eltwise_hardswish } }; // oneDNN 2.6's has Paddle's fixed 1/6 and 1/2
    else if (name == "hard_sigmoid") // clip(alpha * x + beta, 0, 1)
        out = { { a::eltwise_linear, alpha, beta }, { a::eltwise_clip, 0.0f, 1.0f } };
    else
        return false;
    return true;
}

dnnl::primitive_attr userScratchpad()
{
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    return attr;
}

void runPlainKernel(KernelContext &ctx)
{
    const KernelFn plain = plainCpuKernels().find(ctx.opName());
    if (!plain)
        throw RuntimeError("no plain CPU kernel for " + std::string(ctx.opName()));
    plain(ctx);
}

bool isOneDnnFloat(const Tensor &t)
{
    return t.defined() && t.dtype() == DataType::Float32 && t.numElements() > 0;
}

dnnl::memory::dims dnnlDims(const std::vector<int64_t> &shape)
{
    return dnnl::memory::dims(shape.begin(), shape.end());
}

dnnl::memory::desc plainDesc(const std::vector<int64_t> &shape)
{
    dnnl::memory::dims strides(shape.size(), 1);
    for (size_t i = shape.size(); i-- > 1;)
        strides[i - 1] = strides[i] * shape[i];
    return dnnl::memory::desc(dnnlDims(shape), dnnl::memory::data_type::f32, strides);
}

dnnl::memory userMemory(const dnnl::memory::desc &desc, const Tensor &t)
{
    return dnnl::memory(desc, OneDnnEngine::instance().engine(), const_cast<void *>(t.rawData()));
}

dnnl::memory userMemory(const dnnl::memory::desc &desc, Tensor &t)
{
    return dnnl::memory(desc, OneDnnEngine::instance().engine(), t.rawData());
}

void rejectReference(const dnnl::primitive_desc_base &pd)
{
    if (std::string_view(pd.impl_info_str()).starts_with("ref"))
        throw dnnl::error(dnnl_unimplemented, "only oneDNN's reference implementation");
}

void appendKey(std::string &key, const std::vector<int64_t> &values)
{
    for (int64_t v : values) {
        key += std::to_string(v);
        key += ',';
    }
    key += '|';
}

void appendKey(std::string &key, double value)
{
    char bytes[sizeof(double)];
    std::memcpy(bytes, &value, sizeof(value));
    key.append(bytes, sizeof(bytes));
    key += '|';
}

} // namespace ps
