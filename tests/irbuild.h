#pragma once

// Small helpers for tests that build programs op by op.

#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <string>
#include <vector>

namespace irbuild {

inline ps::Operation *makeOp(ps::Builder &b, std::string_view name, std::vector<ps::Value> operands,
    std::vector<ps::Type> results, std::vector<ps::NamedAttribute> attrs = {})
{
    return b.create(
        name, std::span<const ps::Value>(operands), std::span<const ps::Type>(results), std::move(attrs));
}

/// The names of the top-level ops, in order.
inline std::vector<std::string> opNames(const ps::Program &p)
{
    std::vector<std::string> names;
    for (const ps::Operation *op : p.block().ops())
        names.emplace_back(op->name());
    return names;
}

} // namespace irbuild
