#pragma once

#include "core/runtime/image.h"

#include <optional>
#include <string>

namespace ps {

/// The GUI's ImageDecoder: any format QImageReader reads (PNG, JPEG, BMP, ...), as 8-bit gray
/// when the picture is grayscale, else RGB (alpha dropped). Safe on worker threads.
class QtImageDecoder
{
public:
    static std::optional<Image> decode(const std::string &path, std::string &error);
};

} // namespace ps
