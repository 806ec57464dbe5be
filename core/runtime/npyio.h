#pragma once

#include "core/runtime/tensor.h"

#include <string>

namespace ps {

/// NumPy `.npy` files (format versions 1.0, 2.0, 3.0; little-endian; C order). Reads
/// `<f4 <f8 <f2 <i1 <u1 <i2 <i4 <i8 |b1` and bfloat16 stored as `<V2` is not supported; a
/// Fortran-order or big-endian file is an error naming the header field.
class NpyIO
{
public:
    /// A host tensor, or an undefined tensor with `error` set ("file: header: ...").
    static Tensor read(const std::string &path, std::string &error);
    static Tensor readBuffer(std::string_view bytes, const std::string &what, std::string &error);
    /// Writes a host tensor (float16 as `<f2`) through AtomicFile (a temporary file renamed over
    /// `path`: never through a symlink or into a FIFO, never torn); false with `error` set on failure.
    static bool write(const std::string &path, const Tensor &t, std::string &error);
    static std::string toBuffer(const Tensor &t);
};

} // namespace ps
