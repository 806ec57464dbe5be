// Interpreter: executing one op (kernels, builtin ops, control flow, records and checks).

#include "core/analysis/valuenames.h"
#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/io/memorybudget.h"
#include "core/ir/block.h"
#include "core/ir/datatypekind.h"
#include "core/ir/operation.h"
#include "core/ir/region.h"
#include "core/ir/staticdims.h"
#include "core/ir/valuenumbering.h"
#include "core/runtime/backend.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensorstack.h"

#include <algorithm>
#include <chrono>
#include <span>

namespace ps {
namespace {

using Clock = std::chrono::steady_clock;

double seconds(Clock::time_point a, Clock::time_point b)
{
    return std::chrono::duration<double>(b - a).count();
}

std::string describeValue(const RuntimeValue *v)
{
    if (!v)
        return "<no value>";
    if (v->isNull())
        return "<none>";
    if (v->isTensor())
        return v->tensor().defined() ? v->tensor().describe() : "<undefined tensor>";
    if (v->isList()) {
        std::string s = "[";
        for (size_t i = 0; i < v->list().size(); ++i)
            s += (i ? ", " : "") + (v->list()[i].defined() ? v->list()[i].describe() : std::string("<none>"));
        return s + "]";
    }
    return "stack of " + std::to_string(v->stack()->size());
}

/// Paddle spells a one-element value both as rank 0 and as [1].
bool scalarLike(std::span<const int64_t> dims)
{
    return dims.empty() || (dims.size() == 1 && dims[0] == 1);
}

/// How much of a declared type is to be believed (Paddle's InferMeta is not exact everywhere).
struct Trust
{
    /// An empty tensor stands for an output the kernel does not produce (an optional or
    /// intermediate output such as batch_norm's reserve_space, which Paddle does not allocate
    /// on the CPU and older printers declared float32[-1]).
    bool placeholder = false;
    /// Static dims are judged; otherwise only the rank. Paddle's InferMeta multiplies dynamic
    /// dims into auxiliary outputs: fused_bias_residual_layernorm's mean of a -1x4x8 x is
    /// declared [-4], of a -1x-1x120 x [1].
    bool dims = true;
    /// Only the element count is judged: a oneDNN op with a fused squeeze, unsqueeze or reshape
    /// (fused_squeeze2_axes, ...), whose declared type Paddle's InferMeta gives without it.
    bool countOnly = false;
};

/// An op of Paddle's oneDNN passes that changes its result's shape after the declared type
/// was inferred (operator_reshape/unsqueeze_onednn_fuse_pass, squeeze_transpose_onednn_fuse_pass).
bool hasFusedShapeChange(const Operation &op)
{
    // Only the passes' onednn_op.* ops carry them: the other ops skip three attribute lookups
    // on every op's result check.
    if (!op.name().starts_with("onednn_op."))
        return false;
    for (const char *name : { "fused_squeeze2_axes", "fused_unsqueeze2_axes", "fused_reshape2_shape" }) {
        const Attribute *a = op.attribute(name);
        if (a && a->kind() == Attribute::Kind::Array && !a->asArray().empty())
            return true;
    }
    return false;
}

/// Empty when `value` fits the declared `type`; else "int64[7, 7], declared float32[2, 3]".
/// Only dense tensors are judged (the dtype, the rank and every static dim; a declared dynamic
/// dim takes any size, and rank 0 and [1] stand for each other); vectors, tensor arrays,
/// stacks and untyped or undefined-dtype results pass.
std::string declaredMismatch(const RuntimeValue &value, Type type, Trust trust = {})
{
    if (!type || type.kind() != Type::Kind::DenseTensor || !value.isTensor() || !value.tensor().defined())
        return {};
    const Tensor &t = value.tensor();
    if (trust.placeholder && t.numElements() == 0)
        return {};
    const bool dtypeOk = type.dtype() == DataType::Undefined || t.dtype() == type.dtype();
    const bool scalars = scalarLike(type.dims()) && scalarLike(t.shape());
    bool dimsOk = scalars
        || (trust.dims ? staticDimsMatch(type.dims(), t.shape()) : type.dims().size() == t.shape().size());
    if (trust.countOnly) {
        const std::vector<int64_t> &dims = type.dims();
        dimsOk = std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 0; })
            || numElementsOf(dims) == t.numElements();
    }
    if (dtypeOk && dimsOk)
        return {};
    return t.describe() + ", declared " + std::string(phiName(type.dtype())) + shapeText(type.dims());
}

bool hasDynamicOperand(const Operation &op)
{
    for (unsigned i = 0; i < op.numOperands(); ++i) {
        const Type type = op.operand(i).isNull() ? Type() : op.operand(i).type();
        if (type && type.kind() == Type::Kind::DenseTensor)
            for (int64_t d : type.dims())
                if (d < 0)
                    return true;
    }
    return false;
}

} // namespace

std::string OpError::toString() const
{
    std::string s = opName + " at " + position.toString();
    if (!results.empty()) {
        s += " (results ";
        for (size_t i = 0; i < results.size(); ++i)
            s += (i ? ", " : "") + results[i];
        s += ")";
    }
    s += ": " + message;
    if (!operands.empty()) {
        s += "; operands: ";
        for (size_t i = 0; i < operands.size(); ++i)
            s += (i ? ", " : "") + operands[i];
    }
    return s;
}

// --- Values -------------------------------------------------------------------------------------

const RuntimeValue &Interpreter::operandValue(const Operation &op, unsigned i) const
{
    const RuntimeValue &v = operandValueKeepingLayout(op, i);
    if (v.isTensor() && v.tensor().hasLayout())
        const_cast<RuntimeValue &>(v) = RuntimeValue(v.tensor().plain()); // an entry of m_values
    return v;
}

bool Interpreter::mayKeepLayout(const Operation &op) const
{
    if (m_reference || m_options.checkNanInf || m_breakpoints.nanInfBreakpoint() >= 0 || op.numResults() == 0)
        return false;
    auto [it, added] = m_layoutUses.try_emplace(&op, false);
    if (added) {
        const KernelRegistry &kernels = m_backend.kernels();
        const OpOperand *use = op.result(0).firstUse();
        bool all = use != nullptr;
        for (; use && all; use = use->nextUse())
            all = use->owner() && kernels.acceptsLayout(use->owner()->name(), use->index());
        it->second = all;
    }
    return it->second;
}

const RuntimeValue &Interpreter::operandValueKeepingLayout(const Operation &op, unsigned i) const
{
    static const RuntimeValue kNull;
    if (i >= op.numOperands())
        throw RuntimeError(std::string(op.name()) + " has " + std::to_string(op.numOperands())
            + " operand(s), operand " + std::to_string(i) + " is needed");
    const Value v = op.operand(i);
    if (v.isNull())
        return kNull;
    auto it = m_values.find(v.impl());
    if (it != m_values.end())
        return it->second;
    std::string why = "operand " + std::to_string(i) + " (" + valueLabel(v) + ") has no value";
    if (v.isKeywordArgument()) {
        why += ": '" + v.keyword() + "' is not in the scope";
        if (const FreedVariable *f = m_scope.freedInfo(v.keyword()))
            why += " (freed: " + std::string(freeReasonText(f->reason)) + ")";
    }
    throw RuntimeError(why);
}

void Interpreter::setResults(const Operation &op, std::vector<RuntimeValue> results)
{
    for (unsigned i = 0; i < op.numResults(); ++i) {
        if (i < results.size())
            m_values[op.result(i).impl()] = std::move(results[i]);
        else
            m_values.erase(op.result(i).impl());
    }
}

void Interpreter::checkResults(const Operation &op, const std::vector<RuntimeValue> &results) const
{
    const OpInfo *info = OpRegistry::instance().lookup(op.name());
    const bool dynamic = op.numResults() > 1 && hasDynamicOperand(op);
    for (unsigned i = 0; i < op.numResults() && i < results.size(); ++i) {
        Trust trust;
        if (info && !info->variadicResults && int(i) < info->numOutputs)
            trust.placeholder = info->outputs[i].optional || info->outputs[i].intermediate;
        trust.dims = i == 0 || !dynamic;
        trust.countOnly = i == 0 && hasFusedShapeChange(op);
        const std::string mismatch = declaredMismatch(results[i], op.result(i).type(), trust);
        if (!mismatch.empty())
            throw RuntimeError(
                "result " + std::to_string(i) + " (" + valueLabel(op.result(i)) + ") is " + mismatch);
    }
}

bool Interpreter::condition(const RuntimeValue &value, const Operation &op) const
{
    // Paddle's IfOp/WhileOp take a bool scalar; element 0 of anything else is no condition.
    if (!value.isTensor() || !value.tensor().defined() || value.tensor().dtype() != DataType::Bool
        || value.tensor().numElements() != 1)
        throw RuntimeError(std::string(op.name()) + " condition is " + describeValue(&value)
            + ", expected a one-element bool tensor");
    return m_backend.toHost(value.tensor()).valueAsDouble(0) != 0;
}

OpRecord Interpreter::newRecord(const Operation &op, OpRecord::Kind kind)
{
    OpRecord r;
    r.sequence = m_sequence++;
    r.position = position().value_or(ProgramPosition {});
    r.op = &op;
    r.kind = kind;
    for (auto it = m_frames.rbegin(); it != m_frames.rend(); ++it) {
        if (it->owner && ops::isWhile(*it->owner)) {
            r.iteration = it->iteration;
            break;
        }
    }
    return r;
}

void Interpreter::commitRecord(OpRecord record)
{
    const Operation &op = *record.op;
    for (unsigned i = 0; i < op.numResults(); ++i) {
        const auto it = m_values.find(op.result(i).impl()); // its shape only: as it is
        const RuntimeValue *v = it == m_values.end() ? nullptr : &it->second;
        const bool tensor = v && v->isTensor() && v->tensor().defined();
        record.outputShapes.push_back(tensor ? v->tensor().shape() : std::vector<int64_t> {});
        record.outputDtypes.push_back(tensor ? v->tensor().dtype() : DataType::Undefined);
    }
    record.liveBytes = liveBytes();
    if (m_frames.size() > 1) {
        m_frames.back().hostSeconds += record.hostSeconds;
        m_frames.back().deviceSeconds += record.deviceSeconds;
    }
    if (m_records.size() >= std::max<size_t>(m_options.recordLimit, 2))
        dropRecords(m_records.size() / 2);
    const uint64_t bytes = record.bytes();
    if (std::string why; MemoryBudget::reserve(bytes, why))
        m_recordBytes += bytes;
    else if (m_recordingError.empty())
        m_recordingError = "recording the executed ops " + why + " after " + std::to_string(m_records.size())
            + " records (the host-memory budget)";
    checkOutputs(record, m_records.size());
    m_records.push_back(std::move(record));
    for (InterpreterObserver *o : m_observers)
        o->opExecuted(m_records.back());
    if (m_options.eagerDeletion && m_frames.size() == 1)
        releaseAfter(op);
}

void Interpreter::dropRecords(size_t count)
{
    count = std::min(count, m_records.size());
    uint64_t bytes = 0;
    for (size_t i = 0; i < count; ++i)
        bytes += m_records[i].bytes();
    // Records kept while the budget refused them were never reserved.
    bytes = std::min(bytes, m_recordBytes);
    MemoryBudget::release(bytes);
    m_recordBytes -= bytes;
    m_records.erase(m_records.begin(), m_records.begin() + std::ptrdiff_t(count));
}

void Interpreter::checkOutputs(OpRecord &record, size_t index)
{
    const Operation &op = *record.op;
    const int nanBreakpoint = m_breakpoints.nanInfBreakpoint();
    if ((m_options.checkNanInf || nanBreakpoint >= 0) && record.kind != OpRecord::Kind::ControlFlow) {
        record.checkedFinite = true;
        auto check = [&](const Tensor &t) {
            if (t.defined() && isFloatingPoint(t.dtype()) && !m_backend.stats(t, 0).allFinite())
                record.hasNanInf = true;
        };
        for (unsigned i = 0; i < op.numResults(); ++i) {
            const RuntimeValue *v = valueOf(op.result(i));
            if (v && v->isTensor())
                check(v->tensor());
            else if (v && v->isList())
                for (const Tensor &t : v->list())
                    check(t);
        }
        if (record.hasNanInf && nanBreakpoint >= 0 && !m_pendingStop)
            m_pendingStop = StopInfo { StopReason::NanInf, std::nullopt, index, nanBreakpoint,
                std::string(op.name()) + " at " + record.position.toString()
                    + " produced a NaN or an infinity" };
    }
    if (record.diverged && m_options.stopOnDivergence && !m_pendingStop)
        m_pendingStop = StopInfo { StopReason::Divergence, std::nullopt, index, -1,
            std::string(op.name()) + " at " + record.position.toString() + " differs from "
                + (m_reference ? m_reference->name() : std::string("the reference")) + ": "
                + record.comparison };
    if (!m_pendingStop && m_breakpoints.hasNameBreakpoints()) {
        for (unsigned i = 0; i < op.numResults() && !m_pendingStop; ++i) {
            const Value result = op.result(i);
            std::vector<std::string> names = ValueNames::allNameStrings(result);
            if (const ValueNumbering *n = numberingOf(result))
                names.push_back(n->name(result));
            for (const std::string &name : names) {
                const int id = m_breakpoints.matchName(name);
                if (id >= 0) {
                    m_pendingStop = StopInfo { StopReason::NameMatch, std::nullopt, index, id,
                        std::string(op.name()) + " at " + record.position.toString() + " wrote '" + name
                            + "'" };
                    break;
                }
            }
        }
    }
}

void Interpreter::fail(const Operation &op, const std::string &message, bool missingKernel)
{
    OpError e;
    e.position = position().value_or(ProgramPosition {});
    e.op = &op;
    e.opName = std::string(op.name());
    e.message = message;
    e.missingKernel = missingKernel;
    for (unsigned i = 0; i < op.numOperands(); ++i) {
        const Value v = op.operand(i);
        e.operands.push_back(
            v.isNull() ? std::string("<null>") : valueLabel(v) + " " + describeValue(valueOf(v)));
    }
    for (unsigned i = 0; i < op.numResults(); ++i)
        e.results.push_back(valueLabel(op.result(i)));
    m_error = e;
    for (InterpreterObserver *o : m_observers)
        o->errorRaised(*m_error);
}

// --- Ops ----------------------------------------------------------------------------------------

bool Interpreter::executeOp(const Operation &op)
{
    const bool builtin = isBuiltinOp(op.name());
    OpRecord record = newRecord(op, builtin ? OpRecord::Kind::Builtin : OpRecord::Kind::Kernel);
    std::vector<RuntimeValue> results(op.numResults());
    try {
        if (builtin) {
            const auto t0 = Clock::now();
            runBuiltin(op, results);
            record.hostSeconds = record.deviceSeconds = seconds(t0, Clock::now());
        } else {
            if (const KernelFn fn = m_backend.kernels().find(op.name())) {
                runKernel(op, fn, results, record);
            } else if (Backend *cpu = fallbackBackend(); cpu && cpu->kernels().find(op.name())) {
                runFallback(op, cpu->kernels().find(op.name()), results, record);
            } else {
                std::string message = "no kernel for '" + std::string(op.name()) + "' on " + m_backend.name();
                if (!m_backend.device().isCpu() && !m_options.cpuFallback)
                    message += " (the CPU fallback is off)";
                fail(op, message, true);
                return false;
            }
        }
        checkResults(op, results);
    } catch (const std::exception &e) {
        fail(op, e.what(), false);
        return false;
    }
    setResults(op, std::move(results));
    commitRecord(std::move(record));
    advance();
    return true;
}

void Interpreter::runProvided(const Operation &op, const std::vector<RuntimeValue> &values)
{
    OpRecord record = newRecord(op, OpRecord::Kind::Provided);
    std::vector<RuntimeValue> results;
    for (const RuntimeValue &v : values) {
        if (v.isTensor() && v.tensor().defined())
            results.emplace_back(m_backend.toDevice(v.tensor()));
        else
            results.push_back(v);
    }
    setResults(op, std::move(results));
    commitRecord(std::move(record));
    advance();
}

// --- Control flow -------------------------------------------------------------------------------

void Interpreter::enterIf(const Operation &op)
{
    const bool branch = condition(operandValue(op, 0), op);
    const unsigned region = branch ? 0 : 1;
    if (region >= op.numRegions() || op.region(region).empty() || op.region(region).block(0).empty()) {
        // No such branch (or an empty one): the results stay empty.
        OpRecord record = newRecord(op, OpRecord::Kind::ControlFlow);
        setResults(op, {});
        commitRecord(std::move(record));
        advance();
        return;
    }
    ActiveFrame f;
    f.block = &op.region(region).block(0);
    f.owner = &op;
    f.region = region;
    m_frames.push_back(f);
}

void Interpreter::enterWhile(const Operation &op)
{
    if (op.numOperands() < 1 || op.numRegions() < 1 || op.region(0).empty())
        throw RuntimeError("pd_op.while needs a condition operand and a body region");
    const bool run = condition(operandValue(op, 0), op);
    std::vector<RuntimeValue> values;
    for (unsigned i = 1; i < op.numOperands(); ++i)
        values.push_back(operandValue(op, i));
    if (!run) {
        OpRecord record = newRecord(op, OpRecord::Kind::ControlFlow);
        setResults(op, std::move(values));
        commitRecord(std::move(record));
        advance();
        return;
    }
    const Block &body = op.region(0).block(0);
    bindArguments(body, values);
    ActiveFrame f;
    f.block = &body;
    f.owner = &op;
    m_frames.push_back(f);
}

void Interpreter::bindArguments(const Block &body, std::vector<RuntimeValue> &values)
{
    if (body.numArguments() != values.size())
        throw RuntimeError("the loop body has " + std::to_string(body.numArguments()) + " arguments, "
            + std::to_string(values.size()) + " values given");
    for (size_t i = 0; i < values.size(); ++i) {
        const std::string mismatch = declaredMismatch(values[i], body.argument(i).type());
        if (!mismatch.empty())
            throw RuntimeError("loop variable " + std::to_string(i) + " (" + valueLabel(body.argument(i))
                + ") of " + std::string(body.parentOp() ? body.parentOp()->name() : "the loop") + " gets "
                + mismatch);
    }
    for (size_t i = 0; i < values.size(); ++i)
        m_values[body.argument(i).impl()] = std::move(values[i]);
}

void Interpreter::yieldFrame(const Operation &yield)
{
    ActiveFrame &f = m_frames.back();
    if (!f.owner)
        throw RuntimeError("cf.yield outside a region");
    std::vector<RuntimeValue> values;
    for (unsigned i = 0; i < yield.numOperands(); ++i)
        values.push_back(operandValue(yield, i));
    if (ops::isWhile(*f.owner)) {
        if (values.empty())
            throw RuntimeError("the loop body's cf.yield has no condition");
        const bool again = condition(values.front(), yield);
        values.erase(values.begin());
        if (again) {
            bindArguments(*f.block, values);
            f.next = 0;
            ++f.iteration;
            return;
        }
    }
    leaveFrame(std::move(values));
}

void Interpreter::leaveFrame(std::vector<RuntimeValue> results)
{
    const ActiveFrame f = m_frames.back();
    const Operation &owner = *f.owner;
    if (results.size() != owner.numResults())
        throw RuntimeError(std::string(owner.name()) + " has " + std::to_string(owner.numResults())
            + " results, its region yields " + std::to_string(results.size()));
    for (unsigned i = 0; i < owner.numResults(); ++i) {
        const std::string mismatch = declaredMismatch(results[i], owner.result(i).type());
        if (!mismatch.empty())
            throw RuntimeError(std::string(owner.name()) + " result " + std::to_string(i) + " ("
                + valueLabel(owner.result(i)) + ") gets " + mismatch + " from region #"
                + std::to_string(f.region));
    }
    m_frames.pop_back();
    OpRecord record = newRecord(owner, OpRecord::Kind::ControlFlow);
    record.hostSeconds = f.hostSeconds;
    record.deviceSeconds = f.deviceSeconds;
    setResults(owner, std::move(results));
    commitRecord(std::move(record));
    advance();
}

} // namespace ps
