#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/passpipeline.h"
#include "core/transform/passregistry.h"
#include "core/transform/unimplementedpass.h"

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
        // The CPU list as a FLAGS_print_ir log of Paddle 3.3.1 with oneDNN off shows it.
        QCOMPARE(*PassPipeline::passNames("inference-cpu"),
            std::vector<std::string>({ "add_shadow_output_after_dead_parameter_pass",
                "delete_quant_dequant_linear_op_pass", "delete_weight_dequant_linear_op_pass",
                "transfer_layout_pass", "common_subexpression_elimination_pass",
                "params_sync_among_devices_pass", "constant_folding_pass", "dead_code_elimination_pass",
                "replace_fetch_with_shadow_output_pass", "pd_op_to_kernel_pass", "remove_shadow_feed_pass",
                "inplace_pass" }));
        QCOMPARE(*PassPipeline::passNames("dy2static"),
            std::vector<std::string>(
                { "common_subexpression_elimination_pass", "pd_op_to_kernel_pass", "inplace_pass" }));
        QVERIFY(!PassPipeline::passNames("nope"));
        QCOMPARE(PassPipeline::pipelines().size(), size_t(6));
    }

    void unimplementedPassesAreListedNotRun()
    {
        std::string error;
        std::optional<PassManager> pm = PassPipeline::build("inference-cpu", {}, error);
        QVERIFY(pm);
        QCOMPARE(pm->passes().size(), size_t(12));
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
        QCOMPARE(records.size(), size_t(12));
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
