#pragma once

#include "core/transform/pass.h"

namespace ps {

/// Paddle 3.3.1's `onednn_placement_pass`, the last pass of its oneDNN section
/// (kPirMkldnnPasses): every `pd_op.X` with a oneDNN counterpart (OneDnnPlacement's table)
/// becomes `onednn_op.X` with the same operands, result types and attributes, plus the op's
/// oneDNN extra attributes at their defaults (an existing one of the same name is overwritten, as
/// Paddle does) and `is_test` true where the op then has it. cast, scale and slice move only with
/// a float32 or bfloat16 operand 0. Ops nested in regions move too. Linear in the program size.
class OneDnnPlacementPass : public Pass
{
public:
    std::string_view name() const override { return "onednn_placement_pass"; }
    std::string_view alias() const override { return "onednn_placement"; }
    std::string_view description() const override
    {
        return "pd_op.X with a oneDNN kernel -> onednn_op.X plus its oneDNN attributes";
    }
    size_t run(Program &program) override;
};

} // namespace ps
