#include "core/runtime/npyio.h"

#include "core/runtime/runtimeerror.h"

#include <cstring>
#include <fstream>
#include <sstream>

namespace ps {
namespace {

struct DescrEntry
{
    const char *descr;
    DataType dtype;
};

// '<' little-endian, '|' not applicable (one byte); '=' native is little-endian on our targets.
constexpr DescrEntry kDescrs[]
    = { { "f4", DataType::Float32 }, { "f8", DataType::Float64 }, { "f2", DataType::Float16 },
          { "i1", DataType::Int8 }, { "u1", DataType::UInt8 }, { "i2", DataType::Int16 },
          { "i4", DataType::Int32 }, { "i8", DataType::Int64 }, { "b1", DataType::Bool } };

/// The value text after `'key':` in the header dict, up to the matching delimiter.
bool headerField(const std::string &header, const char *key, std::string &out)
{
    const std::string needle = std::string("'") + key + "'";
    size_t pos = header.find(needle);
    if (pos == std::string::npos)
        return false;
    pos = header.find(':', pos + needle.size());
    if (pos == std::string::npos)
        return false;
    ++pos;
    while (pos < header.size() && header[pos] == ' ')
        ++pos;
    if (pos >= header.size())
        return false;
    size_t end;
    if (header[pos] == '\'') {
        end = header.find('\'', pos + 1);
        if (end == std::string::npos)
            return false;
        out = header.substr(pos + 1, end - pos - 1);
    } else if (header[pos] == '(') {
        end = header.find(')', pos);
        if (end == std::string::npos)
            return false;
        out = header.substr(pos + 1, end - pos - 1);
    } else {
        end = header.find_first_of(",}", pos);
        out = header.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    }
    return true;
}

} // namespace

Tensor NpyIO::readBuffer(std::string_view bytes, const std::string &what, std::string &error)
{
    auto fail = [&](const std::string &message) {
        error = what + ": " + message;
        return Tensor();
    };
    if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
        return fail("not a .npy file (no \\x93NUMPY magic)");
    const int major = static_cast<unsigned char>(bytes[6]);
    size_t headerLen, headerStart;
    if (major == 1) {
        headerLen = size_t(static_cast<unsigned char>(bytes[8]))
            | size_t(static_cast<unsigned char>(bytes[9])) << 8;
        headerStart = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12)
            return fail("truncated header");
        headerLen = 0;
        for (int i = 3; i >= 0; --i)
            headerLen = headerLen << 8 | static_cast<unsigned char>(bytes[8 + size_t(i)]);
        headerStart = 12;
    } else {
        return fail("unsupported format version " + std::to_string(major));
    }
    if (headerStart + headerLen > bytes.size())
        return fail("header length " + std::to_string(headerLen) + " runs past the end of the file");
    const std::string header(bytes.substr(headerStart, headerLen));
    std::string descr, fortran, shapeText;
    if (!headerField(header, "descr", descr))
        return fail("header: no 'descr'");
    if (!headerField(header, "fortran_order", fortran))
        return fail("header: no 'fortran_order'");
    if (!headerField(header, "shape", shapeText))
        return fail("header: no 'shape'");
    if (fortran.rfind("True", 0) == 0)
        return fail("header: 'fortran_order': True is not supported (save with np.ascontiguousarray)");
    if (descr.size() < 3 || (descr[0] != '<' && descr[0] != '|' && descr[0] != '='))
        return fail("header: 'descr': '" + descr + "' is not a little-endian numeric type");
    DataType dtype = DataType::Undefined;
    for (const DescrEntry &e : kDescrs)
        if (descr.substr(1) == e.descr)
            dtype = e.dtype;
    if (dtype == DataType::Undefined)
        return fail("header: 'descr': '" + descr + "' is not supported");
    std::vector<int64_t> shape;
    std::stringstream dims(shapeText);
    std::string item;
    while (std::getline(dims, item, ',')) {
        const size_t first = item.find_first_not_of(" L");
        if (first == std::string::npos)
            continue;
        try {
            shape.push_back(std::stoll(item.substr(first)));
        } catch (const std::exception &) {
            return fail("header: 'shape': bad dimension '" + item + "'");
        }
        if (shape.back() < 0)
            return fail("header: 'shape': negative dimension");
    }
    Tensor t = Tensor::empty(shape, dtype);
    const size_t dataStart = headerStart + headerLen;
    if (bytes.size() - dataStart < t.byteSize())
        return fail("data: " + std::to_string(bytes.size() - dataStart) + " bytes for " + t.describe() + " ("
            + std::to_string(t.byteSize()) + " bytes)");
    std::memcpy(t.rawData(), bytes.data() + dataStart, t.byteSize());
    return t;
}

Tensor NpyIO::read(const std::string &path, std::string &error)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = path + ": cannot open";
        return Tensor();
    }
    std::ostringstream buffer;
    buffer << in.rdbuf();
    return readBuffer(buffer.str(), path, error);
}

std::string NpyIO::toBuffer(const Tensor &t)
{
    const char *descr = nullptr;
    for (const DescrEntry &e : kDescrs)
        if (e.dtype == t.dtype())
            descr = e.descr;
    if (!descr)
        throw RuntimeError("cannot write " + t.describe() + " as .npy");
    std::string shape = "(";
    for (size_t i = 0; i < t.rank(); ++i)
        shape += std::to_string(t.dim(i)) + (t.rank() == 1 ? "," : (i + 1 < t.rank() ? ", " : ""));
    shape += ")";
    const char order
        = (t.dtype() == DataType::Bool || t.dtype() == DataType::Int8 || t.dtype() == DataType::UInt8) ? '|'
                                                                                                       : '<';
    std::string header
        = std::string("{'descr': '") + order + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    const size_t total = 10 + header.size() + 1;
    header.append((64 - total % 64) % 64, ' ');
    header += '\n';
    std::string out("\x93NUMPY\x01\x00", 8);
    out += char(header.size() & 0xff);
    out += char(header.size() >> 8);
    out += header;
    out.append(static_cast<const char *>(t.rawData()), t.byteSize());
    return out;
}

bool NpyIO::write(const std::string &path, const Tensor &t, std::string &error)
{
    std::ofstream out(path, std::ios::binary);
    if (!out) {
        error = path + ": cannot create";
        return false;
    }
    const std::string bytes = toBuffer(t);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    if (!out) {
        error = path + ": write failed";
        return false;
    }
    return true;
}

} // namespace ps
