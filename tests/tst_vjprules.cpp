#include "core/analysis/programequality.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/transform/autodiff.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

using namespace ps;

namespace {

const QString kCases = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/vjp");

QJsonObject readCases()
{
    QFile f(kCases + "/cases.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object()["cases"].toObject();
}

Value dataNamed(const Program &program, const QString &name)
{
    for (const Operation *op : program.block().ops()) {
        const Attribute *a = op->attribute("name");
        if (op->name() == "pd_op.data" && a && a->kind() == Attribute::Kind::String
            && a->asString() == name.toStdString())
            return op->result(0);
    }
    return {};
}

/// [op index, result index] in the top block.
Value located(const Program &program, const QJsonValue &where)
{
    const QJsonArray a = where.toArray();
    const size_t op = size_t(a[0].toInt());
    if (a.size() != 2 || op >= program.block().size())
        return {};
    return program.block().op(op)->result(unsigned(a[1].toInt()));
}

QJsonArray locate(const Program &program, Value v)
{
    const Operation *op = v.definingOp();
    const long index = op ? program.block().indexOf(op) : -1;
    return index < 0 ? QJsonArray {} : QJsonArray { int(index), int(v.index()) };
}

} // namespace

/// VJP rules, accumulation, no-grad sets, pruning and control flow against
/// paddle.autograd.ir_backward.grad of Paddle 3.3.1 (tests/fixtures/vjp, made by
/// make_vjp_cases.py there), plus the diagnostics of ops PIRScope cannot differentiate.
class TestVjpRules : public QObject
{
    Q_OBJECT

private slots:
    void paddleCases_data()
    {
        QTest::addColumn<QString>("name");
        const QJsonObject cases = readCases();
        QVERIFY2(!cases.isEmpty(), qPrintable("no cases in " + kCases + "/cases.json"));
        for (const QString &name : cases.keys())
            QTest::newRow(qPrintable(name)) << name;
    }

    void paddleCases()
    {
        QFETCH(QString, name);
        const QJsonObject spec = readCases()[name].toObject();
        LoadResult forward = PirTextReader::readFile((kCases + "/" + name + ".forward.txt").toStdString());
        QVERIFY2(forward.ok(), forward.diagnostics.toString().c_str());
        LoadResult golden = PirTextReader::readFile((kCases + "/" + name + ".grad.txt").toStdString());
        QVERIFY2(golden.ok(), golden.diagnostics.toString().c_str());
        Program &program = *forward.program;

        std::vector<Value> inputs, outputs, seeds, noGrad;
        for (const QJsonValue &n : spec["inputs"].toArray())
            inputs.push_back(dataNamed(program, n.toString()));
        for (const QJsonValue &n : spec["no_grad"].toArray())
            noGrad.push_back(dataNamed(program, n.toString()));
        for (const QJsonValue &w : spec["outputs"].toArray())
            outputs.push_back(located(program, w));
        for (const QJsonValue &w : spec["seeds"].toArray())
            seeds.push_back(located(program, w));
        for (const auto *list : { &inputs, &outputs, &seeds, &noGrad })
            QVERIFY(std::none_of(list->begin(), list->end(), [](Value v) { return v.isNull(); }));

        const GradResult result = Autodiff::grad(program, outputs, inputs, seeds, noGrad);
        QVERIFY2(result.ok(), result.diagnostics.toString().c_str());

        LoadResult actual = PirTextReader::readString(PirPrinter::toString(program), "actual");
        QVERIFY(actual.program);
        std::string difference;
        const bool equal = programsEqual(*actual.program, *golden.program, &difference);
        if (!equal)
            qWarning().noquote() << "PIRScope:\n" << PirPrinter::toString(program).c_str();
        QVERIFY2(equal, difference.c_str());

        const QJsonArray grads = spec["grads"].toArray();
        QCOMPARE(result.grads.size(), size_t(grads.size()));
        for (qsizetype i = 0; i < grads.size(); ++i) {
            if (grads[i].isNull())
                QVERIFY2(
                    result.grads[size_t(i)].isNull(), qPrintable(QString("input %1 has a gradient").arg(i)));
            else
                QCOMPARE(locate(program, result.grads[size_t(i)]), grads[i].toArray());
        }
    }
};

QTEST_GUILESS_MAIN(TestVjpRules)
#include "tst_vjprules.moc"
