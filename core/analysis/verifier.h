#pragma once

#include "core/ir/diagnostic.h"

#include <functional>
#include <string>

namespace ps {

class Operation;
class Program;

/// What verify() checks and how it places its diagnostics.
struct VerifyOptions
{
    /// Maps an op to a source position (a reader's line:col or JSON path). When empty, the
    /// location is just `file`. Every message also starts with the op's path (opPath()).
    std::function<SourceLocation(const Operation *)> locator;
    std::string file;
    /// Operand/result counts of known, non-variadic ops against the registry.
    bool checkArity = true;
    /// Warn about null operands in inputs that are not optional.
    bool checkNullOperands = true;
};

/// Structural checks of a program; never crashes on broken IR and never mutates it. Errors:
/// an operand whose value is not defined in the program, is used before its definition (in
/// the same block or from an op nested in its own defining op), or comes from a block that
/// does not enclose the use (a sibling region); operand/result counts that differ from the
/// registry for known non-variadic ops (a Tensor[] input is one `builtin.combine` operand; a
/// mutable attribute such as an IntArray that the op carries as an attribute is no operand);
/// region counts that differ from the registry; regions without a block; `pd_op.if` (1
/// operand, 2 single-block regions, each ending in a `cf.yield` of one value per result when
/// it has results) and `pd_op.while` (operands = results + 1, one single-block region with one
/// argument per result, a non-empty body ending in `cf.yield` of as many values as the while
/// has operands), as Paddle's VerifySig/VerifyRegion; yielded values whose type does not fit
/// the if's or while's result (kind, dtype, rank, static dims; a scalar may be rank 0 or [1]);
/// if/while conditions (and a while body's yielded one) that are not one-element bool tensors
/// (dynamic dims pass). Warnings: null operands of inputs not known to be optional. Values are
/// named with the printer's ids. O(ops × nesting depth).
DiagnosticList verify(const Program &program, const VerifyOptions &options = {});

/// verify() as the gate in front of everything that runs, splits, passes or draws a program:
/// when it finds errors, appends them (not the warnings), each located in `file`, and a note
/// that the program is refused to `diagnostics`, and returns false. The interpreter, graph
/// builder, pipeline and value naming rely on a program that passed it (operand, result and
/// region counts, yields, conditions).
bool verifyBeforeUse(const Program &program, const std::string &file, DiagnosticList &diagnostics);

/// "op #12 (pd_op.matmul)" for a top-level op; nested ops add region (and non-zero block)
/// and index: "op #12/r1/#3 (cf.yield)", "op #4/r0b1/#0 (pd_op.add)". O(depth × block size).
std::string opPath(const Operation *op);

} // namespace ps
