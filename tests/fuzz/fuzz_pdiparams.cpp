// libFuzzer target for the .pdiparams reader: no input may crash, hang, leak or allocate more
// than the buffer can hold; every failure names a byte offset.
#include "core/io/memorybudget.h"
#include "core/runtime/pdiparams.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ps::MemoryBudget::setLimit(uint64_t(64) << 20);
    const std::string_view bytes(reinterpret_cast<const char *>(data), size);
    std::string error;
    const std::vector<ps::Pdiparams::Entry> entries
        = ps::Pdiparams::readBuffer(bytes, "fuzz", nullptr, error);
    if (!error.empty() && error.find(": byte ") == std::string::npos)
        __builtin_trap();
    if (error.empty()) {
        std::vector<ps::Tensor> tensors;
        for (const auto &e : entries)
            tensors.push_back(e.tensor);
        const std::string again = ps::Pdiparams::toBuffer(tensors);
        const auto reread = ps::Pdiparams::readBuffer(again, "again", nullptr, error);
        if (!error.empty() || reread.size() != entries.size())
            __builtin_trap();
    }
    return 0;
}
