#include "core/runtime/backend.h"

#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <cstring>

namespace ps {

void Backend::copy(const Tensor &src, Tensor &dst)
{
    if (src.byteSize() != dst.byteSize())
        throw RuntimeError("copy of " + src.describe() + " into " + dst.describe());
    if (!src.device().isCpu() || !dst.device().isCpu())
        throw RuntimeError(name() + " cannot copy " + src.device().name() + " to " + dst.device().name());
    if (src.byteSize() > 0 && src.rawData() != dst.rawData())
        std::memmove(dst.rawData(), src.rawData(), src.byteSize());
}

void Backend::fillBytes(Tensor &t, unsigned char byte)
{
    if (!t.device().isCpu())
        throw RuntimeError(name() + " cannot fill a " + t.device().name() + " tensor");
    if (t.byteSize() > 0)
        std::memset(t.rawData(), byte, t.byteSize());
}

} // namespace ps
