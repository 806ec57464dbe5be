#pragma once

#include "core/ir/pirtextformat.h"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

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

    /// Where one op stands in printed text: its first and last line, from 0 (an op with regions
    /// spans the lines of its regions).
    struct PrintedOp
    {
        const Operation *op = nullptr;
        uint32_t firstLine = 0;
        uint32_t lastLine = 0;
    };
    /// toString() with `names` (built from `program`), appending every op's lines to `printed`
    /// in pre-order walk order (PirListing indexes them). Linear in the text's size.
    static std::string toString(
        const Program &program, const ValueNumbering &names, Generation gen, std::vector<PrintedOp> &printed);
    /// One op as printed inside its program (custom forms and regions included), without the
    /// trailing newline; `names` must be built from the op's program.
    static std::string opText(
        const Operation &op, const ValueNumbering &names, Generation gen = Generation::C, int indent = 0);
};

} // namespace ps
