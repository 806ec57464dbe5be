#pragma once

#include "core/ir/value.h"

#include <string>
#include <vector>

namespace ps {

class Program;

/// Paddle's `append_shadow_output(program, value, name, start_point)`: one `builtin.shadow_output`
/// named `name` inserted at `startPoint` of the top block (appended when that is the end).
void appendShadowOutput(Program &program, Value value, const std::string &name, size_t startPoint);

/// Paddle's `append_shadow_outputs(program, values, start_point, name_prefix)` (PADDLE_PIR.md
/// §3.2): one shadow_output per distinct value at `startPoint + k`, named after the value's first
/// name (`TryGetValueFirstName`, as Paddle 3.3.1 does) or `name_prefix + k`. Null (fake) values
/// are never deduplicated and get a shadow_output with a null operand. Returns the number added.
int appendShadowOutputs(
    Program &program, const std::vector<Value> &values, size_t startPoint, const std::string &namePrefix);

} // namespace ps
