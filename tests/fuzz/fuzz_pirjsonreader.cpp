// libFuzzer entry point for PirJsonReader. Besides "never crash, never hang, no sanitizer
// report", it checks that writing is idempotent on whatever the reader accepts:
// write(read(write(read(input)))) == write(read(input)) and the second read succeeds.
//
//   ./fuzz_pirjsonreader -dict=tests/fuzz/pirjson.dict -max_len=8192 corpus/

#include "core/analysis/programequality.h"
#include "core/io/pirjsonreader.h"
#include "core/io/pirjsonwriter.h"
#include "core/ir/block.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

[[noreturn]] void fail(const char *what, const std::string &detail)
{
    std::fprintf(stderr, "fuzz_pirjsonreader: %s\n%s\n", what, detail.c_str());
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view input(reinterpret_cast<const char *>(data), size);
    const ps::LoadResult first = ps::PirJsonReader::readString(input, "fuzz.json");
    if (!first.ok()) {
        if (!first.diagnostics.hasErrors())
            fail("a failed read reported no error", first.diagnostics.toString());
        return 0;
    }
    const std::string written = ps::PirJsonWriter::write(*first.program);
    const ps::LoadResult second = ps::PirJsonReader::readString(written, "written.json");
    if (!second.ok())
        fail("the writer's output does not read back", second.diagnostics.toString() + "\n" + written);
    const std::string rewritten = ps::PirJsonWriter::write(*second.program);
    if (rewritten != written)
        fail("writing is not idempotent", written + "\n" + rewritten);
    std::string difference;
    const ps::LoadResult third = ps::PirJsonReader::readString(rewritten, "rewritten.json");
    if (!third.ok() || !ps::programsEqual(*second.program, *third.program, &difference))
        fail("re-read program differs", difference);
    return 0;
}
