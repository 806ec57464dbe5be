#include "core/runtime/pdiparams.h"

#include "core/dialect/ops.h"
#include "core/io/inputfile.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/shapesize.h"
#include "core/ir/staticdims.h"

#include <algorithm>
#include <cstring>
#include <optional>
#include <set>

namespace ps {
namespace {

struct DtypeCode
{
    int code;
    DataType dtype;
};

constexpr DtypeCode kDtypeCodes[] = { { 0, DataType::Bool }, { 1, DataType::Int16 }, { 2, DataType::Int32 },
    { 3, DataType::Int64 }, { 4, DataType::Float16 }, { 5, DataType::Float32 }, { 6, DataType::Float64 },
    { 20, DataType::UInt8 }, { 21, DataType::Int8 }, { 22, DataType::BFloat16 } };

std::optional<DataType> dtypeOfCode(uint64_t code)
{
    for (const DtypeCode &c : kDtypeCodes)
        if (uint64_t(c.code) == code)
            return c.dtype;
    return std::nullopt;
}

int codeOfDtype(DataType dtype)
{
    for (const DtypeCode &c : kDtypeCodes)
        if (c.dtype == dtype)
            return c.code;
    return -1;
}

/// Thrown inside the parser; becomes the error message.
struct ParseError
{
    uint64_t offset;
    std::string message;
};

/// Reads the records from a buffer (readBuffer) or a file (read: tensor data goes straight into
/// the tensors, so the file is never held whole in memory). Every length is checked against what
/// is left before anything is read or allocated.
class Cursor
{
public:
    explicit Cursor(std::string_view bytes)
        : m_bytes(bytes)
        , m_size(bytes.size())
    {
    }
    explicit Cursor(InputFile &file)
        : m_file(&file)
        , m_size(file.size())
    {
    }
    uint64_t offset() const { return m_pos; }
    bool atEnd() const { return m_pos >= m_size; }
    uint64_t remaining() const { return m_size - m_pos; }

    template<class T> T read(const char *what)
    {
        T v;
        copyTo(&v, sizeof(T), what);
        return v;
    }
    /// Small fields only (the TensorDesc, at most 1 MiB).
    std::string bytes(uint64_t n, const char *what)
    {
        need(n, what);
        std::string out(size_t(n), '\0');
        copyTo(out.data(), n, what);
        return out;
    }
    void skip(uint64_t n, const char *what)
    {
        need(n, what);
        m_pos += n;
    }
    void copyTo(void *out, uint64_t n, const char *what)
    {
        need(n, what);
        if (m_file) {
            std::string error;
            if (!m_file->readAt(m_pos, out, n, error))
                throw ParseError { m_pos, error };
        } else if (n) {
            std::memcpy(out, m_bytes.data() + m_pos, size_t(n));
        }
        m_pos += n;
    }
    void need(uint64_t n, const char *what) const
    {
        if (remaining() < n)
            throw ParseError { m_pos,
                std::string("truncated ") + what + " (" + std::to_string(n) + " bytes needed, "
                    + std::to_string(remaining()) + " left)" };
    }

private:
    std::string_view m_bytes;
    InputFile *m_file = nullptr;
    uint64_t m_size = 0;
    uint64_t m_pos = 0;
};

uint64_t varint(std::string_view desc, size_t &pos, uint64_t base)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= desc.size())
            throw ParseError { base + pos, "truncated varint in the TensorDesc" };
        const auto byte = uint8_t(desc[pos++]);
        v |= uint64_t(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return v;
    }
    throw ParseError { base + pos, "varint longer than 10 bytes in the TensorDesc" };
}

/// TensorDesc { required VarType.Type data_type = 1; repeated int64 dims = 2; }
void parseDesc(std::string_view desc, uint64_t base, DataType &dtype, std::vector<int64_t> &dims)
{
    size_t pos = 0;
    bool haveType = false;
    while (pos < desc.size()) {
        const size_t keyPos = pos;
        const uint64_t key = varint(desc, pos, base);
        const uint64_t field = key >> 3, wire = key & 7;
        if (field == 1 && wire == 0) {
            const uint64_t code = varint(desc, pos, base);
            auto t = dtypeOfCode(code);
            if (!t)
                throw ParseError { base + keyPos, "unsupported data_type " + std::to_string(code) };
            dtype = *t;
            haveType = true;
        } else if (field == 2 && wire == 0) {
            dims.push_back(int64_t(varint(desc, pos, base)));
        } else if (field == 2 && wire == 2) {
            const uint64_t n = varint(desc, pos, base);
            if (n > desc.size() - pos)
                throw ParseError { base + pos, "packed dims run past the TensorDesc" };
            const size_t end = pos + n;
            while (pos < end)
                dims.push_back(int64_t(varint(desc, pos, base)));
        } else if (wire == 0) {
            varint(desc, pos, base);
        } else if (wire == 2) {
            const uint64_t n = varint(desc, pos, base);
            if (n > desc.size() - pos)
                throw ParseError { base + pos, "field runs past the TensorDesc" };
            pos += n;
        } else {
            throw ParseError { base + keyPos, "unexpected protobuf wire type " + std::to_string(wire) };
        }
    }
    if (!haveType)
        throw ParseError { base, "TensorDesc without data_type" };
    for (int64_t d : dims)
        if (d < 0)
            throw ParseError { base, "negative dimension in " + shapeText(dims) };
    if (dims.size() > 64)
        throw ParseError { base, std::to_string(dims.size()) + " dims (at most 64)" };
}

Pdiparams::Entry parseTensor(Cursor &c)
{
    Pdiparams::Entry e;
    e.offset = c.offset();
    const uint64_t versionAt = c.offset();
    const auto version = c.read<uint32_t>("LoDTensor version");
    if (version != 0)
        throw ParseError { versionAt, "unsupported LoDTensor version " + std::to_string(version) };
    const uint64_t levelsAt = c.offset();
    const auto levels = c.read<uint64_t>("LoD level count");
    if (levels > 16)
        throw ParseError { levelsAt, "implausible LoD level count " + std::to_string(levels) };
    for (uint64_t i = 0; i < levels; ++i) {
        const auto size = c.read<uint64_t>("LoD level size");
        c.skip(size, "LoD level");
    }
    const uint64_t tensorVersionAt = c.offset();
    const auto tensorVersion = c.read<uint32_t>("tensor version");
    if (tensorVersion != 0)
        throw ParseError { tensorVersionAt, "unsupported tensor version " + std::to_string(tensorVersion) };
    const uint64_t descSizeAt = c.offset();
    const auto descSize = c.read<int32_t>("TensorDesc size");
    if (descSize < 0 || descSize > (1 << 20))
        throw ParseError { descSizeAt, "implausible TensorDesc size " + std::to_string(descSize) };
    const uint64_t descAt = c.offset();
    const std::string desc = c.bytes(uint64_t(descSize), "TensorDesc");
    DataType dtype = DataType::Undefined;
    std::vector<int64_t> dims;
    parseDesc(desc, descAt, dtype, dims);
    const std::optional<uint64_t> bytes = ShapeSize::bytes(dims, dtype);
    if (!bytes)
        throw ParseError { descAt, "TensorDesc: " + ShapeSize::whyInvalid(dims, dtype) };
    const uint64_t dataAt = c.offset();
    c.need(*bytes, "tensor data");
    try {
        e.tensor = Tensor::empty(dims, dtype);
    } catch (const std::exception &ex) {
        throw ParseError { dataAt,
            std::string(phiName(dtype)) + ShapeSize::shapeText(dims) + ": " + ex.what() };
    }
    c.copyTo(e.tensor.rawData(), *bytes, "tensor data");
    return e;
}

void putVarint(std::string &out, uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(char(uint8_t(v) | 0x80));
        v >>= 7;
    }
    out.push_back(char(v));
}

template<class T> void put(std::string &out, T v)
{
    char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    out.append(b, sizeof(T));
}

} // namespace

namespace {

std::vector<Pdiparams::Entry> readRecords(
    Cursor &c, const std::string &what, const std::vector<std::string> *sortedNames, std::string &error)
{
    using Entry = Pdiparams::Entry;
    std::vector<Entry> out;
    auto label = [&](size_t index) {
        std::string s = "tensor #" + std::to_string(index);
        if (sortedNames && index < sortedNames->size())
            s += " (parameter '" + (*sortedNames)[index] + "')";
        return s;
    };
    try {
        while (!c.atEnd()) {
            if (sortedNames && out.size() == sortedNames->size())
                throw ParseError { c.offset(),
                    std::to_string(c.remaining()) + " bytes after the last of the "
                        + std::to_string(sortedNames->size()) + " parameters" };
            Entry e = parseTensor(c);
            if (sortedNames)
                e.name = (*sortedNames)[out.size()];
            out.push_back(std::move(e));
        }
    } catch (const ParseError &e) {
        error = what + ": byte " + std::to_string(e.offset) + ": " + label(out.size()) + ": " + e.message;
        return {};
    }
    if (sortedNames && out.size() != sortedNames->size()) {
        error = what + ": byte " + std::to_string(c.offset()) + ": the file holds "
            + std::to_string(out.size()) + " tensors, the program has " + std::to_string(sortedNames->size())
            + " parameters (first missing: '" + (*sortedNames)[out.size()] + "')";
        return {};
    }
    return out;
}

std::vector<Pdiparams::Entry> readFile(
    const std::string &path, const std::vector<std::string> *sortedNames, std::string &error)
{
    std::optional<InputFile> file = InputFile::open(path, error);
    if (!file)
        return {};
    Cursor c(*file);
    return readRecords(c, InputFile::displayName(path), sortedNames, error);
}

} // namespace

std::vector<Pdiparams::Entry> Pdiparams::readBuffer(std::string_view bytes, const std::string &what,
    const std::vector<std::string> *sortedNames, std::string &error)
{
    Cursor c(bytes);
    return readRecords(c, what, sortedNames, error);
}

std::vector<Pdiparams::Entry> Pdiparams::read(const std::string &path, std::string &error)
{
    return readFile(path, nullptr, error);
}

std::vector<Pdiparams::Entry> Pdiparams::read(
    const std::string &path, const std::vector<std::string> &sortedNames, std::string &error)
{
    return readFile(path, &sortedNames, error);
}

std::vector<std::string> Pdiparams::parameterNames(const Program &program)
{
    std::set<std::string> names;
    program.block().walk([&names](Operation *op) {
        if (ops::isParameter(*op)) {
            const std::string n = op->stringAttribute("parameter_name");
            if (!n.empty())
                names.insert(n);
        }
    });
    return { names.begin(), names.end() };
}

std::map<std::string, Tensor> Pdiparams::readForProgram(
    const std::string &path, const Program &program, std::string &error)
{
    const std::vector<std::string> names = parameterNames(program);
    std::vector<Entry> entries = read(path, names, error);
    if (!error.empty())
        return {};
    std::map<std::string, Type> declared;
    program.block().walk([&declared](Operation *op) {
        if (ops::isParameter(*op) && op->numResults() == 1)
            declared.emplace(op->stringAttribute("parameter_name"), op->result(0).type());
    });
    std::map<std::string, Tensor> out;
    for (Entry &e : entries) {
        const Type t = declared[e.name];
        if (t && t.kind() == Type::Kind::DenseTensor) {
            if (t.dtype() != e.tensor.dtype() || !staticDimsMatch(t.dims(), e.tensor.shape())) {
                error = path + ": byte " + std::to_string(e.offset) + ": parameter '" + e.name + "' is "
                    + e.tensor.describe() + ", the program declares " + std::string(phiName(t.dtype()))
                    + shapeText(t.dims());
                return {};
            }
        }
        out.emplace(e.name, std::move(e.tensor));
    }
    return out;
}

std::string Pdiparams::toBuffer(const std::vector<Tensor> &tensors)
{
    std::string out;
    for (const Tensor &t : tensors) {
        put<uint32_t>(out, 0);
        put<uint64_t>(out, 0);
        put<uint32_t>(out, 0);
        std::string desc;
        putVarint(desc, (1 << 3) | 0);
        putVarint(desc, uint64_t(codeOfDtype(t.dtype())));
        for (int64_t d : t.shape()) {
            putVarint(desc, (2 << 3) | 0);
            putVarint(desc, uint64_t(d));
        }
        put<int32_t>(out, int32_t(desc.size()));
        out += desc;
        out.append(static_cast<const char *>(t.rawData()), t.byteSize());
    }
    return out;
}

} // namespace ps
