#include "core/transform/constantfolding.h"

#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/constantevaluator.h"
#include "core/transform/deadcodeelimination.h"

#include <unordered_set>

namespace ps {

namespace {

constexpr int kMaxRounds = 10; // Paddle's GreedyRewriteConfig.max_iterations for this pass

bool isParameter(const Operation *op)
{
    return op && ops::isParameter(*op);
}

/// pir::ConstantTensorOp: a `builtin.constant` whose value names a tensor.
bool isConstantTensor(const Operation *op)
{
    if (!op || !ops::isConstant(*op))
        return false;
    const Attribute *value = op->attribute("value");
    return value && value->kind() == Attribute::Kind::TensorName;
}

bool isDenseTensor(Value v)
{
    return v.type() && v.type().kind() == Type::Kind::DenseTensor;
}

bool isFoldedInput(const Operation *def)
{
    return isParameter(def) || isConstantTensor(def);
}

bool replaceableByParameter(const Operation &op);

/// Paddle's CheckUseOps: whether every user of a result may read a parameter tensor.
bool usersTakeTensors(Value v)
{
    const OpRegistry &registry = OpRegistry::instance();
    for (const OpOperand *use = v.firstUse(); use; use = use->nextUse()) {
        const Operation *user = use->owner();
        const std::string_view name = user->name();
        if (name == ops::kCombine || name == ops::kStack) {
            if (!replaceableByParameter(*user))
                return false;
        } else if (name == "pd_op.memcpy_h2d") {
            return false;
        } else if (const OpInfo *info = registry.lookup(name); info && user->dialect() != "builtin") {
            const int index = int(use->index());
            if (index < info->numInputs && info->inputs[index].mutableAttribute)
                return false;
        }
    }
    return true;
}

/// Paddle's ReplaceResultByParameterOp.
bool replaceableByParameter(const Operation &op)
{
    if (op.name() == "pd_op.memcpy_d2h")
        return false;
    for (Value r : op.results())
        if (!usersTakeTensors(r))
            return false;
    return true;
}

std::vector<NamedAttribute> persistable()
{
    return { { "persistable", Attribute::array({ Attribute::boolean(true) }) } };
}

} // namespace

ConstantFolding::ConstantFolding(std::shared_ptr<ConstantEvaluator> evaluator, bool trainMode)
    : m_evaluator(std::move(evaluator))
    , m_trainMode(trainMode)
{
}

ConstantFolding::~ConstantFolding() = default;

std::string_view ConstantFolding::description() const
{
    if (m_evaluator)
        return "compute ops whose inputs are all parameters or constants ahead of time";
    return "compute ops whose inputs are all parameters or constants ahead of time (no parameter values "
           "given: the program is rewritten, the folded values are not computed)";
}

bool ConstantFolding::matches(const Operation &op, bool trainMode)
{
    const std::string_view name = op.name();
    if (DeadCodeElimination::hasSideEffect(op) || name == ops::kConstant || name == ops::kParameter
        || name == ops::kFeed || name == ops::kData || name == ops::kAssignValue || op.numRegions() > 0)
        return false;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
        const Value v = op.operand(i);
        if (!v || !v.type())
            continue;
        const Operation *def = v.definingOp();
        if (!def || !(isFoldedInput(def) || ops::isCombine(*def)))
            return false;
        if (ops::isCombine(*def)) {
            if (v.useCount() > 1)
                return false;
            for (unsigned j = 0; j < def->numOperands(); ++j) {
                const Value item = def->operand(j);
                if (!item || !item.type())
                    continue;
                if (!isFoldedInput(item.definingOp()) || !isDenseTensor(item))
                    return false;
            }
        } else if (!isDenseTensor(v)) {
            return false;
        }
    }
    for (Value r : op.results()) {
        if (!r || !r.type())
            continue;
        if (!isDenseTensor(r))
            return false;
        for (const OpOperand *use = r.firstUse(); use; use = use->nextUse())
            if (ops::isWhile(*use->owner()))
                return false;
    }
    if (name == ops::kFull)
        for (const OpOperand *use = op.result(0).firstUse(); use; use = use->nextUse())
            if (use->owner()->name() == "pd_op.full_with_tensor" || use->owner()->name() == "pd_op.linspace")
                return false;
    if (trainMode)
        for (unsigned i = 0; i < op.numOperands(); ++i)
            if (!isConstantTensor(op.operand(i).definingOp()))
                return false;
    return true;
}

bool ConstantFolding::fold(Operation &op, Program &program)
{
    std::vector<std::string> names;
    size_t next = m_suffix;
    for (Value r : op.results())
        names.push_back(r && r.type() ? "constant_folding@_" + std::to_string(next++) : std::string());
    if (m_evaluator) {
        std::string error;
        if (!m_evaluator->fold(op, names, error)) {
            m_failures.push_back(std::string(op.name()) + ": " + error);
            return false;
        }
    }
    const bool asParameter = !m_trainMode && replaceableByParameter(op);
    Builder builder(program);
    builder.setInsertionPoint(program.block(), 0);
    for (unsigned i = 0; i < op.numResults(); ++i) {
        const Value r = op.result(i);
        if (!r || !r.type())
            continue;
        const std::string &name = names[i];
        std::vector<NamedAttribute> attrs = persistable();
        Operation *replacement = nullptr;
        const Type type = r.type();
        if (asParameter) {
            attrs.insert(attrs.begin(), { "parameter_name", Attribute::string(name) });
            attrs.push_back({ "stop_gradient", Attribute::array({ Attribute::boolean(false) }) });
            replacement = builder.create(
                ops::kParameter, std::span<const Value>(), std::span<const Type>(&type, 1), std::move(attrs));
        } else {
            attrs.push_back({ "value", Attribute::tensorName(name) });
            replacement = builder.create(
                ops::kConstant, std::span<const Value>(), std::span<const Type>(&type, 1), std::move(attrs));
        }
        r.replaceAllUsesWith(replacement->result(0));
        m_created.push_back(name);
        ++m_suffix;
    }
    op.parentBlock()->erase(&op);
    return true;
}

std::vector<std::string> ConstantFolding::takeNotes()
{
    std::vector<std::string> notes;
    for (const std::string &f : m_failures)
        notes.push_back("not folded: " + f);
    if (!m_evaluator && !m_created.empty())
        notes.push_back("no parameter values given: the " + std::to_string(m_created.size())
            + " folded tensors have no values");
    return notes;
}

size_t ConstantFolding::run(Program &program)
{
    m_suffix = 0;
    m_created.clear();
    m_failures.clear();
    size_t folded = 0;
    std::unordered_set<const Operation *> failed;
    for (int round = 0; round < kMaxRounds; ++round) {
        std::vector<Operation *> worklist;
        program.block().walk([&worklist](Operation *op) { worklist.push_back(op); });
        std::unordered_set<const Operation *> erased;
        size_t before = folded;
        for (Operation *op : worklist) {
            if (erased.count(op) || failed.count(op) || !matches(*op, m_trainMode))
                continue;
            if (!fold(*op, program)) {
                failed.insert(op);
                continue;
            }
            erased.insert(op);
            ++folded;
        }
        if (folded == before)
            break;
    }
    return folded;
}

} // namespace ps
