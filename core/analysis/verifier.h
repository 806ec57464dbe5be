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
/// has operands), as Paddle's VerifySig/VerifyRegion. Warnings: null operands of inputs not
/// known to be optional. Values are named with the printer's ids. O(ops × nesting depth).
DiagnosticList verify(const Program &program, const VerifyOptions &options = {});

/// "op #12 (pd_op.matmul)" for a top-level op; nested ops add region (and non-zero block)
/// and index: "op #12/r1/#3 (cf.yield)", "op #4/r0b1/#0 (pd_op.add)". O(depth × block size).
std::string opPath(const Operation *op);

} // namespace ps
