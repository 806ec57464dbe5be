// What the golden fixtures cannot show (Paddle 3.3.1's CPU build and f32 programs made them):
// map_op_to_another_pass as Paddle's CUDA build runs it, a flatten with the old xshape result,
// conv2d_bn_fuse_pass on a non-inplace batch_norm and on an f16 filter, the f16 group-norm
// patterns of add_norm_fuse_pass, and the pass registry.

#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/addnormfusepass.h"
#include "core/transform/conv2dbnfusepass.h"
#include "core/transform/passregistry.h"
#include "core/transform/mapoptoanotherpass.h"
#include "core/transform/rewritehelpers.h"
#include "irbuild.h"
#include "passgolden.h"

#include <QtTest>

using namespace ps;
using namespace passgolden;
using irbuild::makeOp;
using irbuild::opNames;

namespace {

Type tensor(std::vector<int64_t> dims, DataType dtype = DataType::Float32)
{
    return Type::denseTensor(dtype, std::move(dims));
}

Value data(Builder &b, Type type)
{
    return makeOp(b, "pd_op.data", {}, { type }, { { "stop_gradient", boolArrayAttr(1, false) } })->result(0);
}

Value parameter(Builder &b, const char *name, Type type)
{
    return makeOp(b, "builtin.parameter", {}, { type },
        { { "parameter_name", Attribute::string(name) }, { "stop_gradient", boolArrayAttr(1, false) } })
        ->result(0);
}

std::vector<NamedAttribute> convAttrs()
{
    return { { "strides", int32ArrayAttr({ 1, 1 }) }, { "paddings", int32ArrayAttr({ 1, 1 }) },
        { "padding_algorithm", Attribute::string("EXPLICIT") }, { "dilations", int32ArrayAttr({ 1, 1 }) },
        { "groups", Attribute::int32(1) }, { "data_format", Attribute::string("NCHW") } };
}

/// conv2d(x, w) then a batch norm `bnName` with epsilon `eps`, its output fetched.
std::unique_ptr<Program> convBn(const char *bnName, float eps, DataType filterType = DataType::Float32)
{
    auto p = std::make_unique<Program>();
    Builder b(*p);
    const Value x = data(b, tensor({ 1, 3, 4, 4 }, filterType));
    const Value w = parameter(b, "w", tensor({ 2, 3, 3, 3 }, filterType));
    std::vector<Value> stats;
    for (const char *name : { "mean", "variance", "scale", "bias" })
        stats.push_back(parameter(b, name, tensor({ 2 })));
    const Type out = tensor({ 1, 2, 4, 4 }, filterType);
    const Value conv = makeOp(b, "pd_op.conv2d", { x, w }, { out }, convAttrs())->result(0);
    Operation *bn = makeOp(b, bnName, { conv, stats[0], stats[1], stats[2], stats[3] },
        { out, tensor({ 2 }), tensor({ 2 }), tensor({ 2 }), tensor({ 2 }), tensor({ -1 }, DataType::UInt8) },
        { { "epsilon", Attribute::f32(eps) }, { "is_test", Attribute::boolean(true) },
            { "data_format", Attribute::string("NCHW") } });
    makeOp(b, "pd_op.fetch", { bn->result(0) }, { out }, { { "name", Attribute::string("out") } });
    return p;
}

} // namespace

class TestFusionPasses : public QObject
{
    Q_OBJECT

private slots:
    void registryKnowsEveryPass()
    {
        QCOMPARE(PassRegistry::fusionPassNames().size(), size_t(11));
        for (std::string_view name : PassRegistry::fusionPassNames()) {
            std::unique_ptr<Pass> pass = PassRegistry::create(name);
            QVERIFY(pass);
            QCOMPARE(pass->name(), name);
            QVERIFY(pass->implemented());
            std::unique_ptr<Pass> byAlias = PassRegistry::create(pass->alias());
            QVERIFY(byAlias);
            QCOMPARE(byAlias->name(), name);
        }
        QVERIFY(!PassRegistry::create("no_such_pass"));
    }

    // Paddle's CUDA build maps depthwise_conv2d (groups > 1) to conv2d; its CPU build (the
    // fixtures) does not.
    void depthwiseConvBecomesConv2dOnCuda()
    {
        std::unique_ptr<Program> program = load(fixtureDir() + "/ppocr_like/before.json");
        QVERIFY(program);
        const int depthwise = countOf(*program, "pd_op.depthwise_conv2d");
        const int conv = countOf(*program, "pd_op.conv2d");
        QVERIFY(depthwise > 0);
        MapOpToAnotherPass cpu(false);
        QCOMPARE(cpu.run(*program), size_t(0));
        MapOpToAnotherPass cuda(true);
        QCOMPARE(cuda.run(*program), size_t(depthwise));
        QCOMPARE(countOf(*program, "pd_op.depthwise_conv2d"), 0);
        QCOMPARE(countOf(*program, "pd_op.conv2d"), conv + depthwise);
        for (const Operation *op : program->block().ops())
            if (op->name() == "pd_op.conv2d" && op->attribute("groups")->asInt() > 1)
                QCOMPARE(op->attribute("strides")->asArray().size(), size_t(2));
    }

    void flattenWithXshapeBecomesReshape()
    {
        Program p;
        Builder b(p);
        const Value x = data(b, tensor({ 2, 16, 1, 1 }));
        Operation *flatten
            = makeOp(b, "pd_op.flatten", { x }, { tensor({ 2, 16 }), tensor({ 0, 2, 16, 1, 1 }) },
                { { "start_axis", Attribute::int32(1) }, { "stop_axis", Attribute::int32(3) } });
        makeOp(b, "pd_op.fetch", { flatten->result(0) }, { tensor({ 2, 16 }) });
        MapOpToAnotherPass pass;
        QCOMPARE(pass.run(p), size_t(1));
        QCOMPARE(opNames(p),
            (std::vector<std::string> {
                "pd_op.data", "pd_op.full_int_array", "pd_op.reshape", "pd_op.fetch" }));
        QCOMPARE(*p.block().op(1)->attribute("value"), int64ArrayAttr({ 0, -1 }));
        QCOMPARE(p.block().op(2)->result(0).type(), tensor({ 2, 16 }));
    }

    void batchNormIsMadeInplaceThenFolded()
    {
        std::unique_ptr<Program> p = convBn("pd_op.batch_norm", 1e-5f);
        Conv2dBnFusePass pass;
        QCOMPARE(pass.run(*p), size_t(2));
        QCOMPARE(countOf(*p, "pd_op.batch_norm"), 0);
        QCOMPARE(countOf(*p, "pd_op.batch_norm_"), 0);
        QCOMPARE(countOf(*p, "pd_op.conv2d"), 1);
        QCOMPARE(countOf(*p, "pd_op.sqrt"), 1);
        QCOMPARE(countOf(*p, "pd_op.cast"), 0);
    }

    void foldingNeedsASmallEpsilon()
    {
        std::unique_ptr<Program> p = convBn("pd_op.batch_norm_", 0.01f);
        Conv2dBnFusePass pass;
        QCOMPARE(pass.run(*p), size_t(0));
    }

    void halfFilterIsScaledInFloat()
    {
        std::unique_ptr<Program> p = convBn("pd_op.batch_norm_", 1e-5f, DataType::Float16);
        Conv2dBnFusePass pass;
        QCOMPARE(pass.run(*p), size_t(1));
        // filter -> f32, scaled, -> f16; the bias reshaped then cast to f16.
        QCOMPARE(countOf(*p, "pd_op.cast"), 3);
        for (const Operation *op : p->block().ops())
            if (op->name() == "pd_op.conv2d")
                QCOMPARE(op->operand(1).type().dtype(), DataType::Float16);
    }

    void addGroupNormSiluInHalfPrecision()
    {
        Program p;
        Builder b(p);
        const Type t = tensor({ 1, 4, 3, 3 }, DataType::Float16);
        const Value x = data(b, t);
        const Value r = data(b, t);
        const Value scale = parameter(b, "scale", tensor({ 4 }));
        const Value bias = parameter(b, "bias", tensor({ 4 }));
        const Value sum = makeOp(b, "pd_op.add", { x, r }, { t })->result(0);
        Operation *gn
            = makeOp(b, "pd_op.group_norm", { sum, scale, bias }, { t, tensor({ 1, 2 }), tensor({ 1, 2 }) },
                { { "epsilon", Attribute::f32(1e-5f) }, { "groups", Attribute::int32(2) },
                    { "data_format", Attribute::string("NCHW") } });
        const Value act = makeOp(b, "pd_op.silu", { gn->result(0) }, { t })->result(0);
        makeOp(b, "pd_op.fetch", { act }, { t });
        AddNormFusePass pass;
        QCOMPARE(pass.run(p), size_t(2));
        QCOMPARE(opNames(p),
            (std::vector<std::string> { "pd_op.data", "pd_op.data", "builtin.parameter", "builtin.parameter",
                "pd_op.add_group_norm_silu", "pd_op.fetch" }));
        const Operation *fused = p.block().op(4);
        QCOMPARE(fused->stringAttribute("activation"), std::string("silu"));
        QCOMPARE(fused->operand(1), r);
        QCOMPARE(p.block().op(5)->operand(0), fused->result(0));
    }

    void groupNormStaysInFloat32()
    {
        Program p;
        Builder b(p);
        const Type t = tensor({ 1, 4, 3, 3 });
        const Value sum = makeOp(b, "pd_op.add", { data(b, t), data(b, t) }, { t })->result(0);
        Operation *gn = makeOp(b, "pd_op.group_norm",
            { sum, parameter(b, "s", tensor({ 4 })), parameter(b, "b", tensor({ 4 })) },
            { t, tensor({ 1, 2 }), tensor({ 1, 2 }) },
            { { "epsilon", Attribute::f32(1e-5f) }, { "groups", Attribute::int32(2) },
                { "data_format", Attribute::string("NCHW") } });
        makeOp(b, "pd_op.fetch", { gn->result(0) }, { t });
        AddNormFusePass pass;
        QCOMPARE(pass.run(p), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestFusionPasses)
#include "tst_fusionpasses.moc"
