#include "core/runtime/cpu/cpuexec.h"

#include "core/runtime/cpu/cpugradhelpers.h"
#include "core/runtime/cpu/cpushapecopy.h"
#include "core/runtime/runtimeerror.h"

#include <cstring>

namespace ps {

void CpuExec::raiseFaults(std::string_view what)
{
    const uint32_t code = m_fault.code;
    if (code == 0)
        return;
    m_fault.code = 0;
    throw RuntimeError(std::string(what) + ": " + faultMessage(code, m_fault.value, m_fault.limit));
}

void CpuExec::copy(Tensor &dst, const Tensor &src) const
{
    if (dst.byteSize() != src.byteSize())
        throw RuntimeError("copy of " + src.describe() + " into " + dst.describe());
    if (src.byteSize() > 0 && dst.rawData() != src.rawData())
        std::memmove(dst.rawData(), src.rawData(), src.byteSize());
}

void CpuExec::gather(const Tensor &src, Tensor &dst, const StridedView &view) const
{
    cpuew::gatherStrided(src.rawData(), view, dst.rawData(), src.elementSize());
}

void CpuExec::scatter(const Tensor &src, Tensor &dst, const StridedView &view) const
{
    cpuew::scatterStrided(src.rawData(), dst.rawData(), view, dst.elementSize());
}

void CpuExec::zero(Tensor &t) const
{
    if (t.byteSize() > 0)
        std::memset(t.rawData(), 0, t.byteSize());
}

Tensor CpuExec::sumTo(const Tensor &g, const std::vector<int64_t> &to, DataType dtype) const
{
    return cpugrad::makeTensor(m_ctx, to, dtype, cpugrad::sumToShape(cpugrad::values(g), g.shape(), to));
}

} // namespace ps
