// libFuzzer target for trace-bundle manifests: no input may crash, hang or leak; a refused
// manifest always says why.
#include "core/io/tracebundle.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view json(reinterpret_cast<const char *>(data), size);
    ps::DiagnosticList diagnostics;
    const auto bundle = ps::TraceBundle::fromManifestText(json, "fuzz/manifest.json", diagnostics);
    if (!bundle && !diagnostics.hasErrors())
        __builtin_trap();
    if (bundle)
        (void)bundle->outputStructure();
    return 0;
}
