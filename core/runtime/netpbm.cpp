#include "core/runtime/netpbm.h"

#include "core/io/inputfile.h"

#include <cctype>
#include <fstream>

namespace ps {
namespace {

/// Reads header tokens: skips whitespace and `#` comments; the caller checks the separator byte
/// after the last one.
class HeaderScanner
{
public:
    explicit HeaderScanner(std::string_view bytes)
        : m_bytes(bytes)
    {
    }

    /// The next decimal number, or -1 when the next token is not one (or it overflows 65535 * 2^15).
    long long number()
    {
        skip();
        const size_t start = m_pos;
        long long value = 0;
        while (m_pos < m_bytes.size() && std::isdigit(static_cast<unsigned char>(m_bytes[m_pos]))) {
            value = value * 10 + (m_bytes[m_pos] - '0');
            if (value > (1ll << 31))
                return -1;
            ++m_pos;
        }
        return m_pos == start ? -1 : value;
    }
    size_t position() const { return m_pos; }

private:
    void skip()
    {
        while (m_pos < m_bytes.size()) {
            const char c = m_bytes[m_pos];
            if (c == '#') {
                while (m_pos < m_bytes.size() && m_bytes[m_pos] != '\n' && m_bytes[m_pos] != '\r')
                    ++m_pos;
            } else if (std::isspace(static_cast<unsigned char>(c))) {
                ++m_pos;
            } else {
                break;
            }
        }
    }

    std::string_view m_bytes;
    size_t m_pos = 2; // after the magic
};

} // namespace

std::optional<Image> Netpbm::parse(std::string_view bytes, const std::string &name, std::string &error)
{
    auto fail = [&](const std::string &what) {
        error = name + ": " + what;
        return std::nullopt;
    };
    if (bytes.size() < 2 || bytes[0] != 'P')
        return fail("not a netpbm image (no P5/P6 magic number)");
    const char kind = bytes[1];
    if (kind == '1' || kind == '2' || kind == '3')
        return fail(std::string("plain (ASCII) netpbm P") + kind
            + " is not supported; save it as binary P5 (gray) or P6 (RGB)");
    if (kind == '4')
        return fail("bitmap netpbm P4 is not supported; save it as binary P5 (gray) or P6 (RGB)");
    if (kind != '5' && kind != '6')
        return fail(std::string("unknown netpbm magic number P") + kind + " (P5 and P6 are read)");
    HeaderScanner header(bytes);
    const long long width = header.number();
    const long long height = header.number();
    const long long maxval = header.number();
    if (width <= 0 || height <= 0)
        return fail(
            "bad width/height in the header (two positive numbers after P" + std::string(1, kind) + ")");
    if (width > 65536 || height > 65536)
        return fail("image of " + std::to_string(width) + "x" + std::to_string(height)
            + " is larger than 65536 pixels on a side");
    if (maxval <= 0 || maxval > 65535)
        return fail("bad maxval in the header (1..65535)");
    size_t pos = header.position();
    if (pos >= bytes.size() || !std::isspace(static_cast<unsigned char>(bytes[pos])))
        return fail("no whitespace byte after the maxval");
    ++pos;
    Image image;
    image.width = int(width);
    image.height = int(height);
    image.channels = kind == '5' ? 1 : 3;
    const size_t samples = size_t(width) * size_t(height) * size_t(image.channels);
    const size_t bytesPerSample = maxval > 255 ? 2 : 1;
    const size_t available = bytes.size() - pos;
    if (available < samples * bytesPerSample)
        return fail("truncated: " + std::to_string(width) + "x" + std::to_string(height) + " "
            + (image.channels == 1 ? "gray" : "RGB") + " with maxval " + std::to_string(maxval) + " needs "
            + std::to_string(samples * bytesPerSample) + " bytes of samples, the file has "
            + std::to_string(available));
    image.pixels.resize(samples);
    const auto *data = reinterpret_cast<const unsigned char *>(bytes.data() + pos);
    for (size_t i = 0; i < samples; ++i) {
        long long v
            = bytesPerSample == 2 ? (static_cast<long long>(data[2 * i]) << 8) | data[2 * i + 1] : data[i];
        if (v > maxval)
            return fail("sample " + std::to_string(i) + " is " + std::to_string(v) + ", above maxval "
                + std::to_string(maxval));
        if (maxval != 255)
            v = (v * 255 + maxval / 2) / maxval;
        image.pixels[i] = uint8_t(v);
    }
    return image;
}

std::optional<Image> Netpbm::read(const std::string &path, std::string &error)
{
    const std::optional<std::string> bytes = InputFile::readAll(path, InputFile::kImageLimit, error);
    if (!bytes)
        return std::nullopt;
    return parse(*bytes, InputFile::displayName(path), error);
}

bool Netpbm::write(const std::string &path, const Image &image, std::string &error)
{
    if (!image.valid()) {
        error = path + ": not a valid 1- or 3-channel image";
        return false;
    }
    std::ofstream out(path, std::ios::binary);
    if (!out) {
        error = path + ": cannot write the file";
        return false;
    }
    out << (image.channels == 1 ? "P5" : "P6") << "\n" << image.width << " " << image.height << "\n255\n";
    out.write(reinterpret_cast<const char *>(image.pixels.data()), std::streamsize(image.pixels.size()));
    if (!out) {
        error = path + ": write failed";
        return false;
    }
    return true;
}

} // namespace ps
