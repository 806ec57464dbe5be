#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace ps {

/// A decoded picture: `height` rows of `width` pixels, each `channels` 8-bit samples interleaved
/// (1 = gray, 3 = RGB in that order). Row-major, no padding: pixels.size() == width * height *
/// channels.
struct Image
{
    int width = 0;
    int height = 0;
    int channels = 0;
    std::vector<uint8_t> pixels;

    bool valid() const
    {
        return width > 0 && height > 0 && (channels == 1 || channels == 3)
            && pixels.size() == size_t(width) * size_t(height) * size_t(channels);
    }
    uint8_t at(int x, int y, int c) const
    {
        return pixels[(size_t(y) * size_t(width) + size_t(x)) * size_t(channels) + size_t(c)];
    }
};

/// Decodes an image file the core cannot read itself (PNG, JPEG, ...): the image, or nullopt with
/// `error` set. The GUI registers one built on QImage; the core reads netpbm without one.
using ImageDecoder = std::function<std::optional<Image>(const std::string &path, std::string &error)>;

} // namespace ps
