#pragma once

#include "core/io/loadresult.h"
#include "core/ir/pirtextformat.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>

namespace ps {

/// Reads Paddle's PIR text print format (`print(program)`), all three generations, into a
/// Program (PADDLE_PIR.md §1).
///
/// One hand-written lexer and recursive-descent parser accepts Gen A (`pd_op.tensor<>`,
/// `(Array)[..]`), Gen B (`builtin.tensor<>`, `(Int32)1`, `(pd_op.DataType)float32`) and Gen C
/// (`tensor<>`, no prefixes; attribute kinds are inferred, from the op registry where the op is
/// known), control flow (if/while/pylayer, generic regions), kwargs, `[id:N]` and text around
/// the program (log headers, `#` comments). Text is lossy for floats (6 digits) and does not
/// carry block-argument attributes or while-op attributes; those are dropped. Op ids `[id:N]`
/// are dropped too, unless the caller asks for them (readString with an OpIdMap).
///
/// Never throws or aborts: problems are diagnostics with file:line:col, and a truncated or
/// damaged text still yields the ops parsed before the damage. Linear time; thread-safe.
class PirTextReader
{
public:
    static LoadResult readFile(const std::string &path);
    /// `fileName` is only used in diagnostics.
    static LoadResult readString(std::string_view text, const std::string &fileName);
    /// Paddle's op ids (`[id:N]`, printed under FLAGS_print_ir) by op.
    using OpIdMap = std::unordered_map<const Operation *, int64_t>;
    /// Also fills `opIds` with the id of every op printed with one.
    static LoadResult readString(std::string_view text, const std::string &fileName, OpIdMap &opIds);
    /// Guesses the print generation of `text` from its prefix spellings (first 256 KiB).
    static Generation detectGeneration(std::string_view text);
};

} // namespace ps
