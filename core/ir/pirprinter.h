#pragma once

#include "core/ir/pirtextformat.h"

#include <iosfwd>
#include <string>

namespace ps {

class Operation;
class Program;
class ValueNumbering;

/// Prints a Program in Paddle's PIR text format, byte for byte like Paddle's IrPrinter
/// (PADDLE_PIR.md §1.1–§1.6) in the chosen generation: Gen C = current Paddle (`tensor<..>`,
/// no prefixes), Gen B = 2024 (`builtin.tensor<..>`, `(Int32)1`, `(pd_op.DataType)float32`),
/// Gen A = 2023 (`pd_op.tensor<..>`, `(Array)[..]`).
///
/// Attributes are sorted by name (`op_callstack` and `sym_shape_str` are left out), floats have
/// 6 significant digits, if/pylayer/while use their custom forms, value ids come from
/// ValueNumbering. Text is lossy, but print → PirTextReader → print reproduces the same bytes.
/// Blocks of generic regions list their positional arguments in a `^%arg_0, ...` line (Paddle
/// names them at first use), so they re-attach to the right block when read back.
/// Linear in the program size; output is flushed to the stream in 1 MiB chunks.
class PirPrinter
{
public:
    using Generation = ps::Generation;

    static void print(const Program &program, std::ostream &os, Generation gen = Generation::C);
    static std::string toString(const Program &program, Generation gen = Generation::C);
    /// One op as printed inside its program (custom forms and regions included), without the
    /// trailing newline; `names` must be built from the op's program.
    static std::string opText(
        const Operation &op, const ValueNumbering &names, Generation gen = Generation::C, int indent = 0);
};

} // namespace ps
