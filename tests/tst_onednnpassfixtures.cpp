#include "core/analysis/programdiff.h"
#include "core/io/pirtextreader.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/transform/passregistry.h"
#include "onednnpassfixture.h"

#include <QtTest>

using namespace ps;

namespace {

using onednnfixture::kDir;
using onednnfixture::passesOf;
using onednnfixture::programAfter;

std::unique_ptr<Program> load(const QString &path)
{
    LoadResult r = PirTextReader::readFile(path.toStdString());
    if (!r.ok())
        qWarning().noquote() << path << QString::fromStdString(r.diagnostics.toString());
    return r.ok() ? std::move(r.program) : nullptr;
}

} // namespace

/// The oneDNN fusion passes against Paddle 3.3.1's on the programs of tests/fixtures/onednn_passes
/// (its default CPU predictor's IR-debug dumps, up to and including onednn_placement_pass): each
/// implemented pass, applied to the program Paddle's pass started from, gives the program
/// Paddle's pass left, unchanged ones included.
class TestOneDnnPassFixtures : public QObject
{
    Q_OBJECT

private slots:
    void matchesPaddle_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<int>("index");
        const QStringList cases = QDir(kDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY2(!cases.isEmpty(), "no fixtures in tests/fixtures/onednn_passes");
        for (const QString &c : cases) {
            const QJsonArray passes = passesOf(c);
            for (int i = 0; i < passes.size(); ++i) {
                const QString pass = passes[i].toArray()[0].toString();
                if (PassRegistry::isImplemented(pass.toStdString()))
                    QTest::newRow(qPrintable(QString("%1/%2.%3").arg(c).arg(i).arg(pass))) << c << i;
            }
        }
    }

    void matchesPaddle()
    {
        QFETCH(QString, caseName);
        QFETCH(int, index);
        const QJsonArray entry = passesOf(caseName)[index].toArray();
        const std::string pass = entry[0].toString().toStdString();
        auto program = load(programAfter(caseName, index - 1));
        auto expected = load(programAfter(caseName, index));
        QVERIFY(program && expected);
        PassOptions options;
        options.place.type = Place::AllocType::Cpu;
        std::unique_ptr<Pass> p = PassRegistry::create(pass, options);
        QVERIFY(p && p->implemented());
        const size_t rewrites = p->run(*program);
        QCOMPARE(rewrites != 0, entry[1].toString() == "changed");
        // The dumps print floats with 6 digits and give an unregistered op's attributes no
        // type (fuse_alpha:0 reads as an int): programs that print the same are what they show.
        const ProgramDifference d = ProgramDiff::compare(*program, *expected);
        if (!d.equal)
            QVERIFY2(PirPrinter::toString(*program) == PirPrinter::toString(*expected),
                d.toString("pirscope", "paddle").c_str());
    }

    /// The fixtures reach the end of the oneDNN section: onednn_placement_pass is compared too.
    void fixturesEndWithThePlacementPass()
    {
        const QStringList cases = QDir(kDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        for (const QString &c : cases) {
            const QJsonArray passes = passesOf(c);
            QVERIFY2(!passes.isEmpty(), qPrintable(c));
            QCOMPARE(passes.last().toArray()[0].toString(), QString("onednn_placement_pass"));
        }
        QVERIFY(PassRegistry::isImplemented("onednn_placement_pass"));
    }
};

QTEST_GUILESS_MAIN(TestOneDnnPassFixtures)
#include "tst_onednnpassfixtures.moc"
