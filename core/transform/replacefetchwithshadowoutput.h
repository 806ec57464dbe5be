#pragma once

#include "core/transform/pass.h"

namespace ps {

/// Paddle 3.3.1's `replace_fetch_with_shadow_output_pass` (the last basic pass of inference):
/// every `pd_op.fetch` becomes a `builtin.shadow_output` named as the fetch was. A fetch of a
/// value whose producer has a `name` attribute (a `pd_op.data`) first gets a
/// `pd_op.scale(x, full 1.0) {bias 0}` copy, as Paddle inserts it so the output has a variable of
/// its own. O(ops).
class ReplaceFetchWithShadowOutput : public Pass
{
public:
    std::string_view name() const override { return "replace_fetch_with_shadow_output_pass"; }
    std::string_view alias() const override { return "fetch2shadow"; }
    std::string_view description() const override { return "turn pd_op.fetch into builtin.shadow_output"; }
    size_t run(Program &program) override;
};

} // namespace ps
