#include "core/runtime/npyio.h"

#include "core/io/atomicfile.h"
#include "core/io/inputfile.h"
#include "core/io/npyheader.h"
#include "core/runtime/runtimeerror.h"

#include <cstring>

namespace ps {

Tensor NpyIO::readBuffer(std::string_view bytes, const std::string &what, std::string &error)
{
    auto fail = [&](const std::string &message) {
        error = what + ": " + message;
        return Tensor();
    };
    std::string why;
    const std::optional<NpyHeader> header = NpyHeader::parse(bytes, why);
    if (!header || !header->checkFileSize(bytes.size(), why))
        return fail(why);
    try {
        Tensor t = Tensor::empty(header->shape, header->dtype);
        std::memcpy(t.rawData(), bytes.data() + header->dataOffset, t.byteSize());
        return t;
    } catch (const std::exception &e) {
        return fail(std::string("data: ") + header->describe() + ": " + e.what());
    }
}

Tensor NpyIO::read(const std::string &path, std::string &error)
{
    std::optional<InputFile> file = InputFile::open(path, error);
    if (!file)
        return Tensor();
    // The header first, then the data straight into the tensor: the file's size is checked
    // against the header before anything is allocated.
    std::string why;
    const std::optional<NpyHeader> header = NpyHeader::read(*file, why);
    Tensor t;
    try {
        if (header)
            t = Tensor::empty(header->shape, header->dtype);
    } catch (const std::exception &e) {
        why = std::string("data: ") + header->describe() + ": " + e.what();
    }
    if (!t.defined()) {
        error = InputFile::displayName(path) + ": " + why;
        return Tensor();
    }
    if (!file->readAt(header->dataOffset, t.rawData(), t.byteSize(), error))
        return Tensor();
    return t;
}

std::string NpyIO::toBuffer(const Tensor &t)
{
    const char *descr = NpyHeader::descrOf(t.dtype());
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
    return AtomicFile::write(path, toBuffer(t), error);
}

} // namespace ps
