#pragma once

#include "core/ir/value.h"

#include <string>
#include <string_view>
#include <unordered_map>

namespace ps {

class Program;

/// The printer's value ids: `%0`, `%1`, ... for op results in order of first appearance in the
/// printed text, `%arg_N` for positional block arguments (one counter for the whole program),
/// `%kwarg_<key>` for kwargs. Every tool that names values (CLI, GUI, diagnostics) uses this so
/// ids match `pirscope-cli print`. O(values) to build.
class ValueNumbering
{
public:
    explicit ValueNumbering(const Program &program);

    /// "%3", "%arg_0", "%kwarg_x"; "<<NULL VALUE>>" for the null value; "%?" if unknown.
    std::string name(Value v) const;
    /// Inverse of name(); null when unknown.
    Value lookup(std::string_view id) const;
    size_t size() const { return m_names.size(); }

private:
    std::unordered_map<Value, std::string> m_names;
    std::unordered_map<std::string, Value> m_byName;
};

} // namespace ps
