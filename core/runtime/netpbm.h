#pragma once

#include "core/runtime/image.h"

#include <optional>
#include <string>
#include <string_view>

namespace ps {

/// Binary netpbm images: P5 (PGM, gray) and P6 (PPM, RGB), the formats `convert in.png out.ppm`
/// and `pnmtopng`'s siblings write. The header is magic, width, height and maxval separated by
/// whitespace, with `#` comments to the end of a line, then exactly one whitespace byte before
/// the samples; maxval 1..255 gives one byte per sample, 256..65535 two (big-endian). Samples are
/// scaled to 0..255 when maxval is not 255. Plain (ASCII) P1-P3 and bitmap P4 are rejected with
/// a message saying so.
class Netpbm
{
public:
    /// The image in `path`, or nullopt with `error` naming the file and what is wrong.
    static std::optional<Image> read(const std::string &path, std::string &error);
    /// Parses the bytes of a file; `name` prefixes the messages.
    static std::optional<Image> parse(std::string_view bytes, const std::string &name, std::string &error);
    /// Writes P5 (1 channel) or P6 (3 channels) with maxval 255.
    static bool write(const std::string &path, const Image &image, std::string &error);
};

} // namespace ps
