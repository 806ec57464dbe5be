#include "core/ir/block.h"
#include "core/ir/program.h"
#include "core/transform/partialprogram.h"
#include "paddlebundle.h"

#include <QtTest>

using namespace ps;
using namespace bundle;

/// PartialProgramLayer over the golden bundles' program.txt: the origin runnable program, the
/// train program (Paddle's, or built by ps::BackwardAppender), the infer program, the snapshot
/// and the flavour's parameter pruning.
class TestPartialProgram : public QObject
{
    Q_OBJECT

private slots:
    void bundles_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *m : kModels)
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    /// The layer over program.txt appends the output shadow outputs as Paddle did, and with
    /// Paddle's train program gives the same snapshot.
    void layerBundles_data() { bundles_data(); }
    void layerBundles()
    {
        QFETCH(QString, model);
        const QString d = dir(model);
        if (!QFileInfo::exists(d + "/manifest.json"))
            QSKIP("golden bundle missing");
        const QJsonObject manifest = readJson(d + "/manifest.json");
        auto layer = layerFromBundle(d);
        QVERIFY(layer);
        RunnableProgram &origin = layer->originRunnableProgram();
        auto expectedOrigin = loadText(d + "/origin_runnable_program.txt");
        QVERIFY(expectedOrigin);
        const ProgramDifference od = compareWithPaddle(origin.program(), *expectedOrigin);
        QVERIFY2(od.equal, od.toString("ours", "paddle").c_str());
        const QJsonObject trainNames = manifest.value("train_names").toObject();
        QCOMPARE(origin.names().x, strings(trainNames.value("x").toArray()));
        QCOMPARE(origin.names().out, strings(trainNames.value("out").toArray()));
        QVERIFY(layer->prunedParameters().empty()); // Paddle 3.3.1 prunes nothing

        std::optional<RunnableProgram> train = trainFromBundle(d);
        QVERIFY(train);
        layer->useTrainProgram(std::move(*train));
        const PipelineResult r = layer->snapshot(true);
        QVERIFY(r.ok());
        QVERIFY2(r.diagnostics.empty(), qPrintable(joined(r.diagnostics)));
        auto splitForward = loadText(d + "/split/forward_program.txt");
        auto forward = loadText(d + "/forward_program.txt");
        auto backward = loadText(d + "/backward_program.txt");
        QVERIFY(splitForward && forward && backward);
        QVERIFY(compareWithPaddle(*r.splitForward, *splitForward).equal);
        QVERIFY(compareWithPaddle(*r.forward, *forward).equal);
        QVERIFY(compareWithPaddle(*r.backward, *backward).equal);
        QVERIFY(attributeMismatch(r.splitNames, readJson(d + "/split/program_attributes.json")).isEmpty());
        QVERIFY(attributeMismatch(r.attributeNames, readJson(d + "/program_attributes.json")).isEmpty());
        QCOMPARE(r.passLog.size(), size_t(2)); // CSE on the forward, then on the backward program
        const PassTimelineStep &forwardCse = r.passLog[0];
        QCOMPARE(forwardCse.target, std::string("forward"));
        QCOMPARE(forwardCse.opsBefore() - forwardCse.opsAfter() + 0,
            r.splitForward->numOpsTotal() - r.forward->numOpsTotal());
        // The step's copies are the programs before and after CSE.
        QVERIFY(compareWithPaddle(*forwardCse.before->load()->program, *splitForward).equal);
        QVERIFY(compareWithPaddle(*forwardCse.after->load()->program, *forward).equal);
        // The snapshot's values live in its own copies.
        for (const Value &v : r.attributeValues[SplitKey::Fo])
            QVERIFY(v.isNull() || v.parentBlock() == &r.forward->block());
    }

    void endToEnd_data() { bundles_data(); }
    /// program.txt → origin → ps::BackwardAppender → split → CSE → program_attr, all ours.
    void endToEnd()
    {
        QFETCH(QString, model);
        const QString d = dir(model);
        if (!QFileInfo::exists(d + "/manifest.json"))
            QSKIP("golden bundle missing");
        const QJsonObject manifest = readJson(d + "/manifest.json");
        auto layer = layerFromBundle(d);
        QVERIFY(layer);
        const PipelineResult r = layer->snapshot(true);
        QVERIFY2(r.ok(), qPrintable(joined(r.diagnostics)));
        auto train = loadText(d + "/train_program.txt");
        auto forward = loadText(d + "/forward_program.txt");
        auto backward = loadText(d + "/backward_program.txt");
        QVERIFY(train && forward && backward);
        const ProgramDifference td = compareWithPaddle(*r.whole, *train);
        QVERIFY2(td.equal, td.toString("ours", "paddle").c_str());
        QCOMPARE(r.forwardRange, rangeOf(manifest.value("forward_range")));
        QCOMPARE(r.backwardRange, rangeOf(manifest.value("backward_range")));
        const ProgramDifference fd = compareWithPaddle(*r.forward, *forward);
        QVERIFY2(fd.equal, fd.toString("ours", "paddle").c_str());
        const ProgramDifference bd = compareWithPaddle(*r.backward, *backward);
        QVERIFY2(bd.equal, bd.toString("ours", "paddle").c_str());
        const QString mismatch
            = attributeMismatch(r.attributeNames, readJson(d + "/program_attributes.json"));
        QVERIFY2(mismatch.isEmpty(), qPrintable(mismatch));
    }

    void inferProgram_data() { bundles_data(); }
    /// The infer program (origin clone, split without backward, CSE on the forward program) equals
    /// Paddle's: for these models the eval-mode trace Paddle made it from is the train-mode one.
    void inferProgram()
    {
        QFETCH(QString, model);
        const QString d = dir(model);
        if (!QFileInfo::exists(d + "/manifest.json"))
            QSKIP("golden bundle missing");
        auto layer = layerFromBundle(d);
        QVERIFY(layer);
        const PipelineResult r = layer->snapshot(false);
        QVERIFY(r.ok());
        auto infer = loadText(d + "/infer_program.txt");
        QVERIFY(infer);
        const ProgramDifference fd = compareWithPaddle(*r.forward, *infer);
        QVERIFY2(fd.equal, fd.toString("ours", "paddle").c_str());
        QCOMPARE(r.backward->numOps(), size_t(0));
        QCOMPARE(r.passLog.size(), size_t(1)); // the forward program only
    }

    void seedPrunesUnusedParameters()
    {
        const QString d = dir("pruned_param");
        if (!QFileInfo::exists(d + "/manifest.json"))
            QSKIP("golden bundle missing");
        auto seed = layerFromBundle(d, PipelineFlavour::Seed);
        auto newest = layerFromBundle(d, PipelineFlavour::Newest);
        QVERIFY(seed && newest);
        // w_1 feeds nothing; w_0 feeds a discarded multiply, so it has a use and stays.
        QCOMPARE(seed->prunedParameters(), std::vector<std::string>({ "pruned_param_0.w_1" }));
        QCOMPARE(seed->parameters().size(), size_t(3));
        QVERIFY(newest->prunedParameters().empty());
        QCOMPARE(newest->parameters().size(), size_t(4));
        QCOMPARE(seed->originRunnableProgram().program().numOps() + 1,
            newest->originRunnableProgram().program().numOps());
        QVERIFY(!seed->passManager().isEnabled("cse"));
        QVERIFY(newest->passManager().isEnabled("cse"));
    }
};

QTEST_GUILESS_MAIN(TestPartialProgram)
#include "tst_partialprogram.moc"
