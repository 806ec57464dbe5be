#include "core/analysis/programequality.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/transform/appendshadowoutputs.h"
#include "core/transform/autodiff.h"
#include "core/transform/backwardappender.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace ps;

namespace {

const QString kBundles = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle");

QJsonObject readManifest(const QString &dir)
{
    QFile f(dir + "/manifest.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::string stringAttr(const Operation *op, const char *name)
{
    const Attribute *a = op->attribute(name);
    return a && a->kind() == Attribute::Kind::String ? a->asString() : std::string();
}

/// The value an op of `opName` names `name` through its `attr` attribute (the result, or for
/// shadow outputs the operand).
Value findNamed(const Program &program, const char *opName, const char *attr, const QString &name)
{
    for (const Operation *op : program.block().ops()) {
        if (op->name() == opName && stringAttr(op, attr) == name.toStdString())
            return op->numResults() ? op->result(0) : op->operand(0);
    }
    return {};
}

std::vector<Value> namedValues(
    const Program &program, const QJsonArray &names, const char *opName, const char *attr)
{
    std::vector<Value> values;
    for (const QJsonValue &n : names)
        values.push_back(findNamed(program, opName, attr, n.toString()));
    return values;
}

/// Prints and reads back, so the program loses what Paddle's text print loses (the attributes of
/// pd_op.while and of block arguments) before it is compared with a golden text.
std::unique_ptr<Program> throughText(const Program &program)
{
    LoadResult r = PirTextReader::readString(PirPrinter::toString(program), "actual");
    return std::move(r.program);
}

/// The name of the shadow_output of a grad value, or Paddle's fake name.
QString gradName(const Program &program, Value grad)
{
    if (!grad)
        return "Fake_var";
    for (const Operation *op : program.block().ops()) {
        if (op->name() == "builtin.shadow_output" && op->operand(0) == grad)
            return QString::fromStdString(stringAttr(op, "output_name"));
    }
    return "<unnamed>";
}

QStringList gradNames(const Program &program, const std::vector<Value> &grads)
{
    QStringList names;
    for (Value g : grads)
        names << gradName(program, g);
    return names;
}

QStringList strings(const QJsonArray &a)
{
    QStringList out;
    for (const QJsonValue &v : a)
        out << v.toString();
    return out;
}

const char *const kDataX = "    (%0) = \"pd_op.data\" () "
                           "{dtype:float32,name:\"x\",place:Place(undefined:0),shape:[2,3],stop_gradient:["
                           "false]} : () -> tensor<2x3xf32>\n";

/// A program from Gen C text lines (wrapped in braces).
std::unique_ptr<Program> program(const std::string &body)
{
    LoadResult r = PirTextReader::readString("{\n" + body + "}\n", "test");
    if (!r.ok())
        qWarning() << r.diagnostics.toString().c_str();
    return std::move(r.program);
}

Value result(const Program &p, size_t op, unsigned index = 0)
{
    return p.block().op(op)->result(index);
}

size_t count(const Program &p, std::string_view name)
{
    return size_t(std::count_if(p.block().ops().begin(), p.block().ops().end(),
        [&](const Operation *op) { return op->name() == name; }));
}

} // namespace

/// ir_backward.grad + _append_backward_desc against Paddle 3.3.1's train programs.
class TestAutodiff : public QObject
{
    Q_OBJECT

private slots:
    void bundles_data()
    {
        QTest::addColumn<QString>("dir");
        const QStringList names = QDir(kBundles).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY2(!names.isEmpty(), qPrintable("no bundles in " + kBundles));
        for (const QString &n : names)
            QTest::newRow(qPrintable(n)) << kBundles + "/" + n;
    }

    void bundles()
    {
        QFETCH(QString, dir);
        const QJsonObject manifest = readManifest(dir);
        QVERIFY2(!manifest.isEmpty(), qPrintable("cannot read " + dir + "/manifest.json"));
        LoadResult origin = PirTextReader::readFile((dir + "/origin_runnable_program.txt").toStdString());
        QVERIFY2(origin.ok(), origin.diagnostics.toString().c_str());
        LoadResult golden = PirTextReader::readFile((dir + "/train_program.txt").toStdString());
        QVERIFY2(golden.ok(), golden.diagnostics.toString().c_str());

        const QJsonObject names = manifest["train_names"].toObject();
        const std::vector<Value> inputs
            = namedValues(*origin.program, names["x"].toArray(), "pd_op.data", "name");
        const std::vector<Value> params
            = namedValues(*origin.program, names["param"].toArray(), "builtin.parameter", "parameter_name");
        const std::vector<Value> outputs
            = namedValues(*origin.program, names["out"].toArray(), "builtin.shadow_output", "output_name");
        for (const auto *list : { &inputs, &params, &outputs })
            QVERIFY2(std::all_of(list->begin(), list->end(), [](Value v) { return !v.isNull(); }),
                "a value named in the manifest is missing from origin_runnable_program.txt");

        TrainProgram train = BackwardAppender::fromOrigin(*origin.program, inputs, params, outputs);
        QVERIFY2(train.ok(), train.diagnostics.toString().c_str());

        std::unique_ptr<Program> actual = throughText(*train.program);
        QVERIFY(actual);
        std::string difference;
        const bool equal = programsEqual(*actual, *golden.program, &difference);
        if (!equal)
            qWarning().noquote() << "PIRScope's train program:\n"
                                 << PirPrinter::toString(*train.program).c_str();
        QVERIFY2(equal, difference.c_str());

        const QJsonArray forward = manifest["forward_range"].toArray();
        const QJsonArray backward = manifest["backward_range"].toArray();
        QCOMPARE(qsizetype(train.forwardRange.first), qsizetype(forward[0].toInt()));
        QCOMPARE(qsizetype(train.forwardRange.second), qsizetype(forward[1].toInt()));
        QCOMPARE(qsizetype(train.backwardRange.first), qsizetype(backward[0].toInt()));
        QCOMPARE(qsizetype(train.backwardRange.second), qsizetype(backward[1].toInt()));

        QCOMPARE(gradNames(*train.program, train.inputGrads), strings(names["x_grad"].toArray()));
        QCOMPARE(gradNames(*train.program, train.paramGrads), strings(names["param_grad"].toArray()));
        QCOMPARE(gradNames(*train.program, train.outputGrads), strings(names["out_grad"].toArray()));
    }

    void accumulation()
    {
        // x feeds tanh and sigmoid: its two gradients are summed with builtin.combine + add_n.
        auto p = program(std::string(kDataX)
            + "\n"
              "    (%1) = \"pd_op.tanh\" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> "
              "tensor<2x3xf32>\n"
              "    (%2) = \"pd_op.sigmoid\" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> "
              "tensor<2x3xf32>\n"
              "    (%3) = \"pd_op.add\" (%1, %2) {stop_gradient:[false]} : (tensor<2x3xf32>, "
              "tensor<2x3xf32>) -> tensor<2x3xf32>\n");
        QVERIFY(p);
        const GradResult r = Autodiff::grad(*p, { result(*p, 3) }, { result(*p, 0) });
        QVERIFY2(r.ok(), r.diagnostics.toString().c_str());
        QCOMPARE(r.grads.size(), size_t(1));
        const Operation *addN = r.grads[0].definingOp();
        QVERIFY(addN);
        QCOMPARE(addN->name(), std::string_view("pd_op.add_n"));
        const Operation *combine = addN->operand(0).definingOp();
        QCOMPARE(combine->name(), std::string_view("builtin.combine"));
        QCOMPARE(combine->numOperands(), 2u);
        QCOMPARE(combine->operand(0).definingOp()->name(), std::string_view("pd_op.tanh_grad"));
        QCOMPARE(combine->operand(1).definingOp()->name(), std::string_view("pd_op.sigmoid_grad"));
        QCOMPARE(count(*p, "pd_op.add_grad"), size_t(1));
        // The seed: pd_op.full(1) + pd_op.full_like.
        QCOMPARE(count(*p, "pd_op.full"), size_t(1));
        QCOMPARE(count(*p, "pd_op.full_like"), size_t(1));
    }

    void noGradSetAndPruning()
    {
        // out = matmul(x, w); u only feeds a discarded matmul.
        auto p = program(std::string(kDataX)
            + "\n"
              "    (%1) = \"pd_op.data\" () "
              "{dtype:float32,name:\"w\",place:Place(undefined:0),shape:[3,4],stop_gradient:[false]} : () -> "
              "tensor<3x4xf32>\n"
              "    (%2) = \"pd_op.data\" () "
              "{dtype:float32,name:\"u\",place:Place(undefined:0),shape:[3,4],stop_gradient:[false]} : () -> "
              "tensor<3x4xf32>\n"
              "    (%3) = \"pd_op.matmul\" (%0, %2) "
              "{stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x3xf32>, "
              "tensor<3x4xf32>) -> tensor<2x4xf32>\n"
              "    (%4) = \"pd_op.matmul\" (%0, %1) "
              "{stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x3xf32>, "
              "tensor<3x4xf32>) -> tensor<2x4xf32>\n");
        QVERIFY(p);
        const Value x = result(*p, 0), w = result(*p, 1), u = result(*p, 2);
        const GradResult r = Autodiff::grad(*p, { result(*p, 4) }, { x, w, u }, {}, { w });
        QVERIFY2(r.ok(), r.diagnostics.toString().c_str());
        QVERIFY(r.grads[0]);
        QVERIFY(r.grads[1].isNull());
        QVERIFY(r.grads[2].isNull());
        QCOMPARE(count(*p, "pd_op.matmul_grad"), size_t(1));
        const Operation *grad = r.grads[0].definingOp();
        QCOMPARE(grad->name(), std::string_view("pd_op.matmul_grad"));
        QCOMPARE(grad->operand(1), w);
        QVERIFY(grad->result(1).type().isNull());
    }

    void allStopGradient()
    {
        auto p = program(
            "    (%0) = \"pd_op.data\" () "
            "{dtype:float32,name:\"x\",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> "
            "tensor<2x3xf32>\n"
            "    (%1) = \"pd_op.tanh\" (%0) {stop_gradient:[true]} : (tensor<2x3xf32>) -> tensor<2x3xf32>\n");
        QVERIFY(p);
        const GradResult r = Autodiff::grad(*p, { result(*p, 1) }, { result(*p, 0) });
        QVERIFY(r.ok());
        QVERIFY(r.grads[0].isNull());
        QCOMPARE(p->block().size(), size_t(2));
        QVERIFY(!r.diagnostics.empty());
    }

    void missingGradOp()
    {
        auto p = program(std::string(kDataX)
            + "\n"
              "    (%1) = \"pd_op.floor_divide\" (%0, %0) {stop_gradient:[false]} : (tensor<2x3xf32>, "
              "tensor<2x3xf32>) -> tensor<2x3xf32>\n"
              "    (%2) = \"pd_op.tanh\" (%1) {stop_gradient:[false]} : (tensor<2x3xf32>) -> "
              "tensor<2x3xf32>\n");
        QVERIFY(p);
        const GradResult r = Autodiff::grad(*p, { result(*p, 2) }, { result(*p, 0) });
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.diagnostics.firstError()->message),
            QString("op 'pd_op.floor_divide' has no grad op, consider enable prim to decompose it."));
        QVERIFY(r.grads[0].isNull());
    }

    void missingVjpRule_data()
    {
        QTest::addColumn<QString>("op");
        QTest::newRow("reverse (invoke backward)") << "pd_op.reverse";
        QTest::newRow("print (invoke backward)") << "pd_op.print";
    }

    void missingVjpRule()
    {
        QFETCH(QString, op);
        auto p = program(std::string(kDataX) + "    (%1) = \"" + op.toStdString()
            + "\" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>\n");
        QVERIFY(p);
        const GradResult r = Autodiff::grad(*p, { result(*p, 1) }, { result(*p, 0) });
        QVERIFY(!r.ok());
        QCOMPARE(QString::fromStdString(r.diagnostics.firstError()->message),
            "op '" + op + "' has no VJP rule in PIRScope");
    }

    void appendShadowOutputsNames()
    {
        auto p = program(std::string(kDataX)
            + "\n"
              "    (%1) = \"pd_op.tanh\" (%0) {stop_gradient:[false]} : (tensor<2x3xf32>) -> "
              "tensor<2x3xf32>\n");
        QVERIFY(p);
        const Value x = result(*p, 0), t = result(*p, 1);
        // Duplicates are dropped, a named value keeps its name, fake values are never deduplicated.
        QCOMPARE(appendShadowOutputs(*p, { t, x, t, Value(), Value() }, p->block().size(), "output_"), 4);
        QCOMPARE(p->block().size(), size_t(6));
        const char *expected[] = { "output_0", "x", "output_2", "output_3" };
        for (size_t i = 0; i < 4; ++i) {
            const Operation *op = p->block().op(2 + i);
            QCOMPARE(op->name(), std::string_view("builtin.shadow_output"));
            QCOMPARE(stringAttr(op, "output_name"), std::string(expected[i]));
        }
        QCOMPARE(p->block().op(2)->operand(0), t);
        QVERIFY(p->block().op(5)->operand(0).isNull());
        // A value that already has a shadow output reuses its name; insertion at a position.
        QCOMPARE(appendShadowOutputs(*p, { t }, 1, "grad_"), 1);
        QCOMPARE(stringAttr(p->block().op(1), "output_name"), std::string("output_0"));
    }
};

QTEST_GUILESS_MAIN(TestAutodiff)
#include "tst_autodiff.moc"
