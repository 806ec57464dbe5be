#include "core/runtime/tensorsource.h"

#include "core/io/pdiparams.h"
#include "core/runtime/dtypedispatch.h"
#include "core/runtime/npyio.h"

#include <filesystem>
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

bool isFloating(DataType t)
{
    return t == DataType::Float32 || t == DataType::Float64 || t == DataType::Float16
        || t == DataType::BFloat16;
}

bool shapeMatches(const std::vector<int64_t> &declared, const std::vector<int64_t> &actual)
{
    if (declared.size() != actual.size())
        return false;
    for (size_t i = 0; i < declared.size(); ++i)
        if (declared[i] >= 0 && declared[i] != actual[i])
            return false;
    return true;
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

std::optional<TensorSource> TensorSource::fromText(const std::string &text, uint64_t seed, std::string &error)
{
    if (text == "random")
        return random(seed);
    if (text == "zeros")
        return zeros();
    if (text == "ones")
        return ones();
    std::error_code ec;
    if (std::filesystem::is_directory(text, ec))
        return npyDirectory(text);
    if (std::filesystem::is_regular_file(text, ec))
        return pdiparams(text);
    error = "'" + text + "' is neither random, zeros, ones, a directory nor a .pdiparams file";
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
    case Kind::Ones:
        break;
    }
    return "ones";
}

bool TensorSource::prepare(const Program &program, std::string &error)
{
    if (m_kind != Kind::Pdiparams)
        return true;
    m_loaded = Pdiparams::readForProgram(m_path, program, error);
    return error.empty();
}

Tensor TensorSource::get(const std::string &name, Type type, bool trainable, std::string &error) const
{
    const bool typed = type && type.kind() == Type::Kind::DenseTensor;
    if (m_kind == Kind::NpyDirectory || m_kind == Kind::Pdiparams) {
        Tensor t;
        if (m_kind == Kind::NpyDirectory) {
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
        if (typed && (t.dtype() != type.dtype() || !shapeMatches(type.dims(), t.shape()))) {
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
    std::vector<int64_t> shape = type.dims();
    for (int64_t &d : shape)
        if (d < 0)
            d = m_dynamicDim;
    const DataType dtype = type.dtype();
    const int64_t n = numElementsOf(shape);
    std::vector<double> values(
        size_t(n), m_kind == Kind::Ones || (m_kind == Kind::Random && !trainable) ? 1.0 : 0.0);
    if (m_kind == Kind::Random && trainable) {
        std::mt19937_64 generator(m_seed ^ fnv1a(name));
        if (isFloating(dtype)) {
            std::normal_distribution<double> normal(0.0, 1.0);
            for (double &v : values)
                v = normal(generator) * 0.02;
        } else {
            std::uniform_int_distribution<int> small(0, dtype == DataType::Bool ? 1 : 2);
            for (double &v : values)
                v = small(generator);
        }
    }
    try {
        return Tensor::fromDoubles(shape, dtype, values);
    } catch (const std::exception &e) {
        error = "'" + name + "': " + e.what();
        return {};
    }
}

} // namespace ps
