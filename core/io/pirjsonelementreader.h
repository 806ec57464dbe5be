#pragma once

#include "core/io/jsonpath.h"
#include "core/ir/attribute.h"
#include "core/ir/diagnostic.h"
#include "core/ir/type.h"

#include <cstdint>
#include <simdjson.h>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ps {

/// Converts PIR JSON type (`"TT"`) and attribute (`"AT"`) objects of a parsed simdjson DOM
/// into Types and Attributes, and reports diagnostics at the current JsonPath.
///
/// Types are cached by a binary encoding of their JSON (in this thread's TypeKeyCache, across
/// loads), so a type that repeats (most tensor types do) costs one walk over a few tape entries
/// plus a hash lookup instead of a parse and an intern. Unknown kinds become Type::opaque /
/// Attribute::unknown carrying the compact JSON of the whole object (`{"#":"4.t_dist",...}`), with a warning.
class PirJsonElementReader
{
public:
    using Element = simdjson::dom::element;

    PirJsonElementReader(std::string fileName, DiagnosticList &diagnostics);

    JsonPath &path() { return m_path; }
    /// Reports at the current path. After kMaxErrors errors further ones are dropped.
    void error(std::string message);
    void warning(std::string message);
    size_t errorCount() const { return m_errors; }
    /// Type::null(), interned once (interning takes a lock).
    Type nullType() const { return m_nullType; }

    /// A `{"#": id, "D": ...}` type object. On error reports and returns false (out = null type).
    bool readType(Element e, Type &out);
    /// A `{"#": id, "D"|"VD": ...}` attribute object. On error reports and returns false.
    bool readAttribute(Element e, Attribute &out);

    bool readInt(Element e, int64_t &out, const char *what);
    bool readDouble(Element e, double &out, const char *what);
    /// JSON bool, or an integer meaning 0/1 (positional parameter attributes).
    bool readFlag(Element e, bool &out, const char *what);
    bool readString(Element e, std::string_view &out, const char *what);
    bool readArray(Element e, simdjson::dom::array &out, const char *what);
    bool readObject(Element e, simdjson::dom::object &out, const char *what);

    /// `k == lit` for short literal keys, unrolled (string_view's == calls memcmp).
    template<size_t N> static bool isKey(std::string_view k, const char (&lit)[N])
    {
        if (k.size() != N - 1)
            return false;
        for (size_t i = 0; i + 1 < N; ++i) {
            if (k[i] != lit[i])
                return false;
        }
        return true;
    }

    /// The positional flags of a parameter op (`"#": "p"`), by index: is_distributed,
    /// is_parameter, need_clip (its "A"), persistable, stop_gradient, trainable (its "OA"), each
    /// `name: [flag]`. Built once: a copy costs less than building one.
    static const NamedAttribute &parameterFlag(size_t index, bool value);

    /// Compact JSON of `e` (keys in document order).
    std::string compactJson(Element e);

    static constexpr size_t kMaxErrors = 100;

private:
    struct Header
    {
        std::string_view id;
        Element data;
        Element voidData;
        bool hasData = false;
        bool hasVoidData = false;
    };
    bool readHeader(Element e, Header &h, const char *what);
    bool readTypeUncached(Element e, std::string_view rawText, Type &out);
    bool readTensorFields(simdjson::dom::array d, size_t count, DataType &dtype, std::vector<int64_t> &dims,
        std::string_view &layout, bool &elementKnown);
    bool readDims(Element e, std::vector<int64_t> &dims, const char *what);
    bool readLod(Element e, std::vector<std::vector<uint64_t>> &lod);
    bool readFloatingAttribute(const Header &h, bool isFloat, Attribute &out);
    bool readScalarAttribute(const Header &h, std::string_view rawId, Element e, Attribute &out);
    bool readPlace(Element e, Place &out);
    Type opaqueType(Element e, std::string_view rawText, const std::string &why);

    struct StringHash
    {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
    };

    std::string m_fileName;
    DiagnosticList &m_diagnostics;
    JsonPath m_path;
    size_t m_errors = 0;
    size_t m_reports = 0; ///< errors and warnings, dropped ones included
    bool m_droppedReported = false;
    /// Types read with a warning, for this load only (TypeKeyCache holds the others).
    std::unordered_map<std::string, Type, StringHash, std::equal_to<>> m_typeCache;
    std::string m_keyBuffer;
    Type m_nullType;
};

} // namespace ps
