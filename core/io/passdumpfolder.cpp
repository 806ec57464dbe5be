#include "core/io/passdumpfolder.h"

#include "core/io/inputfile.h"
#include "core/io/paddlepasslog.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace ps {

namespace {

namespace fs = std::filesystem;

/// What a file name says: "03_after_conv2d_bn_fuse_pass.txt" → {after, "conv2d_bn_fuse_pass"}.
struct DumpName
{
    enum class Role { Before, After, Input } role = Role::After;
    std::string pass;
};

DumpName parseName(std::string stem, bool first)
{
    size_t k = 0;
    while (k < stem.size()
        && (std::isdigit(static_cast<unsigned char>(stem[k])) || stem[k] == '_' || stem[k] == '-'
            || stem[k] == '.' || stem[k] == ' '))
        ++k;
    stem = stem.substr(k);
    DumpName name;
    for (const char *prefix : { "before_", "before-", "before." }) {
        if (stem.rfind(prefix, 0) == 0)
            return { DumpName::Role::Before, stem.substr(7) };
    }
    for (const char *prefix : { "after_", "after-", "after." }) {
        if (stem.rfind(prefix, 0) == 0)
            return { DumpName::Role::After, stem.substr(6) };
    }
    for (const char *suffix : { ".before", "_before" }) {
        if (stem.size() > 7 && stem.compare(stem.size() - 7, 7, suffix) == 0)
            return { DumpName::Role::Before, stem.substr(0, stem.size() - 7) };
    }
    for (const char *suffix : { ".after", "_after" }) {
        if (stem.size() > 6 && stem.compare(stem.size() - 6, 6, suffix) == 0)
            return { DumpName::Role::After, stem.substr(0, stem.size() - 6) };
    }
    name.role = first ? DumpName::Role::Input : DumpName::Role::After;
    name.pass = stem.empty() ? std::string("program") : stem;
    return name;
}

bool hasProgram(std::string_view text)
{
    return text.find('{') != std::string_view::npos || text.find("(%") != std::string_view::npos;
}

} // namespace

bool PassDumpFolder::naturalLess(const std::string &a, const std::string &b)
{
    size_t i = 0;
    size_t j = 0;
    while (i < a.size() && j < b.size()) {
        const bool da = std::isdigit(static_cast<unsigned char>(a[i]));
        const bool db = std::isdigit(static_cast<unsigned char>(b[j]));
        if (da && db) {
            size_t ei = i;
            size_t ej = j;
            while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei])))
                ++ei;
            while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej])))
                ++ej;
            std::string x = a.substr(i, ei - i);
            std::string y = b.substr(j, ej - j);
            x.erase(0, std::min(x.find_first_not_of('0'), x.size()));
            y.erase(0, std::min(y.find_first_not_of('0'), y.size()));
            if (x.size() != y.size())
                return x.size() < y.size();
            if (x != y)
                return x < y;
            i = ei;
            j = ej;
            continue;
        }
        if (a[i] != b[j])
            return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

bool PassDumpFolder::isDumpFolder(const std::string &path)
{
    std::error_code ec;
    if (!fs::is_directory(path, ec))
        return false;
    for (const fs::directory_entry &e : fs::directory_iterator(path, ec))
        if (e.is_regular_file(ec))
            return true;
    return false;
}

std::shared_ptr<const PassLogIndex> PassDumpFolder::index(
    const std::string &path, DiagnosticList &diagnostics)
{
    SourceLocation folder;
    folder.file = path;
    std::error_code ec;
    std::vector<std::string> names;
    for (const fs::directory_entry &e : fs::directory_iterator(path, ec)) {
        const std::string name = e.path().filename().string();
        if (name.empty() || name[0] == '.' || !e.is_regular_file(ec))
            continue;
        names.push_back(name);
    }
    if (ec) {
        diagnostics.error(folder, "cannot list the folder: " + ec.message());
        return nullptr;
    }
    std::sort(names.begin(), names.end(), naturalLess);

    auto index = std::make_shared<PassLogIndex>();
    index->path = path;
    int previous = -1;
    int pendingBefore = -1;
    for (const std::string &name : names) {
        const std::string file = (fs::path(path) / name).string();
        std::string error;
        std::shared_ptr<const MappedFile> mapped = MappedFile::open(file, error);
        SourceLocation loc;
        loc.file = file;
        if (!mapped) {
            std::string where;
            const std::string why = InputFile::splitError(error, where);
            loc.file = where.empty() ? file : where;
            index->diagnostics.warning(loc, why + ": skipped");
            continue;
        }
        const size_t fileIndex = index->files.size();
        index->files.push_back(mapped);
        const std::string_view bytes = mapped->bytes();
        if (PaddlePassLog::looksLikeLog(bytes.substr(0, 64 * 1024))) {
            const size_t firstProgram = index->programs.size();
            PaddlePassLog::scan(*index, fileIndex);
            if (index->programs.size() > firstProgram)
                previous = int(index->programs.size()) - 1;
            continue;
        }
        if (!hasProgram(bytes)) {
            index->diagnostics.note(loc, "no PIR program in this file: skipped");
            continue;
        }
        index->bytes += bytes.size();
        LoggedProgram program;
        program.file = fileIndex;
        program.begin = 0;
        program.end = bytes.size();
        program.line = 1;
        size_t lineStart = 0;
        while (lineStart < bytes.size()) {
            size_t lineEnd = bytes.find('\n', lineStart);
            if (lineEnd == std::string_view::npos)
                lineEnd = bytes.size();
            std::string_view t = bytes.substr(lineStart, lineEnd - lineStart);
            t.remove_prefix(std::min(t.find_first_not_of(" \t"), t.size()));
            if (t.starts_with("(") && t.find(" = ") != std::string_view::npos) {
                ++program.opLines;
                if (t.find("(phi_kernel)") != std::string_view::npos
                    || t.find("_kernel.") != std::string_view::npos)
                    program.kernelDialect = true;
            }
            ++index->lines;
            lineStart = lineEnd + 1;
        }
        const int p = int(index->programs.size());
        index->programs.push_back(program);
        const std::string stem = fs::path(name).stem().string();
        const DumpName dump = parseName(stem, previous < 0 && pendingBefore < 0);
        if (dump.role == DumpName::Role::Before) {
            pendingBefore = p;
            continue;
        }
        LoggedStep step;
        step.kind = dump.role == DumpName::Role::Input ? LoggedStep::Kind::Printed : LoggedStep::Kind::Pass;
        step.pass = dump.role == DumpName::Role::Input ? "input (" + name + ")" : dump.pass;
        step.target = name;
        step.line = 0;
        step.before
            = dump.role == DumpName::Role::Input ? -1 : (pendingBefore >= 0 ? pendingBefore : previous);
        step.after = p;
        pendingBefore = -1;
        index->steps.push_back(std::move(step));
        previous = p;
    }
    if (index->programs.empty()) {
        diagnostics.error(folder, "no PIR program in this folder");
        diagnostics.append(index->diagnostics);
        return nullptr;
    }
    diagnostics.append(index->diagnostics);
    return index;
}

} // namespace ps
