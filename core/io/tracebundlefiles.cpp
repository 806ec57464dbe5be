#include "core/io/tracebundlefiles.h"

#include "core/io/inputfile.h"
#include "core/io/npyheader.h"
#include "core/io/tracebundle.h"
#include "core/ir/shapesize.h"

#include <filesystem>

namespace ps {
namespace {

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
        const std::string path = m_bundle.filePath(relative);
        std::error_code ec;
        if (!required && !std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
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

    /// The runner reads `<dir>/<name>.npy`: the manifest's file must be that one.
    void runnerFile(const std::string &where, const TraceBundle::Tensor &t, const char *dir)
    {
        const std::string expected = std::string(dir) + "/" + t.name + ".npy";
        if (!t.file.empty()
            && std::filesystem::path(t.file).lexically_normal() != std::filesystem::path(expected))
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
    return c.ok();
}

} // namespace ps
