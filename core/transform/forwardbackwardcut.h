#pragma once

#include "core/ir/value.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

struct PipelineResult;

/// One value that crosses from the forward to the backward program: the backward program reads
/// it as a keyword argument, so run_program keeps it alive in the scope between the two runs
/// (PADDLE_PIR.md §3.1, §5). Only its metadata is kept for a no-need-buffer value.
struct CrossingValue
{
    enum class Role { Input, Parameter, Middle, Output };
    Role role = Role::Middle;
    size_t index = 0; ///< position in fx / fp / fm / fo
    std::string name; ///< the name in the forward program (program_attr)
    Value forward; ///< in PipelineResult::forward
    Value backward; ///< the keyword argument in PipelineResult::backward
    int64_t bytes = -1; ///< Type::byteSize of the forward value; -1 when the shape is dynamic
    bool noNeedBuffer = false; ///< listed in no_need_buffers
};

/// The forward/backward cut of a PipelineResult: every fx, fp, fm, fo value whose b-list
/// counterpart (bx, bp, bm, bo) is not null, in that order. O(values).
class ForwardBackwardCut
{
public:
    static std::vector<CrossingValue> of(const PipelineResult &result);
    /// "input", "parameter", "middle", "output".
    static std::string_view roleName(CrossingValue::Role role);

    /// Bytes the backward keeps alive: distinct forward values with a static size, no-need-buffer
    /// values excepted; `dynamic` receives how many such values have no static size.
    static int64_t keptBytes(const std::vector<CrossingValue> &cut, size_t *dynamic = nullptr);
};

} // namespace ps
