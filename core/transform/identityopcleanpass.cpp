#include "core/transform/identityopcleanpass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"
#include "core/transform/rewritehelpers.h"

namespace ps {

namespace {

const std::vector<std::pair<std::string, std::string>> fullAttrs(const std::string &suffix)
{
    return { { "shape", "shape" + suffix }, { "value", "value" + suffix }, { "dtype", "dtype" + suffix },
        { "place", "place" + suffix } };
}

DrrPattern removeUselessScale()
{
    DrrPattern p("RemoveUselessScalePattern");
    p.source(ops::kFull, {}, { "full_out" }, fullAttrs(""));
    p.source(ops::kScale, { "x", "full_out" }, { "scale_out" },
        { { "bias", "bias" }, { "bias_after_scale", "bias_after_scale" } });
    p.constraint(
        [](const DrrMatch &m) { return m.doubleAttr("value") == 1.0 && m.floatAttr("bias") == 0.0f; });
    p.assign("scale_out", "x");
    return p;
}

DrrPattern removeRedundantScale()
{
    DrrPattern p("RemoveRedundantScalePattern");
    p.source(ops::kFull, {}, { "full_1_out" }, fullAttrs("_1"));
    p.source(ops::kScale, { "x", "full_1_out" }, { "scale_1_out" },
        { { "bias", "bias_1" }, { "bias_after_scale", "bias_after_scale_1" } });
    p.source(ops::kFull, {}, { "full_2_out" }, fullAttrs("_2"));
    p.source(ops::kScale, { "scale_1_out", "full_2_out" }, { "scale_2_out" },
        { { "bias", "bias_2" }, { "bias_after_scale", "bias_after_scale_2" } });
    p.result(ops::kFull, {}, { "full_res_out" },
        { drrSourceAttr("shape", "shape_1"),
            drrComputedAttr("value",
                [](const DrrMatch &m) {
                    return Attribute::f64(m.floatAttr("value_1") * m.floatAttr("value_2"));
                }),
            drrSourceAttr("dtype", "dtype_1"), drrSourceAttr("place", "place_1") },
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { m.tensor("full_1_out").type() };
        });
    p.result(ops::kScale, { "x", "full_res_out" }, { "scale_2_out" },
        { drrComputedAttr("bias",
              [](const DrrMatch &m) {
                  // Float arithmetic, as Paddle's compute function.
                  const float bias1 = m.boolAttr("bias_after_scale_1")
                      ? m.floatAttr("bias_1")
                      : m.floatAttr("value_1") * m.floatAttr("bias_1");
                  const float bias2 = m.boolAttr("bias_after_scale_2")
                      ? bias1 * m.floatAttr("value_2") + m.floatAttr("bias_2")
                      : (bias1 + m.floatAttr("bias_2")) * m.floatAttr("value_2");
                  return Attribute::f32(bias2);
              }),
            drrConstAttr("bias_after_scale", Attribute::boolean(true)) });
    return p;
}

DrrPattern removeUselessCast()
{
    DrrPattern p("RemoveUselessCastPattern");
    p.source(ops::kCast, { "arg0" }, { "ret" });
    p.constraint([](const DrrMatch &m) { return m.dtype("ret") == m.dtype("arg0"); });
    p.assign("ret", "arg0");
    return p;
}

DrrPattern removeUselessConcat()
{
    DrrPattern p("RemoveUselessConcatPattern");
    p.source(ops::kCombine, { "x" }, { "combine_out" });
    p.source(ops::kConcat, { "combine_out", "axis" }, { "out" });
    p.constraint([](const DrrMatch &m) {
        const Type t = m.tensor("combine_out").type();
        return t.kind() == Type::Kind::Vector && t.elements().size() == 1;
    });
    p.assign("out", "x");
    return p;
}

DrrPattern removeRedundantCast()
{
    DrrPattern p("RemoveRedundantCastPattern");
    p.source(ops::kCast, { "arg0" }, { "tmp" }, { { "dtype", "dtype1" } });
    p.source(ops::kCast, { "tmp" }, { "ret" }, { { "dtype", "dtype2" } });
    p.constraint([](const DrrMatch &m) {
        const DataType d = m.dtypeAttr("dtype1");
        return d != DataType::Int64 && d != DataType::Int32 && d != DataType::Bool;
    });
    p.result(ops::kCast, { "arg0" }, { "ret" }, { drrSourceAttr("dtype", "dtype2") });
    return p;
}

void dropoutSource(DrrPattern &p)
{
    p.source(ops::kFull, {}, { "p" },
        { { "dtype", "dtype" }, { "place", "place" }, { "shape", "shape" }, { "value", "value" } });
    p.source(ops::kDropout, { "dropout_in", DrrPatternGraph::kSourceInputNone, "p" },
        { "dropout_out", "dropout_mask" }, { { "is_test", "is_test" }, { "mode", "mode" } });
}

DrrPattern deleteDropout()
{
    DrrPattern p("DeleteDropoutOpPattern");
    dropoutSource(p);
    p.constraint([](const DrrMatch &m) {
        return m.boolAttr("is_test") && m.stringAttr("mode") == "upscale_in_train";
    });
    p.assign("dropout_out", "dropout_in");
    return p;
}

DrrPattern replaceDropoutWithScale()
{
    DrrPattern p("ReplaceDropoutWithScalePattern");
    dropoutSource(p);
    p.constraint([](const DrrMatch &m) {
        return m.boolAttr("is_test") && m.stringAttr("mode") != "upscale_in_train";
    });
    Place cpu;
    cpu.type = Place::AllocType::Cpu;
    p.result(ops::kFull, {}, { "full_res_out" },
        { drrConstAttr("shape", Attribute::intArray({ 1 })),
            drrComputedAttr(
                "value", [](const DrrMatch &m) { return Attribute::f64(1.0f - m.doubleAttr("value")); }),
            drrConstAttr("dtype", Attribute::dataType(DataType::Float32)),
            drrConstAttr("place", Attribute::place(cpu)) },
        [](const DrrMatch &, const std::vector<Value> &) {
            return std::vector<Type> { Type::denseTensor(DataType::Float32, { 1 }) };
        });
    p.result(ops::kScale, { "dropout_in", "full_res_out" }, { "dropout_out" },
        { drrConstAttr("bias", Attribute::f32(0.0f)),
            drrConstAttr("bias_after_scale", Attribute::boolean(true)) });
    return p;
}

} // namespace

IdentityOpCleanPass::IdentityOpCleanPass()
    : PatternRewritePass(
        "identity_op_clean_pass", "identity", "remove identity scale/cast/concat/dropout ops")
{
    for (DrrPattern p : { removeUselessScale(), removeRedundantScale(), removeUselessCast(),
             removeUselessConcat(), removeRedundantCast(), deleteDropout(), replaceDropoutWithScale() })
        addPattern(std::make_unique<DrrRewritePattern>(std::move(p)));
}

} // namespace ps
