#pragma once

#include <cstddef>
#include <string_view>

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
    /// Transforms `program` in place; returns the number of rewrites made (0: unchanged).
    virtual size_t run(Program &program) = 0;
};

} // namespace ps
