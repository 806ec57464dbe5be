#pragma once

#include "core/ir/value.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Operation;

/// Where a value's name comes from.
enum class NameSource { Data, Parameter, ShadowOutput, SetParameter, Kwarg, BlockArg, Constant };

/// "data", "parameter", "shadow_output", "set_parameter", "kwarg", "block_arg", "constant".
std::string_view nameSourceText(NameSource source);

/// One name of a value and the op that gives it (null for block arguments and kwargs).
struct ValueName
{
    std::string name;
    NameSource source = NameSource::Data;
    const Operation *op = nullptr;
};

/// Paddle's name analysis (`paddle/fluid/pir/utils/name_analysis.cc`), for values anywhere in
/// a program (nested blocks included).
///
/// Input name: kwarg → keyword; positional block argument → `arg_<index>`; result of
/// `builtin.parameter` → `parameter_name`, of `pd_op.data` → `name`, of a `builtin.constant`
/// whose `value` is a tensor-name attribute (Paddle's ConstantTensorOp) → that name.
/// Output names: `output_name` of each `builtin.shadow_output` user and `parameter_name` of
/// each `builtin.set_parameter` user, in use-list order (most recent use first, as Paddle walks
/// it). Ops missing the name attribute contribute no name. Every call is O(uses).
class ValueNames
{
public:
    static std::optional<ValueName> inputName(Value value);
    static std::vector<ValueName> outputNames(Value value);
    /// [input name] + output names (`GetValueAllNames`).
    static std::vector<ValueName> allNames(Value value);
    /// The names only, same order as allNames().
    static std::vector<std::string> allNameStrings(Value value);
    /// `TryGetValueFirstName`.
    static std::optional<std::string> firstName(Value value);
    /// Paddle's `HasOnlyOneValueName`: at most one distinct name.
    static bool hasOnlyOneName(Value value);
};

/// The first name of `value`, or "" when it has none (or is null).
std::string valueNameOrEmpty(Value value);

} // namespace ps
