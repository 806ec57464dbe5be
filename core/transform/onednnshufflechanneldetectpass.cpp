#include "core/transform/onednnshufflechanneldetectpass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"

#include <algorithm>
#include <functional>
#include <numeric>

namespace ps {

namespace {

/// At most one -1, and one past the batch dim only where `of` is all static: Paddle's check.
bool resolvable(const std::vector<int64_t> &shape, const std::vector<int64_t> &of)
{
    const bool allStatic = std::all_of(of.begin(), of.end(), [](int64_t d) { return d > 0; });
    bool seen = false;
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] != -1)
            continue;
        if (seen || (i != 0 && !allStatic))
            return false;
        seen = true;
    }
    return true;
}

/// `shape` with 0 copied from `of` and a -1 past the batch dim inferred, as Paddle's pass does
/// it (the product of `shape` starts from -1, which cancels the -1 it meets).
std::vector<int64_t> resolved(std::vector<int64_t> shape, const std::vector<int64_t> &of)
{
    for (size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0 && i < of.size())
            shape[i] = of[i];
        if (shape[i] == -1 && i != 0) {
            const int64_t total
                = std::accumulate(of.begin(), of.end(), int64_t(1), std::multiplies<int64_t>());
            const int64_t known
                = std::accumulate(shape.begin(), shape.end(), int64_t(-1), std::multiplies<int64_t>());
            shape[i] = known != 0 ? total / known : 0;
        }
    }
    return shape;
}

DrrPattern shuffleChannel()
{
    DrrPattern p("ShuffleChannelDetectPattern", 1);
    p.source(ops::kFullIntArray, {}, { "shape_0" }, { { "value", "int_array_0" } });
    p.source(ops::kReshape, { "x", "shape_0" }, { "reshape_0_out" });
    p.source(ops::kTranspose, { "reshape_0_out" }, { "transpose_out" }, { { "perm", "perm" } });
    p.source(ops::kFullIntArray, {}, { "shape_1" }, { { "value", "int_array_1" } });
    p.source(ops::kReshape, { "transpose_out", "shape_1" }, { "out" });
    p.constraint([](const DrrMatch &m) {
        const std::vector<int64_t> x = m.shape("x"), shape0 = m.intsAttr("int_array_0"),
                                   shape1 = m.intsAttr("int_array_1"), perm = m.intsAttr("perm");
        if (x.size() != 4 || shape0.size() != 5 || shape1.size() != 4 || perm.size() != 5)
            return false;
        if (perm[0] != 0 || perm[3] != 3 || perm[4] != 4)
            return false;
        return resolvable(shape0, x) && resolvable(shape1, m.shape("transpose_out"));
    });
    p.constraint([](const DrrMatch &m) {
        const std::vector<int64_t> shape0 = resolved(m.intsAttr("int_array_0"), m.shape("x"));
        const std::vector<int64_t> shape1 = resolved(m.intsAttr("int_array_1"), m.shape("transpose_out"));
        const std::vector<int64_t> perm = m.intsAttr("perm");
        if (shape1[1] != shape0[2] * shape0[1])
            return false;
        return shape0[1] == 1 || shape0[2] == 1 || (perm[1] == 2 && perm[2] == 1);
    });
    p.result(
        ops::kOneDnnShuffleChannel, { "x" }, { "out" }, { drrComputedAttr("group", [](const DrrMatch &m) {
            const std::vector<int64_t> shape0 = resolved(m.intsAttr("int_array_0"), m.shape("x"));
            const std::vector<int64_t> shape1 = resolved(m.intsAttr("int_array_1"), m.shape("transpose_out"));
            return Attribute::int32(int32_t(shape0[2] != 0 ? shape1[1] / shape0[2] : 0));
        }) });
    return p;
}

} // namespace

OneDnnShuffleChannelDetectPass::OneDnnShuffleChannelDetectPass()
    : PatternRewritePass("shuffle_channel_detect_pass", "onednn_shuffle_channel",
        "reshape + transpose + reshape channel shuffle -> onednn_op.shuffle_channel")
{
    addPattern(std::make_unique<DrrRewritePattern>(shuffleChannel()));
}

} // namespace ps
