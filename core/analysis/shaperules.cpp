#include "core/analysis/shaperules.h"

#include "core/analysis/shaperulecontext.h"
#include "core/dialect/onednnplacement.h"
#include "core/dialect/opregistry.h"
#include "core/ir/operation.h"
#include "core/ir/shapesize.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <string_view>
#include <unordered_map>

namespace ps {

namespace {

using namespace shaperules;

// ---- rule families ----

/// Result 0 is `out` with the input's contents; a second result is the legacy `xshape`
/// ([0, x...]) of reshape, squeeze, unsqueeze and flatten.
bool setWithXShape(Ctx &c, const Dims &out, const Dims &x)
{
    c.set(0, out, c.in[0]->data);
    if (c.out.size() > 1) {
        Dims xshape { 0 };
        xshape.insert(xshape.end(), x.begin(), x.end());
        c.set(1, xshape);
    }
    return true;
}

bool sameAsFirst(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const Dims d = *x;
    c.setAll(d);
    return true;
}

/// Unary elementwise with the contents propagated through `f` (casts, scale, floor).
bool unaryData(Ctx &c, const std::function<double(double)> &f)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    std::optional<Data> data;
    if (c.in[0]->data) {
        data = Data();
        for (double v : *c.in[0]->data)
            data->push_back(f(v));
    }
    const Dims d = *x;
    c.set(0, d, data);
    for (unsigned r = 1; r < c.out.size(); ++r)
        c.set(r, d);
    return true;
}

bool elementwise(Ctx &c, const std::function<double(double, double)> &f)
{
    const Dims *a = c.dims(0);
    const Dims *b = a ? c.dims(1) : nullptr;
    if (!b)
        return false;
    const std::optional<Dims> out = broadcast(c, *a, *b);
    if (!out)
        return false;
    std::optional<Data> data;
    const int64_t n = product(*out);
    if (f && c.in[0]->data && c.in[1]->data && n >= 0 && size_t(n) <= ShapeRules::kMaxData) {
        data = Data(size_t(n));
        for (size_t i = 0; i < size_t(n); ++i) {
            const double va = (*c.in[0]->data)[broadcastIndex(i, *out, *a)];
            const double vb = (*c.in[1]->data)[broadcastIndex(i, *out, *b)];
            (*data)[i] = f(va, vb);
        }
    }
    c.set(0, *out, data);
    return true;
}

bool isIntegerResult(const Operation &op)
{
    const Type t = op.numResults() ? op.result(0).type() : Type();
    if (!t || !t.isTensorLike())
        return false;
    switch (t.dtype()) {
    case DataType::Int8:
    case DataType::Int16:
    case DataType::Int32:
    case DataType::Int64:
    case DataType::UInt8:
    case DataType::Bool:
        return true;
    default:
        return false;
    }
}

bool whereRule(Ctx &c)
{
    const Dims *a = c.dims(0);
    const Dims *b = a ? c.dims(1) : nullptr;
    const Dims *d = b ? c.dims(2) : nullptr;
    if (!d)
        return false;
    const auto ab = broadcast(c, *a, *b);
    const auto out = ab ? broadcast(c, *ab, *d) : std::nullopt;
    if (!out)
        return false;
    c.set(0, *out);
    return true;
}

bool matmul(Ctx &c)
{
    const Dims *px = c.dims(0);
    const Dims *py = px ? c.dims(1) : nullptr;
    if (!py)
        return false;
    Dims x = *px, y = *py;
    if (x.empty() || y.empty())
        return c.fail(c.opName() + ": 0-d operand");
    const bool tx = attrBool(c.op, "transpose_x", false), ty = attrBool(c.op, "transpose_y", false);
    const bool x1 = x.size() == 1, y1 = y.size() == 1;
    if (x1)
        x.insert(x.begin(), 1);
    if (y1)
        y.push_back(1);
    if (tx)
        std::swap(x[x.size() - 1], x[x.size() - 2]);
    if (ty)
        std::swap(y[y.size() - 1], y[y.size() - 2]);
    if (x.back() != y[y.size() - 2])
        return c.fail(c.opName() + ": inner dims of " + dimsText(*px) + " and " + dimsText(*py) + " differ");
    const Dims bx(x.begin(), x.end() - 2), by(y.begin(), y.end() - 2);
    const auto batch = broadcast(c, bx, by);
    if (!batch)
        return false;
    Dims out = *batch;
    if (!x1)
        out.push_back(x[x.size() - 2]);
    if (!y1)
        out.push_back(y.back());
    c.set(0, out);
    return true;
}

bool reshape(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    std::optional<Dims> shape = c.intArray(1, "shape");
    if (!shape)
        return false;
    Dims out = *shape;
    int64_t known = 1;
    int inferred = -1;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i] == 0) {
            if (i >= x->size())
                return c.fail(c.opName() + ": 0 at dim " + std::to_string(i) + " beyond the input's rank");
            out[i] = (*x)[i];
        }
        if (out[i] == -1) {
            if (inferred >= 0)
                return c.fail(c.opName() + ": two -1 dims in its shape");
            inferred = int(i);
        } else {
            known *= out[i];
        }
    }
    const int64_t total = product(*x);
    if (inferred >= 0) {
        if (known == 0 || total % known != 0)
            return c.fail(c.opName() + ": " + dimsText(*x) + " cannot be reshaped to " + dimsText(*shape));
        out[size_t(inferred)] = total / known;
    } else if (known != total) {
        return c.fail(c.opName() + ": " + dimsText(*x) + " has " + std::to_string(total)
            + " elements, the shape " + dimsText(out) + " " + std::to_string(known));
    }
    return setWithXShape(c, out, *x);
}

bool transpose(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const Dims perm = attrInts(c.op, "perm").value_or(Dims());
    if (perm.size() != x->size())
        return c.fail(c.opName() + ": perm has " + std::to_string(perm.size()) + " entries for rank "
            + std::to_string(x->size()));
    Dims out(x->size());
    for (size_t i = 0; i < perm.size(); ++i) {
        const int64_t p = normAxis(perm[i], x->size());
        if (!axisOk(c, p, x->size()))
            return false;
        out[i] = (*x)[size_t(p)];
    }
    c.set(0, out);
    return true;
}

/// The elements of a vector operand (builtin.combine), each known.
std::optional<std::vector<Dims>> elementDims(Ctx &c, unsigned i)
{
    const Info *v = c.info(i);
    if (!v)
        return std::nullopt;
    if (!v->isVector) {
        c.fail(c.opName() + ": operand " + std::to_string(i) + " is not a vector");
        return std::nullopt;
    }
    std::vector<Dims> out;
    for (const Info &e : v->elements) {
        if (e.isVector || !e.shape.known()) {
            c.fail(e.isVector ? c.opName() + ": nested vector" : e.shape.whyUnknown);
            return std::nullopt;
        }
        out.push_back(e.shape.dims);
    }
    return out;
}

std::optional<int64_t> scalarOperand(Ctx &c, unsigned i, const char *name)
{
    if (!c.has(i)) {
        if (const Attribute *a = c.op.attribute(name))
            return a->isInteger() ? a->asInt() : int64_t(a->asDouble());
        c.fail(c.opName() + ": no " + name);
        return std::nullopt;
    }
    const std::optional<Dims> v = c.ints(i, name);
    if (!v)
        return std::nullopt;
    if (v->size() != 1) {
        c.fail(c.opName() + ": " + name + " has " + std::to_string(v->size()) + " elements");
        return std::nullopt;
    }
    return v->front();
}

bool concat(Ctx &c)
{
    const auto xs = elementDims(c, 0);
    if (!xs)
        return false;
    if (xs->empty())
        return c.fail(c.opName() + ": no inputs");
    const std::optional<int64_t> a = scalarOperand(c, 1, "axis");
    if (!a)
        return false;
    const size_t rank = xs->front().size();
    const int64_t axis = normAxis(*a, rank);
    if (!axisOk(c, axis, rank))
        return false;
    Dims out = xs->front();
    out[size_t(axis)] = 0;
    for (const Dims &d : *xs) {
        if (d.size() != rank)
            return c.fail(c.opName() + ": inputs of different ranks");
        out[size_t(axis)] += d[size_t(axis)];
    }
    // Contents: 1-D pieces joined.
    std::optional<Data> data;
    if (rank == 1) {
        data = Data();
        for (const Info &e : c.in[0]->elements) {
            if (!e.data) {
                data.reset();
                break;
            }
            data->insert(data->end(), e.data->begin(), e.data->end());
        }
    }
    c.set(0, out, data);
    return true;
}

bool stack(Ctx &c)
{
    const auto xs = elementDims(c, 0);
    if (!xs)
        return false;
    if (xs->empty())
        return c.fail(c.opName() + ": no inputs");
    const size_t rank = xs->front().size() + 1;
    const int64_t axis = normAxis(attrInt(c.op, "axis", 0), rank);
    if (!axisOk(c, axis, rank))
        return false;
    Dims out = xs->front();
    out.insert(out.begin() + axis, int64_t(xs->size()));
    std::optional<Data> data;
    if (rank == 1 || (rank == 2 && axis == 0)) {
        data = Data();
        for (const Info &e : c.in[0]->elements) {
            if (!e.data) {
                data.reset();
                break;
            }
            data->insert(data->end(), e.data->begin(), e.data->end());
        }
    }
    c.set(0, out, data);
    return true;
}

/// pd_op.split / split_with_num: a vector result.
bool split(Ctx &c, bool withNum)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<int64_t> a = scalarOperand(c, withNum ? 1 : 2, "axis");
    if (!a)
        return false;
    const int64_t axis = normAxis(*a, x->size());
    if (!axisOk(c, axis, x->size()))
        return false;
    const int64_t total = (*x)[size_t(axis)];
    Dims sections;
    if (withNum) {
        const int64_t num = attrInt(c.op, "num", 0);
        if (num <= 0 || total % num != 0)
            return c.fail(
                c.opName() + ": " + std::to_string(total) + " does not split in " + std::to_string(num));
        sections = Dims(size_t(num), total / num);
    } else {
        const std::optional<Dims> s = c.intArray(1, "sections");
        if (!s)
            return false;
        sections = *s;
        int64_t sum = 0;
        int inferred = -1;
        for (size_t i = 0; i < sections.size(); ++i) {
            if (sections[i] < 0)
                inferred = int(i);
            else
                sum += sections[i];
        }
        if (inferred >= 0)
            sections[size_t(inferred)] = total - sum;
    }
    if (c.out.empty())
        return true;
    Info &v = c.out[0];
    v.visited = true;
    v.isVector = true;
    v.shape.whyUnknown.clear();
    v.elements.clear();
    for (int64_t s : sections) {
        Info e;
        e.visited = true;
        e.shape.dims = *x;
        e.shape.dims[size_t(axis)] = s;
        v.elements.push_back(std::move(e));
    }
    return true;
}

/// Paddle's slice bounds: negative from the end, clamped to [0, dim].
int64_t clampIndex(int64_t v, int64_t dim)
{
    if (v < 0)
        v += dim;
    return std::clamp<int64_t>(v, 0, dim);
}

bool slice(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<Dims> starts = c.intArray(1, "starts");
    const std::optional<Dims> ends = starts ? c.intArray(2, "ends") : std::nullopt;
    if (!ends)
        return false;
    const Dims axes = attrInts(c.op, "axes").value_or(Dims());
    const Dims decrease = attrInts(c.op, "decrease_axis").value_or(Dims());
    if (starts->size() != axes.size() || ends->size() != axes.size())
        return c.fail(c.opName() + ": starts/ends/axes lengths differ");
    Dims out = *x;
    Dims begin(x->size(), 0);
    for (size_t i = 0; i < axes.size(); ++i) {
        const int64_t axis = normAxis(axes[i], x->size());
        if (!axisOk(c, axis, x->size()))
            return false;
        const int64_t dim = (*x)[size_t(axis)];
        const int64_t s = clampIndex((*starts)[i], dim), e = clampIndex((*ends)[i], dim);
        out[size_t(axis)] = std::max<int64_t>(e - s, 0);
        begin[size_t(axis)] = s;
    }
    std::optional<Data> data;
    if (c.in[0]->data && x->size() == 1)
        data = Data(c.in[0]->data->begin() + begin[0], c.in[0]->data->begin() + begin[0] + out[0]);
    if (!decrease.empty()) {
        Dims kept;
        for (size_t i = 0; i < out.size(); ++i)
            if (std::find(decrease.begin(), decrease.end(), int64_t(i)) == decrease.end()
                && std::find(decrease.begin(), decrease.end(), int64_t(i) - int64_t(out.size()))
                    == decrease.end())
                kept.push_back(out[i]);
        out = kept;
    }
    c.set(0, out, data);
    return true;
}

bool stridedSlice(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<Dims> starts = c.intArray(1, "starts");
    const std::optional<Dims> ends = starts ? c.intArray(2, "ends") : std::nullopt;
    const std::optional<Dims> strides = ends ? c.intArray(3, "strides") : std::nullopt;
    if (!strides)
        return false;
    const Dims axes = attrInts(c.op, "axes").value_or(Dims());
    if (starts->size() != axes.size() || ends->size() != axes.size() || strides->size() != axes.size())
        return c.fail(c.opName() + ": starts/ends/strides/axes lengths differ");
    Dims out = *x;
    for (size_t i = 0; i < axes.size(); ++i) {
        const int64_t axis = normAxis(axes[i], x->size());
        if (!axisOk(c, axis, x->size()))
            return false;
        const int64_t dim = (*x)[size_t(axis)], step = (*strides)[i];
        if (step == 0)
            return c.fail(c.opName() + ": stride 0");
        int64_t s = (*starts)[i], e = (*ends)[i];
        if (step > 0) {
            s = clampIndex(s, dim);
            e = clampIndex(e, dim);
            out[size_t(axis)] = e > s ? (e - s + step - 1) / step : 0;
        } else {
            s = s < 0 ? s + dim : s;
            e = e < 0 ? e + dim : e;
            s = std::clamp<int64_t>(s, -1, dim - 1);
            e = std::clamp<int64_t>(e, -1, dim - 1);
            out[size_t(axis)] = s > e ? (s - e + (-step) - 1) / (-step) : 0;
        }
    }
    c.set(0, out);
    return true;
}

bool squeeze(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<Dims> axes = c.intArray(1, "axis");
    if (!axes)
        return false;
    std::vector<bool> drop(x->size(), false);
    if (axes->empty()) {
        for (size_t i = 0; i < x->size(); ++i)
            drop[i] = (*x)[i] == 1;
    } else {
        for (int64_t a : *axes) {
            const int64_t axis = normAxis(a, x->size());
            if (!axisOk(c, axis, x->size()))
                return false;
            drop[size_t(axis)] = (*x)[size_t(axis)] == 1;
        }
    }
    Dims out;
    for (size_t i = 0; i < x->size(); ++i)
        if (!drop[i])
            out.push_back((*x)[i]);
    return setWithXShape(c, out, *x);
}

bool unsqueeze(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<Dims> axes = c.intArray(1, "axis");
    if (!axes)
        return false;
    Dims out = *x;
    for (int64_t a : *axes) {
        const int64_t rank = int64_t(out.size()) + 1;
        const int64_t axis = a < 0 ? a + rank : a;
        if (axis < 0 || axis >= rank)
            return c.fail(c.opName() + ": axis " + std::to_string(a) + " out of range");
        out.insert(out.begin() + axis, 1);
    }
    return setWithXShape(c, out, *x);
}

bool flatten(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    Dims out;
    if (x->empty()) {
        out = { 1 };
    } else {
        const int64_t start = normAxis(attrInt(c.op, "start_axis", 1), x->size());
        const int64_t stop = normAxis(attrInt(c.op, "stop_axis", 1), x->size());
        if (!axisOk(c, start, x->size()) || !axisOk(c, stop, x->size()) || start > stop)
            return c.fail(c.opName() + ": start_axis/stop_axis out of range");
        out.assign(x->begin(), x->begin() + start);
        int64_t n = 1;
        for (int64_t i = start; i <= stop; ++i)
            n *= (*x)[size_t(i)];
        out.push_back(n);
        out.insert(out.end(), x->begin() + stop + 1, x->end());
    }
    return setWithXShape(c, out, *x);
}

bool reduce(Ctx &c, bool axisIsOperand)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    Dims axes;
    if (axisIsOperand && c.has(1)) {
        const std::optional<Dims> a = c.ints(1, "axis");
        if (!a)
            return false;
        axes = *a;
    } else {
        axes = attrInts(c.op, "axis").value_or(Dims());
    }
    const bool keep = attrBool(c.op, "keepdim", attrBool(c.op, "keep_dim", false));
    const bool all = axes.empty() || attrBool(c.op, "reduce_all", false);
    std::vector<bool> reduced(x->size(), all);
    for (int64_t a : axes) {
        const int64_t axis = normAxis(a, x->size());
        if (x->empty() && (a == 0 || a == -1))
            continue;
        if (!axisOk(c, axis, x->size()))
            return false;
        reduced[size_t(axis)] = true;
    }
    Dims out;
    for (size_t i = 0; i < x->size(); ++i) {
        if (!reduced[i])
            out.push_back((*x)[i]);
        else if (keep)
            out.push_back(1);
    }
    c.set(0, out);
    return true;
}

bool argReduce(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<int64_t> a = scalarOperand(c, 1, "axis");
    if (!a)
        return false;
    const bool keep = attrBool(c.op, "keepdims", false);
    if (attrBool(c.op, "flatten", false)) {
        c.set(0, keep ? Dims(x->size(), 1) : Dims {});
        return true;
    }
    const int64_t axis = normAxis(*a, x->size());
    if (x->empty()) {
        c.set(0, {});
        return true;
    }
    if (!axisOk(c, axis, x->size()))
        return false;
    Dims out = *x;
    if (keep)
        out[size_t(axis)] = 1;
    else
        out.erase(out.begin() + axis);
    c.set(0, out);
    return true;
}

bool full(Ctx &c)
{
    std::optional<Dims> shape = c.has(0) ? c.ints(0, "shape") : attrInts(c.op, "shape");
    if (!shape)
        return c.fail(c.opName() + ": no shape");
    const int64_t n = product(*shape);
    std::optional<Data> data;
    if (n >= 0 && size_t(n) <= ShapeRules::kMaxData) {
        const std::vector<double> v = attrDoubles(c.op, "value");
        data = Data(size_t(n), v.empty() ? 0.0 : v.front());
    }
    c.set(0, *shape, data);
    return true;
}

bool fullIntArray(Ctx &c)
{
    const Dims v = attrInts(c.op, "value").value_or(Dims());
    c.set(0, { int64_t(v.size()) }, Data(v.begin(), v.end()));
    return true;
}

bool assignValue(Ctx &c)
{
    const std::optional<Dims> shape = attrInts(c.op, "shape");
    if (!shape)
        return c.fail(c.opName() + ": no shape attribute");
    std::optional<Data> data;
    const std::vector<double> values = attrDoubles(c.op, "values");
    if (int64_t(values.size()) == product(*shape))
        data = values;
    c.set(0, *shape, data);
    return true;
}

bool shapeOf(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    c.set(0, { int64_t(x->size()) }, Data(x->begin(), x->end()));
    return true;
}

bool embedding(Ctx &c)
{
    const Dims *x = c.dims(0);
    const Dims *w = x ? c.dims(1) : nullptr;
    if (!w)
        return false;
    if (w->size() != 2)
        return c.fail(c.opName() + ": weight of rank " + std::to_string(w->size()));
    Dims out = *x;
    out.push_back((*w)[1]);
    c.set(0, out);
    return true;
}

bool gather(Ctx &c)
{
    const Dims *x = c.dims(0);
    const Dims *index = x ? c.dims(1) : nullptr;
    if (!index)
        return false;
    int64_t axis = 0;
    if (c.has(2) || c.op.attribute("axis")) {
        const std::optional<int64_t> a = scalarOperand(c, 2, "axis");
        if (!a)
            return false;
        axis = normAxis(*a, x->size());
    }
    if (!axisOk(c, axis, x->size()))
        return false;
    Dims out = *x;
    if (index->empty())
        out.erase(out.begin() + axis);
    else
        out[size_t(axis)] = (*index)[0];
    c.set(0, out);
    return true;
}

bool gatherNd(Ctx &c)
{
    const Dims *x = c.dims(0);
    const Dims *index = x ? c.dims(1) : nullptr;
    if (!index)
        return false;
    if (index->empty())
        return c.fail(c.opName() + ": 0-d index");
    const int64_t k = index->back();
    if (k > int64_t(x->size()))
        return c.fail(c.opName() + ": index depth beyond the input's rank");
    Dims out(index->begin(), index->end() - 1);
    out.insert(out.end(), x->begin() + k, x->end());
    c.set(0, out);
    return true;
}

bool expand(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<Dims> shape = c.intArray(1, "shape");
    if (!shape)
        return false;
    if (shape->size() < x->size())
        return c.fail(c.opName() + ": target rank below the input's");
    Dims out = *shape;
    const size_t lead = shape->size() - x->size();
    for (size_t i = 0; i < out.size(); ++i)
        if (out[i] == -1 || out[i] == 0) {
            if (i < lead)
                return c.fail(c.opName() + ": -1 in a new leading dim");
            out[i] = (*x)[i - lead];
        }
    c.set(0, out);
    return true;
}

bool tile(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<Dims> repeat = c.intArray(1, "repeat_times");
    if (!repeat)
        return false;
    const size_t rank = std::max(x->size(), repeat->size());
    Dims a(rank - x->size(), 1), r(rank - repeat->size(), 1);
    a.insert(a.end(), x->begin(), x->end());
    r.insert(r.end(), repeat->begin(), repeat->end());
    for (size_t i = 0; i < rank; ++i)
        a[i] *= r[i];
    c.set(0, a);
    return true;
}

bool arange(Ctx &c)
{
    auto scalar = [&](unsigned i) -> std::optional<double> {
        const Info *v = c.info(i);
        if (!v)
            return std::nullopt;
        if (!v->data || v->data->size() != 1) {
            c.fail(v->shape.known()
                    ? c.opName() + ": its bounds are not known before the run (computed from data)"
                    : v->shape.whyUnknown);
            return std::nullopt;
        }
        return v->data->front();
    };
    const auto start = scalar(0);
    const auto end = start ? scalar(1) : std::nullopt;
    const auto step = end ? scalar(2) : std::nullopt;
    if (!step)
        return false;
    if (*step == 0)
        return c.fail(c.opName() + ": step 0");
    // Paddle: ceil(|end - start| / |step|), for integer and floating bounds alike.
    const int64_t n = int64_t(std::ceil(std::abs((*end - *start) / *step)));
    std::optional<Data> data;
    if (n >= 0 && size_t(n) <= ShapeRules::kMaxData) {
        data = Data();
        for (int64_t i = 0; i < n; ++i)
            data->push_back(*start + double(i) * *step);
    }
    c.set(0, { std::max<int64_t>(n, 0) }, data);
    return true;
}

bool topk(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<int64_t> k = scalarOperand(c, 1, "k");
    if (!k)
        return false;
    Dims out = *x;
    if (!out.empty()) {
        const int64_t axis = normAxis(attrInt(c.op, "axis", -1), x->size());
        if (!axisOk(c, axis, x->size()))
            return false;
        out[size_t(axis)] = *k;
    }
    c.setAll(out);
    return true;
}

bool swiglu(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    Dims out = *x;
    if (!c.has(1)) {
        if (out.empty() || out.back() % 2 != 0)
            return c.fail(c.opName() + ": the last dim of " + dimsText(*x) + " does not halve");
        out.back() /= 2;
    }
    c.set(0, out);
    return true;
}

bool crossEntropy(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    c.set(0, *x);
    Dims loss = *x;
    if (!loss.empty()) {
        const int64_t axis = normAxis(attrInt(c.op, "axis", -1), x->size());
        if (!axisOk(c, axis, x->size()))
            return false;
        loss[size_t(axis)] = 1;
    }
    c.set(1, loss);
    return true;
}

bool oneHot(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    const std::optional<int64_t> n = scalarOperand(c, 1, "num_classes");
    if (!n)
        return false;
    Dims out = *x;
    out.push_back(*n);
    c.set(0, out);
    return true;
}

bool indexSelect(Ctx &c)
{
    const Dims *x = c.dims(0);
    const Dims *index = x ? c.dims(1) : nullptr;
    if (!index)
        return false;
    const int64_t axis = normAxis(attrInt(c.op, "axis", 0), x->size());
    if (!axisOk(c, axis, x->size()))
        return false;
    Dims out = *x;
    out[size_t(axis)] = product(*index);
    c.set(0, out);
    return true;
}

bool cumsum(Ctx &c)
{
    const Dims *x = c.dims(0);
    if (!x)
        return false;
    c.set(0, attrBool(c.op, "flatten", false) ? Dims { product(*x) } : *x);
    return true;
}

bool addN(Ctx &c)
{
    const auto xs = elementDims(c, 0);
    if (!xs)
        return false;
    if (xs->empty())
        return c.fail(c.opName() + ": no inputs");
    c.set(0, xs->front());
    return true;
}

bool dataDependent(Ctx &c)
{
    if (!c.dims(0))
        return false;
    return c.fail(c.opName() + ": the shape depends on the data of its input");
}

// ---- grad ops ----

/// The inverse of transpose: x_grad = out_grad transposed by the inverse of perm.
bool transposeGrad(Ctx &c)
{
    const Dims *g = c.dims(0);
    if (!g)
        return false;
    const Dims perm = attrInts(c.op, "perm").value_or(Dims());
    if (perm.size() != g->size())
        return c.fail(c.opName() + ": perm does not match the rank");
    Dims out(g->size());
    for (size_t i = 0; i < perm.size(); ++i) {
        const int64_t p = normAxis(perm[i], g->size());
        if (!axisOk(c, p, g->size()))
            return false;
        out[size_t(p)] = (*g)[i];
    }
    c.set(0, out);
    return true;
}

/// A grad op: each output `<name>_grad` has the shape of its input `<name>` (the forward value it
/// is the gradient of); `x_grad` without an `x` takes `xshape` (minus its leading 0) or, for the
/// unary ops whose grad reads `out`, the shape of `out_grad`.
bool gradRule(Ctx &c, const OpInfo &info)
{
    auto inputIndex = [&](std::string_view name) -> int {
        for (int i = 0; i < info.numInputs; ++i)
            if (info.inputs[i].name == name)
                return i;
        return -1;
    };
    bool any = false;
    for (int r = 0; r < info.numOutputs && r < int(c.out.size()); ++r) {
        std::string_view name = info.outputs[r].name;
        if (!name.ends_with("_grad"))
            continue;
        const std::string_view base = name.substr(0, name.size() - 5);
        int from = inputIndex(base);
        bool dropFirst = false;
        if (from < 0 && base == "x" && inputIndex("xshape") >= 0) {
            from = inputIndex("xshape");
            dropFirst = true;
        }
        if (from < 0 && inputIndex("out_grad") >= 0 && info.numOutputs == 1 && inputIndex("out") >= 0)
            from = inputIndex("out_grad");
        if (from < 0 && base == "input" && inputIndex("softmax") >= 0)
            from = inputIndex("softmax");
        if (from < 0 || !c.has(unsigned(from)))
            continue;
        const Info *src = c.in[size_t(from)];
        any = true;
        if (src->isVector) {
            Info &v = c.out[size_t(r)];
            v = *src;
            v.visited = true;
            for (Info &e : v.elements)
                e.data.reset();
            continue;
        }
        if (!src->shape.known()) {
            c.out[size_t(r)].visited = true;
            c.out[size_t(r)].shape.whyUnknown = src->shape.whyUnknown;
            continue;
        }
        Dims d = src->shape.dims;
        if (dropFirst && !d.empty())
            d.erase(d.begin());
        c.set(unsigned(r), d);
    }
    return any;
}

using Rule = bool (*)(Ctx &);

const std::unordered_map<std::string_view, Rule> &rules()
{
    static const std::unordered_map<std::string_view, Rule> table = [] {
        std::unordered_map<std::string_view, Rule> t;
        for (const char *name : { "relu", "relu6", "sigmoid", "tanh", "hardswish", "hardsigmoid", "swish",
                 "silu", "gelu", "leaky_relu", "elu", "selu", "celu", "mish", "softplus", "softsign", "exp",
                 "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "abs", "ceil", "round", "sign",
                 "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
                 "erf", "square", "reciprocal", "clip", "softmax", "log_softmax", "full_like", "flip", "pow",
                 "logical_not", "isnan", "isinf", "isfinite", "dropout", "bitwise_not", "increment",
                 "assign_out_", "assign_out", "share_data", "memcpy_h2d", "memcpy_d2h", "memcpy", "fetch",
                 "set_value", "set_value_with_tensor", "tril", "triu", "roll", "hardtanh", "thresholded_relu",
                 "logsigmoid", "prelu", "rrelu", "tanh_shrink", "hard_shrink", "softshrink", "stanh", "brelu",
                 "label_smooth", "sigmoid_cross_entropy_with_logits", "l2_normalize", "renorm", "nan_to_num",
                 "trunc", "frac", "lerp" })
            t[name] = sameAsFirst;
        t["assign"] = [](Ctx &c) { return unaryData(c, [](double v) { return v; }); };
        t["floor"] = [](Ctx &c) { return unaryData(c, [](double v) { return std::floor(v); }); };
        t["cast"] = [](Ctx &c) {
            const bool integer = isIntegerResult(c.op);
            return unaryData(c, [integer](double v) { return integer ? std::trunc(v) : v; });
        };
        t["scale"] = [](Ctx &c) {
            double scale = attrDouble(c.op, "scale", 1.0);
            if (c.has(1)) {
                if (!c.in[1]->data || c.in[1]->data->size() != 1)
                    scale = std::nan("");
                else
                    scale = c.in[1]->data->front();
            }
            const double bias = attrDouble(c.op, "bias", 0.0);
            const bool after = attrBool(c.op, "bias_after_scale", true);
            const bool integer = isIntegerResult(c.op);
            if (std::isnan(scale)) {
                const Dims *x = c.dims(0);
                if (!x)
                    return false;
                c.setAll(*x);
                return true;
            }
            return unaryData(c, [=](double v) {
                const double r = after ? v * scale + bias : (v + bias) * scale;
                return integer ? std::trunc(r) : r;
            });
        };
        for (const char *name :
            { "add", "subtract", "multiply", "divide", "maximum", "minimum", "elementwise_pow",
                "floor_divide", "remainder", "equal", "not_equal", "less_than", "less_equal", "greater_than",
                "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
                "bitwise_xor", "fmax", "fmin", "atan2", "heaviside", "copysign" })
            t[name] = [](Ctx &c) {
                const std::string_view n = c.op.shortName();
                const std::string_view base = n.ends_with("_") ? n.substr(0, n.size() - 1) : n;
                const bool integer = isIntegerResult(c.op);
                std::function<double(double, double)> f;
                if (base == "add")
                    f = [](double a, double b) { return a + b; };
                else if (base == "subtract")
                    f = [](double a, double b) { return a - b; };
                else if (base == "multiply")
                    f = [](double a, double b) { return a * b; };
                else if (base == "divide")
                    f = [integer](double a, double b) {
                        return b == 0 ? std::nan("") : integer ? std::trunc(a / b) : a / b;
                    };
                else if (base == "floor_divide")
                    f = [](double a, double b) { return b == 0 ? std::nan("") : std::floor(a / b); };
                else if (base == "maximum")
                    f = [](double a, double b) { return std::max(a, b); };
                else if (base == "minimum")
                    f = [](double a, double b) { return std::min(a, b); };
                else if (base == "remainder")
                    f = [](double a, double b) {
                        if (b == 0)
                            return std::nan("");
                        const double r = std::fmod(a, b);
                        return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;
                    };
                if (!f)
                    return elementwise(c, nullptr);
                // Contents only where every result is a finite number.
                const bool ok = elementwise(c, f);
                if (ok && c.out[0].data
                    && std::any_of(c.out[0].data->begin(), c.out[0].data->end(),
                        [](double v) { return !std::isfinite(v); }))
                    c.out[0].data.reset();
                return ok;
            };
        t["where"] = whereRule;
        t["matmul"] = matmul;
        t["conv2d"] = [](Ctx &c) { return conv(c, false); };
        t["conv3d"] = [](Ctx &c) { return conv(c, false); };
        t["depthwise_conv2d"] = [](Ctx &c) { return conv(c, false); };
        t["conv2d_transpose"] = [](Ctx &c) { return conv(c, true); };
        t["depthwise_conv2d_transpose"] = [](Ctx &c) { return conv(c, true); };
        t["pool2d"] = pool;
        t["pool3d"] = pool;
        t["batch_norm"] = batchNorm;
        t["layer_norm"] = layerNorm;
        t["group_norm"] = groupNorm;
        t["reshape"] = reshape;
        t["transpose"] = transpose;
        t["concat"] = concat;
        t["stack"] = stack;
        t["split"] = [](Ctx &c) { return split(c, false); };
        t["split_with_num"] = [](Ctx &c) { return split(c, true); };
        t["slice"] = slice;
        t["strided_slice"] = stridedSlice;
        t["squeeze"] = squeeze;
        t["unsqueeze"] = unsqueeze;
        t["flatten"] = flatten;
        for (const char *name :
            { "sum", "mean", "max", "min", "prod", "amax", "amin", "all", "any", "logsumexp" })
            t[name] = [](Ctx &c) { return reduce(c, true); };
        t["argmax"] = argReduce;
        t["argmin"] = argReduce;
        t["full"] = full;
        t["full_int_array"] = fullIntArray;
        t["assign_value"] = assignValue;
        t["shape"] = shapeOf;
        t["shape64"] = shapeOf;
        t["embedding"] = embedding;
        t["gather"] = gather;
        t["gather_nd"] = gatherNd;
        t["expand"] = expand;
        t["tile"] = tile;
        for (const char *name :
            { "nearest_interp", "bilinear_interp", "bicubic_interp", "linear_interp", "trilinear_interp" })
            t[name] = interpolate;
        t["pad"] = pad;
        t["pad3d"] = pad3d;
        t["arange"] = arange;
        t["topk"] = topk;
        t["grid_sample"] = gridSample;
        t["swiglu"] = swiglu;
        t["cross_entropy_with_softmax"] = crossEntropy;
        t["one_hot"] = oneHot;
        t["index_select"] = indexSelect;
        t["cumsum"] = cumsum;
        t["add_n"] = addN;
        for (const char *name : { "nonzero", "masked_select", "unique", "unique_consecutive", "where_index" })
            t[name] = dataDependent;
        t["transpose_grad"] = transposeGrad;
        return t;
    }();
    return table;
}

} // namespace

bool ShapeRules::apply(
    const Operation &op, const std::vector<const Info *> &operands, std::vector<Info> &results)
{
    std::string_view name = op.shortName();
    // A onednn_op.X from onednn_placement_pass computes pd_op.X (OneDnnPlacement).
    if (op.dialect() != "pd_op" && OneDnnPlacement::paddleEquivalent(op.name()).empty())
        return false;
    Ctx c { op, operands, results, {} };
    const auto &table = rules();
    auto it = table.find(name);
    if (it == table.end() && name.ends_with("_"))
        it = table.find(name.substr(0, name.size() - 1));
    bool handled = false;
    bool ok = false;
    if (it != table.end()) {
        handled = true;
        ok = it->second(c);
    } else if (name.ends_with("_grad") || name.ends_with("_grad_")) {
        const OpInfo *info = OpRegistry::instance().lookup(op.name());
        if (info && gradRule(c, *info)) {
            handled = true;
            ok = true;
        }
    }
    if (!handled)
        return false;
    if (!ok)
        for (Info &r : results) {
            r.visited = true;
            r.data.reset();
            r.shape.whyUnknown = c.why.empty() ? std::string(op.name()) + ": no shape" : c.why;
        }
    return true;
}

} // namespace ps
