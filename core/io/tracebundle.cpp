#include "core/io/tracebundle.h"

#include "core/io/programloader.h"
#include "core/io/tracebundlefiles.h"
#include "core/io/tracebundlemanifest.h"

#include <filesystem>

namespace ps {

namespace fs = std::filesystem;

std::unique_ptr<TraceBundle> TraceBundle::open(const std::string &path, DiagnosticList &diagnostics)
{
    std::error_code ec;
    const fs::path p(path);
    const bool isDir = fs::is_directory(p, ec);
    const fs::path manifest = isDir ? p / "manifest.json" : p;
    if (isDir && !fs::exists(manifest, ec)) {
        diagnostics.error(
            SourceLocation { path, 0, 0, {}, -1 }, "not a trace bundle: the folder has no manifest.json");
        return nullptr;
    }
    std::unique_ptr<TraceBundle> bundle(new TraceBundle);
    bundle->m_manifest = manifest.string();
    bundle->m_dir = manifest.parent_path().empty() ? std::string(".") : manifest.parent_path().string();
    if (!TraceBundleManifest::read(bundle->m_manifest, *bundle, diagnostics)
        || !TraceBundleFiles::check(*bundle, diagnostics))
        return nullptr;
    return bundle;
}

std::unique_ptr<TraceBundle> TraceBundle::fromManifestText(
    std::string_view json, const std::string &manifestPath, DiagnosticList &diagnostics)
{
    std::unique_ptr<TraceBundle> bundle(new TraceBundle);
    bundle->m_manifest = manifestPath;
    bundle->m_dir = fs::path(manifestPath).parent_path().string();
    if (!TraceBundleManifest::parse(json, manifestPath, *bundle, diagnostics))
        return nullptr;
    return bundle;
}

bool TraceBundle::isBundlePath(const std::string &path)
{
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec))
        return fs::is_regular_file(p / "manifest.json", ec);
    return p.filename() == "manifest.json";
}

std::string TraceBundle::filePath(const std::string &relative) const
{
    return relative.empty() ? std::string() : (fs::path(m_dir) / relative).string();
}

LoadResult TraceBundle::loadOrigin(ProgramSource source) const
{
    const std::string json = filePath("program.json");
    const std::string text = filePath("program.txt");
    std::error_code ec;
    if (source == ProgramSource::Json || (source == ProgramSource::Auto && fs::exists(json, ec))) {
        LoadResult r = loadProgram(json);
        if (r.ok() || source == ProgramSource::Json || !fs::exists(text, ec))
            return r;
        const Diagnostic *first = r.diagnostics.firstError();
        LoadResult t = loadProgram(text);
        t.diagnostics.warning(SourceLocation { json, 0, 0, {}, -1 },
            "does not load (" + (first ? first->message : std::string("no program"))
                + "); program.txt is used instead");
        return t;
    }
    return loadProgram(text);
}

std::string TraceBundle::originFile(const LoadResult &loaded) const
{
    return filePath(loaded.format == LoadResult::Format::PirText ? "program.txt" : "program.json");
}

} // namespace ps
