#include "core/io/pirjsonelementreader.h"

#include "core/io/jsonemitter.h"
#include "core/io/typekeycache.h"

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>

namespace ps {

using simdjson::dom::array;
using simdjson::dom::element_type;
using simdjson::dom::object;

PirJsonElementReader::PirJsonElementReader(std::string fileName, DiagnosticList &diagnostics)
    : m_fileName(std::move(fileName))
    , m_diagnostics(diagnostics)
    , m_nullType(Type::null())
{
    m_keyBuffer.reserve(256);
}

void PirJsonElementReader::error(std::string message)
{
    ++m_errors;
    ++m_reports;
    SourceLocation loc;
    loc.file = m_fileName;
    loc.jsonPath = m_path.toString();
    if (loc.jsonPath.empty()) {
        // The document root itself: point at its first byte.
        loc.byteOffset = 0;
        loc.line = 1;
        loc.column = 1;
    }
    if (m_errors > kMaxErrors) {
        if (!m_droppedReported)
            m_diagnostics.note(std::move(loc), "too many errors; further errors are not reported");
        m_droppedReported = true;
        return;
    }
    m_diagnostics.error(std::move(loc), std::move(message));
}

void PirJsonElementReader::warning(std::string message)
{
    ++m_reports;
    if (m_diagnostics.size() > 4 * kMaxErrors)
        return;
    SourceLocation loc;
    loc.file = m_fileName;
    loc.jsonPath = m_path.toString();
    m_diagnostics.warning(std::move(loc), std::move(message));
}

const NamedAttribute &PirJsonElementReader::parameterFlag(size_t index, bool value)
{
    static const std::vector<NamedAttribute> kFlags = [] {
        std::vector<NamedAttribute> flags;
        for (const char *name :
            { "is_distributed", "is_parameter", "need_clip", "persistable", "stop_gradient", "trainable" }) {
            for (bool v : { false, true })
                flags.push_back({ name, Attribute::array({ Attribute::boolean(v) }) });
        }
        return flags;
    }();
    return kFlags[2 * index + (value ? 1 : 0)];
}

std::string PirJsonElementReader::compactJson(Element e)
{
    std::string out;
    JsonEmitter(out).element(e);
    return out;
}

// ---- scalars ------------------------------------------------------------------------------

bool PirJsonElementReader::readInt(Element e, int64_t &out, const char *what)
{
    switch (e.type()) {
    case element_type::INT64:
        out = e.get_int64().value_unsafe();
        return true;
    case element_type::DOUBLE: {
        // Another writer may print integral values as doubles; accept them when exact.
        const double d = e.get_double().value_unsafe();
        if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0) {
            out = int64_t(d);
            return true;
        }
        break;
    }
    case element_type::UINT64:
        error(std::string(what) + " is out of the 64-bit signed range");
        return false;
    default:
        break;
    }
    error(std::string(what) + " must be an integer");
    return false;
}

bool PirJsonElementReader::readDouble(Element e, double &out, const char *what)
{
    switch (e.type()) {
    case element_type::INT64:
    case element_type::UINT64:
    case element_type::DOUBLE:
        out = e.get_double().value_unsafe();
        return true;
    default:
        error(std::string(what) + " must be a number");
        return false;
    }
}

bool PirJsonElementReader::readFlag(Element e, bool &out, const char *what)
{
    if (e.type() == element_type::BOOL) {
        out = e.get_bool().value_unsafe();
        return true;
    }
    if (e.type() == element_type::INT64) {
        out = e.get_int64().value_unsafe() != 0;
        return true;
    }
    error(std::string(what) + " must be 0, 1, true or false");
    return false;
}

bool PirJsonElementReader::readString(Element e, std::string_view &out, const char *what)
{
    if (e.get_string().get(out) == simdjson::SUCCESS)
        return true;
    error(std::string(what) + " must be a string");
    return false;
}

bool PirJsonElementReader::readArray(Element e, array &out, const char *what)
{
    if (e.get_array().get(out) == simdjson::SUCCESS)
        return true;
    error(std::string(what) + " must be an array");
    return false;
}

bool PirJsonElementReader::readObject(Element e, object &out, const char *what)
{
    if (e.get_object().get(out) == simdjson::SUCCESS)
        return true;
    error(std::string(what) + " must be an object");
    return false;
}

bool PirJsonElementReader::readHeader(Element e, Header &h, const char *what)
{
    object obj;
    if (!readObject(e, obj, what))
        return false;
    bool hasId = false;
    for (const auto field : obj) {
        if (PirJsonElementReader::isKey(field.key, "#")) {
            if (field.value.get_string().get(h.id) != simdjson::SUCCESS) {
                JsonPath::Scope scope(m_path, "#");
                error(std::string(what) + " id \"#\" must be a string");
                return false;
            }
            hasId = true;
        } else if (PirJsonElementReader::isKey(field.key, "D")) {
            h.data = field.value;
            h.hasData = true;
        } else if (PirJsonElementReader::isKey(field.key, "VD")) {
            h.voidData = field.value;
            h.hasVoidData = true;
        }
    }
    if (!hasId) {
        error(std::string(what) + " has no \"#\" id");
        return false;
    }
    return true;
}

// ---- types --------------------------------------------------------------------------------

namespace {

/// Writes the cache key into a reused buffer without per-byte std::string calls.
class KeyWriter
{
public:
    explicit KeyWriter(std::string &buffer)
        : m_buffer(buffer)
    {
        if (m_buffer.size() < 256)
            m_buffer.resize(256);
    }
    std::string_view view() const { return std::string_view(m_buffer.data(), m_size); }

    /// A prefix-free binary encoding of `e` (cheaper than JSON text: no escaping, no number
    /// formatting); equal encodings mean structurally equal elements.
    void element(simdjson::dom::element e)
    {
        switch (e.type()) {
        case element_type::OBJECT:
            tag('{');
            for (const auto field : object(e.get_object().value_unsafe())) {
                sized(field.key);
                element(field.value);
            }
            tag('}');
            break;
        case element_type::ARRAY:
            tag('[');
            for (const auto item : array(e.get_array().value_unsafe()))
                element(item);
            tag(']');
            break;
        case element_type::STRING:
            tag('"');
            sized(e.get_string().value_unsafe());
            break;
        case element_type::INT64:
            raw('i', e.get_int64().value_unsafe());
            break;
        case element_type::UINT64:
            raw('u', e.get_uint64().value_unsafe());
            break;
        case element_type::DOUBLE:
            raw('d', e.get_double().value_unsafe());
            break;
        case element_type::BOOL:
            tag(e.get_bool().value_unsafe() ? 't' : 'f');
            break;
        case element_type::NULL_VALUE:
            tag('n');
            break;
        }
    }

private:
    char *reserve(size_t n)
    {
        if (m_size + n > m_buffer.size()) [[unlikely]]
            grow(m_size + n);
        char *p = m_data + m_size;
        m_size += n;
        return p;
    }
    [[gnu::noinline]] void grow(size_t needed)
    {
        m_buffer.resize(2 * needed);
        m_data = m_buffer.data();
    }
    void tag(char c) { *reserve(1) = c; }
    template<class T> void raw(char c, T v)
    {
        char *p = reserve(1 + sizeof v);
        *p = c;
        std::memcpy(p + 1, &v, sizeof v);
    }
    void sized(std::string_view s)
    {
        const uint32_t n = uint32_t(s.size());
        char *p = reserve(sizeof n + s.size());
        std::memcpy(p, &n, sizeof n);
        if (n <= 16) {
            // Keys and ids are short: a byte loop beats a memcpy call.
            for (uint32_t i = 0; i < n; ++i)
                p[sizeof n + i] = s[i];
        } else {
            std::memcpy(p + sizeof n, s.data(), n);
        }
    }

    std::string &m_buffer;
    char *m_data = m_buffer.data();
    size_t m_size = 0;
};

} // namespace

bool PirJsonElementReader::readType(Element e, Type &out)
{
    if (e.type() != element_type::OBJECT) {
        error("type must be an object");
        out = m_nullType;
        return false;
    }
    KeyWriter keyWriter(m_keyBuffer);
    keyWriter.element(e);
    const std::string_view keyView = keyWriter.view();
    TypeKeyCache &known = TypeKeyCache::forThread(TypeKeyCache::Format::PirJson);
    if (const Type *t = known.find(keyView)) {
        out = *t;
        return true;
    }
    if (!m_typeCache.empty()) {
        const auto it = m_typeCache.find(keyView);
        if (it != m_typeCache.end()) {
            out = it->second;
            return true;
        }
    }
    std::string key(keyView);
    const size_t reportsBefore = m_reports;
    if (!readTypeUncached(e, {}, out)) {
        out = m_nullType;
        return false;
    }
    // A type read with a warning stays in this load's cache, so the next load warns again.
    if (m_reports == reportsBefore)
        known.add(key, out);
    else
        m_typeCache.emplace(std::move(key), out);
    return true;
}

Type PirJsonElementReader::opaqueType(Element e, std::string_view rawText, const std::string &why)
{
    warning(why + "; kept verbatim");
    return Type::opaque(rawText.empty() ? compactJson(e) : std::string(rawText));
}

bool PirJsonElementReader::readDims(Element e, std::vector<int64_t> &dims, const char *what)
{
    array a;
    if (!readArray(e, a, what))
        return false;
    dims.reserve(a.size());
    size_t i = 0;
    for (const Element d : a) {
        JsonPath::Scope scope(m_path, i++);
        int64_t v;
        if (!readInt(d, v, "a dimension"))
            return false;
        dims.push_back(v);
    }
    return true;
}

bool PirJsonElementReader::readLod(Element e, std::vector<std::vector<uint64_t>> &lod)
{
    array levels;
    if (!readArray(e, levels, "lod"))
        return false;
    size_t i = 0;
    for (const Element levelElement : levels) {
        JsonPath::Scope scope(m_path, i++);
        array level;
        if (!readArray(levelElement, level, "a lod level"))
            return false;
        std::vector<uint64_t> &out = lod.emplace_back();
        size_t j = 0;
        for (const Element x : level) {
            JsonPath::Scope inner(m_path, j++);
            uint64_t v;
            if (x.get_uint64().get(v) != simdjson::SUCCESS) {
                error("a lod offset must be a non-negative integer");
                return false;
            }
            out.push_back(v);
        }
    }
    return true;
}

/// Reads `[elementType, dims, layout, ...]`; `elementKnown` is false when the element is not
/// a plain element type (the caller then keeps the whole type opaque).
bool PirJsonElementReader::readTensorFields(array d, size_t count, DataType &dtype,
    std::vector<int64_t> &dims, std::string_view &layout, bool &elementKnown)
{
    if (d.size() < count) {
        error(
            "type data \"D\" needs " + std::to_string(count) + " entries, found " + std::to_string(d.size()));
        return false;
    }
    Element elem, dimsElement, layoutElement;
    if (d.at(0).get(elem) || d.at(1).get(dimsElement))
        return false;
    {
        JsonPath::Scope scope(m_path, size_t(0));
        Type t;
        if (!readTypeUncached(elem, {}, t))
            return false;
        elementKnown = t.kind() == Type::Kind::Element;
        dtype = t.dtype();
    }
    {
        JsonPath::Scope scope(m_path, size_t(1));
        if (!readDims(dimsElement, dims, "dims"))
            return false;
    }
    if (count > 2) {
        if (d.at(2).get(layoutElement))
            return false;
        JsonPath::Scope scope(m_path, size_t(2));
        if (!readString(layoutElement, layout, "layout"))
            return false;
    }
    return true;
}

bool PirJsonElementReader::readTypeUncached(Element e, std::string_view rawText, Type &out)
{
    Header h;
    if (!readHeader(e, h, "type"))
        return false;
    const std::string_view id = h.id;
    if (id == "NULL") {
        out = m_nullType;
        return true;
    }
    if (id.starts_with("0.t_")) {
        if (auto dt = dataTypeFromJsonTypeId(id)) {
            out = Type::element(*dt);
            return true;
        }
    }
    const bool dense = id == "0.t_dtensor";
    const bool rows = id == "1.t_selected_rows";
    const bool tensorArray = id == "1.t_dense_tensor_array";
    const bool coo = id == "1.t_sparse_coo_tensor";
    const bool csr = id == "1.t_sparse_csr_tensor";
    const bool vec = id == "0.t_vec";
    if (dense || rows || tensorArray || coo || csr || vec) {
        if (!h.hasData) {
            error("type " + std::string(id) + " needs data \"D\"");
            return false;
        }
        JsonPath::Scope scope(m_path, "D");
        array d;
        if (!readArray(h.data, d, "type data \"D\""))
            return false;
        if (vec) {
            std::vector<Type> elements;
            elements.reserve(d.size());
            size_t i = 0;
            for (const Element x : d) {
                JsonPath::Scope item(m_path, i++);
                Type t;
                if (!readTypeUncached(x, {}, t))
                    return false;
                elements.push_back(t);
            }
            out = Type::vector(std::move(elements));
            return true;
        }
        DataType dtype = DataType::Undefined;
        std::vector<int64_t> dims;
        std::string_view layout;
        bool elementKnown = true;
        const size_t count = dense || rows ? 5 : tensorArray ? 3 : 6;
        if (!readTensorFields(d, coo || csr ? 2 : count, dtype, dims, layout, elementKnown))
            return false;
        if (d.size() < count) {
            error("type data \"D\" needs " + std::to_string(count) + " entries, found "
                + std::to_string(d.size()));
            return false;
        }
        if (!elementKnown) {
            out = opaqueType(e, rawText, "tensor type with an unsupported element type");
            return true;
        }
        if (tensorArray) {
            out = Type::denseTensorArray(dtype, std::move(dims), std::string(layout));
            return true;
        }
        if (coo || csr) {
            // The remaining fields (non-zero dims, layout, index/value tensor types) stay in
            // the compact JSON text, which PirJsonWriter re-emits.
            std::string text = rawText.empty() ? compactJson(e) : std::string(rawText);
            out = coo ? Type::sparseCoo(dtype, std::move(dims), std::move(text))
                      : Type::sparseCsr(dtype, std::move(dims), std::move(text));
            return true;
        }
        std::vector<std::vector<uint64_t>> lod;
        uint64_t offset = 0;
        Element lodElement, offsetElement;
        if (d.at(3).get(lodElement) || d.at(4).get(offsetElement))
            return false;
        {
            JsonPath::Scope lodScope(m_path, size_t(3));
            if (!readLod(lodElement, lod))
                return false;
        }
        {
            JsonPath::Scope offsetScope(m_path, size_t(4));
            if (offsetElement.get_uint64().get(offset) != simdjson::SUCCESS) {
                error("offset must be a non-negative integer");
                return false;
            }
        }
        out = dense ? Type::denseTensor(dtype, std::move(dims), std::string(layout), std::move(lod), offset)
                    : Type::selectedRows(dtype, std::move(dims), std::string(layout), std::move(lod), offset);
        return true;
    }
    if (id == "2.t_stack" || id == "2.t_inlet" || id == "2.t_outlet") {
        // Control-flow container types use their IR spelling, as the text format prints them.
        out = Type::opaque("cf." + std::string(id.substr(4)));
        return true;
    }
    out = opaqueType(e, rawText, "unknown type id '" + std::string(id) + "'");
    return true;
}

// ---- attributes ---------------------------------------------------------------------------

bool PirJsonElementReader::readFloatingAttribute(const Header &h, bool isFloat, Attribute &out)
{
    double v;
    if (h.hasVoidData) {
        JsonPath::Scope scope(m_path, "VD");
        std::string_view s;
        if (!readString(h.voidData, s, "\"VD\""))
            return false;
        if (s == "NaN" || s == "NAN" || s == "nan")
            v = std::numeric_limits<double>::quiet_NaN();
        else if (s == "INF" || s == "inf" || s == "Infinity")
            v = std::numeric_limits<double>::infinity();
        else if (s == "-INF" || s == "-inf" || s == "-Infinity")
            v = -std::numeric_limits<double>::infinity();
        else {
            error("\"VD\" must be \"NaN\", \"INF\" or \"-INF\"");
            return false;
        }
    } else {
        if (!h.hasData) {
            error("attribute " + std::string(h.id) + " needs data \"D\" or \"VD\"");
            return false;
        }
        JsonPath::Scope scope(m_path, "D");
        if (!readDouble(h.data, v, "attribute data"))
            return false;
    }
    if (isFloat) {
        // Converting an out-of-range double to float is undefined behaviour; saturate.
        float f;
        if (std::isfinite(v) && std::fabs(v) > double(FLT_MAX))
            f = v > 0 ? HUGE_VALF : -HUGE_VALF;
        else
            f = float(v);
        out = Attribute::f32(f);
    } else {
        out = Attribute::f64(v);
    }
    return true;
}

bool PirJsonElementReader::readPlace(Element e, Place &out)
{
    array a;
    if (!readArray(e, a, "place data"))
        return false;
    if (a.size() != 3) {
        error("place data must be [allocationType, deviceId, deviceType]");
        return false;
    }
    Element typeElement, idElement, customElement;
    if (a.at(0).get(typeElement) || a.at(1).get(idElement) || a.at(2).get(customElement))
        return false;
    int64_t type, id;
    std::string_view custom;
    if (!readInt(typeElement, type, "place allocation type") || !readInt(idElement, id, "place device id")
        || !readString(customElement, custom, "place device type"))
        return false;
    if (type < 0 || type > int64_t(Place::AllocType::Custom)) {
        error("unknown place allocation type " + std::to_string(type));
        return false;
    }
    if (id < -128 || id > 127) {
        error("place device id out of range");
        return false;
    }
    out.type = Place::AllocType(type);
    out.deviceId = int(id);
    out.customDevice = std::string(custom);
    return true;
}

bool PirJsonElementReader::readScalarAttribute(
    const Header &h, std::string_view rawId, Element e, Attribute &out)
{
    JsonPath::Scope scope(m_path, "D");
    array a;
    if (!readArray(h.data, a, "scalar data"))
        return false;
    Element dtypeElement, valueElement;
    if (a.size() < 2 || a.at(0).get(dtypeElement) || a.at(1).get(valueElement)) {
        error("scalar data must be [dtype, value]");
        return false;
    }
    std::string_view dtypeName;
    if (!readString(dtypeElement, dtypeName, "scalar dtype"))
        return false;
    const auto dtype = dataTypeFromPhiName(dtypeName);
    if (!dtype || *dtype == DataType::Complex64 || *dtype == DataType::Complex128) {
        warning("scalar of dtype '" + std::string(dtypeName) + "' kept verbatim");
        out = Attribute::unknown(std::string(rawId), compactJson(e));
        return true;
    }
    double v;
    if (valueElement.type() == element_type::BOOL)
        v = valueElement.get_bool().value_unsafe() ? 1.0 : 0.0;
    else if (!readDouble(valueElement, v, "scalar value"))
        return false;
    out = Attribute::scalar(*dtype, v);
    return true;
}

namespace {

enum class AttrKind {
    Unknown,
    Null,
    Bool,
    I32,
    I64,
    Index,
    F32,
    F64,
    Str,
    TensorName,
    Array,
    TypeK,
    C64,
    C128,
    IntArray,
    DType,
    PlaceK,
    Layout,
    Scalar,
};

/// Maps `0.a_bool`, `1.a_place`, ... to a kind with a few character tests.
AttrKind attributeKindOf(std::string_view id)
{
    using R = PirJsonElementReader;
    if (R::isKey(id, "NULL"))
        return AttrKind::Null;
    if (id.size() < 6 || id[1] != '.' || id[2] != 'a' || id[3] != '_')
        return AttrKind::Unknown;
    const std::string_view t = id.substr(4);
    if (id[0] == '0') {
        switch (t[0]) {
        case 'b':
            return R::isKey(t, "bool") ? AttrKind::Bool : AttrKind::Unknown;
        case 'i':
            return R::isKey(t, "i32")  ? AttrKind::I32
                : R::isKey(t, "i64")   ? AttrKind::I64
                : R::isKey(t, "index") ? AttrKind::Index
                                       : AttrKind::Unknown;
        case 'f':
            return R::isKey(t, "f32") ? AttrKind::F32
                : R::isKey(t, "f64")  ? AttrKind::F64
                                      : AttrKind::Unknown;
        case 's':
            return R::isKey(t, "str") ? AttrKind::Str : AttrKind::Unknown;
        case 'a':
            return R::isKey(t, "array") ? AttrKind::Array : AttrKind::Unknown;
        case 't':
            return R::isKey(t, "type")      ? AttrKind::TypeK
                : R::isKey(t, "tensorname") ? AttrKind::TensorName
                                            : AttrKind::Unknown;
        case 'c':
            return R::isKey(t, "c64") ? AttrKind::C64
                : R::isKey(t, "c128") ? AttrKind::C128
                                      : AttrKind::Unknown;
        default:
            return AttrKind::Unknown;
        }
    }
    if (id[0] == '1') {
        switch (t[0]) {
        case 'i':
            return R::isKey(t, "intarray") ? AttrKind::IntArray : AttrKind::Unknown;
        case 'd':
            return R::isKey(t, "dtype") ? AttrKind::DType : AttrKind::Unknown;
        case 'p':
            return R::isKey(t, "place") ? AttrKind::PlaceK : AttrKind::Unknown;
        case 'l':
            return R::isKey(t, "layout") ? AttrKind::Layout : AttrKind::Unknown;
        case 's':
            return R::isKey(t, "scalar") ? AttrKind::Scalar : AttrKind::Unknown;
        default:
            return AttrKind::Unknown;
        }
    }
    return AttrKind::Unknown;
}

} // namespace

bool PirJsonElementReader::readAttribute(Element e, Attribute &out)
{
    Header h;
    if (!readHeader(e, h, "attribute"))
        return false;
    const std::string_view id = h.id;
    using K = AttrKind;
    const K k = attributeKindOf(id);
    switch (k) {
    case K::Null:
        out = Attribute();
        return true;
    case K::F32:
    case K::F64:
        return readFloatingAttribute(h, k == K::F32, out);
    case K::Scalar:
        if (h.hasData)
            return readScalarAttribute(h, id, e, out);
        break;
    case K::Unknown:
        warning("unknown attribute kind '" + std::string(id) + "' kept verbatim");
        out = Attribute::unknown(std::string(id), compactJson(e));
        return true;
    default:
        break;
    }
    if (!h.hasData) {
        error("attribute " + std::string(id) + " needs data \"D\"");
        return false;
    }
    JsonPath::Scope scope(m_path, "D");
    const Element d = h.data;
    switch (k) {
    case K::Bool: {
        bool v;
        if (d.get_bool().get(v) != simdjson::SUCCESS) {
            error("a bool attribute must hold true or false");
            return false;
        }
        out = Attribute::boolean(v);
        return true;
    }
    case K::I32:
    case K::I64:
    case K::Index: {
        int64_t v;
        if (!readInt(d, v, "integer attribute data"))
            return false;
        if (k == K::I32
            && (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max())) {
            error("Int32 attribute value out of range");
            return false;
        }
        out = k == K::I32 ? Attribute::int32(int32_t(v))
            : k == K::I64 ? Attribute::int64(v)
                          : Attribute::index(v);
        return true;
    }
    case K::Str:
    case K::TensorName:
    case K::Layout: {
        std::string_view s;
        if (!readString(d, s, "attribute data"))
            return false;
        out = k == K::Str        ? Attribute::string(std::string(s))
            : k == K::TensorName ? Attribute::tensorName(std::string(s))
                                 : Attribute::dataLayout(std::string(s));
        return true;
    }
    case K::Array: {
        array a;
        if (!readArray(d, a, "array attribute data"))
            return false;
        std::vector<Attribute> items;
        items.reserve(a.size());
        size_t i = 0;
        for (const Element x : a) {
            JsonPath::Scope item(m_path, i++);
            if (!readAttribute(x, items.emplace_back()))
                return false;
        }
        out = Attribute::array(std::move(items));
        return true;
    }
    case K::TypeK: {
        Type t;
        if (!readType(d, t))
            return false;
        out = Attribute::type(t);
        return true;
    }
    case K::C64:
    case K::C128: {
        array a;
        Element re, im;
        double vr, vi;
        if (!readArray(d, a, "complex attribute data"))
            return false;
        if (a.size() != 2 || a.at(0).get(re) || a.at(1).get(im)) {
            error("complex attribute data must be [real, imag]");
            return false;
        }
        if (!readDouble(re, vr, "real part") || !readDouble(im, vi, "imaginary part"))
            return false;
        out = k == K::C64 ? Attribute::complex64({ vr, vi }) : Attribute::complex128({ vr, vi });
        return true;
    }
    case K::IntArray: {
        std::vector<int64_t> v;
        if (!readDims(d, v, "IntArray data"))
            return false;
        out = Attribute::intArray(std::move(v));
        return true;
    }
    case K::DType: {
        std::string_view s;
        if (!readString(d, s, "dtype attribute data"))
            return false;
        const auto dt = dataTypeFromPhiName(s);
        if (!dt) {
            warning("unknown dtype '" + std::string(s) + "' kept verbatim");
            out = Attribute::unknown(std::string(id), compactJson(e));
            return true;
        }
        out = Attribute::dataType(*dt);
        return true;
    }
    case K::PlaceK: {
        Place p;
        if (!readPlace(d, p))
            return false;
        out = Attribute::place(std::move(p));
        return true;
    }
    default:
        break;
    }
    return false;
}

} // namespace ps
