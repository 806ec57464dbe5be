#include "core/analysis/programequality.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <span>
#include <sstream>
#include <unordered_map>

namespace ps {

namespace {

std::string describeType(Type t)
{
    switch (t.kind()) {
    case Type::Kind::Null:
        return "<<NULL TYPE>>";
    case Type::Kind::Element:
        return std::string(irName(t.dtype()));
    case Type::Kind::Vector: {
        std::string out = "vec[";
        for (size_t i = 0; i < t.elements().size(); ++i)
            out += (i ? "," : "") + describeType(t.elements()[i]);
        return out + "]";
    }
    case Type::Kind::Opaque:
        return t.text();
    default: {
        static constexpr const char *kNames[]
            = { "", "", "tensor", "selected_rows", "tensor_array", "", "coo", "csr" };
        std::string out = std::string(kNames[size_t(t.kind())]) + "<";
        for (int64_t d : t.dims())
            out += (d < 0 ? std::string("-1") : std::to_string(d)) + "x";
        out += std::string(irName(t.dtype()));
        if (t.layout() != "NCHW" && !t.layout().empty())
            out += "," + t.layout();
        if (!t.lod().empty() || t.offset() != 0)
            out += ",lod/offset";
        return out + ">";
    }
    }
}

std::string describeAttribute(const Attribute &a)
{
    using K = Attribute::Kind;
    std::ostringstream os;
    os.precision(17);
    switch (a.kind()) {
    case K::Null:
        return "<null>";
    case K::Bool:
        return a.asBool() ? "true" : "false";
    case K::Int32:
        os << "(Int32)" << a.asInt();
        break;
    case K::Int64:
        os << "(Int64)" << a.asInt();
        break;
    case K::Index:
        os << "(Index)" << a.asInt();
        break;
    case K::Float:
        os << "(Float)" << a.asDouble();
        break;
    case K::Double:
        os << "(Double)" << a.asDouble();
        break;
    case K::Scalar:
        os << "(Scalar " << phiName(a.asDataType()) << ")" << a.asDouble();
        break;
    case K::String:
    case K::TensorName:
    case K::DataLayout:
        os << '"' << a.asString() << '"';
        break;
    case K::Array:
        os << '[';
        for (size_t i = 0; i < a.asArray().size(); ++i)
            os << (i ? "," : "") << describeAttribute(a.asArray()[i]);
        os << ']';
        break;
    case K::IntArray:
        os << "IntArray[";
        for (size_t i = 0; i < a.asIntArray().size(); ++i)
            os << (i ? "," : "") << a.asIntArray()[i];
        os << ']';
        break;
    case K::TypeAttr:
        return "type " + describeType(a.asType());
    case K::Complex64:
    case K::Complex128:
        os << "complex(" << a.asComplex().real() << "," << a.asComplex().imag() << ")";
        break;
    case K::DataTypeAttr:
        return "dtype " + std::string(phiName(a.asDataType()));
    case K::PlaceAttr:
        return a.asPlace().toString();
    case K::Unknown:
        return "unknown " + a.unknownKindId() + " " + a.asString();
    }
    return os.str();
}

bool sameType(Type a, Type b)
{
    return a == b || (a.isNull() && b.isNull());
}

class Comparer
{
public:
    explicit Comparer(std::string *difference)
        : m_difference(difference)
    {
    }

    bool compareBlocks(const Block &a, const Block &b, const std::string &where);

private:
    bool differ(const std::string &where, const std::string &what)
    {
        if (m_difference)
            *m_difference = where.empty() ? what : where + ": " + what;
        return false;
    }
    bool compareOps(const Operation &a, const Operation &b, const std::string &where);
    /// Attribute lists compared as maps (order does not matter).
    bool compareAttributes(
        std::span<const NamedAttribute> a, std::span<const NamedAttribute> b, const std::string &where);
    void map(Value a, Value b) { m_values[a.impl()] = b.impl(); }

    std::string *m_difference;
    std::unordered_map<const ValueImpl *, const ValueImpl *> m_values;
};

bool Comparer::compareBlocks(const Block &a, const Block &b, const std::string &where)
{
    if (a.numArguments() != b.numArguments())
        return differ(where,
            "block argument count " + std::to_string(a.numArguments()) + " vs "
                + std::to_string(b.numArguments()));
    for (size_t i = 0; i < a.numArguments(); ++i) {
        if (!sameType(a.argument(i).type(), b.argument(i).type()))
            return differ(where,
                "block argument " + std::to_string(i) + " type " + describeType(a.argument(i).type()) + " vs "
                    + describeType(b.argument(i).type()));
        if (!compareAttributes(a.valueAttributes(a.argument(i)), b.valueAttributes(b.argument(i)),
                (where.empty() ? "" : where + " ") + "block argument " + std::to_string(i)))
            return false;
        map(a.argument(i), b.argument(i));
    }
    if (a.numKwargs() != b.numKwargs())
        return differ(
            where, "kwarg count " + std::to_string(a.numKwargs()) + " vs " + std::to_string(b.numKwargs()));
    for (size_t i = 0; i < a.numKwargs(); ++i) {
        const Value ka = a.kwargAt(i);
        const Value kb = b.kwarg(ka.keyword());
        if (!kb)
            return differ(where, "kwarg '" + ka.keyword() + "' missing in the second program");
        if (!sameType(ka.type(), kb.type()))
            return differ(where,
                "kwarg '" + ka.keyword() + "' type " + describeType(ka.type()) + " vs "
                    + describeType(kb.type()));
        if (!compareAttributes(a.valueAttributes(ka), b.valueAttributes(kb),
                (where.empty() ? "" : where + " ") + "kwarg '" + ka.keyword() + "'"))
            return false;
        map(ka, kb);
    }
    const size_t n = std::min(a.size(), b.size());
    for (size_t i = 0; i < n; ++i) {
        const std::string opWhere = (where.empty() ? "" : where + " ") + "op " + std::to_string(i) + " ("
            + std::string(a.op(i)->name()) + ")";
        if (!compareOps(*a.op(i), *b.op(i), opWhere))
            return false;
    }
    if (a.size() != b.size())
        return differ(where, "op count " + std::to_string(a.size()) + " vs " + std::to_string(b.size()));
    return true;
}

bool Comparer::compareAttributes(
    std::span<const NamedAttribute> a, std::span<const NamedAttribute> b, const std::string &where)
{
    auto find = [](std::span<const NamedAttribute> list, const std::string &name) -> const Attribute * {
        for (const NamedAttribute &n : list)
            if (n.name == name)
                return &n.value;
        return nullptr;
    };
    for (const NamedAttribute &na : a) {
        const Attribute *other = find(b, na.name);
        if (!other)
            return differ(where, "attribute '" + na.name + "' missing in the second program");
        if (*other != na.value)
            return differ(where,
                "attribute '" + na.name + "' differs: " + describeAttribute(na.value) + " vs "
                    + describeAttribute(*other));
    }
    for (const NamedAttribute &nb : b) {
        if (!find(a, nb.name))
            return differ(where, "attribute '" + nb.name + "' missing in the first program");
    }
    if (a.size() != b.size())
        return differ(where, "duplicate attribute names");
    return true;
}

bool Comparer::compareOps(const Operation &a, const Operation &b, const std::string &where)
{
    if (a.name() != b.name())
        return differ(where, "op name " + std::string(a.name()) + " vs " + std::string(b.name()));
    if (a.numOperands() != b.numOperands())
        return differ(where,
            "operand count " + std::to_string(a.numOperands()) + " vs " + std::to_string(b.numOperands()));
    for (unsigned i = 0; i < a.numOperands(); ++i) {
        const Value va = a.operand(i);
        const Value vb = b.operand(i);
        if (!va || !vb) {
            if (va || vb)
                return differ(where, "operand " + std::to_string(i) + " is null in only one program");
            continue;
        }
        const auto it = m_values.find(va.impl());
        if (it == m_values.end() ? va != vb : it->second != vb.impl())
            return differ(where, "operand " + std::to_string(i) + " refers to a different value");
    }
    if (a.numResults() != b.numResults())
        return differ(where,
            "result count " + std::to_string(a.numResults()) + " vs " + std::to_string(b.numResults()));
    for (unsigned i = 0; i < a.numResults(); ++i) {
        if (!sameType(a.result(i).type(), b.result(i).type()))
            return differ(where,
                "result " + std::to_string(i) + " type " + describeType(a.result(i).type()) + " vs "
                    + describeType(b.result(i).type()));
        map(a.result(i), b.result(i));
    }
    if (!compareAttributes(a.attributes(), b.attributes(), where))
        return false;
    if (a.numRegions() != b.numRegions())
        return differ(where,
            "region count " + std::to_string(a.numRegions()) + " vs " + std::to_string(b.numRegions()));
    for (unsigned r = 0; r < a.numRegions(); ++r) {
        const Region &ra = a.region(r);
        const Region &rb = b.region(r);
        if (ra.numBlocks() != rb.numBlocks())
            return differ(where,
                "region " + std::to_string(r) + " block count " + std::to_string(ra.numBlocks()) + " vs "
                    + std::to_string(rb.numBlocks()));
        for (size_t k = 0; k < ra.numBlocks(); ++k) {
            if (!compareBlocks(ra.block(k), rb.block(k),
                    where + " region " + std::to_string(r) + " block " + std::to_string(k)))
                return false;
        }
    }
    return true;
}

} // namespace

bool programsEqual(const Program &a, const Program &b, std::string *firstDifference)
{
    if (firstDifference)
        firstDifference->clear();
    Comparer comparer(firstDifference);
    return comparer.compareBlocks(a.block(), b.block(), {});
}

} // namespace ps
