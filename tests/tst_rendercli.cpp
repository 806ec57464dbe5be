#include "core/graph/graphbuilder.h"
#include "core/io/programloader.h"
#include "core/ir/program.h"

#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct CliRun
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

CliRun runCli(const QStringList &args, int timeoutMs = 180000)
{
    QProcess p;
    p.start(QStringLiteral(PIRSCOPE_CLI_PATH), args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit)
        return r;
    r.exitCode = p.exitCode();
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString example()
{
    return QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
}

/// The titles of the ops drawn as nodes of their own (ops drawn only as chips, such as inputs
/// and constants, show their values' names instead).
QStringList opTitles(const QString &file)
{
    ps::LoadResult r = ps::loadProgram(file.toStdString());
    if (!r.ok())
        return {};
    const ps::GraphModel model = ps::GraphBuilder().build(*r.program);
    QStringList titles;
    for (const ps::GraphNode &n : model.nodes)
        if (!n.ghost && n.op && !n.lines.empty() && !titles.contains(QString::fromStdString(n.lines[0])))
            titles << QString::fromStdString(n.lines[0]);
    return titles;
}

} // namespace

/// pirscope-cli render and bench layout (built with the GUI libraries): pictures of the whole
/// graph, a layer, a selection; the layout benchmark's JSON; clear errors.
class TestRenderCli : public QObject
{
    Q_OBJECT

private slots:
    void svgHasEveryOp();
    void pngOfALayerWithASelection();
    void errorsAreClear();
    void benchLayoutJson();
    void renderRespectsTheBudget();
};

void TestRenderCli::svgHasEveryOp()
{
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("graph.svg"));
    const CliRun r = runCli({ QStringLiteral("render"), example(), QStringLiteral("--out"), svg });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(r.out.contains("ops drawn"));
    QFile file(svg);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(file.readAll());
    QVERIFY(text.startsWith(QLatin1String("<?xml")) || text.contains(QLatin1String("<svg")));
    const QStringList titles = opTitles(example());
    QVERIFY(titles.contains(QStringLiteral("conv2d")));
    for (const QString &title : titles)
        QVERIFY2(text.contains(QLatin1Char('>') + title + QLatin1Char('<')), qPrintable(title));
    QVERIFY(text.contains(QLatin1String(">image<"))); // the input's chip
}

void TestRenderCli::pngOfALayerWithASelection()
{
    QTemporaryDir dir;
    const QString whole = dir.filePath(QStringLiteral("whole.png"));
    CliRun r = runCli({ QStringLiteral("render"), example(), QStringLiteral("--out"), whole,
        QStringLiteral("--select"), QStringLiteral("pd_op.flatten") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QImage wholeImage(whole);
    QVERIFY(!wholeImage.isNull());
    // A dark picture has a dark background.
    const QString dark = dir.filePath(QStringLiteral("dark.png"));
    r = runCli(
        { QStringLiteral("render"), example(), QStringLiteral("--out"), dark, QStringLiteral("--dark") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QImage darkImage(dark);
    QVERIFY(qGray(darkImage.pixel(2, 2)) < 80);
    QVERIFY(qGray(wholeImage.pixel(2, 2)) > 200);
    // One layer is smaller than the whole graph.
    const CliRun layers = runCli({ QStringLiteral("print"), example() });
    const QRegularExpression layerPath(QStringLiteral("struct_name:\"(/[^\"]+/)\""));
    const QRegularExpressionMatch m = layerPath.match(QString::fromUtf8(layers.out));
    if (!m.hasMatch())
        QSKIP("the bundled example has no struct_name layers");
    QString top = m.captured(1).section(QLatin1Char('/'), 1, 1);
    const QString part = dir.filePath(QStringLiteral("layer.png"));
    r = runCli({ QStringLiteral("render"), example(), QStringLiteral("--out"), part,
        QStringLiteral("--layer"), top });
    if (r.exitCode != 0 && r.err.contains("no layer named"))
        QSKIP("the example's top layer holds a single op");
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QImage partImage(part);
    QVERIFY(!partImage.isNull());
    QVERIFY(partImage.width() * partImage.height() <= wholeImage.width() * wholeImage.height());
}

void TestRenderCli::errorsAreClear()
{
    QTemporaryDir dir;
    CliRun r
        = runCli({ QStringLiteral("render"), example(), QStringLiteral("--out"), dir.filePath("g.gif") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("--out must end in .svg or .png"));
    r = runCli({ QStringLiteral("render"), example(), QStringLiteral("--out"), dir.filePath("g.svg"),
        QStringLiteral("--layer"), QStringLiteral("NoSuchLayer") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("no layer named 'NoSuchLayer'"));
    r = runCli({ QStringLiteral("render"), example(), QStringLiteral("--out"), dir.filePath("g.svg"),
        QStringLiteral("--select"), QStringLiteral("pd_op") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("matches"));
    r = runCli({ QStringLiteral("render"), example(), QStringLiteral("--out"), dir.filePath("g.svg"),
        QStringLiteral("--select"), QStringLiteral("0:9999") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("no op at 0:9999"));
    r = runCli({ QStringLiteral("render"), QStringLiteral("/no/such/file.json"), QStringLiteral("--out"),
        dir.filePath("g.svg") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("error:"));
    QVERIFY(r.err.contains("/no/such/file.json"));
    QVERIFY(!QFileInfo::exists(dir.filePath("g.svg")));
    // Issue 22: numbers are parsed strictly, the option named.
    for (const char *scale : { "0", "-1", "1e400", "2x", "nan" }) {
        r = runCli({ QStringLiteral("render"), example(), QStringLiteral("--out"), dir.filePath("g.svg"),
            QStringLiteral("--scale"), QLatin1String(scale) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("--scale must be a number in (0, 8], got '" + QByteArray(scale) + "'"),
            r.err.constData());
    }
    const QList<QPair<QStringList, QByteArray>> refused {
        { { "--ops", "-1" }, "--ops: expected an integer of at least 1, got '-1'" },
        { { "--ops", "18446744073709551616" }, "--ops: '18446744073709551616' is out of range" },
        { { "--ops", "5", "--baseline-timeout", "nan" }, "--baseline-timeout: expected a finite number" },
        { { "--ops", "5", "--baseline-timeout", "-3" }, "--baseline-timeout: '-3' is out of range" },
    };
    for (const auto &[args, expected] : refused) {
        r = runCli(QStringList { QStringLiteral("bench"), QStringLiteral("layout") } + args);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(expected), r.err.constData());
    }
    // A program that does not verify is not drawn (issue 22).
    for (const char *file : { "shadow_output_without_value.txt", "if_without_condition.txt" }) {
        r = runCli({ QStringLiteral("render"), QStringLiteral(PIRSCOPE_FIXTURES_DIR "/malformed/") + file,
            QStringLiteral("--out"), dir.filePath("g.svg") });
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("error: op #2 ("), r.err.constData());
        QVERIFY2(r.err.contains("it is not run, split, passed or drawn"), r.err.constData());
        QVERIFY(!QFileInfo::exists(dir.filePath("g.svg")));
    }
}

void TestRenderCli::benchLayoutJson()
{
    CliRun r = runCli({ QStringLiteral("bench"), QStringLiteral("layout"), example(),
        QStringLiteral("--json"), QStringLiteral("--baseline-timeout"), QStringLiteral("60") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QVERIFY2(!o.isEmpty(), r.out.constData());
    QVERIFY(o.value(QStringLiteral("ops")).toInt() > 10);
    QVERIFY(o.value(QStringLiteral("nodes")).toInt() > 10);
    QVERIFY(o.value(QStringLiteral("first_view_seconds")).toDouble() > 0);
    QVERIFY(o.value(QStringLiteral("full_layout_seconds")).toDouble() > 0);
    QVERIFY(o.value(QStringLiteral("peak_mb")).toDouble() > 1);
    QVERIFY(o.value(QStringLiteral("baseline_flat_seconds")).toDouble() > 0); // small: the flat one finishes
    QVERIFY(
        o.value(QStringLiteral("first_view")).toObject().value(QStringLiteral("frame_ms")).toDouble() > 0);

    // A synthetic train program, its whole graph skipped.
    r = runCli({ QStringLiteral("bench"), QStringLiteral("layout"), QStringLiteral("--ops"),
        QStringLiteral("600"), QStringLiteral("--json"), QStringLiteral("--no-full"),
        QStringLiteral("--baseline-timeout"), QStringLiteral("0") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(QStringLiteral("mode")).toString(), QStringLiteral("train"));
    QVERIFY(o.value(QStringLiteral("ops")).toInt() > 400);
    QVERIFY(o.value(QStringLiteral("full_layout_seconds")).isNull());
    QVERIFY(o.value(QStringLiteral("baseline_flat_seconds")).isNull());
    QVERIFY(o.value(QStringLiteral("groups")).toInt() > 0);
}

/// Issue 22: the whole graph's model and layouts are refused before they are built or laid out
/// when their estimate passes the host-memory budget (a 200,000-op fan-out took 2.9 GB; 1M ops
/// ended in bad_alloc), with the budget named; within it the picture is drawn.
void TestRenderCli::renderRespectsTheBudget()
{
    QTemporaryDir dir;
    // x read by 300 relus, summed by one add_n: one graph of 300 boxes and 600 edges.
    const int n = 300;
    QStringList relus, types;
    QByteArray text
        = "{\n    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(cpu),shape:[2,3],"
          "stop_gradient:[false]} : () -> tensor<2x3xf32>\n";
    for (int i = 1; i <= n; ++i) {
        text += "    (%" + QByteArray::number(i)
            + ") = \"pd_op.relu\" (%0) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>\n";
        relus << QStringLiteral("%%1").arg(i);
        types << QStringLiteral("tensor<2x3xf32>");
    }
    const QByteArray vec = "vec[" + types.join(',').toUtf8() + "]";
    text += "    (%" + QByteArray::number(n + 1) + ") = \"builtin.combine\" (" + relus.join(", ").toUtf8()
        + ") {} : (" + types.join(", ").toUtf8() + ") -> " + vec + "\n";
    text += "    (%" + QByteArray::number(n + 2) + ") = \"pd_op.add_n\" (%" + QByteArray::number(n + 1)
        + ") {} : (" + vec + ") -> tensor<2x3xf32>\n";
    text += "    () = \"builtin.shadow_output\" (%" + QByteArray::number(n + 2)
        + ") {output_name:\"out\"} : (tensor<2x3xf32>) -> \n}\n";
    const QString program = dir.filePath("fanout.txt");
    QFile f(program);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(text);
    f.close();
    const QString out = dir.filePath("g.svg");
    CliRun r = runCli({ QStringLiteral("render"), program, QStringLiteral("--out"), out,
        QStringLiteral("--max-memory"), QStringLiteral("1M") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(
        r.err.contains("error: render: drawing 304 ops needs 2.5 MB, limit 1.0 MB (the host-memory budget"),
        r.err.constData());
    r = runCli({ QStringLiteral("render"), program, QStringLiteral("--out"), out,
        QStringLiteral("--max-memory"), QStringLiteral("4M") });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("error: layout failed: laying out "), r.err.constData());
    QVERIFY2(r.err.contains("boxes and edges in one graph needs"), r.err.constData());
    QVERIFY2(r.err.contains("limit 4.0 MB"), r.err.constData());
    QVERIFY(!QFileInfo::exists(out));
    r = runCli({ QStringLiteral("render"), program, QStringLiteral("--out"), out,
        QStringLiteral("--max-memory"), QStringLiteral("200M") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QVERIFY(QFileInfo::exists(out));
}

QTEST_MAIN(TestRenderCli)

#include "tst_rendercli.moc"
