#include "core/transform/deadcodeelimination.h"

#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <string>
#include <unordered_set>

namespace ps {

namespace {

// Ops with pir::SideEffectTrait: the builtin/control-flow ones and those whose Paddle op YAML
// (develop 2025-02) lists the trait.
const std::unordered_set<std::string_view> &sideEffectOps()
{
    static const std::unordered_set<std::string_view> ops = {
        ops::kShadowOutput,
        ops::kSetParameter,
        "builtin.set_persistable_value",
        ops::kYield,
        ops::kTuplePush,
        ops::kFetch,
        "pd_op.print",
        "pd_op.assert",
        ops::kShareData_,
        "pd_op.adagrad_",
        "pd_op.adam_",
        "pd_op.adamax_",
        "pd_op.adamw_",
        "pd_op.asgd_",
        ops::kAssignOut_,
        "pd_op.class_center_sample",
        ops::kDropout,
        "pd_op.fused_linear_param_grad_add",
        "pd_op.gaussian",
        "pd_op.lamb_",
        "pd_op.lars_momentum_",
        "pd_op.merged_adam_",
        "pd_op.merged_momentum_",
        "pd_op.momentum_",
        "pd_op.nadam_",
        "pd_op.nop",
        "pd_op.radam_",
        "pd_op.randint",
        "pd_op.random_routing",
        "pd_op.randperm",
        "pd_op.rmsprop_",
        "pd_op.rprop_",
        "pd_op.seed",
        "pd_op.send_v2",
        "pd_op.sgd_",
        "pd_op.shuffle_batch",
        "pd_op.truncated_gaussian_random",
        "pd_op.uniform",
        "pd_op.uniform_inplace",
        "pd_op.uniform_inplace_",
        "pd_op.uniform_random_batch_size_like",
    };
    return ops;
}

bool allResultsUnused(const Operation &op)
{
    for (unsigned i = 0; i < op.numResults(); ++i)
        if (op.result(i).hasUses())
            return false;
    return true;
}

} // namespace

bool DeadCodeElimination::hasSideEffect(const Operation &op)
{
    return sideEffectOps().count(op.name()) != 0;
}

bool DeadCodeElimination::isInplace(const Operation &op)
{
    const OpRegistry &registry = OpRegistry::instance();
    if (const OpInfo *info = registry.lookup(op.name()); info && info->inplaceTrait)
        return true;
    const Attribute *kernelName = op.attribute("op_name");
    if (kernelName && kernelName->kind() == Attribute::Kind::String) {
        const OpInfo *info = registry.lookup(kernelName->asString());
        return info && info->inplaceTrait;
    }
    return false;
}

bool DeadCodeElimination::isRemovable(const Operation &op)
{
    if (op.numResults() == 0 || op.numRegions() != 0 || hasSideEffect(op) || isInplace(op))
        return false;
    const std::string_view name = op.name();
    return name != ops::kData && name != ops::kFeed && op.dialect() != "custom_op";
}

size_t DeadCodeElimination::eraseIn(Block &block)
{
    size_t erased = 0;
    for (;;) {
        const size_t n
            = block.eraseIf([](Operation *op) { return isRemovable(*op) && allResultsUnused(*op); });
        if (n == 0)
            break;
        erased += n;
    }
    for (Operation *op : block.ops())
        for (unsigned r = 0; r < op->numRegions(); ++r)
            for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
                erased += eraseIn(op->region(r).block(b));
    return erased;
}

size_t DeadCodeElimination::run(Program &program)
{
    size_t total = 0;
    for (;;) {
        const size_t n = eraseIn(program.block());
        if (n == 0)
            break;
        total += n;
    }
    return total;
}

} // namespace ps
