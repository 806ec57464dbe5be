// The oneDNN fusion passes on near misses of their patterns (tests/onednnpassprograms.h): each
// constraint Paddle's pass checks keeps the program as it is, and the case just inside it fuses.
// What they do on whole programs is checked against Paddle's dumps in tst_onednnpassfixtures.

#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/passpipeline.h"
#include "core/transform/passregistry.h"
#include "onednnpassprograms.h"

#include <QtTest>

using namespace ps;
namespace programs = onednnpassprograms;

namespace {

std::unique_ptr<Program> load(const std::string &text)
{
    LoadResult r = PirTextReader::readString(text, "case.txt");
    if (!r.ok())
        qWarning().noquote() << QString::fromStdString(r.diagnostics.toString());
    return r.ok() ? std::move(r.program) : nullptr;
}

size_t runPass(Program &program, const char *name)
{
    std::unique_ptr<Pass> pass = PassRegistry::create(name, {});
    return pass && pass->implemented() ? pass->run(program) : size_t(-1);
}

/// "name name ..." of the top-level ops but the data, parameter and shadow_output ones.
QString opNames(const Program &program)
{
    QStringList names;
    for (const Operation *op : program.block().ops()) {
        const std::string_view name = op->name();
        if (name != "pd_op.data" && name != "builtin.parameter" && name != "builtin.shadow_output")
            names << QString::fromUtf8(name.data(), qsizetype(name.size()));
    }
    return names.join(' ');
}

const Operation *firstOp(const Program &program, std::string_view name)
{
    for (const Operation *op : program.block().ops())
        if (op->name() == name)
            return op;
    return nullptr;
}

} // namespace

class TestOneDnnFusionPasses : public QObject
{
    Q_OBJECT

private slots:
    void passesAreImplementedInTheOneDnnPipeline()
    {
        const auto names = PassPipeline::passNames("inference-onednn");
        QVERIFY(names);
        for (const char *name : { "depthwise_conv_onednn_pass", "conv2d_bn_onednn_fuse_pass",
                 "conv2d_bias_bn_onednn_fuse_pass", "conv2d_bias_fuse_pass",
                 "conv_elementwise_add_onednn_fuse_pass", "conv_activation_mkldnn_fuse_pass",
                 "fc_onednn_enable_pass", "matmul_elementwise_add_fuse_pass", "matmul_activation_fuse_pass",
                 "fc_activation_fuse_pass", "elementwise_act_onednn_fuse_pass", "scale_matmul_fuse_pass",
                 "operator_scale_onednn_fuse_pass", "squeeze_transpose_onednn_fuse_pass",
                 "operator_unsqueeze_onednn_fuse_pass", "operator_reshape_onednn_fuse_pass",
                 "batch_norm_act_fuse_pass", "softplus_activation_fuse_pass",
                 "reshape_transpose_matmul_fuse_pass", "matmul_transpose_reshape_fuse_pass",
                 "matmul_reshape_add_fuse_pass", "conv2d_transpose_bias_fuse_pass", "conv3d_bias_fuse_pass",
                 "conv2d_transpose_bn_fuse_pass", "conv2d_transpose_bias_bn_fuse_pass",
                 "shuffle_channel_detect_pass", "conv_concat_activation_mkldnn_fuse_pass",
                 "self_attention_fuse_pass" }) {
            QVERIFY2(std::find(names->begin(), names->end(), name) != names->end(), name);
            QVERIFY2(PassRegistry::isImplemented(name), name);
        }
    }

    void biasFromAnInputIsNotFused()
    {
        auto p = load(programs::kConvAddInputBias);
        QVERIFY(p);
        QCOMPARE(runPass(*p, "conv2d_bias_fuse_pass"), size_t(0));
        QCOMPARE(runPass(*p, "conv_elementwise_add_onednn_fuse_pass"), size_t(0)); // it broadcasts
        QCOMPARE(opNames(*p), QString("pd_op.conv2d pd_op.add"));
    }

    void convReadTwiceKeepsItsActivation()
    {
        auto p = load(programs::kConvReadTwice);
        QVERIFY(p);
        QCOMPARE(runPass(*p, "conv_activation_mkldnn_fuse_pass"), size_t(0));
        // add(relu(conv), conv): the add reads the conv too, so it is no residual either.
        QCOMPARE(runPass(*p, "conv_elementwise_add_onednn_fuse_pass"), size_t(0));
    }

    void leakyReluNeedsAPositiveSlope()
    {
        auto negative = load(programs::kConvLeakyNegative);
        QVERIFY(negative);
        QCOMPARE(runPass(*negative, "conv_activation_mkldnn_fuse_pass"), size_t(0));
        auto positive = load(programs::kConvLeakyPositive);
        QVERIFY(positive);
        QCOMPARE(runPass(*positive, "conv_activation_mkldnn_fuse_pass"), size_t(1));
        const Operation *fused = firstOp(*positive, "onednn_op.fused_conv2d");
        QVERIFY(fused);
        QCOMPARE(fused->attribute("fuse_activation")->asString(), std::string("leaky_relu"));
        QCOMPARE(fused->attribute("fuse_alpha")->asDouble(), double(0.25f));
        QVERIFY(fused->operand(2).isNull() && fused->operand(3).isNull());
    }

    // Paddle 3.3.1 fails on a concat of fused convs (its constraint reads an unbound attribute);
    // PIRScope fuses the activation into each conv that has none, and leaves a conv that has one.
    void concatOfFusedConvsTakesTheActivation()
    {
        auto p = load(programs::concatOfFusedConvs(""));
        QVERIFY(p);
        QCOMPARE(runPass(*p, "conv_concat_activation_mkldnn_fuse_pass"), size_t(1));
        QCOMPARE(opNames(*p),
            QString("pd_op.conv2d pd_op.full onednn_op.fused_conv2d onednn_op.fused_conv2d builtin.combine "
                    "pd_op.concat"));
        for (const Operation *op : p->block().ops())
            if (op->name() == "onednn_op.fused_conv2d") {
                QCOMPARE(op->attribute("fuse_activation")->asString(), std::string("relu"));
                QVERIFY(!op->operand(2).isNull() && op->operand(3).isNull());
            }
        auto activated = load(programs::concatOfFusedConvs("tanh"));
        QVERIFY(activated);
        QCOMPARE(runPass(*activated, "conv_concat_activation_mkldnn_fuse_pass"), size_t(0));
    }

    void residualNeedsNchw()
    {
        auto p = load(programs::kConvNhwcResidual);
        QVERIFY(p);
        QCOMPARE(runPass(*p, "conv_elementwise_add_onednn_fuse_pass"), size_t(0));
    }

    void batchNormWithUsedStatisticsIsNotFolded()
    {
        auto p = load(programs::kConvBnMeanUsed);
        QVERIFY(p);
        QCOMPARE(runPass(*p, "conv2d_bn_onednn_fuse_pass"), size_t(0));
        QCOMPARE(opNames(*p), QString("pd_op.conv2d pd_op.batch_norm_"));
    }

    void fcEnableChecksInputAndActivation()
    {
        auto p = load(programs::kFcNotEnabled);
        QVERIFY(p);
        QCOMPARE(runPass(*p, "fc_onednn_enable_pass"), size_t(0));
        QCOMPARE(opNames(*p), QString("pd_op.fc pd_op.fc"));
    }

    void matmulFusionsInPipelineOrder()
    {
        auto p = load(programs::kMatmulGeluTanh);
        QVERIFY(p);
        QCOMPARE(runPass(*p, "matmul_elementwise_add_fuse_pass"), size_t(1));
        QCOMPARE(runPass(*p, "matmul_activation_fuse_pass"), size_t(1));
        QCOMPARE(opNames(*p), QString("onednn_op.fused_matmul onednn_op.fused_matmul"));
        const Operation *first = firstOp(*p, "onednn_op.fused_matmul");
        QCOMPARE(first->attribute("fuse_activation")->asString(), std::string("gelu_tanh"));
        QVERIFY(first->operand(2).isNull());
        const Operation *second = p->block().ops()[size_t(p->block().ops().size() - 2)];
        QCOMPARE(second->attribute("trans_y")->asBool(), true);
        QVERIFY(!second->operand(2).isNull()); // the residual x
    }

    void elementwiseReadTwiceIsNotFused()
    {
        auto p = load(programs::kAddReadTwice);
        QVERIFY(p);
        QCOMPARE(runPass(*p, "elementwise_act_onednn_fuse_pass"), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestOneDnnFusionPasses)
#include "tst_onednnfusionpasses.moc"
