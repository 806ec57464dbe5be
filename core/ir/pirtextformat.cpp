#include "core/ir/pirtextformat.h"

#include "core/ir/block.h"
#include "core/ir/datatype.h"
#include "core/ir/operation.h"
#include "core/ir/region.h"

#include <charconv>
#include <cstdio>

namespace ps {

namespace {

void appendInt(std::string &out, int64_t v)
{
    char buf[24];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, size_t(end - buf));
}

void appendDims(std::string &out, Type t)
{
    for (int64_t d : t.dims()) {
        appendInt(out, d);
        out += 'x';
    }
    out += irName(t.dtype());
}

} // namespace

PirTextFormat::OpForm PirTextFormat::opForm(const Operation &op)
{
    const std::string_view name = op.name();
    const bool ifLike = name == "pd_op.if" || name == "pd_op.pylayer";
    if (!ifLike && name != "pd_op.while")
        return OpForm::Generic;
    // The custom printers print exactly one block per region; anything else prints generically.
    if (op.numRegions() == 0)
        return OpForm::Generic;
    // Their blocks print no argument lines either, so blocks with arguments print generically.
    for (unsigned i = 0; i < op.numRegions(); ++i) {
        if (op.region(i).numBlocks() != 1)
            return OpForm::Generic;
        const Block &b = op.region(i).block(0);
        if (ifLike && (b.numArguments() != 0 || b.numKwargs() != 0))
            return OpForm::Generic;
    }
    if (ifLike)
        return OpForm::IfLike;
    const Block &body = op.region(0).block(0);
    const bool plainBody = op.numRegions() == 1 && body.numKwargs() == 0;
    return plainBody && op.numOperands() >= 1 ? OpForm::While : OpForm::Generic;
}

std::string_view PirTextFormat::generationName(Generation gen)
{
    switch (gen) {
    case Generation::A:
        return "A";
    case Generation::B:
        return "B";
    case Generation::C:
        return "C";
    }
    return "C";
}

void PirTextFormat::appendNumber(std::string &out, double v)
{
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, "%g", v);
    out.append(buf, n > 0 ? size_t(n) : 0);
}

void PirTextFormat::appendQuoted(std::string &out, std::string_view s)
{
    out += '"';
    size_t start = 0;
    for (size_t i = s.find('"'); i != std::string_view::npos; i = s.find('"', start)) {
        out.append(s.substr(start, i - start));
        out += "\\\"";
        start = i + 1;
    }
    out.append(s.substr(start));
    out += '"';
}

void PirTextFormat::appendType(std::string &out, Type t, Generation gen)
{
    switch (t.kind()) {
    case Type::Kind::Null:
        out += "<<NULL TYPE>>";
        return;
    case Type::Kind::Element:
        out += irName(t.dtype());
        return;
    case Type::Kind::DenseTensor:
        out += gen == Generation::C ? "tensor<" : gen == Generation::B ? "builtin.tensor<" : "pd_op.tensor<";
        appendDims(out, t);
        out += '>';
        return;
    case Type::Kind::SelectedRows:
        out += "pd_op.selectedrows<";
        appendDims(out, t);
        out += '>';
        return;
    case Type::Kind::DenseTensorArray:
        out += "pd_op.tensor_array<";
        out += irName(t.dtype());
        out += '>';
        return;
    case Type::Kind::Vector: {
        out += "vec[";
        bool first = true;
        for (const Type &e : t.elements()) {
            if (!first)
                out += ',';
            first = false;
            appendType(out, e, gen);
        }
        out += ']';
        return;
    }
    case Type::Kind::SparseCoo:
    case Type::Kind::SparseCsr:
        if (!t.text().empty()) {
            out += t.text();
        } else {
            out += t.kind() == Type::Kind::SparseCoo ? "pd_op.sparsecootensor<" : "pd_op.sparsecsrtensor<";
            appendDims(out, t);
            out += '>';
        }
        return;
    case Type::Kind::Opaque:
        out += t.text().empty() ? std::string_view("<<NULL TYPE>>") : std::string_view(t.text());
        return;
    }
}

std::string PirTextFormat::typeText(Type t, Generation gen)
{
    std::string s;
    appendType(s, t, gen);
    return s;
}

void PirTextFormat::appendAttribute(std::string &out, const Attribute &a, Generation gen)
{
    const bool prefixed = gen != Generation::C;
    switch (a.kind()) {
    case Attribute::Kind::Null:
        out += "<#AttrNull>";
        return;
    case Attribute::Kind::Bool:
        out += a.asBool() ? "true" : "false";
        return;
    case Attribute::Kind::Int32:
        if (prefixed)
            out += "(Int32)";
        appendInt(out, a.asInt());
        return;
    case Attribute::Kind::Int64:
        if (prefixed)
            out += "(Int64)";
        appendInt(out, a.asInt());
        return;
    case Attribute::Kind::Index:
        if (prefixed)
            out += "(Index)";
        appendInt(out, a.asInt());
        return;
    case Attribute::Kind::Float:
        if (prefixed)
            out += "(Float)";
        appendNumber(out, a.asDouble());
        return;
    case Attribute::Kind::Double:
    case Attribute::Kind::Scalar:
        if (prefixed)
            out += "(Double)";
        appendNumber(out, a.asDouble());
        return;
    case Attribute::Kind::String:
    case Attribute::Kind::TensorName:
        appendQuoted(out, a.asString());
        return;
    case Attribute::Kind::Array: {
        if (gen == Generation::A)
            out += "(Array)";
        out += '[';
        bool first = true;
        for (const Attribute &e : a.asArray()) {
            if (!first)
                out += ',';
            first = false;
            appendAttribute(out, e, gen);
        }
        out += ']';
        return;
    }
    case Attribute::Kind::TypeAttr:
        appendType(out, a.asType(), gen);
        return;
    case Attribute::Kind::Complex64:
    case Attribute::Kind::Complex128:
        out += '(';
        appendNumber(out, a.asComplex().real());
        out += ',';
        appendNumber(out, a.asComplex().imag());
        out += ')';
        return;
    case Attribute::Kind::IntArray: {
        if (prefixed)
            out += "(pd_op.IntArray)";
        out += '[';
        bool first = true;
        for (int64_t v : a.asIntArray()) {
            if (!first)
                out += ',';
            first = false;
            appendInt(out, v);
        }
        out += ']';
        return;
    }
    case Attribute::Kind::DataTypeAttr:
        if (prefixed)
            out += "(pd_op.DataType)";
        out += phiName(a.asDataType());
        return;
    case Attribute::Kind::PlaceAttr:
        if (prefixed)
            out += "(pd_op.Place)";
        out += a.asPlace().toString();
        return;
    case Attribute::Kind::DataLayout:
        if (prefixed)
            out += "(pd_op.DataLayout)";
        out += a.asString();
        return;
    case Attribute::Kind::Unknown: {
        const std::string &kindId = a.unknownKindId();
        const std::string &text = a.asString();
        // Kinds named by a text prefix ("pd_op.Foo") print it back in every generation, so the
        // text after it is read back the same way; JSON kind ids ("4.a_process_mesh") start with
        // a digit and are no valid prefix. Gen C prints pointers as bare hex, like Paddle.
        const bool textKind = !kindId.empty() && !(kindId[0] >= '0' && kindId[0] <= '9');
        const bool bareHex = kindId == "Pointer" && text.size() > 2 && text[0] == '0'
            && (text[1] == 'x' || text[1] == 'X')
            && text.find_first_not_of("0123456789abcdefABCDEF", 2) == std::string::npos;
        if (textKind && !(bareHex && !prefixed))
            out += "(" + kindId + ")";
        out += text.empty() ? std::string_view("<#AttrNotImplemented>") : std::string_view(text);
        return;
    }
    }
}

std::string PirTextFormat::attributeText(const Attribute &a, Generation gen)
{
    std::string s;
    appendAttribute(s, a, gen);
    return s;
}

} // namespace ps
