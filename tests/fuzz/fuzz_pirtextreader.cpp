// libFuzzer target for PirTextReader: no input may crash, hang or leak, and whatever is read
// must print, and print → read → print must reproduce the same bytes in every generation.
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    ps::LoadResult result = ps::PirTextReader::readString(text, "fuzz");
    if (!result.program)
        return 0;
    for (ps::Generation gen : { ps::Generation::C, ps::Generation::B, ps::Generation::A }) {
        const std::string first = ps::PirPrinter::toString(*result.program, gen);
        ps::LoadResult again = ps::PirTextReader::readString(first, "fuzz-reprint");
        const std::string second
            = again.program ? ps::PirPrinter::toString(*again.program, gen) : std::string();
        if (second != first) {
            std::fprintf(stderr,
                "print/read/print is not a fixed point (generation %d)\n--- first\n%s\n--- second\n%s\n",
                int(gen), first.c_str(), second.c_str());
            __builtin_trap();
        }
    }
    return 0;
}
