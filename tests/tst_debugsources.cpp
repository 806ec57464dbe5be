#include "core/io/pirtextreader.h"
#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/imagetensor.h"
#include "core/runtime/netpbm.h"
#include "core/runtime/npyio.h"
#include "ui/debugger/debuggeractions.h"
#include "ui/debugger/debuggerpanel.h"
#include "ui/debugger/debuggertoolbar.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/debugsourcesdialog.h"
#include "ui/debugger/elidingbutton.h"
#include "ui/debugger/qtimagedecoder.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

using namespace ps;

namespace {

using State = DebugSession::State;
using Kind = DebugSources::Kind;

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
const QString kRgb = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/image/rgb5x4.ppm");

std::shared_ptr<const Program> loadFile(const QString &path)
{
    LoadResult r = loadProgram(path.toStdString());
    return r.ok() ? std::shared_ptr<const Program>(std::move(r.program)) : nullptr;
}

bool waitIdle(DebugSession &s, int timeout = 60000)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeout) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (s.state() != State::Running)
            return true;
        QTest::qWait(5);
    }
    return false;
}

const Operation *firstOp(const Program &program, std::string_view name)
{
    for (const Operation *op : program.block().ops())
        if (op->name() == name)
            return op;
    return nullptr;
}

/// Starts a session (paused at the first op), runs it to the end and returns the data op's value.
Tensor inputAfterRun(DebugSession &s, const Program &program)
{
    s.continueRun();
    if (!waitIdle(s) || s.state() != State::Finished)
        return {};
    const Operation *data = firstOp(program, "pd_op.data");
    return data ? s.hostValue(data->result(0)) : Tensor();
}

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

/// What the core makes of `image` for the example's input (float32[-1, 1, 28, 28]).
Tensor coreInput(const Program &program, const Image &image, ImageTensor::Normalization n)
{
    std::string error;
    return ImageTensor::fromImage(image, firstOp(program, "pd_op.data")->result(0).type(), n, error);
}

bool itemEnabled(QComboBox *combo, Kind kind)
{
    auto *model = qobject_cast<QStandardItemModel *>(combo->model());
    const int row = combo->findData(int(kind), Qt::UserRole);
    return model && row >= 0 && model->item(row)->isEnabled();
}

} // namespace

/// Choosing the debugger's inputs and parameters: the dialog, the toolbar button, image inputs
/// (netpbm read by the core, PNG through QImage) against the core's ImageTensor, .npy folders,
/// chosen .pdiparams files, bad files reported in the status, and the choice kept across targets.
class TestDebugSources : public QObject
{
    Q_OBJECT

private slots:
    void dialogOffersWhatTheTargetHas()
    {
        auto program = loadFile(kExample);
        QVERIFY(program);
        DebugSession s;
        s.setProgram(program, kExample);
        DebugSourcesDialog d(&s);
        QCOMPARE(d.sources(), s.sources());
        QCOMPARE(d.sources().params, Kind::Pdiparams);
        // No bundle: its item is there but disabled; inputs cannot come from .pdiparams.
        QVERIFY(!itemEnabled(d.inputsCombo(), Kind::Bundle));
        QVERIFY(itemEnabled(d.inputsCombo(), Kind::Image));
        QVERIFY(itemEnabled(d.paramsCombo(), Kind::Pdiparams));
        QCOMPARE(d.inputsCombo()->findData(int(Kind::Pdiparams), Qt::UserRole), -1);
        QCOMPARE(d.paramsCombo()->findData(int(Kind::Image), Qt::UserRole), -1);
        QVERIFY(!d.inputsPathEdit()->parentWidget()->isVisibleTo(&d));

        // A path kind shows its path row; OK refuses a missing path and says why.
        d.inputsCombo()->setCurrentIndex(d.inputsCombo()->findData(int(Kind::NpyDirectory), Qt::UserRole));
        QVERIFY(d.inputsPathEdit()->parentWidget()->isVisibleTo(&d));
        QVERIFY(!d.normalizeCheck()->isVisibleTo(&d));
        d.inputsPathEdit()->setText(QStringLiteral("/nonexistent/folder"));
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Rejected));
        QVERIFY(d.errorLabel()->text().contains(QStringLiteral("/nonexistent/folder is not a folder")));
        QVERIFY(d.errorLabel()->isVisibleTo(&d));
        d.inputsCombo()->setCurrentIndex(d.inputsCombo()->findData(int(Kind::Image), Qt::UserRole));
        QVERIFY(!d.errorLabel()->isVisibleTo(&d)); // the refused choice is gone
        QVERIFY(d.normalizeCheck()->isVisibleTo(&d));
        d.inputsPathEdit()->setText(kRgb);
        d.seedSpin()->setValue(7);
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        const DebugSources chosen = d.sources();
        QCOMPARE(chosen.inputs, Kind::Image);
        QCOMPARE(chosen.inputsPath, kRgb.toStdString());
        QCOMPARE(chosen.seed, uint64_t(7));
        QCOMPARE(chosen.params, Kind::Pdiparams);
        QVERIFY(chosen.paramsPath.empty());
    }

    void toolbarShowsTheChoice()
    {
        auto program = loadFile(kExample);
        QVERIFY(program);
        DebugSession s;
        DebuggerActions actions(&s);
        DebuggerToolBar bar(&s, &actions);
        s.setProgram(program, kExample);
        QCOMPARE(bar.sourcesButton()->text(), QStringLiteral("Inputs: random (seed 0) · Params: .pdiparams"));
        QVERIFY(bar.sourcesButton()->toolTip().contains(QStringLiteral("lenet_bn.pdiparams")));
        DebugSources chosen = s.sources();
        chosen.inputs = Kind::Image;
        chosen.inputsPath
            = "/a/very/long/path/that/goes/on/and/on/and/on/to/the/" + std::string(80, 'x') + "_end.ppm";
        s.setSources(chosen);
        const QString text = bar.sourcesButton()->text();
        // Long file names lose their middle: the kinds and both ends stay readable.
        QVERIFY2(text.startsWith(QStringLiteral("Inputs: xxx")), qPrintable(text));
        QVERIFY2(text.endsWith(QStringLiteral("end.ppm · Params: .pdiparams")), qPrintable(text));
        QVERIFY2(bar.sourcesButton()->fullText().endsWith(QStringLiteral("_end.ppm · Params: .pdiparams")),
            qPrintable(bar.sourcesButton()->fullText()));
        QVERIFY(text.contains(QChar(0x2026)));
        QVERIFY(bar.sourcesButton()->toolTip().contains(QString::fromStdString(chosen.inputsPath)));
        QVERIFY(bar.sourcesAction()->isEnabled());
    }

    void imageInputEqualsWhatTheCoreComputes()
    {
        auto program = loadFile(kExample);
        QVERIFY(program);
        DebugSession s;
        DebuggerPanel panel(&s);
        s.setProgram(program, kExample);
        DebugSources chosen = s.sources();
        chosen.inputs = Kind::Image;
        chosen.inputsPath = kRgb.toStdString();
        s.setSources(chosen);
        std::string error;
        const std::optional<Image> rgb = Netpbm::read(kRgb.toStdString(), error);
        QVERIFY2(rgb, error.c_str());

        const Tensor input = inputAfterRun(s, *program);
        QVERIFY(input.defined());
        QCOMPARE(input.shape(), (std::vector<int64_t> { 1, 1, 28, 28 }));
        QCOMPARE(maxDiff(input, coreInput(*program, *rgb, ImageTensor::Normalization::ImageNet)), 0.0);
        const Operation *softmax = firstOp(*program, "pd_op.softmax");
        QVERIFY(softmax);
        const Tensor normalised = s.hostValue(softmax->result(0));

        // Without normalisation, from a PNG of the same pixels (decoded by QImage).
        QTemporaryDir dir;
        const QString png = dir.filePath(QStringLiteral("same.png"));
        QImage q(rgb->pixels.data(), rgb->width, rgb->height, rgb->width * 3, QImage::Format_RGB888);
        QVERIFY(q.save(png));
        const std::optional<Image> decoded = QtImageDecoder::decode(png.toStdString(), error);
        QVERIFY2(decoded, error.c_str());
        QCOMPARE(decoded->channels, 3);
        QCOMPARE(decoded->pixels, rgb->pixels);
        s.stop();
        QVERIFY(waitIdle(s));
        chosen.inputsPath = png.toStdString();
        chosen.imageNetNormalization = false;
        s.setSources(chosen);
        const Tensor raw = inputAfterRun(s, *program);
        QCOMPARE(maxDiff(raw, coreInput(*program, *rgb, ImageTensor::Normalization::None)), 0.0);
        QVERIFY(maxDiff(s.hostValue(softmax->result(0)), normalised) > 1e-6);
    }

    void badFilesAreReportedAndTheSessionRecovers()
    {
        auto program = loadFile(kExample);
        QVERIFY(program);
        DebugSession s;
        DebuggerPanel panel(&s);
        QSignalSpy errors(&s, &DebugSession::error);
        s.setProgram(program, kExample);
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("broken.png"));
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a png");
        f.close();
        DebugSources chosen = s.sources();
        chosen.inputs = Kind::Image;
        chosen.inputsPath = bad.toStdString();
        s.setSources(chosen);
        s.stepOver();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::NotStarted);
        QCOMPARE(errors.count(), 1);
        QVERIFY2(s.startError().contains(QStringLiteral("broken.png: cannot decode the image")),
            qPrintable(s.startError()));
        auto *status = panel.findChild<QLabel *>(QStringLiteral("debugStatus"));
        QVERIFY(status);
        QVERIFY2(status->text().startsWith(QStringLiteral("Could not start: inputs: ")),
            qPrintable(status->text()));

        // A truncated netpbm: the core's message. A .pdiparams that is not one: the reader's.
        const QString pgm = dir.filePath(QStringLiteral("short.pgm"));
        QFile g(pgm);
        QVERIFY(g.open(QIODevice::WriteOnly));
        g.write("P5\n28 28\n255\n\x01\x02");
        g.close();
        chosen.inputsPath = pgm.toStdString();
        s.setSources(chosen);
        QVERIFY(s.startError().isEmpty());
        s.stepOver();
        QVERIFY(waitIdle(s));
        QVERIFY2(s.startError().contains(QStringLiteral("short.pgm: truncated")), qPrintable(s.startError()));
        chosen.inputs = Kind::Random;
        chosen.params = Kind::PdiparamsFile;
        chosen.paramsPath = pgm.toStdString();
        s.setSources(chosen);
        s.stepOver();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::NotStarted);
        QVERIFY2(!s.startError().isEmpty(), "a bad .pdiparams must fail the start");

        // A program without an image-shaped input.
        chosen = s.sources();
        chosen.params = Kind::Pdiparams;
        chosen.inputs = Kind::Image;
        chosen.inputsPath = kRgb.toStdString();
        s.setSources(chosen);
        LoadResult flat = PirTextReader::readString(R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[4,6],stop_gradient:[true]} : () -> tensor<4x6xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<4x6xf32>) -> tensor<4x6xf32>
    () = "builtin.shadow_output" (%1) {output_name:"out"} : (tensor<4x6xf32>) -> 
}
)",
            "flat");
        QVERIFY(flat.ok());
        s.setProgram(std::shared_ptr<const Program>(std::move(flat.program)));
        QCOMPARE(s.sources().inputs, Kind::Image); // the choice is kept across targets
        QCOMPARE(s.sources().params, Kind::Random); // no .pdiparams next to it
        s.stepOver();
        QVERIFY(waitIdle(s));
        QVERIFY2(s.startError().contains(QStringLiteral("no input of the program takes an image")),
            qPrintable(s.startError()));
        s.setProgram(program, kExample);
        QCOMPARE(s.sources().params, Kind::Random); // the fallback is the choice now

        // The app keeps going: valid sources start.
        chosen = s.sources();
        chosen.inputs = Kind::Random;
        s.setSources(chosen);
        s.stepOver();
        QVERIFY(waitIdle(s));
        QCOMPARE(s.state(), State::Paused);
        QVERIFY(s.startError().isEmpty());
        QVERIFY(!status->text().startsWith(QStringLiteral("Could not start")));
    }

    void npyFolderAndChosenPdiparams()
    {
        auto program = loadFile(kExample);
        QVERIFY(program);
        DebugSession s;
        s.setProgram(program, kExample);
        // The default run: random inputs, the .pdiparams next to the program.
        const Operation *softmax = firstOp(*program, "pd_op.softmax");
        QVERIFY(inputAfterRun(s, *program).defined());
        const Tensor reference = s.hostValue(softmax->result(0));
        s.stop();
        QVERIFY(waitIdle(s));

        QTemporaryDir dir;
        std::vector<double> values(28 * 28);
        for (size_t i = 0; i < values.size(); ++i)
            values[i] = double(i % 7) / 7.0;
        const Tensor mine = Tensor::fromDoubles({ 1, 1, 28, 28 }, DataType::Float32, values);
        std::string error;
        QVERIFY(NpyIO::write(dir.filePath(QStringLiteral("image.npy")).toStdString(), mine, error));
        DebugSources chosen = s.sources();
        chosen.inputs = Kind::NpyDirectory;
        chosen.inputsPath = dir.path().toStdString();
        chosen.params = Kind::PdiparamsFile;
        chosen.paramsPath = PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.pdiparams";
        s.setSources(chosen);
        QCOMPARE(maxDiff(inputAfterRun(s, *program), mine), 0.0);
        s.stop();
        QVERIFY(waitIdle(s));

        // Random inputs again with the chosen file: the same output as the .pdiparams next to it.
        chosen.inputs = Kind::Random;
        s.setSources(chosen);
        QVERIFY(inputAfterRun(s, *program).defined());
        QCOMPARE(maxDiff(s.hostValue(softmax->result(0)), reference), 0.0);
        s.stop();
        QVERIFY(waitIdle(s));

        // Ones: every input element is 1; random parameters with another seed change the output.
        chosen.inputs = Kind::Ones;
        chosen.params = Kind::Random;
        chosen.seed = 3;
        s.setSources(chosen);
        const Tensor ones = inputAfterRun(s, *program);
        QVERIFY(ones.defined());
        for (double v : ones.toDoubles())
            QCOMPARE(v, 1.0);
        QVERIFY(maxDiff(s.hostValue(softmax->result(0)), reference) > 1e-6);
    }
};

QTEST_MAIN(TestDebugSources)
#include "tst_debugsources.moc"
