#pragma once

#include "core/transform/pass.h"

#include <string>
#include <vector>

namespace ps {

/// Paddle 3.3.1's `transfer_layout_pass` (run by every paddle.inference predictor after the
/// fusion passes and auto_mixed_precision_pass, unless FLAGS_enable_auto_layout_pass_in_inference
/// or Config.delete_pass removes it): convolutions that prefer NHWC are switched to NHWC together
/// with the cheap ops around them, and `pd_op.transpose` ops {source:"transfer_layout_pass"} are
/// put on the edges of a minimum cut between the NCHW and NHWC parts (LayoutFlowGraph).
///
/// It changes a program only where an op prefers NHWC and may change (core/transform/layoutrules):
/// a pd_op.fused_conv2d_add_act whose input and filter are float16 with filter dims 0 and 1
/// multiples of 8, or that carries __force_backend__:"gpu"; a float16 pd_op.conv2d_transpose;
/// a pd_op.add_group_norm_silu in NCHW; a pd_op.pool2d whose kernel makes NHWC faster. So float32
/// programs (every CPU pipeline, inference-gpu) come out unchanged, and after
/// auto_mixed_precision_pass (inference-gpu-fp16) the aligned fused convolutions go NHWC.
/// Only the top-level block is rearranged. Each op switched and each transpose counts as a
/// rewrite. O(V * E) per max-flow phase.
class TransferLayoutPass : public Pass
{
public:
    std::string_view name() const override { return "transfer_layout_pass"; }
    std::string_view alias() const override { return "layout"; }
    std::string_view description() const override
    {
        return "switch convolutions that prefer NHWC to NHWC, with transposes on a minimum cut";
    }
    size_t run(Program &program) override;
    std::vector<std::string> takeNotes() override { return std::move(m_notes); }

    /// Of the last run: ops switched to NHWC and transposes inserted.
    size_t switchedOps() const { return m_switched; }
    size_t insertedTransposes() const { return m_transposes; }

private:
    std::vector<std::string> m_notes;
    size_t m_switched = 0;
    size_t m_transposes = 0;
};

} // namespace ps
