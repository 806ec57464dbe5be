#pragma once

#include "core/ir/datatype.h"
#include "core/ir/place.h"
#include "core/transform/pass.h"

#include <set>
#include <string>
#include <unordered_set>
#include <vector>

namespace ps {

class Block;
class Operation;

/// Paddle 3.3.1's `auto_mixed_precision_pass` (inference with `enable_gpu_mixed`): ops that can
/// run in float16 (or bfloat16) do so, with `pd_op.cast` ops where precisions meet.
///
/// Per block (nested blocks after their parent's ops): an op runs in low precision unless it is
/// on the black list (Paddle's default: exp, square, log, mean, sum,
/// sigmoid_cross_entropy_with_logits, cross_entropy_with_softmax_, array_to_tensor, plus
/// `mixed_black_list`), a parameter / set_parameter, feed/fetch (unless `enable_low_precision_io`),
/// or an op with no float operand or result. Then, until nothing changes: a full_like follows its
/// input's precision, a cast to a non-float type stays as it is, an op whose result feeds an
/// IntArray/Scalar input (scale's `scale`) stays in float32, and an op and the producer of a float
/// vector it reads (builtin.combine) agree. Rewrite, in program order: a low-precision op gets casts
/// of its float tensor inputs to the low type (not the statistics and scales of batch_norm,
/// layer_norm, instance_norm, ...; not IntArray/Scalar inputs), its float `dtype` attribute set, and
/// its float results retyped (not batch_norm/layer_norm/instance_norm's mean and variance); a
/// float32 op reading a low-precision tensor gets a cast back to float32; a fetch casts to its own
/// type; combine/split/slice results follow their inputs. One cast per value and block is shared.
///
/// Where PIRScope cannot follow Paddle exactly: Paddle asks its GPU kernel registry whether an op
/// has a float16/bfloat16 kernel (`OpSupportPrecision`); PIRScope has no GPU build of Paddle to
/// ask and assumes every pd_op op with float data has one, except `mixed_black_list` and the
/// default black list; use `mixed_black_list` for ops your build lacks. `pd_op.data` is treated like
/// feed (inputs stay float32 unless `enable_low_precision_io`). The pass applies on a GPU place
/// only, as in Paddle (CanApplyOn): on a CPU place it changes nothing and says so in its notes.
class AutoMixedPrecision : public Pass
{
public:
    AutoMixedPrecision(Place place, DataType precision, bool lowPrecisionIo = false,
        std::set<std::string> whiteList = {}, std::set<std::string> blackList = {});

    std::string_view name() const override { return "auto_mixed_precision_pass"; }
    std::string_view alias() const override { return "amp"; }
    std::string_view description() const override
    {
        return "run ops in float16/bfloat16 with casts where precisions meet (GPU inference)";
    }
    size_t run(Program &program) override;
    std::vector<std::string> takeNotes() override;

    DataType precision() const { return m_precision; }
    /// Short op names ("exp") the pass never runs in low precision.
    static const std::set<std::string> &defaultBlackList();

private:
    struct State;
    /// One block, in the phases of Paddle's pass, then the blocks nested in its ops.
    void runBlock(Block &block, State &state);
    /// Which ops may run in low precision (State::low) and which the pass leaves alone.
    void getOpPrecision(const std::vector<Operation *> &ops, State &state) const;
    /// Keeps in float32, until nothing changes, the ops whose neighbours need it.
    static void updateOpPrecision(const std::vector<Operation *> &ops, State &state);
    /// Rewrites the ops of `block` in program order.
    void processBlock(Block &block, const std::vector<Operation *> &ops, State &state);
    /// combine / slice / split: their vector types follow their inputs.
    void rewriteBuiltinOp(Operation *op, State &state);
    /// fetch, feed / data / share_data_, then the other ops, low precision or not.
    void rewritePdOp(Operation *op, State &state);
    /// Casts the op's float inputs to the low type and retypes its float results.
    void rewriteLowPrecisionOp(Operation *op, State &state);
    /// A float32 op: casts the low-precision tensors it reads back to float32.
    void castLowPrecisionInputsBack(Operation *op, State &state);
    /// Paddle's DoInsertCastOp: `op`'s operand through a cast to `to`, one cast per value and block.
    void insertCast(Operation *op, unsigned operand, DataType to, State &state);

    Place m_place;
    DataType m_precision;
    bool m_lowPrecisionIo;
    std::set<std::string> m_whiteList;
    std::set<std::string> m_blackList;
    std::vector<std::string> m_notes;
    size_t m_casts = 0;
};

} // namespace ps
