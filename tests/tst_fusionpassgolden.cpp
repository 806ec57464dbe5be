// Every fusion pass against Paddle 3.3.1: the golden pass fixtures (tests/fixtures/passes,
// tools/make_pass_fixtures.py) and the op counts and structure Paddle's passes gave the real
// samples. The fixtures come from Paddle's CPU build, so map_op_to_another_pass runs as the
// CPU build has it (no depthwise_conv2d -> conv2d); tst_mapoptoanotherpass checks the CUDA form.

#include "core/transform/fusionpasses.h"
#include "passgolden.h"

#include <QtTest>

using namespace ps;
using namespace passgolden;

namespace {

/// The passes of a manifest entry, run in order; returns the total rewrites.
size_t runEntry(const QString &entry, Program &program)
{
    const QJsonArray passes = manifest()["entries"].toObject()[entry].toObject()["passes"].toArray();
    FusionOptions options;
    options.cudaBuild = false;
    size_t rewrites = 0;
    for (const QJsonValue &name : passes) {
        std::unique_ptr<Pass> pass = createFusionPass(name.toString().toStdString(), options);
        if (!pass)
            qFatal("no fusion pass %s", qPrintable(name.toString()));
        rewrites += pass->run(program);
    }
    return rewrites;
}

QStringList entries()
{
    QStringList out;
    for (std::string_view name : fusionPassNames())
        out << QString::fromLatin1(name.data(), int(name.size()));
    out << "fusion_chain";
    return out;
}

} // namespace

class TestFusionPassGolden : public QObject
{
    Q_OBJECT

private slots:
    void fixtures_data()
    {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("caseName");
        for (const QString &entry : entries())
            for (const QString &c : cases())
                QTest::newRow(qPrintable(entry + "/" + c)) << entry << c;
    }
    void fixtures()
    {
        QFETCH(QString, entry);
        QFETCH(QString, caseName);
        checkAgainstPaddle([&entry](Program &p) { return runEntry(entry, p); }, caseName, entry);
    }

    void samples_data()
    {
        QTest::addColumn<QString>("entry");
        QTest::addColumn<QString>("sample");
        for (const QString &entry : entries())
            for (const char *s : kSamples)
                QTest::newRow(qPrintable(entry + "/" + s)) << entry << QString(s);
    }
    void samples()
    {
        QFETCH(QString, entry);
        QFETCH(QString, sample);
        checkSampleAgainstPaddle([&entry](Program &p) { return runEntry(entry, p); }, sample, entry);
    }
};

QTEST_GUILESS_MAIN(TestFusionPassGolden)
#include "tst_fusionpassgolden.moc"
