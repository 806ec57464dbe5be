#include "core/graph/graphmodel.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/session/pipelinesource.h"
#include "ui/common/itemroles.h"
#include "ui/crossingvaluesmodel.h"
#include "ui/passlistmodel.h"
#include "ui/pipelinerunner.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programattributesmodel.h"
#include "ui/programdocument.h"

#include <QAbstractItemModelTester>
#include <QtTest>

using namespace ps;

namespace {

QString bundleDir(const char *model)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/") + QLatin1String(model);
}

std::shared_ptr<const PipelineSource> sourceOf(const char *model)
{
    DiagnosticList d;
    return PipelineSource::fromBundle(bundleDir(model).toStdString(), d);
}

void attachTester(QAbstractItemModel *model, QObject *owner)
{
    new QAbstractItemModelTester(model, QAbstractItemModelTester::FailureReportingMode::QtTest, owner);
}

QModelIndex childNamed(const QAbstractItemModel &m, const QModelIndex &parent, const QString &text)
{
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, 0, parent).data().toString() == text)
            return m.index(r, 0, parent);
    return {};
}

} // namespace

/// The pipeline models (passes, program attributes, the cut) under QAbstractItemModelTester,
/// PipelineSnapshot::compute and PipelineRunner (off the UI thread, stale results dropped).
class TestPipelineModels : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!QFileInfo::exists(bundleDir("mlp_ce") + "/manifest.json"))
            QSKIP("golden bundles missing");
    }

    /// A bundle source: the manifest's roles in program.json; the snapshot holds the documents,
    /// the cut and the grad-op links.
    void snapshotOfBundle()
    {
        auto source = sourceOf("mlp_ce");
        QVERIFY(source);
        QVERIFY(source->kind == PipelineSource::Kind::Bundle);
        QCOMPARE(source->title, std::string("mlp_ce"));
        QVERIFY(source->training);
        QVERIFY(source->format == LoadResult::Format::PirJson);
        auto s = PipelineSnapshot::compute(*source, true, {});
        QVERIFY(s->ok());
        QVERIFY(s->notice.isEmpty());
        QCOMPARE(s->forward->program().block().size(), size_t(21));
        QCOMPARE(s->cut.size(), size_t(12));
        QCOMPARE(s->gradOpsOf.size(), size_t(7));
        QCOMPARE(s->forwardOpOf.size(), size_t(7));
        QCOMPARE(s->passes.size(), size_t(2));
        auto infer = PipelineSnapshot::compute(*source, false, {});
        QVERIFY(infer->ok());
        QVERIFY(infer->cut.empty());
        QVERIFY(infer->notice.startsWith(QStringLiteral("Infer mode")));
        QCOMPARE(infer->backward->program().numOps(), size_t(0));
    }

    /// The split backward's grad ops carry no struct_name: its graph groups them under their
    /// forward op's layer, so both halves show the same layers.
    void backwardGraphHasTheForwardLayers()
    {
        auto source = sourceOf("transformer_encoder");
        QVERIFY(source);
        auto s = PipelineSnapshot::compute(*source, true, {});
        QVERIFY(s->ok());
        const GraphModel &backward = *s->backward->graph();
        QVERIFY(!backward.groups.empty());
        size_t grouped = 0, linked = 0;
        for (const auto &[grad, forward] : s->forwardOpOf) {
            const int node = backward.nodeOf(grad);
            const std::string structName = forward->stringAttribute("struct_name");
            if (node < 0 || structName.empty())
                continue;
            ++linked;
            int g = backward.nodes[size_t(node)].group;
            while (g >= 0 && backward.groups[size_t(g)].kind == LayerGroupKind::Range)
                g = backward.groups[size_t(g)].parent;
            if (g < 0)
                continue;
            ++grouped;
            const std::string &path = backward.groups[size_t(g)].path;
            QVERIFY2(structName.rfind(path, 0) == 0,
                (std::string(grad->name()) + " in " + path + ", forward op in " + structName).c_str());
        }
        QVERIFY(linked > 10);
        QVERIFY2(
            grouped * 4 >= linked * 3, (std::to_string(grouped) + " of " + std::to_string(linked)).c_str());
    }

    void passListModel()
    {
        auto source = sourceOf("lenet");
        QVERIFY(source);
        auto s = PipelineSnapshot::compute(*source, true, {});
        PassListModel model;
        attachTester(&model, this);
        model.setPasses(s->passes, s->result.passLog);
        QCOMPARE(model.rowCount(), 2);
        const int cse = model.passRow(QStringLiteral("cse"));
        const int dce = model.passRow(QStringLiteral("dead_code_elimination_pass"));
        QVERIFY(cse >= 0 && dce >= 0);
        const QModelIndex cseIndex = model.index(cse, PassListModel::PassColumn);
        QCOMPARE(cseIndex.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Checked);
        QCOMPARE(model.index(dce, 0).data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Unchecked);
        QVERIFY(model.flags(cseIndex) & Qt::ItemIsUserCheckable);
        // CSE ran on both programs. In the forward one it merged two duplicate full_int_array
        // ops ([1,-1,1,1] and [2,2]); the second [2,2] is a middle saved for the backward, so its
        // shadow_output now reads a new pd_op.assign of the kept one (ReplaceOpWith): two
        // removed, one added, and the summary says both rather than the net "-1".
        QCOMPARE(model.rowCount(cseIndex), 2);
        const QModelIndex forward = childNamed(model, cseIndex, QStringLiteral("forward"));
        QVERIFY(forward.isValid());
        QCOMPARE(model.index(cse, PassListModel::ChangeColumn).data().toString(),
            QStringLiteral("fwd \u22122 +1, bwd ="));
        const PassTimelineStep &step = s->result.passLog.front();
        QCOMPARE(step.removedOps.size(), size_t(2));
        QCOMPARE(step.addedOps.size(), size_t(1));
        QVERIFY(step.addedOpTexts().front().find("pd_op.assign") != std::string::npos);
        QCOMPARE(step.target, std::string("forward"));
        QCOMPARE(model.rowCount(forward), int(step.removedOps.size() + step.addedOps.size()));
        QVERIFY(model.index(0, 0, forward).data().toString().startsWith(QStringLiteral("\u2212 ")));
        QCOMPARE(model.index(0, 0, forward).data().toString().mid(2),
            QString::fromStdString(step.removedOpTexts().front()).trimmed());
        QVERIFY(!(model.flags(forward) & Qt::ItemIsUserCheckable));

        QSignalSpy toggled(&model, &PassListModel::passToggled);
        QVERIFY(model.setData(cseIndex, Qt::Unchecked, Qt::CheckStateRole));
        QCOMPARE(toggled.count(), 1);
        QCOMPARE(toggled.at(0).at(0).toString(), QStringLiteral("common_subexpression_elimination_pass"));
        QCOMPARE(toggled.at(0).at(1).toBool(), false);
        QCOMPARE(cseIndex.data(Qt::CheckStateRole).value<Qt::CheckState>(), Qt::Unchecked);
        QVERIFY(!model.setData(forward, Qt::Checked, Qt::CheckStateRole));
        model.clear();
        QCOMPARE(model.rowCount(), 0);
    }

    /// The 12 lists in Paddle's order, each entry with its name, value, type and producer; f
    /// keys point into the forward program, b keys into the backward program.
    void programAttributesModel()
    {
        auto source = sourceOf("mlp_ce");
        auto s = PipelineSnapshot::compute(*source, true, {});
        ProgramAttributesModel model;
        attachTester(&model, this);
        model.setSnapshot(s);
        QCOMPARE(model.rowCount(), 12);
        const QStringList keys
            = { "fx", "fp", "fm", "fo", "bx", "bp", "bm", "bo_g", "bx_g", "bp_g", "no_need_buffers", "bo" };
        for (int i = 0; i < keys.size(); ++i) {
            QCOMPARE(model.index(i, 0).data().toString(), keys[i]);
            QCOMPARE(model.keyRow(keys[i]), i);
        }
        const QModelIndex fm = model.index(model.keyRow("fm"), 0);
        QCOMPARE(model.rowCount(fm), 6);
        const QModelIndex middle0 = model.index(0, ProgramAttributesModel::NameColumn, fm);
        QCOMPARE(middle0.data().toString(), QStringLiteral("middle_0"));
        QCOMPARE(sideFromIndex(middle0), ProgramSide::Forward);
        const Value v = valueFromIndex(middle0);
        QVERIFY(v && v.parentBlock() == &s->forward->program().block());
        QCOMPARE(opFromIndex(middle0), v.definingOp());
        QCOMPARE(model.index(0, ProgramAttributesModel::ValueColumn, fm).data().toString(),
            s->forward->valueId(v));
        QVERIFY(model.index(0, ProgramAttributesModel::OpColumn, fm)
                    .data()
                    .toString()
                    .startsWith("pd_op.matmul"));
        QCOMPARE(model.index(0, ProgramAttributesModel::TypeColumn, fm).data().toString(),
            QStringLiteral("tensor<4x6xf32>"));
        // bx: kwargs of the backward program, shown with their first consumer.
        const QModelIndex bx = model.index(model.keyRow("bx"), 0);
        const QModelIndex x = model.index(0, 0, bx);
        QCOMPARE(sideFromIndex(x), ProgramSide::Backward);
        const Value kw = valueFromIndex(x);
        QVERIFY(kw && !kw.definingOp() && kw.parentBlock() == &s->backward->program().block());
        QVERIFY(
            model.index(0, ProgramAttributesModel::OpColumn, bx).data().toString().startsWith("used by "));
        // x_grad of the label is the fake value.
        const QModelIndex bxg = model.index(model.keyRow("bx_g"), 0);
        QCOMPARE(model.index(1, 0, bxg).data().toString(), QStringLiteral("Fake_var"));
        QCOMPARE(model.index(1, ProgramAttributesModel::ValueColumn, bxg).data().toString(),
            QStringLiteral("(fake)"));
        model.setSnapshot(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void crossingValuesModel()
    {
        auto source = sourceOf("mlp_ce");
        auto s = PipelineSnapshot::compute(*source, true, {});
        CrossingValuesModel model;
        attachTester(&model, this);
        model.setSnapshot(s);
        QCOMPARE(model.rowCount(), 12);
        QCOMPARE(model.index(0, CrossingValuesModel::RoleColumn).data().toString(), QStringLiteral("input"));
        QCOMPARE(
            model.index(0, CrossingValuesModel::NameColumn).data().toString(), QStringLiteral("_jst.0.x.0"));
        QCOMPARE(model.index(0, CrossingValuesModel::BytesColumn).data().toString(), QStringLiteral("64 B"));
        int noBuffer = 0;
        for (int r = 0; r < model.rowCount(); ++r) {
            const CrossingValue &c = s->cut[size_t(r)];
            QCOMPARE(valueFromIndex(model.index(r, 0)), c.forward);
            QCOMPARE(valueFromIndex(model.index(r, 0), BackwardValueRole), c.backward);
            QCOMPARE(model.index(r, CrossingValuesModel::NoNeedBufferColumn).data().toString().isEmpty(),
                !c.noNeedBuffer);
            noBuffer += c.noNeedBuffer ? 1 : 0;
        }
        QCOMPARE(size_t(noBuffer), std::count_if(s->cut.begin(), s->cut.end(), [](const CrossingValue &c) {
            return c.noNeedBuffer;
        }));
        QCOMPARE(CrossingValuesModel::bytesText(-1), QStringLiteral("dynamic"));
        QCOMPARE(CrossingValuesModel::bytesText(3 * 1024), QStringLiteral("3.0 KiB"));
    }

    /// Toggling a pass recomputes off the UI thread; the newest request wins.
    void runnerRecomputes()
    {
        PipelineRunner runner;
        QSignalSpy ready(&runner, &PipelineRunner::snapshotReady);
        runner.setSource(sourceOf("lenet"), true);
        QVERIFY(runner.isBusy());
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 30000);
        auto withCse = runner.current();
        QVERIFY(withCse->ok() && withCse->training);
        const size_t ops = withCse->result.forward->numOpsTotal();

        // Two switches in a row: only the second request's result is delivered.
        runner.setPassEnabled("cse", false);
        runner.setPassEnabled("dce", true);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 30000);
        QTest::qWait(200);
        QCOMPARE(ready.count(), 2);
        auto without = runner.current();
        QCOMPARE(without->passes[0].enabled, true); // dce
        QCOMPARE(without->passes[1].enabled, false); // cse
        QCOMPARE(runner.passSwitches().at("cse"), false);
        QVERIFY(without->result.forward->numOpsTotal() >= ops);

        // Mode switch: computed once, then served from the cache.
        runner.setTraining(false);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 3, 30000);
        QVERIFY(!runner.current()->training);
        runner.setTraining(true);
        QCOMPARE(ready.count(), 4); // cached: delivered at once
        QCOMPARE(runner.current(), without);
        QVERIFY(!runner.isBusy());
    }
};

QTEST_MAIN(TestPipelineModels)
#include "tst_pipelinemodels.moc"
