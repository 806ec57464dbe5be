#pragma once

#include "core/ir/place.h"
#include "core/transform/pass.h"

#include <set>
#include <string>
#include <vector>

namespace ps {

class Operation;

/// Paddle 3.3.1's `inplace_pass`, decided on the pd_op program: which ops of the top block
/// become their `_` form (`pd_op.relu` → `pd_op.relu_`), so that their result reuses their input's
/// buffer. Paddle runs it on the lowered (kernel dialect) program and only sets the kernel op's
/// `op_name`/`is_inplace`; PIRScope replaces the op by its `_` variant in place (same operands,
/// results, attributes), which makes the buffer sharing visible as inplace groups
/// (core/analysis/inplacegroups.h).
///
/// An op becomes inplace when a registered `name_` op exists (not `pd_op.transpose`), and for each
/// (output, input) pair of that op: the input is an op result that is not persistable, not a
/// value Paddle never frees early (data/feed outputs, shadow-output and fetch operands unless
/// their name is a no-need-buffer name), not used by a nested region, the op is its last user
/// (uses through a no-need-buffer slot do not count; an input that is itself an inplace output
/// follows its chain), has the output's dtype and, except for reshape/squeeze/unsqueeze, the
/// same element count (a -1 dim only leading and not alone; add_grad/reshape_grad count loosely);
/// the output is a dense tensor that is not persistable. `add_grad`/`subtract_grad` are left
/// alone on a CPU place (their CPU kernel cannot run in place). Ops already in `_` form extend
/// the chains. O(ops + uses).
class InplacePass : public Pass
{
public:
    explicit InplacePass(
        Place place = { Place::AllocType::Gpu, 0, {} }, std::set<std::string> noNeedBufferNames = {})
        : m_place(std::move(place))
        , m_noNeedBufferNames(std::move(noNeedBufferNames))
    {
    }
    std::string_view name() const override { return "inplace_pass"; }
    std::string_view alias() const override { return "inplace"; }
    std::string_view description() const override
    {
        return "turn ops whose input dies at them into their `_` form (buffer reuse)";
    }
    size_t run(Program &program) override;

    /// The (op, `_` name) decisions of the last run, in program order; the ops are the replaced
    /// originals (destroyed), only their addresses remain.
    const std::vector<std::pair<const Operation *, std::string>> &decisions() const { return m_decisions; }

private:
    Place m_place;
    std::set<std::string> m_noNeedBufferNames;
    std::vector<std::pair<const Operation *, std::string>> m_decisions;
};

} // namespace ps
