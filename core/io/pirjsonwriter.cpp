#include "core/io/pirjsonwriter.h"

#include "core/dialect/ops.h"
#include "core/io/jsonemitter.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <cmath>
#include <memory>
#include <simdjson.h>
#include <unordered_map>

namespace ps {

namespace {

constexpr std::string_view kParameterAttrs[] = {
    "is_distributed",
    "is_parameter",
    "need_clip",
    "parameter_name",
    "persistable",
    "stop_gradient",
    "trainable",
};

bool isResultAttribute(std::string_view name)
{
    return name == "stop_gradient" || name == "persistable";
}

/// The value of a one-bool array attribute, or `fallback` when absent.
bool flagOf(const Operation &op, std::string_view name, bool fallback)
{
    const Attribute *a = op.attribute(name);
    return a ? a->asArray().front().asBool() : fallback;
}

class Writer
{
public:
    Writer(std::string &out, const Program &program, const PirJsonWriter::Options &options)
        : m_json(out, options.pretty ? JsonEmitter::Format::Indented : JsonEmitter::Format::Compact)
        , m_program(program)
        , m_options(options)
    {
        m_ids.reserve(program.numValues() * 2);
    }

    void writeDocument();

private:
    void writeRegion(const Region &region);
    void writeBlock(const Block &block);
    void writeOp(const Operation &op);
    void writeParameterOp(const Operation &op);
    void writeNamedAttribute(std::string_view name, const Attribute &attr);
    /// `"A": [...]` of a block argument with value attributes (PIRScope's addition; Paddle's
    /// reader ignores the key, and nothing is written for arguments without attributes).
    void writeValueAttributes(const Block &block, Value argument);
    void writeAttribute(const Attribute &attr);
    void writeType(Type type);
    /// Re-emits stored JSON text; false when `text` is not a JSON object.
    bool writeStoredJson(const std::string &text);
    void writeValueId(Value v);
    int64_t defineResult(Value v);
    static bool isCompressibleParameter(const Operation &op);

    JsonEmitter m_json;
    const Program &m_program;
    const PirJsonWriter::Options &m_options;
    std::unordered_map<const ValueImpl *, int64_t> m_ids;
    int64_t m_nextResultId = 1;
    int64_t m_nextArgumentId = -1;
    int m_nextRegion = 0;
    int m_nextBlock = 0;
    std::unique_ptr<simdjson::dom::parser> m_parser;
    std::string m_nameBuffer;
};

void Writer::writeDocument()
{
    m_json.beginObject();
    m_json.key("base_code");
    m_json.beginObject();
    m_json.key("magic");
    m_json.value("pir");
    m_json.key("trainable");
    m_json.value(m_program.trainable);
    m_json.key("version");
    m_json.value(
        m_options.version.value_or(m_program.serializationVersion.value_or(PirJsonWriter::kDefaultVersion)));
    m_json.endObject();
    m_json.key("program");
    m_json.beginObject();
    m_json.key("regions");
    m_json.beginArray();
    writeRegion(m_program.region());
    m_json.endArray();
    m_json.endObject();
    m_json.endObject();
}

void Writer::writeRegion(const Region &region)
{
    m_json.beginObject();
    m_json.key("#");
    m_json.value("region_" + std::to_string(m_nextRegion++));
    m_json.key("blocks");
    m_json.beginArray();
    for (size_t i = 0; i < region.numBlocks(); ++i)
        writeBlock(region.block(i));
    m_json.endArray();
    m_json.endObject();
}

void Writer::writeValueAttributes(const Block &block, Value argument)
{
    const std::vector<NamedAttribute> &attributes = block.valueAttributes(argument);
    if (attributes.empty())
        return;
    m_json.key("A");
    m_json.beginArray();
    for (const NamedAttribute &a : attributes)
        writeNamedAttribute(a.name, a.value);
    m_json.endArray();
}

void Writer::writeBlock(const Block &block)
{
    m_json.beginObject();
    m_json.key("#");
    m_json.value("block_" + std::to_string(m_nextBlock++));
    m_json.key("args");
    m_json.beginArray();
    for (size_t i = 0; i < block.numArguments(); ++i) {
        const Value arg = block.argument(i);
        m_json.beginObject();
        m_json.key("#");
        m_ids[arg.impl()] = m_nextArgumentId;
        m_json.value(m_nextArgumentId--);
        m_json.key("TT");
        writeType(arg.type());
        writeValueAttributes(block, arg);
        m_json.endObject();
    }
    m_json.endArray();
    if (block.numKwargs() > 0) {
        m_json.key("kwargs");
        m_json.beginArray();
        for (size_t i = 0; i < block.numKwargs(); ++i) {
            const Value kwarg = block.kwargAt(i);
            m_json.beginObject();
            m_json.key("#");
            m_ids[kwarg.impl()] = m_nextArgumentId;
            m_json.value(m_nextArgumentId--);
            m_json.key("TT");
            writeType(kwarg.type());
            m_json.key("key");
            m_json.value(kwarg.keyword());
            writeValueAttributes(block, kwarg);
            m_json.endObject();
        }
        m_json.endArray();
    }
    m_json.key("ops");
    m_json.beginArray();
    for (const Operation *op : block.ops())
        writeOp(*op);
    m_json.endArray();
    m_json.endObject();
}

int64_t Writer::defineResult(Value v)
{
    const int64_t id = m_nextResultId++;
    m_ids[v.impl()] = id;
    return id;
}

void Writer::writeValueId(Value v)
{
    m_json.beginObject();
    m_json.key("%");
    int64_t id = 0; // null operands, and values defined outside the program or later
    if (v) {
        const auto it = m_ids.find(v.impl());
        if (it != m_ids.end())
            id = it->second;
    }
    m_json.value(id);
    m_json.endObject();
}

/// The `"#":"p"` form can only express one-bool arrays for the flags and a string name; other
/// parameter ops are written in the generic form, which keeps everything.
bool Writer::isCompressibleParameter(const Operation &op)
{
    if (!ops::isParameter(op) || op.numOperands() != 0 || op.numResults() != 1 || op.numRegions() != 0)
        return false;
    const Attribute *name = op.attribute("parameter_name");
    if (!name || name->kind() != Attribute::Kind::String)
        return false;
    for (std::string_view flag : kParameterAttrs) {
        const Attribute *a = op.attribute(flag);
        if (!a || flag == "parameter_name")
            continue;
        if (a->kind() != Attribute::Kind::Array || a->asArray().size() != 1
            || a->asArray().front().kind() != Attribute::Kind::Bool)
            return false;
    }
    return true;
}

void Writer::writeParameterOp(const Operation &op)
{
    const auto isDistAttr = [](std::string_view n) { return n == "op_dist_attr" || n == "op_role"; };
    const auto isFixed = [](std::string_view n) {
        for (std::string_view f : kParameterAttrs) {
            if (f == n)
                return true;
        }
        return n == "op_callstack";
    };
    m_json.beginObject();
    m_json.key("#");
    m_json.value("p");
    m_json.key("A");
    m_json.beginArray();
    m_json.value(flagOf(op, "is_distributed", false) ? 1 : 0);
    m_json.value(flagOf(op, "is_parameter", true) ? 1 : 0);
    m_json.value(flagOf(op, "need_clip", false) ? 1 : 0);
    m_json.value(op.attribute("parameter_name")->asString());
    m_json.endArray();
    m_json.key("DA");
    m_json.beginArray();
    for (const NamedAttribute &a : op.attributes()) {
        if (isDistAttr(a.name))
            writeNamedAttribute(a.name, a.value);
    }
    m_json.endArray();
    m_json.key("O");
    m_json.beginObject();
    m_json.key("%");
    m_json.value(defineResult(op.result(0)));
    m_json.key("TT");
    writeType(op.result(0).type());
    m_json.endObject();
    if (m_program.trainable) {
        m_json.key("OA");
        m_json.beginArray();
        m_json.value(flagOf(op, "persistable", true) ? 1 : 0);
        m_json.value(flagOf(op, "stop_gradient", true) ? 1 : 0);
        m_json.value(flagOf(op, "trainable", true) ? 1 : 0);
        m_json.endArray();
    }
    // Paddle's quant list holds `struct_name`; any other extra attribute goes there too so
    // that nothing is lost.
    m_json.key("QA");
    m_json.beginArray();
    for (const NamedAttribute &a : op.attributes()) {
        if (!isDistAttr(a.name) && !isFixed(a.name))
            writeNamedAttribute(a.name, a.value);
    }
    m_json.endArray();
    m_json.endObject();
}

void Writer::writeOp(const Operation &op)
{
    if (isCompressibleParameter(op)) {
        writeParameterOp(op);
        return;
    }
    static constexpr std::pair<std::string_view, std::string_view> kDialectIds[] = {
        { "builtin", "0" },
        { "pd_op", "1" },
        { "cf", "2" },
        { "custom_op", "3" },
        { "dist", "4" },
    };
    const std::string_view dialect = op.dialect();
    m_nameBuffer.assign(op.name());
    for (const auto &[name, id] : kDialectIds) {
        if (!dialect.empty() && dialect == name) {
            m_nameBuffer.assign(id);
            m_nameBuffer += '.';
            m_nameBuffer.append(op.shortName());
            break;
        }
    }
    m_json.beginObject();
    m_json.key("#");
    m_json.value(m_nameBuffer);
    m_json.key("A");
    m_json.beginArray();
    for (const NamedAttribute &a : op.attributes()) {
        if (!isResultAttribute(a.name) && a.name != "op_callstack")
            writeNamedAttribute(a.name, a.value);
    }
    m_json.endArray();
    m_json.key("I");
    m_json.beginArray();
    for (unsigned i = 0; i < op.numOperands(); ++i)
        writeValueId(op.operand(i));
    m_json.endArray();
    m_json.key("O");
    m_json.beginArray();
    for (unsigned i = 0; i < op.numResults(); ++i) {
        m_json.beginObject();
        m_json.key("%");
        m_json.value(defineResult(op.result(i)));
        m_json.key("TT");
        writeType(op.result(i).type());
        m_json.endObject();
    }
    m_json.endArray();
    if (m_program.trainable) {
        m_json.key("OA");
        m_json.beginArray();
        for (const NamedAttribute &a : op.attributes()) {
            if (isResultAttribute(a.name))
                writeNamedAttribute(a.name, a.value);
        }
        m_json.endArray();
    }
    if (op.numRegions() > 0) {
        m_json.key("regions");
        m_json.beginArray();
        for (unsigned i = 0; i < op.numRegions(); ++i)
            writeRegion(op.region(i));
        m_json.endArray();
    }
    m_json.endObject();
}

void Writer::writeNamedAttribute(std::string_view name, const Attribute &attr)
{
    m_json.beginObject();
    m_json.key("AT");
    writeAttribute(attr);
    m_json.key("N");
    m_json.value(name);
    m_json.endObject();
}

bool Writer::writeStoredJson(const std::string &text)
{
    if (text.empty() || text.front() != '{')
        return false;
    if (!m_parser)
        m_parser = std::make_unique<simdjson::dom::parser>();
    simdjson::dom::element e;
    if (m_parser->parse(text).get(e) != simdjson::SUCCESS || !e.is_object())
        return false;
    m_json.element(e);
    return true;
}

void Writer::writeType(Type type)
{
    const auto header = [&](std::string_view id) {
        m_json.beginObject();
        m_json.key("#");
        m_json.value(id);
    };
    const auto elementType = [&](DataType dt) {
        const std::string_view id = jsonTypeId(dt);
        header(id.empty() ? "0.t_" + std::string(irName(dt)) : std::string(id));
        m_json.endObject();
    };
    const auto dims = [&](const std::vector<int64_t> &d) {
        m_json.beginArray();
        for (int64_t x : d)
            m_json.value(x);
        m_json.endArray();
    };
    switch (type.kind()) {
    case Type::Kind::Null:
        header("NULL");
        m_json.endObject();
        return;
    case Type::Kind::Element:
        elementType(type.dtype());
        return;
    case Type::Kind::DenseTensor:
    case Type::Kind::SelectedRows:
    case Type::Kind::DenseTensorArray: {
        const bool array = type.kind() == Type::Kind::DenseTensorArray;
        header(type.kind() == Type::Kind::DenseTensor ? "0.t_dtensor"
                : array                               ? "1.t_dense_tensor_array"
                                                      : "1.t_selected_rows");
        m_json.key("D");
        m_json.beginArray();
        elementType(type.dtype());
        dims(type.dims());
        m_json.value(type.layout());
        if (!array) {
            m_json.beginArray();
            for (const auto &level : type.lod()) {
                m_json.beginArray();
                for (uint64_t x : level)
                    m_json.value(x);
                m_json.endArray();
            }
            m_json.endArray();
            m_json.value(type.offset());
        }
        m_json.endArray();
        m_json.endObject();
        return;
    }
    case Type::Kind::Vector:
        header("0.t_vec");
        m_json.key("D");
        m_json.beginArray();
        for (Type t : type.elements())
            writeType(t);
        m_json.endArray();
        m_json.endObject();
        return;
    case Type::Kind::SparseCoo:
    case Type::Kind::SparseCsr:
    case Type::Kind::Opaque: {
        const std::string &text = type.text();
        if (writeStoredJson(text))
            return;
        if (type.kind() == Type::Kind::SparseCoo)
            header("1.t_sparse_coo_tensor");
        else if (type.kind() == Type::Kind::SparseCsr)
            header("1.t_sparse_csr_tensor");
        else if (text == "cf.stack" || text == "cf.inlet" || text == "cf.outlet")
            header("2.t_" + text.substr(3));
        else
            header(text);
        m_json.endObject();
        return;
    }
    }
}

void Writer::writeAttribute(const Attribute &attr)
{
    using K = Attribute::Kind;
    const auto header = [&](std::string_view id) {
        m_json.beginObject();
        m_json.key("#");
        m_json.value(id);
    };
    const auto floating = [&](std::string_view id, double v) {
        header(id);
        if (std::isnan(v)) {
            m_json.key("VD");
            m_json.value("NaN");
        } else if (std::isinf(v)) {
            m_json.key("VD");
            m_json.value(v > 0 ? "INF" : "-INF");
        } else {
            m_json.key("D");
            m_json.value(v);
        }
        m_json.endObject();
    };
    const auto simple = [&](std::string_view id) {
        header(id);
        m_json.key("D");
    };
    switch (attr.kind()) {
    case K::Null:
        header("NULL");
        break;
    case K::Bool:
        simple("0.a_bool");
        m_json.value(attr.asBool());
        break;
    case K::Int32:
        simple("0.a_i32");
        m_json.value(attr.asInt());
        break;
    case K::Int64:
        simple("0.a_i64");
        m_json.value(attr.asInt());
        break;
    case K::Index:
        simple("0.a_index");
        m_json.value(attr.asInt());
        break;
    case K::Float:
        floating("0.a_f32", double(float(attr.asDouble())));
        return;
    case K::Double:
        floating("0.a_f64", attr.asDouble());
        return;
    case K::String:
        simple("0.a_str");
        m_json.value(attr.asString());
        break;
    case K::TensorName:
        simple("0.a_tensorname");
        m_json.value(attr.asString());
        break;
    case K::Array:
        simple("0.a_array");
        m_json.beginArray();
        for (const Attribute &item : attr.asArray())
            writeAttribute(item);
        m_json.endArray();
        break;
    case K::TypeAttr:
        simple("0.a_type");
        writeType(attr.asType());
        break;
    case K::Complex64:
    case K::Complex128: {
        const bool c64 = attr.kind() == K::Complex64;
        simple(c64 ? "0.a_c64" : "0.a_c128");
        const std::complex<double> c = attr.asComplex();
        m_json.beginArray();
        m_json.value(c64 ? double(float(c.real())) : c.real());
        m_json.value(c64 ? double(float(c.imag())) : c.imag());
        m_json.endArray();
        break;
    }
    case K::IntArray:
        simple("1.a_intarray");
        m_json.beginArray();
        for (int64_t x : attr.asIntArray())
            m_json.value(x);
        m_json.endArray();
        break;
    case K::DataTypeAttr:
        simple("1.a_dtype");
        m_json.value(attr.asDataType() == DataType::Undefined ? std::string_view("Undefined(ALL_DTYPE)")
                                                              : phiName(attr.asDataType()));
        break;
    case K::PlaceAttr: {
        const Place &p = attr.asPlace();
        simple("1.a_place");
        m_json.beginArray();
        m_json.value(int64_t(p.type));
        m_json.value(p.deviceId);
        m_json.value(p.customDevice);
        m_json.endArray();
        break;
    }
    case K::DataLayout:
        simple("1.a_layout");
        m_json.value(attr.asString());
        break;
    case K::Scalar: {
        const DataType dt = attr.asDataType();
        const double v = attr.asDouble();
        simple("1.a_scalar");
        m_json.beginArray();
        m_json.value(phiName(dt));
        if (dt == DataType::Bool)
            m_json.value(v != 0);
        else if (dt == DataType::Float32)
            m_json.value(double(float(v)));
        else if (dt == DataType::Float64 || dt == DataType::Float16 || dt == DataType::BFloat16)
            m_json.value(v);
        else if (v >= -9223372036854775808.0 && v < 9223372036854775808.0)
            m_json.value(int64_t(v));
        else
            m_json.value(v);
        m_json.endArray();
        break;
    }
    case K::Unknown:
        if (writeStoredJson(attr.asString()))
            return;
        simple(attr.unknownKindId().empty() ? std::string_view("unknown") : attr.unknownKindId());
        m_json.value(attr.asString());
        break;
    }
    m_json.endObject();
}

} // namespace

std::string PirJsonWriter::write(const Program &program)
{
    return write(program, Options());
}

std::string PirJsonWriter::write(const Program &program, const Options &options)
{
    std::string out;
    out.reserve(program.numOpsTotal() * 400);
    Writer(out, program, options).writeDocument();
    return out;
}

} // namespace ps
