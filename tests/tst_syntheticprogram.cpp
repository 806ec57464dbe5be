#include "core/analysis/programdiff.h"
#include "core/analysis/verifier.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/partialprogram.h"
#include "core/transform/syntheticprogram.h"

#include <QtTest>
#include <map>
#include <string>

using namespace ps;

namespace {

using Kind = SyntheticProgram::Kind;

std::unique_ptr<Program> loadText(const QString &path)
{
    LoadResult r = PirTextReader::readFile(path.toStdString());
    return r.ok() ? std::move(r.program) : nullptr;
}

std::map<std::string, int> opCounts(const Program &program)
{
    std::map<std::string, int> counts;
    for (const Operation *op : program.block().ops())
        ++counts[std::string(op->name())];
    return counts;
}

/// "name:kind" of every attribute (array element kinds included), struct_name values aside.
QString attributeSignature(const Operation &op)
{
    QStringList parts;
    std::function<QString(const Attribute &)> kinds = [&](const Attribute &a) {
        QString s = QString::number(int(a.kind()));
        if (a.kind() == Attribute::Kind::Array) {
            QStringList items;
            for (const Attribute &e : a.asArray())
                items << kinds(e);
            s += "[" + items.join(",") + "]";
        }
        return s;
    };
    for (const NamedAttribute &a : op.attributes())
        parts << QString::fromStdString(a.name) + ":" + kinds(a.value);
    parts.sort();
    return parts.join(" ");
}

SyntheticProgram::Model generate(Kind kind, size_t layers)
{
    return kind == Kind::Mlp ? SyntheticProgram::mlp(layers) : SyntheticProgram::transformer(layers);
}

} // namespace

/// ps::SyntheticProgram: the generated programs are what Paddle 3.3.1's to_static traces for the
/// same models, they verify, and the dy2static pipeline turns them into the expected backward.
class TestSyntheticProgram : public QObject
{
    Q_OBJECT

private slots:
    void kinds_data()
    {
        QTest::addColumn<int>("kind");
        QTest::newRow("mlp") << int(Kind::Mlp);
        QTest::newRow("transformer") << int(Kind::Transformer);
    }

    void sizeAndVerify_data() { kinds_data(); }
    void sizeAndVerify()
    {
        QFETCH(int, kind);
        const Kind k = Kind(kind);
        for (size_t ops : { size_t(1), size_t(100), size_t(1000), size_t(10000) }) {
            SyntheticProgram::Model m = SyntheticProgram::ofSize(k, ops);
            QVERIFY(m.program);
            const size_t n = m.program->numOps();
            QCOMPARE(n, SyntheticProgram::opsForLayers(k, SyntheticProgram::layersForOps(k, ops)));
            if (ops >= 100) {
                QVERIFY(n <= ops);
                QVERIFY(n > ops - (k == Kind::Mlp ? 8 : 50));
            }
            const DiagnosticList d = verify(*m.program);
            QVERIFY2(d.empty(), d.toString().c_str());
            QCOMPARE(m.inputs.size(), size_t(1));
            QCOMPARE(m.outputs.size(), size_t(1));
            QCOMPARE(m.outputs[0].definingOp()->name(), std::string_view("pd_op.mean"));
            const size_t layers = SyntheticProgram::layersForOps(k, ops);
            QCOMPARE(m.params.size(), layers * (k == Kind::Mlp ? 4 : 16));
            // The layer's parameter order: sorted by name.
            for (size_t i = 1; i < m.params.size(); ++i)
                QVERIFY(m.params[i - 1].definingOp()->stringAttribute("parameter_name")
                    < m.params[i].definingOp()->stringAttribute("parameter_name"));
        }
        QCOMPARE(SyntheticProgram::kindFromName(SyntheticProgram::kindName(k)), std::optional<Kind>(k));
    }

    /// Paddle's own traces of the same models (written by tools/bench_paddle_create_program.py
    /// --dump-program) are structurally equal to ours.
    void equalsPaddleTrace_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("layers");
        QTest::addColumn<QString>("file");
        QTest::newRow("mlp 3 layers") << int(Kind::Mlp) << 3 << "mlp_3.txt";
        QTest::newRow("transformer 2 layers") << int(Kind::Transformer) << 2 << "transformer_2.txt";
    }
    void equalsPaddleTrace()
    {
        QFETCH(int, kind);
        QFETCH(int, layers);
        QFETCH(QString, file);
        auto paddle = loadText(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/synthetic/") + file);
        QVERIFY(paddle);
        SyntheticProgram::Model m = generate(Kind(kind), size_t(layers));
        const ProgramDifference d = ProgramDiff::compare(*m.program, *paddle);
        QVERIFY2(d.equal, d.toString("ours", "paddle").c_str());
    }

    /// One TransformerEncoderLayer at the golden bundle's sizes is the bundle's program op for op
    /// (the stack adds the TransformerEncoder scope to struct_name, and the mean loss).
    void matchesGoldenTransformerEncoder()
    {
        auto golden
            = loadText(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/transformer_encoder/program.txt"));
        if (!golden)
            QSKIP("golden bundle missing");
        SyntheticProgram::Model m = SyntheticProgram::transformer(1, 8, 2, 16, 2, 3);
        const Block &ours = m.program->block();
        const Block &theirs = golden->block();
        QCOMPARE(ours.size(), theirs.size() + 2);
        for (size_t i = 0; i < theirs.size(); ++i) {
            const Operation &a = *ours.op(i);
            const Operation &b = *theirs.op(i);
            const QByteArray where
                = QByteArray::number(qulonglong(i)) + " " + QByteArray(b.name().data(), b.name().size());
            QVERIFY2(a.name() == b.name(), where);
            QVERIFY2(a.numOperands() == b.numOperands() && a.numResults() == b.numResults(), where);
            for (unsigned r = 0; r < a.numResults(); ++r)
                QVERIFY2(a.result(r).type() == b.result(r).type(), where);
            for (unsigned o = 0; o < a.numOperands(); ++o) {
                QVERIFY2(ours.indexOf(a.operand(o).definingOp()) == theirs.indexOf(b.operand(o).definingOp()),
                    where);
                QVERIFY2(a.operand(o).index() == b.operand(o).index(), where);
            }
            QCOMPARE(attributeSignature(a), attributeSignature(b));
            for (const NamedAttribute &attr : b.attributes()) {
                const Attribute *mine = a.attribute(attr.name);
                QVERIFY2(mine, where);
                if (attr.name == "struct_name")
                    QCOMPARE(mine->asString(), "/TransformerEncoder" + attr.value.asString());
                else
                    QVERIFY2(*mine == attr.value, where + " " + QByteArray::fromStdString(attr.name));
            }
        }
    }

    /// Attribute names and kinds of every op the MLP shares with the golden mlp_ce bundle.
    void mlpAttributesLikeGolden()
    {
        auto golden = loadText(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/mlp_ce/program.txt"));
        if (!golden)
            QSKIP("golden bundle missing");
        std::map<std::string, const Operation *> reference;
        for (const Operation *op : golden->block().ops())
            reference.emplace(std::string(op->name()), op);
        SyntheticProgram::Model m = SyntheticProgram::mlp(2);
        int compared = 0;
        for (const Operation *op : m.program->block().ops()) {
            auto it = reference.find(std::string(op->name()));
            if (it == reference.end())
                continue;
            QCOMPARE(attributeSignature(*op), attributeSignature(*it->second));
            ++compared;
        }
        QCOMPARE(compared, 8 * 2 + 3 - 3); // all but the two layer_norm ops and the gelu
    }

    void pipeline_data() { kinds_data(); }
    /// PartialProgramLayer over a ~1k-op program: every forward op with a gradient has its grad
    /// op in the train and in the final backward program, every parameter gets a gradient.
    void pipeline()
    {
        QFETCH(int, kind);
        const Kind k = Kind(kind);
        SyntheticProgram::Model m = SyntheticProgram::ofSize(k, 1000);
        const size_t params = m.params.size();
        const std::map<std::string, int> forward = opCounts(*m.program);
        auto layer = SyntheticProgram::layer(std::move(m));
        const PipelineResult r = layer->snapshot(true);
        QVERIFY(r.ok());
        QVERIFY2(r.diagnostics.empty(), r.diagnostics.empty() ? "" : r.diagnostics.front().c_str());
        const DiagnosticList d = verify(*r.whole);
        QVERIFY2(!d.hasErrors(), d.toString().c_str());
        const std::map<std::string, int> train = opCounts(*r.whole);
        const std::map<std::string, int> backward = opCounts(*r.backward);
        const auto count = [](const std::map<std::string, int> &c, const std::string &name) {
            auto it = c.find(name);
            return it == c.end() ? 0 : it->second;
        };
        QVERIFY(count(forward, "pd_op.matmul") > 0);
        for (const char *op :
            { "matmul", "add", "layer_norm", "relu", "gelu", "softmax", "reshape", "transpose" }) {
            const std::string name = std::string("pd_op.") + op;
            QCOMPARE(count(train, name + "_grad"), count(forward, name));
            QCOMPARE(count(backward, name + "_grad"), count(forward, name));
        }
        QCOMPARE(count(train, "pd_op.mean_grad"), 1);
        // scale's gradient is a scale op.
        QCOMPARE(count(train, "pd_op.scale"), 2 * count(forward, "pd_op.scale"));
        QCOMPARE(r.attributeNames[SplitKey::BpG].size(), params);
        for (const std::string &name : r.attributeNames[SplitKey::BpG])
            QVERIFY(!name.empty() && name != "Fake_var");
        QCOMPARE(r.attributeNames[SplitKey::BxG].size(), size_t(1));
        QVERIFY(r.attributeNames[SplitKey::BxG][0] != "Fake_var");
    }

    /// Times clone + backward + split + program_name_attr on a ~1k-op MLP (printed, not checked).
    void benchmarkPipeline()
    {
        auto layer = SyntheticProgram::layer(SyntheticProgram::ofSize(Kind::Mlp, 1000));
        RunnableProgram &origin = layer->originRunnableProgram();
        const PartialProgramLayer::BackwardFn backward
            = PartialProgramLayer::defaultBackwardFn(origin.flavour());
        size_t backwardOps = 0;
        QBENCHMARK
        {
            std::string error;
            std::optional<RunnableProgram> train = backward(origin.clone(), error);
            QVERIFY(train);
            train->splitForwardBackward();
            train->programNameAttr();
            backwardOps = train->backwardProgram().numOps();
        }
        QVERIFY(backwardOps > 0);
    }
};

QTEST_GUILESS_MAIN(TestSyntheticProgram)
#include "tst_syntheticprogram.moc"
