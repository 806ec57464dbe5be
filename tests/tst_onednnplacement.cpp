// onednn_placement_pass and what lets the rest of PIRScope take its onednn_op.X for pd_op.X:
// which ops move and with which attributes (tst_onednnpassfixtures checks the pass against
// Paddle 3.3.1's dumps), ops in regions, the op registry's signatures, the kernels of both CPU
// devices, the shape rules, and a run of the placed program against the original.

#include "core/analysis/shapeinference.h"
#include "core/dialect/onednnplacement.h"
#include "core/dialect/opregistry.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/runtime/backend.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/programrunner.h"
#include "core/runtime/tensorcomparison.h"
#include "core/runtime/tensorsource.h"
#include "core/transform/onednnplacementpass.h"
#include "onednnplacementprograms.h"

#include <QtTest>
#include <memory>

using namespace ps;

namespace {

std::unique_ptr<Program> load(const char *text)
{
    LoadResult r = PirTextReader::readString(text, "placement.txt");
    if (!r.ok())
        qWarning().noquote() << QString::fromStdString(r.diagnostics.toString());
    return r.ok() ? std::move(r.program) : nullptr;
}

/// The names of the top-level ops, in order.
std::vector<std::string> opNames(const Program &program)
{
    std::vector<std::string> names;
    for (const Operation *op : program.block().ops())
        names.emplace_back(op->name());
    return names;
}

std::vector<ProgramRunner::NamedTensor> run(std::shared_ptr<const Program> program, Backend &backend)
{
    ProgramRunner runner(std::move(program), backend);
    ProgramRunner::Options options;
    options.inputs = TensorSource::random(7);
    std::string error;
    if (!runner.prepare(options, error))
        qWarning() << error.c_str();
    const StopInfo stop = runner.run();
    if (stop.reason != StopReason::Finished)
        qWarning() << stop.message.c_str();
    return runner.outputs();
}

} // namespace

class TestOneDnnPlacement : public QObject
{
    Q_OBJECT

private slots:
    void movesTheOpsPaddleMovesWithTheirExtras()
    {
        auto program = load(onednnplacement::kMixed);
        QVERIFY(program);
        OneDnnPlacementPass pass;
        QCOMPARE(pass.run(*program), size_t(6));
        const std::vector<std::string> names = opNames(*program);
        QCOMPARE(names.at(4), std::string("onednn_op.relu"));
        QCOMPARE(names.at(5), std::string("onednn_op.conv2d"));
        QCOMPARE(names.at(6), std::string("pd_op.cast")); // an int32 operand
        QCOMPARE(names.at(7), std::string("onednn_op.cast"));
        QCOMPARE(names.at(8), std::string("onednn_op.full"));
        QCOMPARE(names.at(9), std::string("pd_op.scale")); // a float64 operand
        QCOMPARE(names.at(12), std::string("pd_op.slice")); // an int32 operand
        QCOMPARE(names.at(13), std::string("pd_op.divide")); // Paddle 3.3.1 leaves divide
        QCOMPARE(names.at(14), std::string("onednn_op.batch_norm_"));
        QCOMPARE(names.at(15), std::string("onednn_op.relu6"));
        QCOMPARE(names.at(16), std::string("pd_op.unsqueeze"));
        const Block &block = program->block();
        const Operation *relu = block.op(4);
        QCOMPARE(relu->stringAttribute("mkldnn_data_type"), std::string("float32"));
        QVERIFY(relu->attribute("onednn_data_type"));
        QCOMPARE(relu->stringAttribute("onednn_data_type", "unset"), std::string());
        const Operation *conv = block.op(5);
        QVERIFY(
            conv->attribute("is_test") && conv->attribute("is_test")->asBool()); // default false, then true
        QVERIFY(conv->attribute("force_fp32_output") && !conv->attribute("force_fp32_output")->asBool());
        QCOMPARE(conv->attributes().size(), size_t(7 + 4)); // its own, then the 4 extras
        QVERIFY(block.op(14)->attribute("is_test")->asBool());
        QVERIFY(!block.op(14)->attribute("fuse_with_relu")->asBool());
        // Paddle writes each extra attribute's default over what the op had.
        QCOMPARE(block.op(15)->attribute("threshold")->asDouble(), 6.0);
        // The users read the new ops' results.
        QCOMPARE(block.op(7)->operand(0).definingOp(), conv);
        QCOMPARE(pass.run(*program), size_t(0));
    }

    void movesOpsInRegions()
    {
        Program program;
        Builder b(program);
        b.setInsertionPointToEnd(program.block());
        const Type t = Type::denseTensor(DataType::Float32, { 2 });
        Operation *x = b.create("pd_op.data", {}, { t }, { { "name", Attribute::string("x") } });
        Operation *branch = b.create("pd_op.if", {}, {}, {}, 1);
        Block &body = branch->region(0).addBlock();
        b.setInsertionPointToEnd(body);
        b.create("pd_op.tanh", { x->result(0) }, { t });
        QCOMPARE(OneDnnPlacementPass().run(program), size_t(1));
        QCOMPARE(std::string(body.op(0)->name()), std::string("onednn_op.tanh"));
    }

    void registryKernelsAndShapesTakeThePaddleOp()
    {
        const OpRegistry &registry = OpRegistry::instance();
        QVERIFY(registry.lookup("onednn_op.conv2d"));
        QCOMPARE(registry.lookup("onednn_op.conv2d"), registry.lookup("pd_op.conv2d"));
        QVERIFY(!registry.lookup("onednn_op.divide")); // not a placed op
        QCOMPARE(OneDnnPlacement::paddleEquivalent("onednn_op.fused_conv2d"), std::string_view());
        for (auto make : { &createCpuBackend, &createCpuPlainBackend }) {
            const std::unique_ptr<Backend> backend = make();
            const KernelRegistry &kernels = backend->kernels();
            QVERIFY(kernels.find("onednn_op.conv2d"));
            QVERIFY(kernels.find("onednn_op.conv2d") == kernels.find("pd_op.conv2d"));
            QVERIFY(!kernels.find("onednn_op.divide"));
            // Its own kernel wins over the alias.
            QVERIFY(kernels.find("onednn_op.batch_norm_") != kernels.find("pd_op.batch_norm_"));
            QCOMPARE(kernels.acceptsLayout("onednn_op.conv2d", 0), kernels.acceptsLayout("pd_op.conv2d", 0));
        }
        auto program = load(onednnplacement::kDynamic);
        QVERIFY(program);
        QCOMPARE(OneDnnPlacementPass().run(*program), size_t(3));
        const ShapeInference shapes = ShapeInference::run(*program, { { "x", { 2, 8, 6, 6 } } });
        const Block &block = program->block();
        QCOMPARE(std::string(block.op(3)->name()), std::string("onednn_op.conv2d"));
        const InferredShape *conv = shapes.shape(block.op(3)->result(0));
        QVERIFY2(conv && conv->known(), conv ? conv->whyUnknown.c_str() : "not visited");
        QCOMPARE(conv->dims, (std::vector<int64_t> { 2, 8, 2, 2 }));
        const InferredShape *reshape = shapes.shape(block.op(5)->result(0));
        QVERIFY2(reshape && reshape->known(), reshape ? reshape->whyUnknown.c_str() : "not visited");
        QCOMPARE(reshape->dims, (std::vector<int64_t> { 2, 32 }));
    }

    void placedProgramComputesTheSame()
    {
        std::shared_ptr<Program> original = load(onednnplacement::kMixed);
        std::shared_ptr<Program> placed = load(onednnplacement::kMixed);
        QVERIFY(original && placed);
        OneDnnPlacementPass().run(*placed);
        for (auto make : { &createCpuBackend, &createCpuPlainBackend }) {
            const std::unique_ptr<Backend> backend = make();
            const auto want = run(original, *backend);
            const auto got = run(placed, *backend);
            QCOMPARE(got.size(), size_t(3));
            QCOMPARE(got.size(), want.size());
            for (size_t i = 0; i < got.size(); ++i) {
                const TensorComparison c
                    = TensorComparison::compare(got[i].tensor, want[i].tensor, 1e-6, 1e-7);
                QVERIFY2(c.ok(), c.summary().c_str());
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestOneDnnPlacement)
#include "tst_onednnplacement.moc"
