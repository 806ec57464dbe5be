#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

class Program;

/// A named, in-place program transformation run by PassManager.
class Pass
{
public:
    virtual ~Pass() = default;
    /// Paddle's pass name ("common_subexpression_elimination_pass").
    virtual std::string_view name() const = 0;
    /// A short alias for command lines ("cse").
    virtual std::string_view alias() const = 0;
    /// One line: what the pass does.
    virtual std::string_view description() const = 0;
    /// Transforms `program` in place; returns the number of rewrites made (0: unchanged). Every
    /// change counts, also one that edits an op in place (an attribute, a result type).
    virtual size_t run(Program &program) = 0;
    /// False for a pass PIRScope lists (it is in one of Paddle's pipelines) but does not
    /// implement; PassManager records it as such and does not call run().
    virtual bool implemented() const { return true; }
    /// What the last run() could not do as Paddle would or wants the user to know ("pd_op.foo not
    /// folded: no kernel"); PassManager moves them into PassRecord::notes after each run.
    virtual std::vector<std::string> takeNotes() { return {}; }
};

} // namespace ps
