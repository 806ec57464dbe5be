#include "core/runtime/imagefile.h"

#include "core/io/inputfile.h"
#include "core/runtime/netpbm.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace ps {
namespace {

std::string lowerExtension(const std::string &path)
{
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(
        ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return ext;
}

} // namespace

const char *const ImageFile::kNeedsDecoder
    = "PNG/JPEG need the GUI or a conversion to .ppm (e.g. `convert in.png out.ppm`)";

bool ImageFile::isNetpbmPath(const std::string &path)
{
    const std::string ext = lowerExtension(path);
    return ext == ".ppm" || ext == ".pgm" || ext == ".pnm";
}

bool ImageFile::isImagePath(const std::string &path)
{
    const std::string ext = lowerExtension(path);
    return isNetpbmPath(path) || ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".bmp";
}

std::optional<Image> ImageFile::read(const std::string &path, const ImageDecoder &decoder, std::string &error)
{
    if (!InputFile::open(path, error))
        return std::nullopt;
    if (isNetpbmPath(path))
        return Netpbm::read(path, error);
    if (!decoder) {
        error = path + ": " + kNeedsDecoder;
        return std::nullopt;
    }
    std::optional<Image> image = decoder(path, error);
    if (image && !image->valid()) {
        error = path + ": the decoder returned an image that is not 1- or 3-channel 8-bit";
        return std::nullopt;
    }
    return image;
}

} // namespace ps
