#include "core/io/paddlerunlog.h"

#include "core/io/inputfile.h"

#include <algorithm>
#include <charconv>
#include <filesystem>

namespace ps {

namespace {

constexpr std::string_view kTag = "[PRECISION]";
constexpr std::string_view kInnerVar = "_inner_var_";

bool parseInt(std::string_view text, int64_t &out)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size() && out >= 0;
}

/// Paddle prints with `%e`: "2.14e+00", "inf", "-inf", "nan", "-nan".
bool parseDouble(std::string_view text, double &out)
{
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && end == text.data() + text.size();
}

/// Reads one record from `line` (which holds kTag at `tag`); "" on success, else what is wrong
/// and `column` (1-based) where.
std::string parseRecord(std::string_view line, size_t tag, PaddleRunLogRecord &r, int &column)
{
    size_t pos = tag + kTag.size();
    auto fail = [&](size_t at, std::string message) {
        column = int(std::min(at, line.size())) + 1;
        return message;
    };
    auto skip = [&](std::string_view word) {
        if (line.substr(pos, word.size()) != word)
            return false;
        pos += word.size();
        return true;
    };
    if (skip(" [ERROR]"))
        r.error = true;
    if (!skip(" in ["))
        return fail(pos, "expected ` in [` after [PRECISION]");
    const size_t close = line.find(']', pos);
    if (close == std::string_view::npos)
        return fail(
            line.size(), "record cut off: no `]` closing [device=..., op=..., tensor=..., dtype=...]");
    bool device = false, op = false, tensor = false, dtype = false;
    // The bracket: "device=cpu, op=matmul, tensor=middle_0, dtype=fp32". A tensor name never holds ", ".
    for (size_t at = pos; at < close;) {
        size_t end = line.find(", ", at);
        if (end == std::string_view::npos || end > close)
            end = close;
        const std::string_view field = line.substr(at, end - at);
        const size_t eq = field.find('=');
        if (eq == std::string_view::npos)
            return fail(at, "expected key=value in the record's [...], got `" + std::string(field) + "`");
        const std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
        if (key == "device")
            r.device = value, device = true;
        else if (key == "op")
            r.op = value, op = true;
        else if (key == "tensor")
            r.tensor = value, tensor = true;
        else if (key == "dtype")
            r.dtype = value, dtype = true;
        at = end + 2;
    }
    if (!device || !op || !tensor || !dtype)
        return fail(pos,
            std::string("the record's [...] lacks `")
                + (!device        ? "device"
                        : !op     ? "op"
                        : !tensor ? "tensor"
                                  : "dtype")
                + "=`");
    pos = close + 1;
    bool numel = false, max = false, min = false, mean = false;
    while (pos < line.size()) {
        if (!skip(", "))
            return fail(pos, "expected `, ` between the record's statistics");
        size_t end = line.find(", ", pos);
        if (end == std::string_view::npos)
            end = line.size();
        const std::string_view field = line.substr(pos, end - pos);
        const size_t eq = field.find('=');
        if (eq == std::string_view::npos && end == line.size())
            return fail(
                pos, "record cut off after `" + std::string(line.substr(close + 3, pos - close - 3)) + "`");
        if (eq == std::string_view::npos)
            return fail(pos, "expected key=value, got `" + std::string(field) + "`");
        const std::string_view key = field.substr(0, eq), value = field.substr(eq + 1);
        const size_t valueAt = pos + eq + 1;
        bool ok = true;
        if (key == "numel")
            ok = parseInt(value, r.stats.numel), numel = true;
        else if (key == "num_nan")
            ok = parseInt(value, r.stats.numNan);
        else if (key == "num_inf")
            ok = parseInt(value, r.stats.numInf);
        else if (key == "num_zero")
            ok = parseInt(value, r.stats.numZero);
        else if (key == "max")
            ok = parseDouble(value, r.stats.max), max = true;
        else if (key == "min")
            ok = parseDouble(value, r.stats.min), min = true;
        else if (key == "mean")
            ok = parseDouble(value, r.stats.mean), mean = true;
        if (!ok)
            return fail(valueAt, "`" + std::string(key) + "=" + std::string(value) + "` is not a number");
        pos = end;
    }
    if (!numel || !max || !min || !mean)
        return fail(line.size(),
            std::string("record cut off: no `")
                + (!numel      ? "numel"
                        : !max ? "max"
                        : !min ? "min"
                               : "mean")
                + "=`");
    return {};
}

void indexFile(PaddleRunLog &log, uint32_t fileIndex)
{
    const MappedFile &file = *log.files[fileIndex];
    const std::string_view text = file.bytes();
    log.bytes += text.size();
    int lineNumber = 0;
    for (size_t begin = 0; begin < text.size();) {
        size_t end = text.find('\n', begin);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(begin, end - begin);
        begin = end + 1;
        ++lineNumber;
        ++log.lines;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        const size_t tag = line.find(kTag);
        if (tag == std::string_view::npos) {
            ++log.otherLines;
            continue;
        }
        PaddleRunLogRecord record;
        record.file = fileIndex;
        record.line = lineNumber;
        int column = 0;
        const std::string problem = parseRecord(line, tag, record, column);
        if (!problem.empty()) {
            log.diagnostics.error({ file.path(), lineNumber, column, {}, -1 }, problem);
            continue;
        }
        log.records.push_back(record);
    }
}

} // namespace

std::string_view PaddleRunLogRecord::innerPrefix() const
{
    const size_t at = tensor.rfind(kInnerVar);
    return at == std::string_view::npos ? std::string_view() : tensor.substr(0, at);
}

std::optional<int64_t> PaddleRunLogRecord::innerIndex() const
{
    const size_t at = tensor.rfind(kInnerVar);
    int64_t index = 0;
    if (at == std::string_view::npos || !parseInt(tensor.substr(at + kInnerVar.size()), index))
        return std::nullopt;
    return index;
}

std::shared_ptr<const PaddleRunLog> PaddleRunLog::fromFiles(
    std::string path, std::vector<std::shared_ptr<const MappedFile>> files)
{
    auto log = std::make_shared<PaddleRunLog>();
    log->path = std::move(path);
    log->files = std::move(files);
    for (uint32_t i = 0; i < log->files.size(); ++i)
        indexFile(*log, i);
    return log;
}

std::shared_ptr<const PaddleRunLog> PaddleRunLog::open(const std::string &path, DiagnosticList &diagnostics)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    std::vector<std::string> paths;
    if (fs::is_directory(path, ec)) {
        for (const fs::directory_entry &e : fs::directory_iterator(path, ec))
            if (e.path().filename().string().rfind("worker_", 0) == 0 && e.is_regular_file(ec))
                paths.push_back(e.path().string());
        std::sort(paths.begin(), paths.end());
        if (paths.empty()) {
            diagnostics.error({ path, 0, 0, {}, -1 },
                "no worker_* files in this folder (paddle.base.core.set_nan_inf_debug_path writes "
                "worker_cpu, worker_gpu.0, ...)");
            return nullptr;
        }
    } else {
        paths.push_back(path);
    }
    std::vector<std::shared_ptr<const MappedFile>> files;
    for (const std::string &p : paths) {
        std::string error;
        auto file = MappedFile::open(p, error);
        if (!file) {
            diagnostics.error({ p, 0, 0, {}, -1 }, error);
            return nullptr;
        }
        files.push_back(std::move(file));
    }
    auto log = fromFiles(path, std::move(files));
    if (log->records.empty() && !log->diagnostics.hasErrors())
        diagnostics.error({ path, 0, 0, {}, -1 },
            "no [PRECISION] records: not a Paddle run log (run with FLAGS_check_nan_inf=1 "
            "FLAGS_check_nan_inf_level=3)");
    return log;
}

bool PaddleRunLog::looksLikeRunLog(std::string_view head)
{
    head = head.substr(0, 64 * 1024);
    for (size_t at = head.find(kTag); at != std::string_view::npos; at = head.find(kTag, at + 1)) {
        const std::string_view rest = head.substr(at + kTag.size());
        if (rest.rfind(" in [device=", 0) == 0 || rest.rfind(" [ERROR] in [device=", 0) == 0)
            return true;
    }
    return false;
}

bool PaddleRunLog::looksLikeRunLogPath(const std::string &path)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    std::string file = path;
    if (fs::is_directory(path, ec)) {
        file.clear();
        for (const fs::directory_entry &e : fs::directory_iterator(path, ec)) {
            const std::string p = e.path().string();
            if (e.path().filename().string().rfind("worker_", 0) == 0 && (file.empty() || p < file))
                file = p;
        }
        if (file.empty())
            return false;
    }
    std::string error;
    std::optional<InputFile> input = InputFile::open(file, error);
    if (!input)
        return false;
    std::string head(size_t(std::min<uint64_t>(input->size(), 64 * 1024)), '\0');
    return input->read(head.data(), head.size(), error) && looksLikeRunLog(head);
}

std::string PaddleRunLog::where(const PaddleRunLogRecord &record) const
{
    return files[record.file]->path() + ":" + std::to_string(record.line);
}

} // namespace ps
