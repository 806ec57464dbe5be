#include "core/runtime/tensorsource.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/datatypekind.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/staticdims.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/imagefile.h"
#include "core/runtime/npyio.h"
#include "core/runtime/pdiparams.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

namespace ps {
namespace {

uint64_t fnv1a(const std::string &s)
{
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

/// The file starts with NumPy's magic "\x93NUMPY" (whatever its name ends in).
bool isNpyFile(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    char magic[6] = {};
    in.read(magic, sizeof magic);
    return in.gcount() == 6 && std::memcmp(magic, "\x93NUMPY", 6) == 0;
}

} // namespace

TensorSource TensorSource::random(uint64_t seed)
{
    TensorSource s(Kind::Random);
    s.m_seed = seed;
    return s;
}

TensorSource TensorSource::npyDirectory(std::string dir)
{
    TensorSource s(Kind::NpyDirectory);
    s.m_path = std::move(dir);
    return s;
}

TensorSource TensorSource::pdiparams(std::string file)
{
    TensorSource s(Kind::Pdiparams);
    s.m_path = std::move(file);
    return s;
}

TensorSource TensorSource::image(std::string path, std::shared_ptr<const Image> image, uint64_t seed,
    ImageTensor::Normalization normalization)
{
    TensorSource s(Kind::Image);
    s.m_path = std::move(path);
    s.m_image = std::move(image);
    s.m_seed = seed;
    s.m_normalization = normalization;
    return s;
}

std::optional<TensorSource> TensorSource::fromText(
    const std::string &text, uint64_t seed, std::string &error, const ImageDecoder &decoder)
{
    if (text == "random")
        return random(seed);
    if (text == "zeros")
        return zeros();
    if (text == "ones")
        return ones();
    std::error_code ec;
    const bool regular = std::filesystem::is_regular_file(text, ec);
    if (regular && isNpyFile(text)) {
        error = "'" + text
            + "' is a .npy file (by its content); give the folder that holds one <name>.npy per tensor "
              "(the layout of a trace bundle's inputs/ and params/)";
        return std::nullopt;
    }
    if (ImageFile::isImagePath(text) && !std::filesystem::is_directory(text, ec)) {
        std::optional<Image> decoded = ImageFile::read(text, decoder, error);
        if (!decoded)
            return std::nullopt;
        return image(text, std::make_shared<const Image>(std::move(*decoded)), seed);
    }
    if (std::filesystem::is_directory(text, ec))
        return npyDirectory(text);
    if (regular)
        return pdiparams(text);
    error = "'" + text + "' is neither random, zeros, ones, an image, a directory nor a .pdiparams file";
    return std::nullopt;
}

std::string TensorSource::describe() const
{
    switch (m_kind) {
    case Kind::NpyDirectory:
        return ".npy files in " + m_path;
    case Kind::Pdiparams:
        return m_path;
    case Kind::Random:
        return "random (seed " + std::to_string(m_seed) + ")";
    case Kind::Zeros:
        return "zeros";
    case Kind::Image: {
        std::string s = "image " + m_path;
        if (m_image)
            s += " (" + std::to_string(m_image->width) + "x" + std::to_string(m_image->height)
                + (m_image->channels == 1 ? " gray" : " RGB") + ")";
        s += m_normalization == ImageTensor::Normalization::ImageNet ? ", ImageNet mean/std"
                                                                     : ", not normalised";
        if (!m_imageInput.empty())
            s += ", as '" + m_imageInput + "'";
        return s + "; other inputs random (seed " + std::to_string(m_seed) + ")";
    }
    case Kind::Named:
        return m_path;
    case Kind::Ones:
        break;
    }
    return "ones";
}

TensorSource TensorSource::named(
    std::shared_ptr<const std::map<std::string, Tensor>> tensors, std::string what)
{
    TensorSource s(Kind::Named);
    s.m_named = std::move(tensors);
    s.m_path = std::move(what);
    return s;
}

bool TensorSource::prepare(const Program &program, std::string &error)
{
    if (m_kind == Kind::Pdiparams) {
        m_loaded = Pdiparams::readForProgram(m_path, program, error);
        return error.empty();
    }
    if (m_kind != Kind::Image)
        return true;
    if (!m_image || !m_image->valid()) {
        error = "no image decoded from " + m_path;
        return false;
    }
    m_imageInput.clear();
    std::string why;
    std::optional<std::string> input = imageInputOf(program, why);
    if (!input) {
        error = "image " + m_path + ": " + why;
        return false;
    }
    m_imageInput = *input;
    return true;
}

std::optional<std::string> TensorSource::imageInputOf(const Program &program, std::string &why)
{
    std::string inputs;
    for (const Operation *op : program.block().ops()) {
        if ((!ops::isData(*op) && !ops::isFeed(*op)) || op->numResults() != 1)
            continue;
        const std::string name = op->stringAttribute("name");
        std::string notImage;
        if (ImageTensor::layoutOf(op->result(0).type(), notImage))
            return name;
        inputs += (inputs.empty() ? "" : "; ") + name + ": " + notImage;
    }
    why = "no input of the program takes an image (a float tensor of rank 4 with 1 or 3 channels, NCHW or "
          "NHWC)"
        + (inputs.empty() ? std::string(": it has no inputs") : "; inputs: " + inputs);
    return std::nullopt;
}

Tensor TensorSource::get(const std::string &name, Type type, bool trainable, std::string &error) const
{
    const bool typed = type && type.kind() == Type::Kind::DenseTensor;
    if (m_kind == Kind::NpyDirectory || m_kind == Kind::Pdiparams || m_kind == Kind::Named) {
        Tensor t;
        if (m_kind == Kind::Named) {
            auto it = m_named ? m_named->find(name) : decltype(m_named->end()) {};
            if (!m_named || it == m_named->end()) {
                error = "'" + name + "' is not among the " + m_path;
                return {};
            }
            t = it->second;
        } else if (m_kind == Kind::NpyDirectory) {
            const std::string file = (std::filesystem::path(m_path) / (name + ".npy")).string();
            if (!std::filesystem::exists(file)) {
                error = "'" + name + "': no file " + file;
                return {};
            }
            t = NpyIO::read(file, error);
            if (!t.defined())
                return {};
        } else {
            auto it = m_loaded.find(name);
            if (it == m_loaded.end()) {
                error = "'" + name + "' is not in " + m_path;
                return {};
            }
            t = it->second;
        }
        if (typed && (t.dtype() != type.dtype() || !staticDimsMatch(type.dims(), t.shape()))) {
            error = "'" + name + "' from " + describe() + " is " + t.describe() + ", the program declares "
                + std::string(phiName(type.dtype())) + shapeText(type.dims());
            return {};
        }
        return t;
    }
    if (!typed) {
        error = "'" + name + "' has no tensor type to generate a value from";
        return {};
    }
    if (m_kind == Kind::Image && name == m_imageInput) {
        Tensor t = ImageTensor::fromImage(*m_image, type, m_normalization, error);
        if (!t.defined())
            error = "'" + name + "' from image " + m_path + ": " + error;
        return t;
    }
    // Image: the other inputs are random.
    const Kind kind = m_kind == Kind::Image ? Kind::Random : m_kind;
    std::vector<int64_t> shape = type.dims();
    for (int64_t &d : shape)
        if (d < 0)
            d = m_dynamicDim;
    const DataType dtype = type.dtype();
    Tensor t;
    try {
        t = Tensor::empty(shape, dtype);
        const double constant = kind == Kind::Ones || (kind == Kind::Random && !trainable) ? 1.0 : 0.0;
        const bool randomValues = kind == Kind::Random && trainable;
        std::mt19937_64 generator(m_seed ^ fnv1a(name));
        std::normal_distribution<double> normal(0.0, 1.0);
        std::uniform_int_distribution<int> small(0, dtype == DataType::Bool ? 1 : 2);
        const bool floating = isFloatingPoint(dtype);
        dispatchDtype(dtype, "TensorSource", [&](auto tag) {
            using T = decltype(tag);
            T *out = t.data<T>();
            const int64_t n = t.numElements();
            for (int64_t i = 0; i < n; ++i) {
                const double v = !randomValues ? constant
                    : floating                 ? normal(generator) * 0.02
                                               : double(small(generator));
                out[i] = convertElement<T>(v);
            }
        });
    } catch (const std::exception &e) {
        error = "'" + name + "' (" + std::string(phiName(dtype)) + shapeText(shape) + "): " + e.what();
        return {};
    }
    return t;
}

} // namespace ps
