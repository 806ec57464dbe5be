#pragma once

#include "core/dialect/opinfo.h"

#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

/// The table of known ops. Lookup by full name ("pd_op.conv2d", "builtin.parameter",
/// "cf.yield") is a hash lookup; unknown ops return nullptr and are handled structurally.
class OpRegistry
{
public:
    static const OpRegistry &instance();

    const OpInfo *lookup(std::string_view fullName) const;
    size_t size() const;
    std::vector<const OpInfo *> all() const;

    /// Inplace and view pairs of an op (empty unless the op has InplaceTrait), as Paddle's
    /// `get_op_inplace_info` reports them: output index → operand index.
    std::vector<OpIndexPair> inplaceInfo(std::string_view fullName) const;

private:
    OpRegistry();

    std::unordered_map<std::string_view, const OpInfo *> m_byName;
};

} // namespace ps
