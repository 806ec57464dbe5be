#pragma once

#include "core/runtime/image.h"

#include <optional>
#include <string>

namespace ps {

/// Image files as an input source: netpbm (.ppm/.pgm/.pnm) read by the core, the other formats
/// (.png, .jpg/.jpeg, .bmp) through an ImageDecoder the application registers.
class ImageFile
{
public:
    /// The message when a PNG/JPEG/BMP is given and no decoder is there (the CLI).
    static const char *const kNeedsDecoder;

    /// The path ends in .ppm, .pgm, .pnm, .png, .jpg, .jpeg or .bmp (any case).
    static bool isImagePath(const std::string &path);
    /// .ppm, .pgm or .pnm.
    static bool isNetpbmPath(const std::string &path);
    /// Netpbm through Netpbm::read, anything else through `decoder`; nullopt with `error` naming
    /// the file and what is wrong (kNeedsDecoder when there is no decoder).
    static std::optional<Image> read(
        const std::string &path, const ImageDecoder &decoder, std::string &error);
};

} // namespace ps
