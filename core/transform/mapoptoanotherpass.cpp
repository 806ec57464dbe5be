#include "core/transform/mapoptoanotherpass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"
#include "core/transform/fusedconvattributes.h"
#include "core/transform/rewritehelpers.h"

namespace ps {

namespace {

DrrPattern depthwiseToConv(bool cudaBuild)
{
    DrrPattern p("DepthWiseConv2d2Conv2dPattern");
    p.source(ops::kDepthwiseConv2d, { "input", "filter" }, { "depthwise_conv2d_out" },
        drrSameNames(kConv2dAttributes));
    p.constraint([cudaBuild](const DrrMatch &m) { return cudaBuild && m.intAttr("groups") > 1; });
    p.result(
        ops::kConv2d, { "input", "filter" }, { "depthwise_conv2d_out" }, drrSourceAttrs(kConv2dAttributes));
    return p;
}

/// The reshape target of a flatten the pattern accepts, or empty.
std::vector<int64_t> flattenTarget(const DrrMatch &m)
{
    const std::vector<int64_t> shape = m.shape("flatten_in");
    const int64_t start = m.intAttr("start_axis");
    const int64_t stop = m.intAttr("stop_axis");
    if (start == 1 && stop == 3 && shape.size() == 4 && shape[2] == 1 && shape[3] == 1)
        return { 0, -1 };
    if (start == 2 && stop == 3 && shape.size() == 4 && shape[2] == 1)
        return { 0, 0, -1 };
    return {};
}

/// flatten -> reshape. Paddle's result reshape takes its shape as an attribute and its Build()
/// adds the `full_int_array` operand first; here that op is part of the result graph.
DrrPattern flattenToReshape()
{
    DrrPattern p("FlattenContiguousRange2ReshapePattern");
    p.source("pd_op.flatten", { "flatten_in" }, { "flatten_out", "flatten_xshape" },
        { { "start_axis", "start_axis" }, { "stop_axis", "stop_axis" } });
    p.constraint([](const DrrMatch &m) { return !flattenTarget(m).empty(); });
    Place cpu;
    cpu.type = Place::AllocType::Cpu;
    p.result(ops::kFullIntArray, {}, { "reshape_shape" },
        { drrComputedAttr("value", [](const DrrMatch &m) { return int64ArrayAttr(flattenTarget(m)); }),
            drrConstAttr("dtype", Attribute::dataType(DataType::Int64)),
            drrConstAttr("place", Attribute::place(cpu)) },
        [](const DrrMatch &m, const std::vector<Value> &) {
            return std::vector<Type> { Type::denseTensor(
                DataType::Int64, { int64_t(flattenTarget(m).size()) }) };
        });
    p.result(ops::kReshape, { "flatten_in", "reshape_shape" }, { "flatten_out" });
    return p;
}

} // namespace

MapOpToAnotherPass::MapOpToAnotherPass(bool cudaBuild)
    : PatternRewritePass("map_op_to_another_pass", "map_op", "depthwise_conv2d -> conv2d, flatten -> reshape")
    , m_cudaBuild(cudaBuild)
{
    addPattern(std::make_unique<DrrRewritePattern>(depthwiseToConv(cudaBuild)));
    addPattern(std::make_unique<DrrRewritePattern>(flattenToReshape()));
}

} // namespace ps
