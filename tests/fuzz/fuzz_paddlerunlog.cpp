// libFuzzer target for the Paddle run-log reader (FLAGS_check_nan_inf_level=3 records): no input
// may crash, hang or leak; every record it keeps points into the file and names a line of it, and
// every unreadable record line is reported with its line.
#include "core/io/mappedfile.h"
#include "core/io/paddlerunlog.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string bytes(reinterpret_cast<const char *>(data), size);
    const auto log
        = ps::PaddleRunLog::fromFiles("fuzz.log", { ps::MappedFile::fromString(bytes, "fuzz.log") });
    const std::string_view text = log->files[0]->bytes();
    auto inside = [&](std::string_view v) {
        return v.empty() || (v.data() >= text.data() && v.data() + v.size() <= text.data() + text.size());
    };
    for (const ps::PaddleRunLogRecord &r : log->records) {
        if (r.line < 1 || size_t(r.line) > log->lines || !inside(r.op) || !inside(r.tensor)
            || !inside(r.device) || !inside(r.dtype) || r.stats.numel < 0)
            __builtin_trap();
        (void)r.innerIndex();
        (void)r.innerPrefix();
    }
    for (const ps::Diagnostic &d : log->diagnostics.items())
        if (d.location.line < 1 || d.location.column < 1)
            __builtin_trap();
    if (log->records.size() + log->diagnostics.size() + log->otherLines != log->lines)
        __builtin_trap();
    (void)ps::PaddleRunLog::looksLikeRunLog(bytes);
    return 0;
}
