// libFuzzer target for the .npy reader: no input may crash, hang, leak or allocate more than the
// file can hold (the budget is small: an input claiming gigabytes must be refused from its size).
#include "core/io/memorybudget.h"
#include "core/io/npyheader.h"
#include "core/runtime/npyio.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ps::MemoryBudget::setLimit(uint64_t(64) << 20);
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    std::string error;
    const ps::Tensor t = ps::NpyIO::readBuffer(bytes, "fuzz.npy", error);
    if (t.defined()) {
        // What was read writes back to the same header fields and data.
        const std::string again = ps::NpyIO::toBuffer(t);
        const ps::Tensor u = ps::NpyIO::readBuffer(again, "again.npy", error);
        if (!u.defined() || u.shape() != t.shape() || u.dtype() != t.dtype() || u.byteSize() != t.byteSize())
            __builtin_trap();
    } else if (error.empty()) {
        __builtin_trap();
    }
    return 0;
}
