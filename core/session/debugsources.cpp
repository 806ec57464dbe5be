#include "core/session/debugsources.h"

#include "core/io/tracebundle.h"
#include "core/ir/program.h"
#include "core/runtime/imagefile.h"
#include "core/session/debugtarget.h"

#include <filesystem>
#include <optional>

namespace ps {
namespace {

std::string fileName(const std::string &path)
{
    return std::filesystem::path(path).filename().string();
}

std::string describe(DebugSources::Kind kind, const std::string &path, uint64_t seed)
{
    using Kind = DebugSources::Kind;
    switch (kind) {
    case Kind::Random:
        return "random (seed " + std::to_string(seed) + ")";
    case Kind::NpyDirectory:
        return ".npy in " + fileName(path) + "/";
    case Kind::PdiparamsFile:
    case Kind::Image:
        return fileName(path);
    default:
        break;
    }
    return DebugSources::kindText(kind);
}

} // namespace

std::string DebugSources::kindText(Kind kind)
{
    switch (kind) {
    case Kind::Bundle:
        return "bundle .npy";
    case Kind::Pdiparams:
        return ".pdiparams next to the program";
    case Kind::Random:
        return "random";
    case Kind::Zeros:
        return "zeros";
    case Kind::Ones:
        return "ones";
    case Kind::NpyDirectory:
        return ".npy folder";
    case Kind::PdiparamsFile:
        return ".pdiparams file";
    case Kind::Image:
        break;
    }
    return "image file";
}

bool DebugSources::needsPath(Kind kind)
{
    return kind == Kind::NpyDirectory || kind == Kind::PdiparamsFile || kind == Kind::Image;
}

bool DebugSources::forInputs(Kind kind)
{
    return kind != Kind::Pdiparams && kind != Kind::PdiparamsFile;
}

bool DebugSources::forParams(Kind kind)
{
    return kind != Kind::Zeros && kind != Kind::Ones && kind != Kind::Image;
}

std::string DebugSources::inputsText() const
{
    std::string text = describe(inputs, inputsPath, seed);
    if (inputs == Kind::Image && !imageNetNormalization)
        text += " (not normalised)";
    return text;
}

std::string DebugSources::paramsText() const
{
    if (params == Kind::Pdiparams)
        return ".pdiparams";
    return describe(params, paramsPath, seed);
}

bool DebugSources::setFromText(bool forParams, const std::string &text, std::string &error)
{
    const std::optional<TensorSource> source = TensorSource::fromText(text, seed, error);
    return source && setSource(forParams, *source, error);
}

bool DebugSources::setSource(bool forParams, const TensorSource &source, std::string &error)
{
    Kind kind = Kind::Random;
    switch (source.kind()) {
    case TensorSource::Kind::NpyDirectory:
        kind = Kind::NpyDirectory;
        break;
    case TensorSource::Kind::Pdiparams:
        kind = Kind::PdiparamsFile;
        break;
    case TensorSource::Kind::Random:
        kind = Kind::Random;
        break;
    case TensorSource::Kind::Zeros:
        kind = Kind::Zeros;
        break;
    case TensorSource::Kind::Ones:
        kind = Kind::Ones;
        break;
    case TensorSource::Kind::Image:
        kind = Kind::Image;
        imageNetNormalization = source.imageNormalization() == ImageTensor::Normalization::ImageNet;
        break;
    case TensorSource::Kind::Named: // made from a ParameterStore in code, never from text
        error = "'" + source.describe() + "' names no input or parameter source the debugger can use";
        return false;
    }
    (forParams ? params : inputs) = kind;
    (forParams ? paramsPath : inputsPath) = needsPath(kind) ? source.path() : std::string();
    return true;
}

bool DebugSources::available(Kind kind, const DebugTarget &target)
{
    switch (kind) {
    case Kind::Bundle:
        return target.bundle != nullptr;
    case Kind::Pdiparams:
        return !target.pdiparamsPath.empty();
    default:
        break;
    }
    return true;
}

DebugSources DebugSources::defaultsFor(const DebugTarget &target)
{
    DebugSources s;
    s.inputs = target.bundle ? Kind::Bundle : Kind::Random;
    s.params = target.bundle ? Kind::Bundle : !target.pdiparamsPath.empty() ? Kind::Pdiparams : Kind::Random;
    return s;
}

std::vector<InputShape> DebugSources::inputShapes(
    const DebugTarget &target, std::vector<std::string> &errors) const
{
    const Program *program = target.inputProgram();
    if (!program)
        return {};
    std::vector<InputShape> out = InputShapes::resolve(*program, shapes, target.config.get(), errors);
    const bool fromFiles = inputs == Kind::Bundle || inputs == Kind::NpyDirectory;
    std::string imageInput;
    if (inputs == Kind::Image) {
        std::string why;
        imageInput = TensorSource::imageInputOf(*program, why).value_or(std::string());
    }
    for (InputShape &s : out) {
        if (fromFiles && s.dynamic() && s.origin != InputShape::Origin::Chosen) {
            s.shape = s.declared;
            s.origin = InputShape::Origin::Files;
            s.note.clear();
        } else if (s.name == imageInput && s.origin == InputShape::Origin::Unresolved) {
            s.origin = InputShape::Origin::Image;
            s.note.clear();
        }
    }
    return out;
}

bool DebugSources::applyTo(const DebugTarget &target, const ImageDecoder &decoder,
    ProgramRunner::Options &options, std::string &error) const
{
    const TraceBundle *bundle = target.bundle.get();
    auto source = [&](Kind kind, const std::string &path, bool forParams) -> std::optional<TensorSource> {
        std::error_code ec;
        switch (kind) {
        case Kind::Bundle:
            if (!bundle) {
                error = "no trace bundle is open: its .npy files cannot be used";
                return std::nullopt;
            }
            return TensorSource::npyDirectory(bundle->filePath(forParams ? "params" : "inputs"));
        case Kind::Pdiparams:
            if (target.pdiparamsPath.empty()) {
                error = "there is no .pdiparams file next to the program";
                return std::nullopt;
            }
            return TensorSource::pdiparams(target.pdiparamsPath);
        case Kind::Random:
            return TensorSource::random(seed);
        case Kind::Zeros:
            return TensorSource::zeros();
        case Kind::Ones:
            return TensorSource::ones();
        case Kind::NpyDirectory:
            if (!std::filesystem::is_directory(path, ec)) {
                error = (forParams ? "parameters: " : "inputs: ") + path + " is not a folder";
                return std::nullopt;
            }
            return TensorSource::npyDirectory(path);
        case Kind::PdiparamsFile:
            if (!std::filesystem::is_regular_file(path, ec)) {
                error = "parameters: no file " + path;
                return std::nullopt;
            }
            // Told by content as on the command line: a .npy is refused, not read as .pdiparams.
            if (const std::optional<TensorSource> byContent = TensorSource::fromText(path, seed, error);
                !byContent) {
                error = "parameters: " + error;
                return std::nullopt;
            }
            return TensorSource::pdiparams(path);
        case Kind::Image: {
            std::optional<Image> image = ImageFile::read(path, decoder, error);
            if (!image) {
                error = "inputs: " + error;
                return std::nullopt;
            }
            return TensorSource::image(path, std::make_shared<const Image>(std::move(*image)), seed,
                imageNetNormalization ? ImageTensor::Normalization::ImageNet
                                      : ImageTensor::Normalization::None);
        }
        }
        return std::nullopt;
    };
    std::vector<std::string> errors;
    const std::vector<InputShape> shaped = inputShapes(target, errors);
    if (!errors.empty()) {
        error = "shape " + errors.front();
        return false;
    }
    std::vector<InputShape> missing;
    for (const InputShape &s : shaped)
        if (!s.resolved())
            missing.push_back(s);
    if (!missing.empty()) {
        error = "inputs with dynamic dims need a shape: " + InputShapes::unresolvedText(missing) + ": "
            + missing.front().note + "; choose a shape such as " + InputShapes::example(missing.front());
        return false;
    }
    std::optional<TensorSource> in = source(inputs, inputsPath, false);
    if (!in)
        return false;
    std::optional<TensorSource> pa = source(params, paramsPath, true);
    if (!pa)
        return false;
    options.inputs = std::move(*in);
    options.params = std::move(*pa);
    for (const InputShape &s : shaped)
        if (s.dynamic() && s.shapesRun())
            options.inputShapes[s.name] = s.shape;
    if (bundle && inputs == Kind::Bundle)
        for (const auto &[index, file] : bundle->outputGradFiles())
            options.outputGradFiles[index] = bundle->filePath(file);
    return true;
}

} // namespace ps
