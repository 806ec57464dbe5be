#include "core/transform/vjpcontrolflow.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/transform/gradopbuilder.h"
#include "core/transform/gradstopgradient.h"

namespace ps {

namespace {

/// The last `cf.tuple_push` of a while body, or nullptr.
Operation *lastTuplePush(Operation &whileOp)
{
    if (whileOp.numRegions() == 0 || whileOp.region(0).empty())
        return nullptr;
    const Block &body = whileOp.region(0).block(0);
    for (auto it = body.ops().rbegin(); it != body.ops().rend(); ++it) {
        if ((*it)->name() == ops::kTuplePush)
            return *it;
    }
    return nullptr;
}

/// The stack value of the `cf.stack_create` that made a push's inlet.
Value stackOf(Operation &push)
{
    Operation *create = push.numOperands() ? push.operand(0).definingOp() : nullptr;
    return create ? create->result(0) : Value();
}

bool ifRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &)
{
    std::vector<Type> types;
    for (size_t i = 1; i < call.inputs.size(); ++i) {
        if (!call.stopGradients[i - 1].front())
            types.push_back(call.inputs[i].front().type());
    }
    const Value cond = call.inputs.front().front();
    Operation *grad = b.createPlain(ops::kIf, std::span<const Value>(&cond, 1), types, {}, 2);
    grad->region(0).addBlock();
    grad->region(1).addBlock();
    setValueStopGradient(cond, true);
    result.assign(call.inputs.size() - 1, {});
    unsigned j = 0;
    for (size_t i = 1; i < call.inputs.size(); ++i)
        result[i - 1].push_back(call.stopGradients[i - 1].front() ? Value() : grad->result(j++));
    return true;
}

bool whileRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &diagnostics)
{
    const Value cond = buildHasElements(b, *call.op, diagnostics);
    if (!cond)
        return false;
    std::vector<Value> operands { cond };
    for (size_t i = 0; i < call.outGrads.size(); ++i) {
        if (!call.stopGradients[i + 1].front())
            operands.push_back(call.outGrads[i].front());
    }
    std::vector<Type> types;
    std::vector<Attribute> flags;
    for (size_t i = 1; i < operands.size(); ++i) {
        types.push_back(operands[i].type());
        flags.push_back(Attribute::boolean(explicitStopGradient(operands[i]).value_or(false)));
    }
    Operation *grad
        = b.createPlain(ops::kWhile, operands, types, { { "stop_gradient", Attribute::array(flags) } }, 1);
    // WhileOp::Build: each body argument carries its operand's flag (false when it has none).
    Block &body = grad->region(0).addBlock();
    for (size_t i = 0; i < types.size(); ++i)
        setValueStopGradient(body.addArgument(types[i]), flags[i].asBool());
    setValueStopGradient(cond, true);
    result.assign(call.inputs.size(), {});
    unsigned j = 0;
    for (size_t i = 0; i < call.inputs.size(); ++i)
        result[i].push_back(call.stopGradients[i].front() ? Value() : grad->result(j++));
    return true;
}

bool tuplePushRule(GradOpBuilder &b, const VjpCall &call, VjpResult &result, DiagnosticList &diagnostics)
{
    Operation &push = *call.op;
    Operation *create = push.numOperands() ? push.operand(0).definingOp() : nullptr;
    if (!create || create->numResults() < 3) {
        diagnostics.error({}, "cf.tuple_push without its cf.stack_create");
        return false;
    }
    std::vector<Type> types;
    std::vector<Attribute> flags;
    for (unsigned i = 1; i < push.numOperands(); ++i) {
        types.push_back(push.operand(i).type());
        flags.push_back(Attribute::boolean(valueStopGradient(push.operand(i))));
    }
    const Value outlet = create->result(2);
    Operation *pop = b.createPlain(ops::kTuplePop, std::span<const Value>(&outlet, 1), types,
        { { "stop_gradient", Attribute::array(std::move(flags)) } });
    result.assign(call.inputs.size(), { Value() });
    for (size_t i = 1; i < call.inputs.size(); ++i)
        result[i] = { pop->result(unsigned(i - 1)) };
    return true;
}

} // namespace

void addControlFlowVjpRules(std::unordered_map<std::string_view, VjpRule> &rules)
{
    rules.emplace(ops::kIf, ifRule);
    rules.emplace(ops::kWhile, whileRule);
    rules.emplace(ops::kTuplePush, tuplePushRule);
}

void buildPipeForBlock(Program &program, Block &block)
{
    GradOpBuilder b(program);
    b.setInsertionPoint(program.block(), 0);
    const Type types[] = { Type::opaque("cf.stack"), Type::opaque("cf.inlet"), Type::opaque("cf.outlet") };
    Operation *create = b.createPlain(ops::kStackCreate, {}, types);
    std::vector<Value> values { create->result(1) };
    for (Value arg : block.arguments())
        values.push_back(arg);
    for (Operation *op : block.ops()) {
        for (Value r : op->results())
            values.push_back(r);
    }
    size_t at = block.size();
    if (!block.empty() && ops::isYield(*block.back()))
        --at;
    b.setInsertionPoint(block, at);
    b.createPlain(ops::kTuplePush, values, {});
}

Value buildHasElements(GradOpBuilder &builder, Operation &whileOp, DiagnosticList &diagnostics)
{
    Operation *push = lastTuplePush(whileOp);
    const Value stack = push ? stackOf(*push) : Value();
    if (!stack) {
        diagnostics.error({}, "the body of pd_op.while has no cf.tuple_push to drive its grad loop");
        return {};
    }
    const Type type = Type::denseTensor(DataType::Bool, { 1 });
    return builder
        .createPlain(ops::kHasElements, std::span<const Value>(&stack, 1), std::span<const Type>(&type, 1),
            { { "stop_gradient", Attribute::array({ Attribute::boolean(true) }) } })
        ->result(0);
}

} // namespace ps
