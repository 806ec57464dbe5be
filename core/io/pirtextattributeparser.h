#pragma once

#include "core/io/pirtextcursor.h"
#include "core/io/readcache.h"
#include "core/io/texthash.h"
#include "core/ir/attribute.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

class PirTextTypeParser;
struct OpInfo;

/// Parses attribute maps `{name:value,...}` of the PIR text format.
///
/// Gen A/B values carry a kind prefix (`(Int32)1`, `(pd_op.IntArray)[2,3]`) and are taken
/// literally. Gen C values have none, so the kind is inferred: from the op's YAML attribute type
/// when the op is in the registry ("int" → Int32, "int64_t" → Int64, "float"/"Scalar" → Float,
/// "Scalar(double)"/"double" → Double, "IntArray", "int64_t[]", ...), otherwise by spelling:
/// integers → Int32 (Int64 when they do not fit), other numbers → Double, `[..]` → Array
/// (IntArray for the `shape` attribute of pd_op ops), dtype/layout words, `Place(..)`, types.
/// Values that match nothing are kept verbatim as Attribute::unknown with a warning. The string
/// `value` of a `builtin.constant` is a tensor name (Paddle's ConstantTensorOp).
class PirTextAttributeParser
{
public:
    PirTextAttributeParser(PirTextCursor &cursor, PirTextTypeParser &types);

    /// Parses the map at the current `{` token into `out`. On a syntax error reports it, skips
    /// to the closing `}` and returns false (the attributes read so far stay in `out`).
    /// `op` may be null (unknown op or block-argument attributes).
    bool parseMap(std::vector<NamedAttribute> &out, const OpInfo *op, bool pdOp);

private:
    struct Context
    {
        std::string_view yamlType; ///< registry type, empty when unknown
        std::string_view name; ///< attribute name
        bool pdOp = false;
    };

    Attribute parseValue(const Context &ctx, int depth);
    Attribute parsePrefixed(std::string_view kind, const Context &ctx, int depth);
    Attribute parseArray(const Context &ctx, int depth);
    Attribute parseNumber(const PirTextCursor::Token &t, std::string_view hint);
    Attribute parseWord(const Context &ctx);
    Attribute parsePlace();
    Attribute parseTypeValue();
    /// The scratch elements, moved into a vector of their exact size.
    static std::vector<Attribute> takeElements(std::vector<Attribute> &scratch);
    /// The end of the `name:value` that starts at the current (name) token when it is a simple
    /// one-line spelling: the `,` or `}` after it. nullptr otherwise.
    const char *rawAttributeEnd() const;
    /// Consumes a balanced token run up to `,` `}` `]` and keeps it as an unknown attribute.
    Attribute takeUnknown(std::string kindId, bool warn, std::string_view why);

    PirTextCursor &m_cur;
    PirTextTypeParser &m_types;
    bool m_failed = false;
    /// Elements of the arrays being parsed, one reused buffer per nesting depth, so an array's
    /// final vector is allocated once at its exact size (push_back growth allocated up to four
    /// times for `[true, true, true, true, true, true]`).
    std::vector<std::vector<Attribute>> m_arrayScratch;
    /// This load's attribute values read without a diagnostic, by the op, the pd_op flag and the
    /// raw `name:value` text (a value's kind depends on them): most repeat (`stop_gradient:[true]`,
    /// a layer's `struct_name`), and a repeat then costs a scan and a lookup instead of a parse.
    struct ValueKey
    {
        const OpInfo *op;
        bool pdOp;
        std::string_view raw; ///< a view into the text being read
        bool operator==(const ValueKey &) const = default;
    };
    struct ValueKeyHash
    {
        size_t operator()(const ValueKey &k) const
        {
            return textHash(k.raw) ^ (std::hash<const void *>()(k.op) * 31) ^ size_t(k.pdOp);
        }
    };
    ReadCache<ValueKey, Attribute, ValueKeyHash> m_valueCache;
};

} // namespace ps
