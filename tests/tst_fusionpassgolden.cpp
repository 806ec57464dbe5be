// Every fusion pass against Paddle 3.3.1: the golden pass fixtures (tests/fixtures/passes,
// tools/make_pass_fixtures.py) and the op counts and structure Paddle's passes gave the real
// samples. The fixtures come from Paddle's CPU build, so map_op_to_another_pass runs as the
// CPU build has it (no depthwise_conv2d -> conv2d); tst_fusionpasses checks the CUDA form.

#include "core/transform/passregistry.h"
#include "passgolden.h"

#include <QtTest>

using namespace ps;
using namespace passgolden;

namespace {

/// The passes of a manifest entry, run in order as Paddle's CPU build has them; returns the
/// total rewrites.
size_t runEntry(const QString &entry, Program &program)
{
    PassOptions options;
    options.place = Place { Place::AllocType::Cpu, 0, {} };
    size_t rewrites = 0;
    for (const QString &name : entryPasses(entry)) {
        std::unique_ptr<Pass> pass = PassRegistry::create(name.toStdString(), options);
        if (!pass)
            qFatal("no fusion pass %s", qPrintable(name));
        rewrites += pass->run(program);
    }
    return rewrites;
}

} // namespace

class TestFusionPassGolden : public QObject
{
    Q_OBJECT

private slots:
    void fixtures_data() { addEntryCaseRows(); }
    void fixtures()
    {
        QFETCH(QString, entry);
        QFETCH(QString, caseName);
        checkAgainstPaddle([&entry](Program &p) { return runEntry(entry, p); }, caseName, entry);
    }

    void samples_data() { addEntrySampleRows(); }
    void samples()
    {
        QFETCH(QString, entry);
        QFETCH(QString, sample);
        checkSampleAgainstPaddle([&entry](Program &p) { return runEntry(entry, p); }, sample, entry);
    }
};

QTEST_GUILESS_MAIN(TestFusionPassGolden)
#include "tst_fusionpassgolden.moc"
