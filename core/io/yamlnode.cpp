#include "core/io/yamlnode.h"

#include <charconv>

namespace ps {

const YamlNode *YamlNode::find(std::string_view key) const
{
    for (const auto &[k, v] : entries)
        if (k == key)
            return &v;
    return nullptr;
}

std::optional<int64_t> YamlNode::integer() const
{
    if (kind != Kind::Scalar || quoted || scalar.empty())
        return std::nullopt;
    const char *begin = scalar.data() + (scalar[0] == '+' ? 1 : 0);
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(begin, scalar.data() + scalar.size(), v);
    if (ec != std::errc() || end != scalar.data() + scalar.size())
        return std::nullopt;
    return v;
}

} // namespace ps
