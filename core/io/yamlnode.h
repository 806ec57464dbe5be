#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

struct YamlEntry;

/// One node of a YAML document as YamlReader builds it: null, a scalar (kept as text), a
/// sequence or a mapping (entries in file order).
struct YamlNode
{
    enum class Kind : unsigned char { Null, Scalar, Sequence, Mapping };

    Kind kind = Kind::Null;
    std::string scalar;
    bool quoted = false; ///< a quoted scalar: never null, a number or a boolean
    std::vector<YamlNode> items;
    std::vector<YamlEntry> entries;
    int line = 0; ///< 1-based line where the node starts

    bool isMapping() const { return kind == Kind::Mapping; }
    bool isSequence() const { return kind == Kind::Sequence; }
    /// The value of `key` in a mapping (the first entry), or nullptr.
    const YamlNode *find(std::string_view key) const;
    /// A plain scalar that is a decimal integer (sign allowed), else nullopt.
    std::optional<int64_t> integer() const;
};

/// One `key: value` of a mapping. A struct rather than std::pair: pair's constructor constraints
/// would need YamlNode complete inside its own definition (clang with libstdc++ refuses it).
struct YamlEntry
{
    std::string key;
    YamlNode value;
};

} // namespace ps
