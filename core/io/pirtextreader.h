#pragma once

#include "core/io/loadresult.h"
#include "core/ir/pirtextformat.h"

#include <string>
#include <string_view>

namespace ps {

/// Reads Paddle's PIR text print format (`print(program)`), all three generations, into a
/// Program (PADDLE_PIR.md §1).
///
/// One hand-written lexer and recursive-descent parser accepts Gen A (`pd_op.tensor<>`,
/// `(Array)[..]`), Gen B (`builtin.tensor<>`, `(Int32)1`, `(pd_op.DataType)float32`) and Gen C
/// (`tensor<>`, no prefixes; attribute kinds are inferred, from the op registry where the op is
/// known), control flow (if/while/pylayer, generic regions), kwargs, `[id:N]` and text around
/// the program (log headers, `#` comments). Text is lossy for floats (6 digits) and does not
/// carry block-argument attributes, while-op attributes or op ids; those are dropped.
///
/// Never throws or aborts: problems are diagnostics with file:line:col, and a truncated or
/// damaged text still yields the ops parsed before the damage. Linear time; thread-safe.
class PirTextReader
{
public:
    static LoadResult readFile(const std::string &path);
    /// `fileName` is only used in diagnostics.
    static LoadResult readString(std::string_view text, const std::string &fileName);
    /// Guesses the print generation of `text` from its prefix spellings (first 256 KiB).
    static Generation detectGeneration(std::string_view text);
};

} // namespace ps
