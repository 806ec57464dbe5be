#include "core/session/parameterstoreevaluator.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/parameterstore.h"
#include "core/runtime/scope.h"

namespace ps {

namespace {

/// The name a parameter or tensor-name constant op reads its tensor by; empty for other ops.
std::string tensorName(const Operation *op)
{
    if (!op)
        return {};
    if (ops::isParameter(*op))
        return op->stringAttribute("parameter_name");
    if (ops::isConstant(*op)) {
        const Attribute *value = op->attribute("value");
        if (value && value->kind() == Attribute::Kind::TensorName)
            return value->asString();
    }
    return {};
}

} // namespace

ParameterStoreEvaluator::ParameterStoreEvaluator(std::shared_ptr<ParameterStore> store, Backend &backend)
    : m_store(std::move(store))
    , m_backend(backend)
{
}

bool ParameterStoreEvaluator::fold(
    const Operation &op, const std::vector<std::string> &resultNames, std::string &error)
{
    auto program = std::make_shared<Program>();
    Scope scope;
    IrMapping mapping;
    // Copies a producer (and, for a combine, its producers) once, putting the tensors it reads
    // into the scope.
    std::function<bool(const Operation *)> copyProducer = [&](const Operation *def) -> bool {
        if (mapping.contains(def->result(0)))
            return true;
        if (ops::isCombine(*def)) {
            for (Value item : def->operands())
                if (item && !copyProducer(item.definingOp()))
                    return false;
        } else {
            const std::string name = tensorName(def);
            const Tensor t = m_store->get(name);
            if (!t.defined()) {
                error = "no value for '" + name + "'";
                return false;
            }
            scope.set(name, RuntimeValue(t));
        }
        program->block().push_back(def->clone(program->arena(), mapping));
        return true;
    };
    for (Value v : op.operands())
        if (v && v.definingOp() && !copyProducer(v.definingOp()))
            return false;
    Operation *copy = op.clone(program->arena(), mapping);
    program->block().push_back(copy);
    Builder builder(*program);
    builder.setInsertionPointToEnd(program->block());
    for (unsigned i = 0; i < copy->numResults(); ++i) {
        if (i >= resultNames.size() || resultNames[i].empty())
            continue;
        const Value r = copy->result(i);
        builder.create(ops::kShadowOutput, std::span<const Value>(&r, 1), std::span<const Type>(),
            { { "output_name", Attribute::string(resultNames[i]) } });
    }
    Interpreter::Options options;
    options.synchronizeEachOp = false;
    Interpreter interpreter(
        { Interpreter::Segment { "constant_folding", program, {}, {} } }, m_backend, scope, options);
    const StopInfo stop = interpreter.continueRun();
    if (stop.reason != StopReason::Finished) {
        error = interpreter.error() ? interpreter.error()->message : stop.message;
        return false;
    }
    for (size_t i = 0; i < resultNames.size(); ++i) {
        if (resultNames[i].empty())
            continue;
        const RuntimeValue *v = scope.find(resultNames[i]);
        if (!v || !v->isTensor()) {
            error = "result " + std::to_string(i) + " was not computed";
            return false;
        }
        m_store->set(resultNames[i], deepHostCopy(m_backend, v->tensor()));
    }
    return true;
}

} // namespace ps
