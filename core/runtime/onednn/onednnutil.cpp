#include "core/runtime/onednn/onednnutil.h"

#include "core/runtime/cpu/cpukernels.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/onednn/onednnengine.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <cstring>
#include <string_view>

namespace ps {

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
