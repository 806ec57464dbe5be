#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/passpipeline.h"
#include "core/transform/passregistry.h"
#include "core/transform/unimplementedpass.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>
#include <algorithm>

using namespace ps;

/// Named pipelines (Paddle 3.3.1's pass lists) and the registry behind them.
class TestPassPipeline : public QObject
{
    Q_OBJECT

private slots:
    void pipelinesInPaddlesOrder()
    {
        const auto gpu = PassPipeline::passNames("inference-gpu");
        QVERIFY(gpu);
        QCOMPARE(gpu->size(), size_t(23 + 9));
        QCOMPARE(gpu->front(), std::string("add_shadow_output_after_dead_parameter_pass"));
        QCOMPARE((*gpu)[22], std::string("horizontal_fuse_pass"));
        QCOMPARE((*gpu)[23], std::string("transfer_layout_pass"));
        QCOMPARE(gpu->back(), std::string("inplace_pass"));
        // Mixed precision puts AMP first among the basic passes.
        const auto fp16 = PassPipeline::passNames("inference-gpu-fp16");
        QCOMPARE((*fp16)[23], std::string("auto_mixed_precision_pass"));
        QCOMPARE((*fp16)[24], std::string("transfer_layout_pass"));
        // The CPU list as a FLAGS_print_ir log of Paddle 3.3.1 with oneDNN off shows it: on its
        // own place, a CPU, params_sync_among_devices_pass does not apply.
        QCOMPARE(*PassPipeline::passNames("inference-cpu"),
            std::vector<std::string>({ "add_shadow_output_after_dead_parameter_pass",
                "delete_quant_dequant_linear_op_pass", "delete_weight_dequant_linear_op_pass",
                "transfer_layout_pass", "common_subexpression_elimination_pass", "constant_folding_pass",
                "dead_code_elimination_pass", "replace_fetch_with_shadow_output_pass", "pd_op_to_kernel_pass",
                "remove_shadow_feed_pass", "inplace_pass" }));
        QCOMPARE(*PassPipeline::passNames("dy2static"),
            std::vector<std::string>(
                { "common_subexpression_elimination_pass", "pd_op_to_kernel_pass", "inplace_pass" }));
        QVERIFY(!PassPipeline::passNames("nope"));
        QCOMPARE(PassPipeline::pipelines().size(), size_t(6));
    }

    void placeChangesTheLists()
    {
        auto has = [](const std::optional<std::vector<std::string>> &names, const char *pass) {
            return std::find(names->begin(), names->end(), pass) != names->end();
        };
        const char *sync = "params_sync_among_devices_pass";
        QCOMPARE(PassPipeline::defaultPlace("inference-cpu"), Place::AllocType::Cpu);
        QCOMPARE(PassPipeline::defaultPlace("inference-onednn"), Place::AllocType::Cpu);
        QCOMPARE(PassPipeline::defaultPlace("inference-gpu"), Place::AllocType::Gpu);
        QVERIFY(has(PassPipeline::passNames("inference-gpu"), sync));
        QVERIFY(!has(PassPipeline::passNames("inference-gpu", Place::AllocType::Cpu), sync));
        QVERIFY(has(PassPipeline::passNames("inference-cpu", Place::AllocType::Gpu), sync));
        QVERIFY(!has(PassPipeline::passNames("inference-onednn"), sync));
        // kPirMkldnnPasses of an AVX512F + MKLML + oneDNN build (the x86 wheel): self_attention_fuse_pass
        // after fc_activation_fuse_pass, implemented.
        const auto onednn = PassPipeline::passNames("inference-onednn");
        const auto fcAct = std::find(onednn->begin(), onednn->end(), "fc_activation_fuse_pass");
        QVERIFY(fcAct != onednn->end() && fcAct + 1 != onednn->end());
        QCOMPARE(*(fcAct + 1), std::string("self_attention_fuse_pass"));
        QVERIFY(PassRegistry::isImplemented("self_attention_fuse_pass"));
        // The place reaches the passes: map_op_to_another_pass keeps depthwise_conv2d on a CPU.
        std::string error;
        Program p;
        Builder b(p);
        const Type x = Type::denseTensor(DataType::Float32, { 1, 4, 6, 6 });
        const Type w = Type::denseTensor(DataType::Float32, { 4, 1, 3, 3 });
        std::vector<NamedAttribute> xAttrs { { "name", Attribute::string("x") } };
        std::vector<NamedAttribute> wAttrs { { "parameter_name", Attribute::string("w") } };
        const Value in = b.create("pd_op.data", {}, std::span<const Type>(&x, 1), xAttrs)->result(0);
        const Value filter
            = b.create("builtin.parameter", {}, std::span<const Type>(&w, 1), wAttrs)->result(0);
        const Value operands[] = { in, filter };
        const Attribute ones = Attribute::array({ Attribute::int32(1), Attribute::int32(1) });
        const Attribute zeros = Attribute::array({ Attribute::int32(0), Attribute::int32(0) });
        std::vector<NamedAttribute> convAttrs { { "strides", ones }, { "paddings", zeros },
            { "padding_algorithm", Attribute::string("EXPLICIT") }, { "groups", Attribute::int32(4) },
            { "dilations", ones }, { "data_format", Attribute::string("NCHW") } };
        const Type y = Type::denseTensor(DataType::Float32, { 1, 4, 4, 4 });
        b.create("pd_op.depthwise_conv2d", operands, std::span<const Type>(&y, 1), convAttrs);
        for (const Place::AllocType place : { Place::AllocType::Cpu, Place::AllocType::Gpu }) {
            std::unique_ptr<Program> copy = p.clone();
            std::optional<PassManager> pm = PassPipeline::build("inference-gpu", {}, error, place);
            QVERIFY(pm);
            for (const Pass *pass : pm->passes())
                pm->setEnabled(pass->name(), pass->name() == "map_op_to_another_pass");
            pm->run(*copy);
            QCOMPARE(copy->block().op(2)->name(),
                std::string_view(place == Place::AllocType::Cpu ? "pd_op.depthwise_conv2d" : "pd_op.conv2d"));
        }
    }

    void cpuListIsWhatPaddleRan_data()
    {
        QTest::addColumn<QString>("caseName");
        const QString dir = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/pipeline_passes");
        for (const QString &c : QDir(dir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
            QTest::newRow(qPrintable(c)) << c;
    }

    void cpuListIsWhatPaddleRan()
    {
        // tests/fixtures/pipeline_passes: the passes a Paddle 3.3.1 CPU predictor (oneDNN off)
        // printed, in order; the lowering is the one pass it does not print.
        QFETCH(QString, caseName);
        QFile f(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/pipeline_passes/") + caseName + "/manifest.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        std::vector<std::string> paddle;
        for (const QJsonValue &v : QJsonDocument::fromJson(f.readAll()).object()["pipeline"].toArray())
            paddle.push_back(v.toString().toStdString());
        std::vector<std::string> ours = *PassPipeline::passNames("inference-cpu");
        std::erase(ours, std::string("pd_op_to_kernel_pass"));
        QCOMPARE(ours, paddle);
    }

    void unimplementedPassesAreListedNotRun()
    {
        std::string error;
        std::optional<PassManager> pm = PassPipeline::build("inference-cpu", {}, error);
        QVERIFY(pm);
        QCOMPARE(pm->passes().size(), size_t(11));
        const Pass *lowering = pm->pass("pd_op_to_kernel_pass");
        QVERIFY(lowering && !lowering->implemented());
        QVERIFY(QString::fromUtf8(lowering->description().data(), int(lowering->description().size()))
                    .startsWith("not implemented in PIRScope: lowers to Paddle's kernel dialect"));
        QVERIFY(pm->pass("cse")->implemented());

        Program p;
        Builder b(p);
        const Type t = Type::denseTensor(DataType::Float32, { 2 });
        std::vector<NamedAttribute> attrs { { "name", Attribute::string("x") } };
        Operation *x = b.create("pd_op.data", {}, std::span<const Type>(&t, 1), attrs);
        const Value in = x->result(0);
        b.create("pd_op.relu", std::span<const Value>(&in, 1), std::span<const Type>(&t, 1), {});
        const std::vector<PassRecord> records = pm->run(p);
        QCOMPARE(records.size(), size_t(11));
        size_t notRun = 0;
        for (const PassRecord &r : records) {
            QCOMPARE(r.implemented, PassRegistry::isImplemented(r.pass));
            notRun += !r.implemented;
        }
        QVERIFY(notRun > 0);
        // DCE is in the list: the unused relu went.
        QCOMPARE(p.block().size(), size_t(1));
    }

    void unknownNames()
    {
        std::string error;
        QVERIFY(!PassPipeline::build("inference-tpu", {}, error));
        QVERIFY(QString::fromStdString(error).contains("inference-gpu"));
        QVERIFY(!PassRegistry::create("no_such_pass"));
        QCOMPARE(PassRegistry::canonicalName("cse"), std::string("common_subexpression_elimination_pass"));
        QCOMPARE(PassRegistry::canonicalName("build_cinn_pass"), std::string());
        auto unimplemented = PassRegistry::create("remove_shadow_feed_pass");
        QVERIFY(unimplemented && !unimplemented->implemented());
    }

    void fusionPassesRunInTheGpuPipeline()
    {
        // The fusion passes (PassRegistry::fusionPassNames) are registered: the GPU pipeline runs
        // them, by Paddle name or alias, and the registry lists them as implemented.
        for (std::string_view name : PassRegistry::fusionPassNames()) {
            QVERIFY2(PassRegistry::isImplemented(name), name.data());
            const std::vector<std::string> all = PassRegistry::implementedNames();
            QVERIFY(std::find(all.begin(), all.end(), std::string(name)) != all.end());
        }
        std::string error;
        std::optional<PassManager> pm = PassPipeline::build("inference-gpu", {}, error);
        QVERIFY(pm);
        const Pass *bn = pm->pass("conv2d_bn_fuse_pass");
        QVERIFY(bn && bn->implemented());
        QCOMPARE(PassRegistry::canonicalName(bn->alias()), std::string("conv2d_bn_fuse_pass"));
        QVERIFY(pm->pass("matmul_add_act_fuse_pass")->implemented());
        QVERIFY(!pm->pass("fused_flash_attn_pass")->implemented());
    }
};

QTEST_GUILESS_MAIN(TestPassPipeline)
#include "tst_passpipeline.moc"
