#include "core/runtime/kernels/imagekernels.h"

namespace ps::kernels {

InterpPlan interpPlan(const KernelContext &ctx, int64_t inH, int64_t inW, const std::string &label)
{
    InterpPlan p;
    p.alignCorners = ctx.boolAttr("align_corners", true);
    p.alignMode = int(ctx.intAttr("align_mode", 1));
    float scaleH = -1, scaleW = -1;
    int64_t outH = ctx.intAttr("out_h", 0), outW = ctx.intAttr("out_w", 0);
    std::vector<int64_t> sizes;
    if (ctx.hasInput(2))
        sizes = ctx.inputAsInts(2);
    if (!sizes.empty()) {
        if (sizes.size() != 2)
            throw RuntimeError(label + ": size_tensor needs 2 values, got " + shapeText(sizes));
        outH = sizes[0];
        outW = sizes[1];
    } else {
        std::vector<double> scale;
        if (ctx.hasInput(3))
            scale = ctx.backend().toHost(ctx.input(3)).toDoubles();
        else
            scale = ctx.floatsAttr("scale", std::vector<double> {});
        if (scale.size() == 1)
            scale.push_back(scale[0]);
        if (scale.size() >= 2) {
            scaleH = float(scale[0]);
            scaleW = float(scale[1]);
            if (ctx.hasInput(3) && (scaleH <= 0 || scaleW <= 0))
                throw RuntimeError(label + ": scale_tensor values must be positive");
        }
        if (scaleH > 0 && scaleW > 0) {
            outH = int64_t(float(inH) * scaleH);
            outW = int64_t(float(inW) * scaleW);
        }
        if (ctx.hasInput(1)) {
            const std::vector<int64_t> outSize = ctx.inputAsInts(1);
            if (outSize.size() != 2)
                throw RuntimeError(label + ": out_size needs 2 values, got " + shapeText(outSize));
            outH = outSize[0];
            outW = outSize[1];
        }
    }
    if (outH <= 0 || outW <= 0)
        throw RuntimeError(label + ": output size " + std::to_string(outH) + "x" + std::to_string(outW)
            + " is not positive (set out_h/out_w, scale, out_size or size_tensor)");
    p.outH = outH;
    p.outW = outW;
    auto ratio = [&](int64_t in, int64_t out, float scale) {
        if (out <= 1)
            return 0.0f;
        const float newScale = scale > 0 ? float(1.0 / scale) : float(in) / float(out);
        return p.alignCorners ? float(in - 1) / float(out - 1) : newScale;
    };
    p.ratioH = ratio(inH, outH, scaleH);
    p.ratioW = ratio(inW, outW, scaleW);
    return p;
}

namespace {

/// Per output index along one axis: the low and high source index and the weight of the high
/// one (nearest: both indices equal, weight 0).
void axisTaps(const InterpPlan &p, bool bilinear, float ratio, int64_t inN, int64_t outN, int64_t *lo, int64_t *hi,
    double *w)
{
    const bool alignFlag = p.alignMode == 0 && !p.alignCorners;
    for (int64_t k = 0; k < outN; ++k) {
        if (!bilinear) {
            const int64_t i = p.alignCorners ? int64_t(double(ratio * float(k)) + 0.5) : int64_t(ratio * float(k));
            lo[k] = hi[k] = std::min(i, inN - 1);
            w[k] = 0;
            continue;
        }
        int64_t l = alignFlag ? int64_t(double(ratio) * (double(k) + 0.5) - 0.5) : int64_t(ratio * float(k));
        l = l > 0 ? l : 0;
        float src = float(double(ratio) * (double(k) + 0.5) - 0.5);
        src = src > 0 ? src : 0;
        lo[k] = l;
        hi[k] = l + 1 < inN - 1 ? l + 1 : inN - 1;
        w[k] = alignFlag ? double(src - float(l)) : double(ratio * float(k) - float(l));
    }
}

} // namespace

InterpTaps interpTaps(const InterpPlan &p, bool bilinear, int64_t inH, int64_t inW)
{
    InterpTaps t;
    t.index = Tensor::empty({ 2 * (p.outH + p.outW) }, DataType::Int64);
    t.weight = Tensor::empty({ p.outH + p.outW }, DataType::Float64);
    int64_t *ix = t.index.data<int64_t>();
    double *wt = t.weight.data<double>();
    axisTaps(p, bilinear, p.ratioH, inH, p.outH, ix, ix + p.outH, wt);
    axisTaps(p, bilinear, p.ratioW, inW, p.outW, ix + 2 * p.outH, ix + 2 * p.outH + p.outW, wt + p.outH);
    return t;
}

bool interpChannelsLast(const KernelContext &ctx)
{
    std::string format = ctx.stringAttr("data_format", std::string(""));
    if (format.empty())
        format = ctx.stringAttr("data_layout", std::string("NCHW"));
    return isChannelsLast(format);
}

} // namespace ps::kernels
