#pragma once

#include "core/analysis/shaperules.h"
#include "core/ir/operation.h"
#include "core/ir/shapesize.h"

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

/// What the files of ShapeRules share: attribute readers, the rule context and the broadcast
/// helpers. Internal to core/analysis/shaperules*.cpp.
namespace ps::shaperules {

using Dims = std::vector<int64_t>;
using Info = ShapeRules::Info;
using Data = std::vector<double>;

// ---- attributes ----

inline std::optional<Dims> attrInts(const Operation &op, std::string_view name)
{
    const Attribute *a = op.attribute(name);
    if (!a)
        return std::nullopt;
    switch (a->kind()) {
    case Attribute::Kind::IntArray:
        return a->asIntArray();
    case Attribute::Kind::Array: {
        Dims out;
        for (const Attribute &e : a->asArray())
            out.push_back(e.isInteger() ? e.asInt() : int64_t(e.asDouble()));
        return out;
    }
    case Attribute::Kind::Int32:
    case Attribute::Kind::Int64:
    case Attribute::Kind::Index:
        return Dims { a->asInt() };
    default:
        return std::nullopt;
    }
}

inline std::vector<double> attrDoubles(const Operation &op, std::string_view name)
{
    std::vector<double> out;
    if (const Attribute *a = op.attribute(name)) {
        if (a->kind() == Attribute::Kind::Array)
            for (const Attribute &e : a->asArray())
                out.push_back(e.asDouble());
        else if (a->isFloating() || a->isInteger() || a->kind() == Attribute::Kind::Scalar)
            out.push_back(a->asDouble());
    }
    return out;
}

inline int64_t attrInt(const Operation &op, std::string_view name, int64_t fallback)
{
    const Attribute *a = op.attribute(name);
    if (!a)
        return fallback;
    if (a->isInteger() || a->kind() == Attribute::Kind::Bool)
        return a->asInt();
    if (a->isFloating() || a->kind() == Attribute::Kind::Scalar)
        return int64_t(a->asDouble());
    return fallback;
}

inline bool attrBool(const Operation &op, std::string_view name, bool fallback)
{
    const Attribute *a = op.attribute(name);
    return a && a->kind() == Attribute::Kind::Bool ? a->asBool() : fallback;
}

inline double attrDouble(const Operation &op, std::string_view name, double fallback)
{
    const Attribute *a = op.attribute(name);
    if (!a)
        return fallback;
    if (a->isFloating() || a->isInteger() || a->kind() == Attribute::Kind::Scalar)
        return a->asDouble();
    return fallback;
}

inline std::string attrString(const Operation &op, std::string_view name, std::string fallback)
{
    const Attribute *a = op.attribute(name);
    if (a && (a->kind() == Attribute::Kind::String || a->kind() == Attribute::Kind::DataLayout))
        return a->asString();
    return fallback;
}

inline int64_t product(const Dims &d)
{
    return ShapeSize::product(d).value_or(-1);
}

inline std::string dimsText(const Dims &d)
{
    return ShapeSize::shapeText(d);
}

/// One op's rule: its operands, its results, and why it failed.
struct Ctx
{
    const Operation &op;
    const std::vector<const Info *> &in;
    std::vector<Info> &out;
    std::string why;

    std::string opName() const { return std::string(op.name()); }

    bool fail(std::string reason)
    {
        if (why.empty())
            why = std::move(reason);
        return false;
    }
    bool has(unsigned i) const { return i < in.size() && in[i] != nullptr; }
    const Info *info(unsigned i)
    {
        if (!has(i)) {
            fail(opName() + ": operand " + std::to_string(i) + " is missing");
            return nullptr;
        }
        return in[i];
    }
    /// Known dims of operand i; nullptr (and why, the operand's own reason) when unknown.
    const Dims *dims(unsigned i)
    {
        const Info *x = info(i);
        if (!x)
            return nullptr;
        if (x->isVector) {
            fail(opName() + ": operand " + std::to_string(i) + " is a vector, a tensor was expected");
            return nullptr;
        }
        if (!x->shape.known()) {
            fail(x->shape.whyUnknown);
            return nullptr;
        }
        return &x->shape.dims;
    }
    /// Contents of operand i as integers (a vector of tensors: their contents concatenated).
    std::optional<Dims> ints(unsigned i, const char *what)
    {
        const Info *x = info(i);
        if (!x)
            return std::nullopt;
        Dims out;
        auto add = [&](const Info &e) {
            if (e.isVector || !e.data) {
                if (!e.shape.known())
                    return fail(e.shape.whyUnknown);
                return fail(opName() + ": the contents of its " + what
                    + " operand are not known before the run (computed from data)");
            }
            for (double d : *e.data)
                out.push_back(int64_t(d));
            return true;
        };
        if (x->isVector) {
            for (const Info &e : x->elements)
                if (!add(e))
                    return std::nullopt;
        } else if (!add(*x)) {
            return std::nullopt;
        }
        return out;
    }
    /// The IntArray `name`: operand `i` when the op has it (PIR's mutable attribute), else the
    /// attribute of that name.
    std::optional<Dims> intArray(unsigned i, const char *name)
    {
        if (has(i))
            return ints(i, name);
        if (auto a = attrInts(op, name))
            return a;
        fail(opName() + ": no " + name);
        return std::nullopt;
    }
    void set(unsigned r, Dims d, std::optional<Data> data = std::nullopt)
    {
        if (r >= out.size())
            return;
        out[r].visited = true;
        out[r].shape.dims = std::move(d);
        out[r].shape.whyUnknown.clear();
        if (data && data->size() <= ShapeRules::kMaxData)
            out[r].data = std::move(data);
    }
    void setAll(const Dims &d)
    {
        for (unsigned r = 0; r < out.size(); ++r)
            set(r, d);
    }
};

inline int64_t normAxis(int64_t axis, size_t rank)
{
    return axis < 0 ? axis + int64_t(rank) : axis;
}

inline bool axisOk(Ctx &c, int64_t axis, size_t rank)
{
    if (axis < 0 || axis >= int64_t(rank))
        return c.fail(
            c.opName() + ": axis " + std::to_string(axis) + " out of range for rank " + std::to_string(rank));
    return true;
}

inline std::optional<Dims> broadcast(Ctx &c, const Dims &a, const Dims &b)
{
    const size_t rank = std::max(a.size(), b.size());
    Dims out(rank);
    for (size_t i = 0; i < rank; ++i) {
        const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
        const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
        if (da != db && da != 1 && db != 1) {
            c.fail(c.opName() + ": shapes " + dimsText(a) + " and " + dimsText(b) + " do not broadcast");
            return std::nullopt;
        }
        out[i] = da == 1 ? db : da;
    }
    return out;
}

/// Element `flat` of a tensor of shape `from` read at the broadcast index of `to`.
inline size_t broadcastIndex(size_t flat, const Dims &to, const Dims &from)
{
    size_t index = 0, stride = 1;
    for (size_t k = 0; k < to.size(); ++k) {
        const size_t i = to.size() - 1 - k;
        const int64_t coord = int64_t(flat % size_t(to[i]));
        flat /= size_t(to[i]);
        if (k < from.size()) {
            const int64_t f = from[from.size() - 1 - k];
            index += size_t(f == 1 ? 0 : coord) * stride;
            stride *= size_t(f);
        }
    }
    return index;
}

// ---- windows, norms, resampling and padding (shaperulesnn.cpp) ----

bool conv(Ctx &c, bool transpose);
bool pool(Ctx &c);
bool batchNorm(Ctx &c);
bool layerNorm(Ctx &c);
bool groupNorm(Ctx &c);
bool interpolate(Ctx &c);
bool pad(Ctx &c);
bool pad3d(Ctx &c);
bool gridSample(Ctx &c);

} // namespace ps::shaperules
