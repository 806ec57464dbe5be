#include "core/io/pirtextreader.h"
#include "core/ir/program.h"
#include "core/runtime/imagefile.h"
#include "core/runtime/imagetensor.h"
#include "core/runtime/netpbm.h"
#include "core/runtime/npyio.h"
#include "core/runtime/tensorsource.h"

#include <QtTest>
#include <cmath>

using namespace ps;

namespace {

QString fixture(const char *name)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/image/") + QLatin1String(name);
}

Type f32(std::vector<int64_t> dims)
{
    return Type::denseTensor(DataType::Float32, std::move(dims));
}

Image load(const char *name)
{
    std::string error;
    std::optional<Image> image = Netpbm::read(fixture(name).toStdString(), error);
    if (!image)
        qWarning("%s", error.c_str());
    return image.value_or(Image {});
}

/// max |a - b| over two tensors of the same shape (infinity when the shapes differ).
double maxDiff(const Tensor &a, const Tensor &b)
{
    if (!a.defined() || !b.defined() || a.shape() != b.shape())
        return INFINITY;
    const std::vector<double> x = a.toDoubles(), y = b.toDoubles();
    double d = 0;
    for (size_t i = 0; i < x.size(); ++i)
        d = std::max(d, std::fabs(x[i] - y[i]));
    return d;
}

std::string parseError(const std::string &bytes)
{
    std::string error;
    const std::optional<Image> image = Netpbm::parse(bytes, "bad.ppm", error);
    return image ? std::string("parsed") : error;
}

const char *const kTwoInputs = R"({
    (%0) = "pd_op.data" () {dtype:int64,name:"label",place:Place(undefined:0),shape:[-1,1],stop_gradient:[true]} : () -> tensor<-1x1xi64>
    (%1) = "pd_op.data" () {dtype:float32,name:"pixels",place:Place(undefined:0),shape:[-1,3,-1,-1],stop_gradient:[true]} : () -> tensor<-1x3x-1x-1xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"extra",place:Place(undefined:0),shape:[1,3,4,4],stop_gradient:[true]} : () -> tensor<1x3x4x4xf32>
}
)";

} // namespace

/// Images as inputs: the netpbm reader (good and malformed files), ImageTensor's resize, layouts
/// and normalisation against tensors Paddle computed (tools/make_image_fixtures.py), and
/// TensorSource's image kind.
class TestImageTensor : public QObject
{
    Q_OBJECT

private slots:
    void readsBinaryNetpbm()
    {
        const Image rgb = load("rgb5x4.ppm");
        QVERIFY(rgb.valid());
        QCOMPARE(rgb.width, 5);
        QCOMPARE(rgb.height, 4);
        QCOMPARE(rgb.channels, 3);
        const Image gray = load("gray5x4.pgm");
        QVERIFY(gray.valid());
        QCOMPARE(gray.channels, 1);

        // Comments anywhere in the header, 16-bit samples scaled to 8 bits, maxval 15.
        std::string error;
        std::string bytes = std::string("P5 # gray\n2 # width\n1\n65535\n") + char(0xff) + char(0xff)
            + char(0x80) + char(0x00);
        std::optional<Image> wide = Netpbm::parse(bytes, "wide.pgm", error);
        QVERIFY2(wide, error.c_str());
        QCOMPARE(int(wide->pixels[0]), 255);
        QCOMPARE(int(wide->pixels[1]), 128);
        bytes = std::string("P6\n1 1\n15\n") + char(15) + char(0) + char(5);
        std::optional<Image> small = Netpbm::parse(bytes, "small.ppm", error);
        QVERIFY2(small, error.c_str());
        QCOMPARE(int(small->pixels[0]), 255);
        QCOMPARE(int(small->pixels[2]), 85);

        // Round trip through write().
        QTemporaryDir dir;
        const std::string path = dir.filePath("copy.ppm").toStdString();
        QVERIFY2(Netpbm::write(path, rgb, error), error.c_str());
        const std::optional<Image> copy = Netpbm::read(path, error);
        QVERIFY(copy);
        QCOMPARE(copy->pixels, rgb.pixels);
    }

    void rejectsMalformedNetpbm_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QTest::newRow("png") << QByteArray("\x89PNG\r\n") << "not a netpbm image";
        QTest::newRow("ascii") << QByteArray("P3\n1 1\n255\n1 2 3\n") << "plain (ASCII) netpbm P3";
        QTest::newRow("bitmap") << QByteArray("P4\n1 1\n\x80") << "bitmap netpbm P4";
        QTest::newRow("magic") << QByteArray("P7\n1 1\n255\n") << "unknown netpbm magic number P7";
        QTest::newRow("no width") << QByteArray("P6\nx 1\n255\n") << "bad width/height";
        QTest::newRow("zero height") << QByteArray("P6\n1 0\n255\n") << "bad width/height";
        QTest::newRow("maxval") << QByteArray("P5\n1 1\n70000\n\x01") << "bad maxval";
        QTest::newRow("separator") << QByteArray("P5\n1 1\n255") << "no whitespace byte after the maxval";
        QTest::newRow("truncated") << QByteArray("P6\n2 2\n255\n\x01\x02\x03") << "truncated: 2x2 RGB";
        QTest::newRow("above maxval") << QByteArray("P5\n1 1\n10\n\x0b") << "above maxval 10";
    }

    void rejectsMalformedNetpbm()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString error = QString::fromStdString(parseError(bytes.toStdString()));
        QVERIFY2(error.startsWith(QStringLiteral("bad.ppm: ")), qPrintable(error));
        QVERIFY2(error.contains(message), qPrintable(error));

        std::string why;
        QVERIFY(!Netpbm::read("/nonexistent/x.ppm", why));
        QVERIFY2(QString::fromStdString(why).contains("/nonexistent/x.ppm: does not exist"), why.c_str());
    }

    void imageFilesNeedADecoderBeyondNetpbm()
    {
        QVERIFY(ImageFile::isImagePath("a/b/CAT.JPG"));
        QVERIFY(ImageFile::isImagePath("x.pgm"));
        QVERIFY(!ImageFile::isImagePath("x.npy"));
        QVERIFY(ImageFile::isNetpbmPath("x.PPM"));
        QTemporaryDir dir;
        QFile png(dir.filePath("cat.png"));
        QVERIFY(png.open(QIODevice::WriteOnly));
        png.write("\x89PNG");
        png.close();
        std::string error;
        QVERIFY(!ImageFile::read(png.fileName().toStdString(), {}, error));
        QVERIFY2(QString::fromStdString(error).contains("PNG/JPEG need the GUI or a conversion to .ppm"),
            error.c_str());
        // A decoder is used for the other formats; a netpbm file never goes to it.
        int calls = 0;
        const ImageDecoder decoder = [&calls](const std::string &, std::string &) -> std::optional<Image> {
            ++calls;
            return Image { 1, 1, 1, { 7 } };
        };
        const std::optional<Image> decoded = ImageFile::read(png.fileName().toStdString(), decoder, error);
        QVERIFY(decoded);
        QCOMPARE(int(decoded->pixels[0]), 7);
        QVERIFY(ImageFile::read(fixture("rgb5x4.ppm").toStdString(), decoder, error));
        QCOMPARE(calls, 1);
        QVERIFY(!ImageFile::read(dir.filePath("missing.ppm").toStdString(), decoder, error));
        QVERIFY2(QString::fromStdString(error).contains("missing.ppm: does not exist"), error.c_str());
    }

    void resizeIsHalfPixelBilinear()
    {
        // A 2x1 gray image [0, 100] widened to 4: source x = (i + 0.5) / 2 - 0.5 = -0.25, 0.25,
        // 0.75, 1.25 -> clamped 0, 0.25, 0.75, then the last column repeated.
        const Image tiny { 2, 1, 1, { 0, 100 } };
        const std::vector<float> wide = ImageTensor::resize(tiny, 4, 1, 1);
        QCOMPARE(wide, (std::vector<float> { 0.f, 25.f, 75.f, 100.f }));
        // Same size: identity; 3 -> 1 picks the middle.
        const Image row { 3, 1, 1, { 10, 20, 60 } };
        QCOMPARE(ImageTensor::resize(row, 3, 1, 1), (std::vector<float> { 10.f, 20.f, 60.f }));
        QCOMPARE(ImageTensor::resize(row, 1, 1, 1), (std::vector<float> { 20.f }));
        // Gray <-> RGB.
        const Image red { 1, 1, 3, { 200, 100, 50 } };
        QVERIFY(std::fabs(ImageTensor::resize(red, 1, 1, 1)[0] - (0.299f * 200 + 0.587f * 100 + 0.114f * 50))
            < 1e-4);
        QCOMPARE(
            ImageTensor::resize(Image { 1, 1, 1, { 9 } }, 1, 1, 3), (std::vector<float> { 9.f, 9.f, 9.f }));
    }

    void matchesPaddle_data()
    {
        QTest::addColumn<QString>("image");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<QString>("shape");
        QTest::addColumn<bool>("normalize");
        QTest::addColumn<QString>("expected");
        QTest::newRow("rgb NCHW 3x7 imagenet")
            << "rgb5x4.ppm" << int(DataType::Float32) << "1,3,3,7" << true << "rgb5x4_nchw_3x7_imagenet.npy";
        QTest::newRow("rgb to gray, dynamic batch")
            << "rgb5x4.ppm" << int(DataType::Float32) << "-1,1,6,3" << true << "rgb5x4_gray_6x3_imagenet.npy";
        QTest::newRow("gray to RGB NHWC, batch 2, float64")
            << "gray5x4.pgm" << int(DataType::Float64) << "2,2,2,3" << false << "gray5x4_nhwc_2x2_none.npy";
    }

    void matchesPaddle()
    {
        QFETCH(QString, image);
        QFETCH(int, dtype);
        QFETCH(QString, shape);
        QFETCH(bool, normalize);
        QFETCH(QString, expected);
        std::vector<int64_t> dims;
        for (const QString &d : shape.split(','))
            dims.push_back(d.toLongLong());
        std::string error;
        const Tensor t
            = ImageTensor::fromImage(load(qPrintable(image)), Type::denseTensor(DataType(dtype), dims),
                normalize ? ImageTensor::Normalization::ImageNet : ImageTensor::Normalization::None, error);
        QVERIFY2(t.defined(), error.c_str());
        QCOMPARE(int(t.dtype()), dtype);
        const Tensor paddle = NpyIO::read(fixture(qPrintable(expected)).toStdString(), error);
        QVERIFY2(paddle.defined(), error.c_str());
        const double diff = maxDiff(t, paddle);
        QVERIFY2(diff < 2e-6, qPrintable(QString::number(diff)));
    }

    void dynamicDimsTakeTheImageSize()
    {
        // NHWC with dynamic N, H, W: no resize, so the values are the samples / 255 exactly.
        const Image rgb = load("rgb5x4.ppm");
        std::string error;
        const Tensor t
            = ImageTensor::fromImage(rgb, f32({ -1, -1, -1, 3 }), ImageTensor::Normalization::None, error);
        QVERIFY2(t.defined(), error.c_str());
        QCOMPARE(t.shape(), (std::vector<int64_t> { 1, 4, 5, 3 }));
        const std::vector<double> v = t.toDoubles();
        for (size_t i = 0; i < v.size(); ++i)
            QVERIFY(std::fabs(v[i] - rgb.pixels[i] / 255.0) < 1e-7);
        // NCHW with a dynamic channel dim takes the image's channels; ImageNet normalisation.
        const Tensor c
            = ImageTensor::fromImage(rgb, f32({ 1, -1, 4, 5 }), ImageTensor::Normalization::ImageNet, error);
        QCOMPARE(c.shape(), (std::vector<int64_t> { 1, 3, 4, 5 }));
        // Element (c=2, y=1, x=3): blue of pixel (3, 1).
        const double blue = rgb.at(3, 1, 2) / 255.0;
        QVERIFY(std::fabs(c.toDoubles()[2 * 20 + 1 * 5 + 3] - (blue - 0.406) / 0.225) < 1e-6);
    }

    void rejectsNonImageTypes()
    {
        const Image rgb = load("rgb5x4.ppm");
        std::string error;
        QVERIFY(!ImageTensor::fromImage(rgb, Type::denseTensor(DataType::Int64, { 1, 3, 4, 4 }),
            ImageTensor::Normalization::ImageNet, error)
                     .defined());
        QVERIFY2(QString::fromStdString(error).contains("becomes a float tensor, the input is int64"),
            error.c_str());
        QVERIFY(!ImageTensor::fromImage(rgb, f32({ 3, 4, 4 }), ImageTensor::Normalization::ImageNet, error)
                     .defined());
        QVERIFY2(QString::fromStdString(error).contains("rank 4 (NCHW or NHWC), the input has rank 3"),
            error.c_str());
        QVERIFY(!ImageTensor::fromImage(rgb, f32({ 1, 5, 4, 4 }), ImageTensor::Normalization::ImageNet, error)
                     .defined());
        QVERIFY2(QString::fromStdString(error).contains("is 1 or 3 channels"), error.c_str());
        std::string why;
        QCOMPARE(ImageTensor::layoutOf(f32({ 1, 224, 224, 3 }), why).value(), ImageTensor::Layout::NHWC);
        QCOMPARE(ImageTensor::layoutOf(f32({ -1, 3, 224, 224 }), why).value(), ImageTensor::Layout::NCHW);
        QCOMPARE(ImageTensor::parseNormalization("none").value(), ImageTensor::Normalization::None);
        QVERIFY(!ImageTensor::parseNormalization("imagenet2"));
    }

    void tensorSourceServesTheImageInput()
    {
        LoadResult r = PirTextReader::readString(kTwoInputs, "test");
        QVERIFY(r.ok());
        const Program &program = *r.program;
        std::string error;
        std::optional<TensorSource> s = TensorSource::fromText(fixture("rgb5x4.ppm").toStdString(), 5, error);
        QVERIFY2(s, error.c_str());
        QCOMPARE(s->kind(), TensorSource::Kind::Image);
        QVERIFY(s->prepare(program, error));
        // The first image-shaped input (the int64 label is skipped); the others are random.
        QCOMPARE(s->imageInput(), std::string("pixels"));
        QVERIFY(QString::fromStdString(s->describe()).contains("5x4 RGB"));
        const Tensor pixels = s->get("pixels", f32({ -1, 3, -1, -1 }), true, error);
        QCOMPARE(pixels.shape(), (std::vector<int64_t> { 1, 3, 4, 5 }));
        const Tensor direct = ImageTensor::fromImage(
            *s->image(), f32({ -1, 3, -1, -1 }), ImageTensor::Normalization::ImageNet, error);
        QCOMPARE(maxDiff(pixels, direct), 0.0);
        const Tensor extra = s->get("extra", f32({ 1, 3, 4, 4 }), true, error);
        const Tensor random = TensorSource::random(5).get("extra", f32({ 1, 3, 4, 4 }), true, error);
        QCOMPARE(maxDiff(extra, random), 0.0);
        const Tensor label = s->get("label", Type::denseTensor(DataType::Int64, { -1, 1 }), true, error);
        QVERIFY(label.defined());
        QCOMPARE(label.dtype(), DataType::Int64);

        // Not normalised: [0, 1].
        s->setImageNormalization(ImageTensor::Normalization::None);
        const Tensor raw = s->get("pixels", f32({ -1, 3, -1, -1 }), true, error);
        for (double v : raw.toDoubles())
            QVERIFY(v >= 0 && v <= 1);

        // A program without an image-shaped input says so and lists its inputs.
        LoadResult flat = PirTextReader::readString(R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4,6],stop_gradient:[true]} : () -> tensor<4x6xf32>
}
)",
            "flat");
        QVERIFY(flat.ok());
        QVERIFY(!s->prepare(*flat.program, error));
        QVERIFY2(
            QString::fromStdString(error).contains("no input of the program takes an image"), error.c_str());
        QVERIFY2(
            QString::fromStdString(error).contains("x: an image becomes a tensor of rank 4"), error.c_str());

        // fromText: a bad image names the file; a PNG without a decoder gives the conversion hint.
        QVERIFY(!TensorSource::fromText("/nonexistent/cat.jpg", 0, error));
        QVERIFY2(QString::fromStdString(error).contains("/nonexistent/cat.jpg"), error.c_str());
        QTemporaryDir dir;
        QFile bad(dir.filePath("bad.pgm"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("P5\n4 4\n255\n\x01");
        bad.close();
        QVERIFY(!TensorSource::fromText(bad.fileName().toStdString(), 0, error));
        QVERIFY2(QString::fromStdString(error).contains("bad.pgm: truncated"), error.c_str());
    }
};

QTEST_GUILESS_MAIN(TestImageTensor)
#include "tst_imagetensor.moc"
