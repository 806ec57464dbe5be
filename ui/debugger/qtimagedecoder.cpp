#include "ui/debugger/qtimagedecoder.h"

#include "core/io/inputfile.h"

#include <QBuffer>
#include <QImage>
#include <QImageReader>
#include <cstring>

namespace ps {

std::optional<Image> QtImageDecoder::decode(const std::string &path, std::string &error)
{
    // Through InputFile like every reader: a FIFO or a device is refused, the size is bounded.
    const std::optional<std::string> bytes = InputFile::readAll(path, InputFile::kImageLimit, error);
    if (!bytes)
        return std::nullopt;
    QByteArray data = QByteArray::fromRawData(bytes->data(), qsizetype(bytes->size()));
    QBuffer buffer(&data);
    buffer.open(QIODevice::ReadOnly);
    QImageReader reader(&buffer);
    QImage image = reader.read();
    if (image.isNull()) {
        error = path + ": cannot decode the image: " + reader.errorString().toStdString();
        return std::nullopt;
    }
    const bool gray = image.isGrayscale();
    image = image.convertToFormat(gray ? QImage::Format_Grayscale8 : QImage::Format_RGB888);
    Image out;
    out.width = image.width();
    out.height = image.height();
    out.channels = gray ? 1 : 3;
    const size_t rowBytes = size_t(out.width) * size_t(out.channels);
    out.pixels.resize(rowBytes * size_t(out.height));
    // Scan lines are padded to 4 bytes; the Image rows are not.
    for (int y = 0; y < out.height; ++y)
        std::memcpy(out.pixels.data() + size_t(y) * rowBytes, image.constScanLine(y), rowBytes);
    return out;
}

} // namespace ps
