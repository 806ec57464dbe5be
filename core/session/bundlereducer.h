#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ps {

class Program;
class TraceBundle;

/// What BundleReducer wrote.
struct ReducedBundle
{
    std::string dir;
    std::string opName;
    size_t ops = 0; ///< ops of the reduced program, data ops excluded
    size_t inputs = 0; ///< Paddle's values that feed it
    std::vector<std::string> files; ///< relative to dir
};

/// `pirscope-cli reduce`: the smallest subprogram around one op of a bundle's program that still
/// shows its divergence, written as a runnable eval-mode trace bundle a user attaches to a bug
/// report. The subprogram holds the op and, walking its operands back, the producers of every value
/// Paddle did not provide; each value Paddle provides (an intermediate of the bundle, one of its
/// inputs or parameters) becomes a `pd_op.data` input fed with Paddle's value; the op's results are
/// the outputs, with Paddle's values as the expected outputs. `verify DIR --numerics` then compares
/// PIRScope's results with Paddle's on Paddle's own inputs. Ops with regions are not reduced
/// (error). O(ops of the subprogram) plus copying the values.
class BundleReducer
{
public:
    /// `program`: the program of the bundle's intermediates (TraceBundle::intermediatesProgram);
    /// `opIndex`: a top-level op of it. False with `error` (no Paddle value for an operand that has
    /// no producer to walk back to, an op with regions, a folder that cannot be written).
    static bool reduce(const TraceBundle &bundle, const Program &program, size_t opIndex,
        const std::string &outDir, ReducedBundle &out, std::string &error);
};

} // namespace ps
