#include "core/io/npyheader.h"

#include "core/io/inputfile.h"
#include "core/io/numbertext.h"
#include "core/ir/shapesize.h"

#include <cstring>

namespace ps {
namespace {

struct DescrEntry
{
    const char *descr;
    DataType dtype;
};

constexpr DescrEntry kDescrs[]
    = { { "f4", DataType::Float32 }, { "f8", DataType::Float64 }, { "f2", DataType::Float16 },
          { "i1", DataType::Int8 }, { "u1", DataType::UInt8 }, { "i2", DataType::Int16 },
          { "i4", DataType::Int32 }, { "i8", DataType::Int64 }, { "b1", DataType::Bool } };

/// A cursor over the header dict, a Python literal: `{'descr': '<f4', 'fortran_order': False,
/// 'shape': (2, 3), }` followed by spaces and a newline.
class DictCursor
{
public:
    explicit DictCursor(std::string_view text)
        : m_text(text)
    {
    }
    void skipSpace()
    {
        while (
            m_pos < m_text.size() && (m_text[m_pos] == ' ' || m_text[m_pos] == '\t' || m_text[m_pos] == '\n'))
            ++m_pos;
    }
    bool accept(char c)
    {
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == c) {
            ++m_pos;
            return true;
        }
        return false;
    }
    bool atEnd()
    {
        skipSpace();
        return m_pos >= m_text.size();
    }
    /// A quoted Python string ('...' or "..."; no escapes in NumPy's keys and descrs).
    std::optional<std::string_view> string()
    {
        skipSpace();
        if (m_pos >= m_text.size() || (m_text[m_pos] != '\'' && m_text[m_pos] != '"'))
            return std::nullopt;
        const char quote = m_text[m_pos];
        const size_t end = m_text.find(quote, m_pos + 1);
        if (end == std::string_view::npos)
            return std::nullopt;
        const std::string_view s = m_text.substr(m_pos + 1, end - m_pos - 1);
        m_pos = end + 1;
        return s;
    }
    /// The bare token up to the next ',', ')' or '}' (True, False, 123, 1.5...).
    std::string_view token()
    {
        skipSpace();
        const size_t start = m_pos;
        while (m_pos < m_text.size() && m_text[m_pos] != ',' && m_text[m_pos] != ')' && m_text[m_pos] != '}'
            && m_text[m_pos] != ' ')
            ++m_pos;
        return m_text.substr(start, m_pos - start);
    }
    std::string_view rest() const { return m_text.substr(m_pos); }

private:
    std::string_view m_text;
    size_t m_pos = 0;
};

bool parseShape(DictCursor &c, std::vector<int64_t> &shape, std::string &error)
{
    if (!c.accept('(')) {
        error = "header: 'shape': expected a tuple such as (2, 3), found " + NumberText::quote(c.rest(), 20);
        return false;
    }
    if (c.accept(')'))
        return true;
    for (;;) {
        std::string_view item = c.token();
        if (item.size() > 1 && item.back() == 'L')
            item.remove_suffix(1);
        std::string why;
        const std::optional<uint64_t> d = NumberText::parseUnsigned(item, uint64_t(INT64_MAX), why);
        if (!d) {
            error = "header: 'shape': dimension " + std::to_string(shape.size()) + ": "
                + (item.empty() ? "missing"
                                : NumberText::quote(item) + " is not a non-negative decimal integer"
                            + (why.find("out of range") != std::string::npos ? " below 2^63" : ""));
            return false;
        }
        shape.push_back(int64_t(*d));
        if (shape.size() > 64) {
            error = "header: 'shape': more than 64 dimensions";
            return false;
        }
        if (c.accept(')'))
            return true;
        if (!c.accept(',')) {
            error
                = "header: 'shape': expected ',' or ')' after dimension " + std::to_string(shape.size() - 1);
            return false;
        }
        if (c.accept(')'))
            return true;
    }
}

} // namespace

const char *NpyHeader::descrOf(DataType dtype)
{
    for (const DescrEntry &e : kDescrs)
        if (e.dtype == dtype)
            return e.descr;
    return nullptr;
}

std::optional<uint64_t> NpyHeader::headerEnd(std::string_view prefix, std::string &error)
{
    if (prefix.size() < 10 || std::memcmp(prefix.data(), "\x93NUMPY", 6) != 0) {
        error = "not a .npy file (no \\x93NUMPY magic)";
        return std::nullopt;
    }
    const int major = static_cast<unsigned char>(prefix[6]);
    if (major == 1)
        return 10
            + (uint64_t(static_cast<unsigned char>(prefix[8]))
                | uint64_t(static_cast<unsigned char>(prefix[9])) << 8);
    if (major != 2 && major != 3) {
        error = "unsupported format version " + std::to_string(major) + " (1, 2 and 3 are known)";
        return std::nullopt;
    }
    if (prefix.size() < kPreambleBytes) {
        error = "truncated header (" + std::to_string(prefix.size()) + " bytes)";
        return std::nullopt;
    }
    uint64_t length = 0;
    for (int i = 3; i >= 0; --i)
        length = length << 8 | static_cast<unsigned char>(prefix[8 + size_t(i)]);
    if (length > kMaxHeaderBytes) {
        error = "header length " + std::to_string(length) + " is implausible (more than "
            + std::to_string(kMaxHeaderBytes) + " bytes)";
        return std::nullopt;
    }
    return kPreambleBytes + length;
}

std::optional<NpyHeader> NpyHeader::parse(std::string_view bytes, std::string &error)
{
    const std::optional<uint64_t> end = headerEnd(bytes, error);
    if (!end)
        return std::nullopt;
    if (*end > bytes.size()) {
        error = "header length " + std::to_string(*end) + " runs past the end of the file ("
            + std::to_string(bytes.size()) + " bytes)";
        return std::nullopt;
    }
    const uint64_t start = static_cast<unsigned char>(bytes[6]) == 1 ? 10 : kPreambleBytes;
    DictCursor c(bytes.substr(size_t(start), size_t(*end - start)));
    NpyHeader h;
    h.dataOffset = *end;
    bool haveDescr = false, haveOrder = false, haveShape = false;
    if (!c.accept('{')) {
        error = "header: expected a dict starting with '{'";
        return std::nullopt;
    }
    while (!c.accept('}')) {
        const std::optional<std::string_view> key = c.string();
        if (!key || !c.accept(':')) {
            error = "header: expected 'key': value or '}', found " + NumberText::quote(c.rest(), 20);
            return std::nullopt;
        }
        bool *seen = *key == "descr"  ? &haveDescr
            : *key == "fortran_order" ? &haveOrder
            : *key == "shape"         ? &haveShape
                                      : nullptr;
        if (!seen) {
            error = "header: unknown key " + NumberText::quote(*key)
                + " (a .npy header has 'descr', 'fortran_order' and 'shape')";
            return std::nullopt;
        }
        if (*seen) {
            error = "header: '" + std::string(*key) + "' appears twice";
            return std::nullopt;
        }
        *seen = true;
        if (*key == "descr") {
            const std::optional<std::string_view> descr = c.string();
            if (!descr) {
                error = "header: 'descr': expected a string such as '<f4' (structured dtypes are not "
                        "supported), found "
                    + NumberText::quote(c.rest(), 20);
                return std::nullopt;
            }
            if (descr->size() < 2 || ((*descr)[0] != '<' && (*descr)[0] != '|' && (*descr)[0] != '=')) {
                error = "header: 'descr': " + NumberText::quote(*descr)
                    + " is not a little-endian numeric type";
                return std::nullopt;
            }
            for (const DescrEntry &e : kDescrs)
                if (descr->substr(1) == e.descr)
                    h.dtype = e.dtype;
            if (h.dtype == DataType::Undefined) {
                error = "header: 'descr': " + NumberText::quote(*descr) + " is not supported";
                return std::nullopt;
            }
        } else if (*key == "fortran_order") {
            const std::string_view order = c.token();
            if (order == "True") {
                error = "header: 'fortran_order': True is not supported (save with np.ascontiguousarray)";
                return std::nullopt;
            }
            if (order != "False") {
                error = "header: 'fortran_order': expected True or False, got " + NumberText::quote(order);
                return std::nullopt;
            }
        } else if (!parseShape(c, h.shape, error)) {
            return std::nullopt;
        }
        if (!c.accept(',')) {
            if (c.accept('}'))
                break;
            error = "header: expected ',' or '}' after '" + std::string(*key) + "'";
            return std::nullopt;
        }
    }
    if (!c.atEnd()) {
        error = "header: unexpected text after the dict: " + NumberText::quote(c.rest(), 20);
        return std::nullopt;
    }
    for (auto [seen, key] :
        { std::pair { haveDescr, "descr" }, { haveOrder, "fortran_order" }, { haveShape, "shape" } })
        if (!seen) {
            error = std::string("header: no '") + key + "'";
            return std::nullopt;
        }
    const std::optional<uint64_t> dataBytes = ShapeSize::bytes(h.shape, h.dtype);
    if (!dataBytes) {
        error = "header: 'shape': " + ShapeSize::whyInvalid(h.shape, h.dtype);
        return std::nullopt;
    }
    h.dataBytes = *dataBytes;
    return h;
}

std::optional<NpyHeader> NpyHeader::read(InputFile &file, std::string &error)
{
    std::string bytes(size_t(std::min<uint64_t>(file.size(), kPreambleBytes)), '\0');
    if (!file.readAt(0, bytes.data(), bytes.size(), error))
        return std::nullopt;
    const std::optional<uint64_t> end = headerEnd(bytes, error);
    if (!end)
        return std::nullopt;
    if (*end > file.size()) {
        error = "header length " + std::to_string(*end) + " runs past the end of the file ("
            + std::to_string(file.size()) + " bytes)";
        return std::nullopt;
    }
    bytes.resize(size_t(*end));
    if (!file.readAt(0, bytes.data(), bytes.size(), error))
        return std::nullopt;
    std::optional<NpyHeader> header = parse(bytes, error);
    if (!header || !header->checkFileSize(file.size(), error))
        return std::nullopt;
    return header;
}

bool NpyHeader::checkFileSize(uint64_t fileSize, std::string &error) const
{
    const uint64_t available = fileSize >= dataOffset ? fileSize - dataOffset : 0;
    if (available < dataBytes) {
        error = "data: " + std::to_string(available) + " bytes for " + describe() + " ("
            + std::to_string(dataBytes) + " bytes, " + ShapeSize::formatBytes(dataBytes)
            + "): the file is truncated";
        return false;
    }
    if (available > dataBytes) {
        error = "data: " + std::to_string(available - dataBytes) + " bytes after the "
            + std::to_string(dataBytes) + " bytes of " + describe();
        return false;
    }
    return true;
}

std::string NpyHeader::describe() const
{
    return std::string(phiName(dtype)) + ShapeSize::shapeText(shape);
}

} // namespace ps
