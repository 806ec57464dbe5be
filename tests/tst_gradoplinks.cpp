#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/session/bundleprograms.h"
#include "core/transform/forwardbackwardcut.h"
#include "core/transform/partialprogram.h"

#include <QtTest>
#include <map>
#include <set>

using namespace ps;

namespace {

const char *const kModels[] = { "mlp_ce", "lenet", "conv_bn_relu", "transformer_encoder", "inplace_chain",
    "pruned_param", "nested_output", "control_flow", "control_flow_if", "embedding_mean" };

std::unique_ptr<PartialProgramLayer> layerOf(const QString &model)
{
    DiagnosticList d;
    auto b = TraceBundle::open((QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/") + model).toStdString(), d);
    return b ? BundlePrograms::makeLayer(*b, d, PipelineFlavour::Newest, TraceBundle::ProgramSource::Text)
             : nullptr;
}

std::string nameAt(const Program &p, size_t i)
{
    return i < p.block().size() ? std::string(p.block().op(i)->name()) : std::string("<out of range>");
}

} // namespace

/// Which grad ops autodiff made from which forward op (GradResult::gradOps, carried by
/// BackwardAppender, RunnableProgram and PartialProgramLayer into PipelineResult), and the
/// forward/backward cut.
class TestGradOpLinks : public QObject
{
    Q_OBJECT

private slots:
    /// mlp_ce: each compute op of the forward has exactly its own `_grad` op.
    void mlpLinks()
    {
        auto layer = layerOf("mlp_ce");
        if (!layer)
            QSKIP("golden bundle missing");
        const PipelineResult r = layer->snapshot(true);
        QVERIFY(r.ok());
        QCOMPARE(r.gradOps.size(), size_t(7));
        QCOMPARE(r.splitGradOps.size(), size_t(7));
        for (const GradOpLink &link : r.gradOps) {
            QVERIFY(link.forwardOp < r.forwardRange.end);
            for (size_t g : link.gradOps)
                QVERIFY(g >= r.backwardRange.begin && g < r.backwardRange.end);
        }
        std::map<size_t, std::vector<std::string>> grads;
        for (const GradOpLink &link : r.splitGradOps) {
            const std::string forward = nameAt(*r.forward, link.forwardOp);
            QCOMPARE(link.gradOps.size(), size_t(1));
            QCOMPARE(nameAt(*r.backward, link.gradOps[0]), forward + "_grad");
            grads[link.forwardOp].push_back(nameAt(*r.backward, link.gradOps[0]));
        }
        // Paddle's forward program: op 6 is the first matmul, 9 the second; the backward runs
        // them in reverse (ops 6 and 3).
        auto linkOf = [&r](size_t forwardOp) {
            for (const GradOpLink &l : r.splitGradOps)
                if (l.forwardOp == forwardOp)
                    return l.gradOps;
            return std::vector<size_t>();
        };
        QCOMPARE(nameAt(*r.forward, 6), std::string("pd_op.matmul"));
        QCOMPARE(linkOf(6), std::vector<size_t>({ 6 }));
        QCOMPARE(linkOf(9), std::vector<size_t>({ 3 }));
        QCOMPARE(linkOf(13), std::vector<size_t>({ 0 })); // mean → mean_grad
        QVERIFY(linkOf(12).empty()); // full_int_array has no grad op
    }

    void everyGradOpHasItsForwardOp_data()
    {
        QTest::addColumn<QString>("model");
        for (const char *m : kModels)
            QTest::newRow(m) << QString::fromLatin1(m);
    }

    /// On every golden bundle: each top-level `*_grad` op of the backward program belongs to a
    /// link, no grad op has two forward ops, and the whole-program links name the same ops as
    /// the split ones.
    void everyGradOpHasItsForwardOp()
    {
        QFETCH(QString, model);
        auto layer = layerOf(model);
        if (!layer)
            QSKIP("golden bundle missing");
        const PipelineResult r = layer->snapshot(true);
        QVERIFY(r.ok());
        QVERIFY(!r.splitGradOps.empty());
        std::set<size_t> linked;
        for (const GradOpLink &link : r.splitGradOps)
            for (size_t g : link.gradOps)
                QVERIFY2(linked.insert(g).second, "a grad op with two forward ops");
        for (size_t i = 0; i < r.backward->block().size(); ++i) {
            const std::string name = nameAt(*r.backward, i);
            if (name.size() > 5 && name.compare(name.size() - 5, 5, "_grad") == 0)
                QVERIFY2(linked.count(i), (model.toStdString() + ": unlinked " + name).c_str());
        }
        QVERIFY(r.splitGradOps.size() <= r.gradOps.size());
        std::multiset<std::string> whole, split;
        for (const GradOpLink &link : r.gradOps)
            whole.insert(nameAt(*r.whole, link.forwardOp));
        for (const GradOpLink &link : r.splitGradOps)
            split.insert(nameAt(*r.forward, link.forwardOp));
        for (const std::string &n : split)
            QVERIFY(whole.count(n) >= split.count(n));
    }

    /// Infer snapshots and train programs from elsewhere (Paddle's) carry no links.
    void noLinksWithoutOurBackward()
    {
        auto layer = layerOf("mlp_ce");
        if (!layer)
            QSKIP("golden bundle missing");
        QVERIFY(layer->snapshot(false).gradOps.empty());
        DiagnosticList d;
        auto b = TraceBundle::open(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce", d);
        QVERIFY(b);
        std::optional<RunnableProgram> paddle = BundlePrograms::paddleTrainProgram(*b, d);
        QVERIFY(paddle);
        layer->useTrainProgram(std::move(*paddle));
        const PipelineResult r = layer->snapshot(true);
        QVERIFY(r.ok());
        QVERIFY(r.gradOps.empty());
        QVERIFY(r.splitGradOps.empty());
    }

    /// mlp_ce's cut: two inputs, four parameters, six middles and no output read by the
    /// backward; no_need_buffers flags match the attribute list; sizes are static.
    void mlpCut()
    {
        auto layer = layerOf("mlp_ce");
        if (!layer)
            QSKIP("golden bundle missing");
        const PipelineResult r = layer->snapshot(true);
        const std::vector<CrossingValue> cut = ForwardBackwardCut::of(r);
        std::map<CrossingValue::Role, size_t> count;
        for (const CrossingValue &c : cut) {
            ++count[c.role];
            QVERIFY(c.forward && c.backward);
            QVERIFY(c.forward.parentBlock() == &r.forward->block() || !c.forward.definingOp());
            QCOMPARE(c.bytes, c.forward.type().byteSize());
            const auto &nnb = r.attributeValues[SplitKey::NoNeedBuffers];
            QCOMPARE(c.noNeedBuffer, std::find(nnb.begin(), nnb.end(), c.forward) != nnb.end());
        }
        QCOMPARE(count[CrossingValue::Role::Input], size_t(2));
        QCOMPARE(count[CrossingValue::Role::Parameter], size_t(4));
        QCOMPARE(count[CrossingValue::Role::Middle], size_t(6));
        QCOMPARE(count[CrossingValue::Role::Output], size_t(0));
        QCOMPARE(cut[0].name, std::string("_jst.0.x.0"));
        QCOMPARE(cut[0].bytes, int64_t(4 * 4 * 4));
        size_t dynamic = 99;
        const int64_t kept = ForwardBackwardCut::keptBytes(cut, &dynamic);
        QCOMPARE(dynamic, size_t(0));
        int64_t expected = 0;
        for (const CrossingValue &c : cut)
            expected += c.noNeedBuffer ? 0 : c.bytes;
        QCOMPARE(kept, expected);
        QCOMPARE(ForwardBackwardCut::roleName(CrossingValue::Role::Middle), std::string_view("middle"));
    }
};

QTEST_GUILESS_MAIN(TestGradOpLinks)
#include "tst_gradoplinks.moc"
