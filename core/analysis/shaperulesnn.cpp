#include "core/analysis/shaperulecontext.h"

// The rules of ops with spatial windows (convolutions, pools, interpolation, grid sampling),
// the norms and padding, as Paddle's InferMeta states them.

namespace ps::shaperules {

namespace {

struct Spatial
{
    bool channelLast = false;
    size_t first = 2; ///< index of the first spatial dim
};

Spatial spatialOf(const Operation &op, size_t rank)
{
    const std::string format = attrString(op, "data_format", "NCHW");
    Spatial s;
    s.channelLast = format == "NHWC" || format == "NDHWC" || format == "NLC";
    s.first = s.channelLast ? 1 : 2;
    (void)rank;
    return s;
}

/// Paddle's UpdatePaddingAndDilation: paddings as [before, after] per spatial dim.
bool updatePadding(Ctx &c, Dims &paddings, Dims *dilations, const std::string &algorithm, const Dims &in,
    const Dims &strides, const Dims &kernel)
{
    const size_t n = in.size();
    if (paddings.size() == n) {
        Dims twice;
        for (int64_t p : paddings) {
            twice.push_back(p);
            twice.push_back(p);
        }
        paddings = twice;
    }
    if (paddings.size() != 2 * n)
        return c.fail(c.opName() + ": " + std::to_string(paddings.size()) + " paddings for "
            + std::to_string(n) + " spatial dims");
    if (algorithm == "SAME") {
        for (size_t i = 0; i < n; ++i) {
            const int64_t out = (in[i] + strides[i] - 1) / strides[i];
            const int64_t pad = std::max<int64_t>((out - 1) * strides[i] + kernel[i] - in[i], 0);
            paddings[2 * i] = pad / 2;
            paddings[2 * i + 1] = pad - pad / 2;
        }
        if (dilations)
            std::fill(dilations->begin(), dilations->end(), 1);
    } else if (algorithm == "VALID") {
        std::fill(paddings.begin(), paddings.end(), 0);
    }
    return true;
}

} // namespace

bool conv(Ctx &c, bool transpose)
{
    const Dims *x = c.dims(0);
    const Dims *w = x ? c.dims(1) : nullptr;
    if (!w)
        return false;
    if (x->size() < 3 || w->size() != x->size())
        return c.fail(c.opName() + ": input " + dimsText(*x) + " and filter " + dimsText(*w) + " ranks");
    const Spatial s = spatialOf(c.op, x->size());
    const size_t n = x->size() - 2;
    Dims in(x->begin() + long(s.first), x->begin() + long(s.first + n));
    Dims kernel(w->begin() + 2, w->end());
    Dims strides = attrInts(c.op, "strides").value_or(Dims(n, 1));
    Dims paddings = attrInts(c.op, "paddings").value_or(Dims(n, 0));
    Dims dilations = attrInts(c.op, "dilations").value_or(Dims(n, 1));
    if (strides.size() != n || dilations.size() != n)
        return c.fail(c.opName() + ": strides or dilations do not match the spatial rank");
    if (!updatePadding(
            c, paddings, &dilations, attrString(c.op, "padding_algorithm", "EXPLICIT"), in, strides, kernel))
        return false;
    const int64_t groups = std::max<int64_t>(attrInt(c.op, "groups", 1), 1);
    Dims spatial(n);
    int64_t channels = 0;
    if (!transpose) {
        channels = (*w)[0];
        for (size_t i = 0; i < n; ++i) {
            const int64_t k = dilations[i] * (kernel[i] - 1) + 1;
            spatial[i] = (in[i] + paddings[2 * i] + paddings[2 * i + 1] - k) / strides[i] + 1;
        }
    } else {
        channels = (*w)[1] * groups;
        const Dims outputPadding = attrInts(c.op, "output_padding").value_or(Dims());
        std::optional<Dims> outputSize;
        if (c.has(2)) {
            outputSize = c.ints(2, "output_size");
            if (!outputSize)
                return false;
        } else {
            outputSize = attrInts(c.op, "output_size");
        }
        for (size_t i = 0; i < n; ++i) {
            const int64_t k = dilations[i] * (kernel[i] - 1) + 1;
            spatial[i] = (in[i] - 1) * strides[i] - paddings[2 * i] - paddings[2 * i + 1] + k;
            if (outputSize && outputSize->size() == n)
                spatial[i] = (*outputSize)[i];
            else if (outputPadding.size() == n)
                spatial[i] += outputPadding[i];
        }
    }
    Dims out { (*x)[0] };
    if (!s.channelLast)
        out.push_back(channels);
    out.insert(out.end(), spatial.begin(), spatial.end());
    if (s.channelLast)
        out.push_back(channels);
    c.set(0, out);
    return true;
}

bool pool(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    if (x->size() < 3)
        return c.fail(c.opName() + ": input rank " + std::to_string(x->size()));
    const Spatial s = spatialOf(c.op, x->size());
    const size_t n = x->size() - 2;
    const Dims in(x->begin() + long(s.first), x->begin() + long(s.first + n));
    std::optional<Dims> kernel = c.intArray(1, "kernel_size");
    if (!kernel)
        return false;
    if (kernel->size() == 1)
        kernel = Dims(n, kernel->front());
    Dims strides = attrInts(c.op, "strides").value_or(Dims(n, 1));
    if (strides.size() == 1)
        strides = Dims(n, strides.front());
    Dims paddings = attrInts(c.op, "paddings").value_or(Dims(n, 0));
    const bool global = attrBool(c.op, "global_pooling", false);
    const bool adaptive = attrBool(c.op, "adaptive", false);
    if (kernel->size() != n || strides.size() != n)
        return c.fail(c.opName() + ": kernel_size or strides do not match the spatial rank");
    if (global)
        kernel = in;
    std::string algorithm = attrString(c.op, "padding_algorithm", "EXPLICIT");
    if (global || adaptive)
        algorithm = "VALID";
    if (!updatePadding(c, paddings, nullptr, algorithm, in, strides, *kernel))
        return false;
    const bool ceil = attrBool(c.op, "ceil_mode", false);
    Dims spatial(n);
    for (size_t i = 0; i < n; ++i) {
        if (adaptive) {
            spatial[i] = (*kernel)[i];
            continue;
        }
        const int64_t span = in[i] - (*kernel)[i] + paddings[2 * i] + paddings[2 * i + 1];
        spatial[i] = (ceil ? span + strides[i] - 1 : span) / strides[i] + 1;
    }
    Dims out = *x;
    std::copy(spatial.begin(), spatial.end(), out.begin() + long(s.first));
    c.setAll(out);
    return true;
}

bool batchNorm(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const Spatial s = spatialOf(c.op, x->size());
    const int64_t channels = x->size() < 2 ? 1 : s.channelLast ? x->back() : (*x)[1];
    c.set(0, *x);
    for (unsigned r = 1; r < c.out.size() && r < 5; ++r)
        c.set(r, { channels });
    // reserve_space (result 5): Paddle sets it only for cuDNN; left to the declared type.
    if (c.out.size() > 5) {
        c.out[5].visited = true;
        c.out[5].shape.whyUnknown
            = c.opName() + ": reserve_space is sized by the kernel (cuDNN; none on the CPU)";
    }
    return true;
}

bool layerNorm(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const int64_t begin = normAxis(attrInt(c.op, "begin_norm_axis", 1), x->size());
    if (begin < 0 || begin > int64_t(x->size()))
        return c.fail(c.opName() + ": begin_norm_axis out of range");
    // Paddle 3 keeps the leading dims (x[:begin_norm_axis]); older programs declare them
    // flattened to one.
    Dims lead(x->begin(), x->begin() + begin);
    const bool flattened = c.op.numResults() > 1 && c.op.result(1).type().isTensorLike()
        && c.op.result(1).type().dims().size() == 1 && lead.size() != 1;
    if (flattened)
        lead = { product(lead) };
    c.set(0, *x);
    for (unsigned r = 1; r < c.out.size(); ++r)
        c.set(r, lead);
    return true;
}

bool groupNorm(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x || x->empty())
        return x ? c.fail(c.opName() + ": 0-d input") : false;
    c.set(0, *x);
    for (unsigned r = 1; r < c.out.size(); ++r)
        c.set(r, { (*x)[0], attrInt(c.op, "groups", 1) });
    return true;
}

bool interpolate(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    if (x->size() < 3)
        return c.fail(c.opName() + ": input rank " + std::to_string(x->size()));
    const Spatial s = spatialOf(c.op, x->size());
    const size_t n = x->size() - 2;
    Dims out = *x;
    Dims size;
    static const char *const kOut[] = { "out_d", "out_h", "out_w" };
    // As the kernels do: size_tensor, else the scale (tensor, else attribute) or out_* attributes,
    // then out_size over them.
    if (c.has(2) && c.in[2]->isVector && !c.in[2]->elements.empty()) {
        const std::optional<Dims> v = c.ints(2, "size_tensor");
        if (!v)
            return false;
        size = *v;
    } else {
        std::vector<double> scale;
        if (c.has(3)) {
            const Info *st = c.in[3];
            if (!st->data) {
                if (!st->shape.known())
                    return c.fail(st->shape.whyUnknown);
                return c.fail(
                    c.opName() + ": the contents of its scale_tensor operand are not known before the run");
            }
            scale = *st->data;
        } else {
            scale = attrDoubles(c.op, "scale");
        }
        if (scale.size() == 1)
            scale = std::vector<double>(n, scale.front());
        const bool scaled
            = scale.size() == n && std::all_of(scale.begin(), scale.end(), [](double v) { return v > 0; });
        for (size_t i = 0; i < n; ++i) {
            const int64_t in = (*x)[s.first + i];
            size.push_back(scaled ? int64_t(double(in) * scale[i]) : attrInt(c.op, kOut[3 - n + i], -1));
        }
        if (c.has(1)) {
            const std::optional<Dims> v = c.ints(1, "out_size");
            if (!v)
                return false;
            size = *v;
        }
    }
    if (size.size() != n)
        return c.fail(c.opName() + ": " + std::to_string(size.size()) + " output sizes for "
            + std::to_string(n) + " spatial dims");
    for (size_t i = 0; i < n; ++i) {
        if (size[i] <= 0)
            return c.fail(c.opName() + ": no output size (out_* attributes, scale or size operands)");
        out[s.first + i] = size[i];
    }
    c.set(0, out);
    return true;
}

bool pad(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<Dims> p = attrInts(c.op, "paddings");
    if (!p)
        return c.fail(c.opName() + ": no paddings");
    Dims out = *x;
    if (p->size() == 2 * x->size()) {
        for (size_t i = 0; i < x->size(); ++i)
            out[i] += (*p)[2 * i] + (*p)[2 * i + 1];
    } else {
        return c.fail(c.opName() + ": " + std::to_string(p->size()) + " paddings for rank "
            + std::to_string(x->size()));
    }
    c.set(0, out);
    return true;
}

bool pad3d(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<Dims> p = c.intArray(1, "paddings");
    if (!p)
        return false;
    if (x->size() != 5 || p->size() != 6)
        return c.fail(c.opName() + ": expects a 5-d input and 6 paddings");
    const Spatial s = spatialOf(c.op, x->size());
    Dims out = *x;
    // paddings: [left, right, top, bottom, front, back] for W, H, D.
    for (size_t k = 0; k < 3; ++k)
        out[s.first + 2 - k] += (*p)[2 * k] + (*p)[2 * k + 1];
    c.set(0, out);
    return true;
}

bool gridSample(Ctx &c)
{
    const Dims *x = c.dims(0);
    const Dims *grid = x ? c.dims(1) : nullptr;
    if (!grid)
        return false;
    if (x->size() < 4 || grid->size() != x->size())
        return c.fail(c.opName() + ": input " + dimsText(*x) + " and grid " + dimsText(*grid));
    Dims out { (*x)[0], (*x)[1] };
    out.insert(out.end(), grid->begin() + 1, grid->end() - 1);
    c.set(0, out);
    return true;
}

} // namespace ps::shaperules
