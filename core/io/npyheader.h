#pragma once

#include "core/ir/datatype.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class InputFile;

/// The header of a NumPy `.npy` file (format versions 1.0, 2.0, 3.0), parsed strictly: the dict
/// must hold exactly 'descr', 'fortran_order' and 'shape'; descr one of `<f4 <f8 <f2 <i1 |u1 <i2
/// <i4 <i8 |b1` ('<', '|' or '='); fortran_order False (True is an error, anything else too);
/// shape a tuple of decimal integers (Python 2's `3L` accepted). The data size is computed with
/// ShapeSize, so a shape whose bytes leave int64 is an error here, before anything is allocated.
/// Errors name the field: "header: 'shape': '1.5' is not a decimal integer".
struct NpyHeader
{
    /// The most header bytes read (version 2/3 lengths above it are refused).
    static constexpr uint64_t kMaxHeaderBytes = uint64_t(1) << 20;
    /// Bytes before the header dict: magic, version, length.
    static constexpr uint64_t kPreambleBytes = 12;

    DataType dtype = DataType::Undefined;
    std::vector<int64_t> shape;
    uint64_t dataOffset = 0; ///< where the data starts (preamble + header)
    uint64_t dataBytes = 0; ///< elements * element size

    /// How many leading bytes of the file parse() needs: the preamble and the header length it
    /// declares (`prefix` holds at least the first 12 bytes or the whole file). nullopt with
    /// `error` for a bad magic, version or length.
    static std::optional<uint64_t> headerEnd(std::string_view prefix, std::string &error);
    /// Parses the first headerEnd() bytes of a file.
    static std::optional<NpyHeader> parse(std::string_view bytes, std::string &error);
    /// Reads and parses the header of `file` (its preamble, then the header length it declares,
    /// nothing more) and checks the file's size against it (checkFileSize). `error` names the file
    /// only when a read fails (InputFile's message).
    static std::optional<NpyHeader> read(InputFile &file, std::string &error);
    /// The descr spelling of `dtype` without the byte-order char ("f4"), or nullptr.
    static const char *descrOf(DataType dtype);
    /// Checks `fileSize` (the whole file) against the header: the data must fill the rest exactly.
    bool checkFileSize(uint64_t fileSize, std::string &error) const;
    /// "float32[2, 3]".
    std::string describe() const;
};

} // namespace ps
