#include "core/io/tracebundlefiles.h"

#include "core/io/inputfile.h"
#include "core/io/npyheader.h"
#include "core/io/tracebundle.h"
#include "core/ir/shapesize.h"

#include <algorithm>
#include <filesystem>

namespace ps {
namespace {

namespace fs = std::filesystem;

/// Empty when `relative` names a file inside the bundle folder `dir`; otherwise why not: an
/// absolute path, a `..` component, or a path whose symlinks resolve outside the folder.
std::string outsideBundle(const std::string &dir, const std::string &relative)
{
    const fs::path rel(relative);
    if (rel.has_root_name() || rel.has_root_directory())
        return "'" + relative + "' is an absolute path; a bundle names its files relative to its folder";
    for (const fs::path &part : rel)
        if (part == "..")
            return "'" + relative + "' climbs out of the bundle with '..'";
    std::error_code ec;
    const fs::path base = fs::canonical(dir, ec);
    if (ec)
        return {};
    const fs::path resolved = fs::weakly_canonical(fs::path(dir) / rel, ec);
    if (ec)
        return {}; // a symlink loop or an unreadable folder: InputFile::open names it
    const auto mismatch = std::mismatch(base.begin(), base.end(), resolved.begin(), resolved.end());
    if (mismatch.first != base.end())
        return "'" + relative + "' (-> " + resolved.string() + ") leads out of the bundle through a symlink";
    return {};
}

/// An output's declared shape is its static type in the program (dynamic dims -1), and Paddle
/// saves a 0-D result (a loss) as a [1] array: a file matches a declared shape of the same rank
/// whose static dims are equal, or holds one element where the declared shape has one.
bool compatible(const std::vector<int64_t> &declared, const std::vector<int64_t> &file)
{
    const std::optional<int64_t> declaredCount = ShapeSize::elements(declared);
    const std::optional<int64_t> fileCount = ShapeSize::elements(file);
    if (declaredCount == 1 && fileCount == 1)
        return true;
    if (declared.size() != file.size())
        return false;
    for (size_t i = 0; i < declared.size(); ++i)
        if (declared[i] >= 0 && declared[i] != file[i])
            return false;
    return true;
}

class Checker
{
public:
    Checker(const TraceBundle &bundle, DiagnosticList &diagnostics)
        : m_bundle(bundle)
        , m_diagnostics(diagnostics)
    {
    }
    bool ok() const { return m_ok; }

    void error(const std::string &jsonPath, const std::string &message)
    {
        m_diagnostics.error(SourceLocation { m_bundle.manifestPath(), 0, 0, jsonPath, -1 }, message);
        m_ok = false;
    }

    /// `relative` (the manifest's `field` at `where`) against the declared dtype and shape:
    /// equal shapes when `exact` (inputs and parameters: the exporter writes the arrays' own
    /// shapes), compatible ones otherwise (see compatible()).
    void file(const std::string &where, const char *field, const std::string &relative,
        const std::string &dtype, const std::vector<int64_t> &shape, bool required, bool exact)
    {
        if (relative.empty())
            return;
        const std::string jsonPath = where + "." + field;
        if (!inside(jsonPath, relative))
            return;
        const std::string path = m_bundle.filePath(relative);
        std::error_code ec;
        if (!required && !fs::exists(fs::symlink_status(path, ec))) {
            m_diagnostics.warning(SourceLocation { m_bundle.manifestPath(), 0, 0, jsonPath, -1 },
                "'" + relative + "' does not exist (no reference values to compare with)");
            return;
        }
        std::string why;
        std::optional<InputFile> opened = InputFile::open(path, why);
        if (!opened) {
            error(jsonPath, why);
            return;
        }
        const std::optional<NpyHeader> header = NpyHeader::read(*opened, why);
        if (!header) {
            error(jsonPath, InputFile::displayName(path) + ": " + why);
            return;
        }
        if (!dtype.empty() && dtype != phiName(header->dtype))
            error(where + ".dtype", "'" + dtype + "', but " + relative + " holds " + header->describe());
        else if (exact ? shape != header->shape : !compatible(shape, header->shape))
            error(where + ".shape",
                ShapeSize::shapeText(shape) + ", but " + relative + " holds " + header->describe());
    }

    /// False, with an error at `jsonPath`, when `relative` is not a file inside the bundle.
    bool inside(const std::string &jsonPath, const std::string &relative)
    {
        const std::string why = outsideBundle(m_bundle.dir(), relative);
        if (why.empty())
            return true;
        error(jsonPath, why);
        return false;
    }

    /// The runner reads `<dir>/<name>.npy`: the manifest's file must be that one, inside the bundle.
    void runnerFile(const std::string &where, const TraceBundle::Tensor &t, const char *dir)
    {
        const std::string expected = std::string(dir) + "/" + t.name + ".npy";
        if (t.file.empty()) {
            inside(where + ".name", expected);
            return;
        }
        if (fs::path(t.file).lexically_normal() != fs::path(expected))
            error(where + ".file",
                "'" + t.file + "', but the runner reads '" + expected + "' for '" + t.name + "'");
    }

private:
    const TraceBundle &m_bundle;
    DiagnosticList &m_diagnostics;
    bool m_ok = true;
};

std::string at(const char *list, size_t i)
{
    return std::string(list) + "[" + std::to_string(i) + "]";
}

} // namespace

bool TraceBundleFiles::check(const TraceBundle &bundle, DiagnosticList &diagnostics)
{
    Checker c(bundle, diagnostics);
    for (const auto &[list, tensors, dir] : { std::tuple { "inputs", &bundle.inputs(), "inputs" },
             std::tuple { "parameters", &bundle.parameters(), "params" } }) {
        for (size_t i = 0; i < tensors->size(); ++i) {
            const TraceBundle::Tensor &t = (*tensors)[i];
            c.runnerFile(at(list, i), t, dir);
            c.file(at(list, i), "file", t.file, t.dtype, t.shape, true, true);
            c.file(at(list, i), "grad_file", t.gradFile, t.dtype, t.shape, false, true);
        }
    }
    const auto &outputs = bundle.outputs();
    for (size_t i = 0; i < outputs.size(); ++i)
        c.file(at("outputs", i), "file", outputs[i].file, outputs[i].dtype, outputs[i].shape, false, false);
    for (const auto &[index, file] : bundle.outputGradFiles()) {
        const std::string where = "backward.output_grads";
        if (index >= outputs.size())
            c.error(where + "." + std::to_string(index),
                "output " + std::to_string(index) + " does not exist (" + std::to_string(outputs.size())
                    + " outputs)");
        else
            c.file(where, std::to_string(index).c_str(), file, outputs[index].dtype, outputs[index].shape,
                false, false);
    }
    const auto &intermediates = bundle.intermediates();
    for (size_t i = 0; i < intermediates.size(); ++i)
        if (!intermediates[i].file.empty())
            c.inside(at("intermediates.values", i) + ".file", intermediates[i].file);
    for (const auto &[role, file] : bundle.files())
        if (!file.empty())
            c.inside("files." + role, file);
    return c.ok();
}

} // namespace ps
