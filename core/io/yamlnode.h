#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ps {

/// One node of a YAML document as YamlReader builds it: null, a scalar (kept as text), a
/// sequence or a mapping (entries in file order).
struct YamlNode
{
    enum class Kind : unsigned char { Null, Scalar, Sequence, Mapping };

    Kind kind = Kind::Null;
    std::string scalar;
    bool quoted = false; ///< a quoted scalar: never null, a number or a boolean
    std::vector<YamlNode> items;
    std::vector<std::pair<std::string, YamlNode>> entries;
    int line = 0; ///< 1-based line where the node starts

    bool isMapping() const { return kind == Kind::Mapping; }
    bool isSequence() const { return kind == Kind::Sequence; }
    /// The value of `key` in a mapping (the first entry), or nullptr.
    const YamlNode *find(std::string_view key) const;
    /// A plain scalar that is a decimal integer (sign allowed), else nullopt.
    std::optional<int64_t> integer() const;
};

} // namespace ps
