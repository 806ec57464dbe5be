#include "core/session/passnumericscheck.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/datatypekind.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/ir/valuenumbering.h"
#include "core/runtime/allocationmeter.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/interpreterobserver.h"
#include "core/runtime/parameterstore.h"
#include "core/runtime/programrunner.h"
#include "core/runtime/scaledcomparison.h"
#include "core/runtime/scope.h"
#include "core/runtime/storage.h"
#include "core/runtime/tensorcomparison.h"
#include "core/transform/deadcodeelimination.h"
#include "core/transform/pass.h"
#include "core/transform/passrecord.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>

namespace ps {

namespace {

/// A parameter or a folded constant: both runs read the same tensor of the store by name, so
/// there is nothing to compare and no copy to keep (what reads it is compared).
bool readsTheStore(const Operation &op)
{
    if (ops::isParameter(op))
        return true;
    const Attribute *value = ops::isConstant(op) ? op.attribute("value") : nullptr;
    return value && value->kind() == Attribute::Kind::TensorName;
}

/// Hands the tensor results `wanted` of each op to `take` as the op produces them (later inplace
/// ops may overwrite the buffer, eager deletion frees it: `take` copies what it keeps; a loop
/// body's values come once per iteration), `meter` counting what it allocates. Keeps the run's live
/// bytes after each op in `liveBytes` and calls `sampled` then.
class ValueRecorder : public InterpreterObserver
{
public:
    using Take = std::function<void(const Operation &, Value, const Tensor &)>;
    ValueRecorder(Interpreter &interpreter, Backend &backend, std::shared_ptr<AllocationMeter> meter,
        std::function<bool(Value)> wanted, Take take, std::function<void()> sampled)
        : m_interpreter(interpreter)
        , m_backend(backend)
        , m_meter(std::move(meter))
        , m_wanted(std::move(wanted))
        , m_take(std::move(take))
        , m_sampled(std::move(sampled))
    {
    }
    void opExecuted(const OpRecord &record) override
    {
        const Operation *op = record.op;
        if (op && !DeadCodeElimination::hasSideEffect(*op) && op->name() != "pd_op.empty"
            && op->name() != "pd_op.empty_like" && !readsTheStore(*op)) {
            const AllocationMeter::Use metered(m_meter);
            for (Value r : op->results()) {
                if (!m_wanted(r))
                    continue;
                const RuntimeValue *v = m_interpreter.valueOf(r);
                if (v && v->isTensor() && v->tensor().defined())
                    m_take(*op, r, v->tensor());
            }
        }
        liveBytes = record.liveBytes;
        m_sampled();
    }

    int64_t liveBytes = 0;

private:
    Interpreter &m_interpreter;
    Backend &m_backend;
    std::shared_ptr<AllocationMeter> m_meter;
    std::function<bool(Value)> m_wanted;
    Take m_take;
    std::function<void()> m_sampled;
};

/// A value one run has and the other does not have yet.
struct Held
{
    const Operation *op = nullptr;
    Value value;
    Tensor tensor;
};

bool hasLowPrecision(const Program &program, bool &bfloat16)
{
    bool low = false;
    bfloat16 = false;
    program.block().walk([&](Operation *op) {
        for (Value r : op->results()) {
            if (!r.type() || r.type().kind() != Type::Kind::DenseTensor)
                continue;
            const DataType t = r.type().dtype();
            low = low || t == DataType::Float16 || t == DataType::BFloat16;
            bfloat16 = bfloat16 || t == DataType::BFloat16;
        }
    });
    return low;
}

/// Values compare when both are host tensors of the same element count (dtypes may differ: a
/// float16 value after AMP against its float32 value before).
bool comparable(const Tensor &a, const Tensor &b)
{
    return a.defined() && b.defined() && a.shape() == b.shape();
}

bool isChannelsLast(Value v)
{
    return v.type().kind() == Type::Kind::DenseTensor && v.type().layout() == "NHWC"
        && v.type().dims().size() == 4;
}

/// A host copy of the NHWC tensor `t` in NCHW order.
Tensor toChannelsFirst(const Tensor &t)
{
    const std::vector<int64_t> &s = t.shape();
    Tensor out = Tensor::empty({ s[0], s[3], s[1], s[2] }, t.dtype());
    const size_t e = t.elementSize();
    const auto *src = static_cast<const unsigned char *>(t.rawData());
    auto *dst = static_cast<unsigned char *>(out.rawData());
    for (int64_t n = 0; n < s[0]; ++n)
        for (int64_t h = 0; h < s[1]; ++h)
            for (int64_t w = 0; w < s[2]; ++w)
                for (int64_t c = 0; c < s[3]; ++c)
                    std::memcpy(dst + size_t(((n * s[3] + c) * s[1] + h) * s[2] + w) * e,
                        src + size_t(((n * s[1] + h) * s[2] + w) * s[3] + c) * e, e);
    return out;
}

bool isFloatTensor(Value v)
{
    return v && v.type().kind() == Type::Kind::DenseTensor && isFloatingPoint(v.type().dtype());
}

bool isDiscreteTensor(Value v)
{
    return v && v.type().kind() == Type::Kind::DenseTensor && v.type().dtype() != DataType::Undefined
        && !isFloatingPoint(v.type().dtype());
}

/// An op that turns float data into a discrete choice: an integer or boolean result from a float
/// operand (top_k / argsort indices, argmax, comparisons, casts), or rounding to an integer
/// value. A near tie in its input can flip its result.
bool isSelection(const Operation &op)
{
    static const std::unordered_set<std::string_view> rounding
        = { "pd_op.floor", "pd_op.ceil", "pd_op.round", ops::kSign };
    bool floatIn = false;
    for (Value v : op.operands())
        floatIn = floatIn || isFloatTensor(v);
    if (!floatIn)
        return false;
    if (rounding.contains(op.name()))
        return true;
    for (Value r : op.results())
        if (isDiscreteTensor(r))
            return true;
    return false;
}

/// How far a value's difference may be put down to a flipped selection upstream of it.
enum class Selected : unsigned char {
    No, ///< no flipped selection upstream
    NearTie, ///< a flipped selection whose float inputs were compared and within tolerance
    Unexplained, ///< a flipped (or new) selection whose float inputs differ or were not compared
};

/// One value compared between the runs.
struct Compared
{
    ValueNumerics numerics;
    bool comparable = false;
};

Compared compareValues(const Tensor &actual, const Tensor &expected, double rtol, double atol)
{
    Compared c;
    c.comparable = comparable(actual, expected);
    if (!c.comparable) {
        c.numerics.ok = false;
        c.numerics.maxAbs = c.numerics.maxRel = INFINITY;
        return c;
    }
    const TensorComparison t = compareToScale(actual, expected, rtol, atol);
    c.numerics.maxAbs = t.maxAbsError;
    c.numerics.maxRel = t.maxRelError;
    c.numerics.mismatches = size_t(t.mismatches);
    c.numerics.worstIndex = t.worstIndex;
    c.numerics.worstActual = t.worstActual;
    c.numerics.worstExpected = t.worstExpected;
    c.numerics.ok = t.mismatches == 0;
    return c;
}

/// Marks the values of `block` (and of the regions inside, whose values also mark the op that
/// holds them) by the selections they go through, in program order; records the flipped
/// near-tie selections and the error of their float inputs. Returns the strongest mark of the
/// block's values.
Selected markSelections(const Block &block, const std::unordered_map<const ValueImpl *, Compared> &compared,
    const std::function<bool(const Operation &)> &untouched, const ValueNumbering &numbering,
    std::unordered_map<const ValueImpl *, Selected> &marks, PassNumerics::OrderSensitive &report)
{
    auto markOf = [&marks](Value v) {
        auto it = marks.find(v.impl());
        return it == marks.end() ? Selected::No : it->second;
    };
    Selected strongest = Selected::No;
    for (const Operation *op : block.ops()) {
        Selected mark = Selected::No;
        for (Value v : op->operands())
            mark = std::max(mark, markOf(v));
        for (unsigned i = 0; i < op->numRegions(); ++i)
            for (size_t b = 0; b < op->region(i).numBlocks(); ++b)
                mark = std::max(mark,
                    markSelections(op->region(i).block(b), compared, untouched, numbering, marks, report));
        // A flipped choice marks only the discrete results that changed (top_k's indices, not its
        // values; never batch_norm's output for its reserve space).
        std::vector<Selected> resultMarks(op->numResults(), mark);
        if (isSelection(*op)) {
            std::vector<unsigned> flipped;
            for (unsigned i = 0; i < op->numResults(); ++i) {
                const Value r = op->result(i);
                if (!isDiscreteTensor(r) && op->numResults() > 1)
                    continue;
                auto c = compared.find(r.impl());
                if (c == compared.end())
                    resultMarks[i] = Selected::Unexplained; // new: nothing says it only flipped
                else if (!c->second.numerics.ok)
                    flipped.push_back(i);
            }
            if (!flipped.empty()) {
                // A near tie: the op as it was, its float inputs within tolerance and its float
                // results too (top_k's values, argsort's sorted values: the same numbers).
                Selected origin = untouched(*op) ? Selected::NearTie : Selected::Unexplained;
                for (Value r : op->results()) {
                    auto c = compared.find(r.impl());
                    if (isFloatTensor(r) && (c == compared.end() || !c->second.numerics.ok))
                        origin = Selected::Unexplained;
                }
                double inAbs = 0, inRel = 0;
                for (Value v : op->operands()) {
                    if (!isFloatTensor(v) || markOf(v) != Selected::No)
                        continue; // an input already downstream of a selection carries its mark
                    auto c = compared.find(v.impl());
                    if (c == compared.end() || !c->second.numerics.ok) {
                        origin = Selected::Unexplained;
                        break;
                    }
                    inAbs = std::max(inAbs, c->second.numerics.maxAbs);
                    inRel = std::max(inRel, c->second.numerics.maxRel);
                }
                if (origin == Selected::NearTie) {
                    report.selections.push_back(
                        numbering.name(op->result(flipped.front())) + " (" + std::string(op->name()) + ")");
                    report.inputMaxAbs = std::max(report.inputMaxAbs, inAbs);
                    report.inputMaxRel = std::max(report.inputMaxRel, inRel);
                }
                for (unsigned i : flipped)
                    resultMarks[i] = std::max(resultMarks[i], origin);
            }
        }
        for (unsigned i = 0; i < op->numResults(); ++i) {
            marks[op->result(i).impl()] = resultMarks[i];
            strongest = std::max(strongest, resultMarks[i]);
        }
    }
    return strongest;
}

/// The value each output name reads in `program` (shadow_output / fetch at top level).
std::unordered_map<std::string, const ValueImpl *> outputValues(const Program &program)
{
    std::unordered_map<std::string, const ValueImpl *> out;
    for (const Operation *op : program.block().ops()) {
        if (op->numOperands() == 0)
            continue;
        if (ops::isShadowOutput(*op))
            out[op->stringAttribute("output_name")] = op->operand(0).impl();
        else if (ops::isFetch(*op))
            out[op->stringAttribute("name")] = op->operand(0).impl();
    }
    return out;
}

} // namespace

PassNumericsCheck::PassNumericsCheck(
    Backend &backend, std::shared_ptr<ParameterStore> params, Options options)
    : m_backend(backend)
    , m_params(std::move(params))
    , m_options(std::move(options))
    , m_meter(std::make_shared<AllocationMeter>())
{
}

PassNumericsCheck::~PassNumericsCheck() = default;

void PassNumericsCheck::snapshot(const Program &program, Run &run)
{
    IrMapping mapping;
    run.program = program.clone(&mapping);
    run.original.clear();
    run.original.reserve(mapping.values().size());
    for (const auto &[from, to] : mapping.values())
        run.original.emplace(to.impl(), from.impl());
    run.channelsLast.clear();
    run.selections.clear();
    program.block().walk([&run](Operation *op) {
        for (Value r : op->results())
            if (isChannelsLast(r))
                run.channelsLast.insert(r.impl());
        if (isSelection(*op)) {
            Run::Selection &s = run.selections[op];
            for (Value v : op->operands())
                s.operands.push_back(v.impl());
            s.attributes.assign(op->attributes().begin(), op->attributes().end());
        }
    });
}

namespace {

ProgramRunner::Options runOptions(const PassNumericsCheck::Options &check, const ParameterStore &params)
{
    ProgramRunner::Options options;
    options.inputs = check.inputs;
    options.params = params.source();
    options.inputShapes = check.inputShapes;
    options.dynamicDim = check.dynamicDim;
    options.interpreter.synchronizeEachOp = false;
    options.interpreter.eagerDeletion = true; // the check keeps its own copies
    options.interpreter.restartable = false; // each run is run once: no copy of the parameters
    options.interpreter.maxOps = check.maxOps;
    options.interpreter.canceled = check.canceled;
    return options;
}

/// The bytes of the tensors both scopes hold in the same storage (the parameters both runs read
/// from the store), each storage counted once.
int64_t sharedBytes(Scope &a, Scope &b)
{
    std::unordered_set<const Storage *> seen;
    int64_t bytes = 0;
    for (const std::string &name : a.names()) {
        const RuntimeValue *x = a.find(name);
        const RuntimeValue *y = b.find(name);
        if (!x || !y || !x->isTensor() || !y->isTensor())
            continue;
        const Tensor &t = x->tensor();
        if (t.defined() && t.storage() && t.storage() == y->tensor().storage()
            && seen.insert(t.storage().get()).second)
            bytes += int64_t(t.byteSize());
    }
    return bytes;
}

/// The error of a run that stopped before its end.
std::string stopError(Interpreter &interpreter, const StopInfo &stop)
{
    const std::optional<OpError> &error = interpreter.error();
    return error ? error->toString() : stop.message;
}

} // namespace

void PassNumericsCheck::execute(const Program &program, Run &run)
{
    run.ok = false;
    run.error.clear();
    // The live program, not owned: it is only read during this call.
    std::shared_ptr<const Program> view(&program, [](const Program *) {});
    ProgramRunner runner(view, m_backend);
    if (!runner.prepare(runOptions(m_options, *m_params), run.error))
        return;
    const StopInfo stop = runner.run();
    m_runPeakBytes = std::max(m_runPeakBytes, runner.interpreter().peakLiveBytes());
    m_peakBytes = std::max(m_peakBytes, runner.interpreter().peakLiveBytes());
    if (stop.reason != StopReason::Finished) {
        run.error = stopError(runner.interpreter(), stop);
        const std::optional<OpError> &error = runner.interpreter().error();
        if (error && error->bounded && m_boundedError.empty())
            m_boundedError = run.error;
        return;
    }
    run.ok = true;
}

void PassNumericsCheck::runBeforePipeline(const Program &program, std::string_view)
{
    m_current = Run();
    execute(program, m_current);
    m_baselineError = m_current.ok ? std::string() : m_current.error;
    if (m_current.ok)
        snapshot(program, m_current);
}

void PassNumericsCheck::runAfterPass(const Pass &pass, const Program &program, const PassRecord &record)
{
    PassNumerics n;
    n.pass = record.pass;
    n.target = record.target;
    bool bfloat16 = false;
    const bool low = hasLowPrecision(program, bfloat16);
    n.lowPrecision = pass.name() == "auto_mixed_precision_pass";
    n.rtol = !low ? m_options.rtol : bfloat16 ? m_options.bfloat16Rtol : m_options.lowPrecisionRtol;
    n.atol = low ? m_options.lowPrecisionAtol : m_options.atol;
    if (!record.implemented) {
        n.skipped = "not implemented in PIRScope";
        m_results.push_back(std::move(n));
        return;
    }
    if (!m_current.ok) {
        n.skipped = "the program before the pass did not run: " + m_current.error;
        m_current = Run();
        execute(program, m_current); // the next pass may have a runnable program to start from
        if (m_current.ok)
            snapshot(program, m_current);
        m_results.push_back(std::move(n));
        return;
    }
    if (!record.changed()) {
        n.checked = true;
        n.skipped = "unchanged";
        m_results.push_back(std::move(n));
        return;
    }
    Run &before = m_current;
    // The values both programs have: the pass kept them (the clone maps back to them).
    std::unordered_set<const ValueImpl *> survived;
    {
        std::unordered_set<const ValueImpl *> live;
        program.block().walk([&live](Operation *op) {
            for (Value r : op->results())
                live.insert(r.impl());
        });
        for (const auto &[copy, original] : before.original)
            if (live.contains(original))
                survived.insert(original);
    }

    // The program before the pass (its clone) and after it run in lockstep: a top-level value is
    // compared as soon as both runs have it and both copies released, so the check holds the two
    // runs' live values plus the values one run is ahead with. A value inside a region (a loop
    // body runs many times) is kept, last iteration, to the runs' end.
    const ValueNumbering numbering(program);
    std::unordered_map<const ValueImpl *, Compared> compared;
    auto compareValue = [&](const Operation &op, Value r, const Tensor &actual, const Tensor &expected) {
        const bool movedToNhwc = isChannelsLast(r) && !before.channelsLast.contains(r.impl())
            && actual.defined() && actual.rank() == 4;
        Compared c = compareValues(movedToNhwc ? toChannelsFirst(actual) : actual, expected, n.rtol, n.atol);
        c.numerics.value = numbering.name(r);
        c.numerics.op = std::string(op.name());
        compared.insert_or_assign(r.impl(), std::move(c));
    };
    // Keyed by the value of the program after the pass.
    std::unordered_map<const ValueImpl *, Held> waitingBefore, waitingAfter, regionBefore, regionAfter;
    const Program &beforeProgram = *before.program;
    // The run that has a value first keeps a copy; the other compares its own tensor with it.
    const ValueRecorder::Take takeBefore = [&](const Operation &op, Value r, const Tensor &live) {
        const ValueImpl *key = before.original.at(r.impl());
        if (op.parentBlock() != &beforeProgram.block()) {
            regionBefore[key] = Held { &op, r, deepHostCopy(m_backend, live) };
            return;
        }
        auto a = waitingAfter.find(key);
        if (a == waitingAfter.end()) {
            waitingBefore[key] = Held { &op, r, deepHostCopy(m_backend, live) };
            return;
        }
        compareValue(*a->second.op, a->second.value, a->second.tensor, m_backend.toHost(live));
        waitingAfter.erase(a);
    };
    const ValueRecorder::Take takeAfter = [&](const Operation &op, Value r, const Tensor &live) {
        if (op.parentBlock() != &program.block()) {
            regionAfter[r.impl()] = Held { &op, r, deepHostCopy(m_backend, live) };
            return;
        }
        auto b = waitingBefore.find(r.impl());
        if (b == waitingBefore.end()) {
            waitingAfter[r.impl()] = Held { &op, r, deepHostCopy(m_backend, live) };
            return;
        }
        compareValue(op, r, m_backend.toHost(live), b->second.tensor);
        waitingBefore.erase(b);
    };

    std::shared_ptr<const Program> beforeView(&beforeProgram, [](const Program *) {});
    std::shared_ptr<const Program> afterView(&program, [](const Program *) {});
    ProgramRunner beforeRunner(beforeView, m_backend);
    ProgramRunner afterRunner(afterView, m_backend);
    const ProgramRunner::Options options = runOptions(m_options, *m_params);
    std::string beforeError, afterError;
    bool prepared = beforeRunner.prepare(options, beforeError);
    prepared = prepared && afterRunner.prepare(options, afterError);
    ValueRecorder *recorders[2] = {};
    // Both runs read the parameters from the one store: their bytes are held once, not twice.
    const int64_t shared = prepared ? sharedBytes(beforeRunner.scope(), afterRunner.scope()) : 0;
    auto sample = [&] {
        n.peakBytes = std::max(n.peakBytes,
            m_meter->liveBytes() + (recorders[0] ? recorders[0]->liveBytes : 0)
                + (recorders[1] ? recorders[1]->liveBytes : 0) - (recorders[0] && recorders[1] ? shared : 0));
    };
    std::vector<std::pair<std::string, Tensor>> beforeOutputs, afterOutputs;
    if (prepared) {
        ValueRecorder beforeRecorder(
            beforeRunner.interpreter(), m_backend, m_meter,
            [&](Value r) {
                auto o = before.original.find(r.impl());
                return o != before.original.end() && survived.contains(o->second);
            },
            takeBefore, sample);
        ValueRecorder afterRecorder(
            afterRunner.interpreter(), m_backend, m_meter,
            [&](Value r) { return survived.contains(r.impl()); }, takeAfter, sample);
        recorders[0] = &beforeRecorder;
        recorders[1] = &afterRecorder;
        beforeRunner.interpreter().addObserver(&beforeRecorder);
        afterRunner.interpreter().addObserver(&afterRecorder);
        bool beforeDone = false, afterDone = false;
        auto step = [this](ProgramRunner &runner, bool &done, std::string &error) {
            Interpreter &interpreter = runner.interpreter();
            const StopInfo stop = interpreter.step();
            if (stop.reason == StopReason::Finished) {
                done = true;
            } else if (stop.reason != StopReason::Step) {
                done = true;
                error = stopError(interpreter, stop);
                const std::optional<OpError> &e = interpreter.error();
                if (e && e->bounded && m_boundedError.empty())
                    m_boundedError = error;
            }
        };
        // The run that is behind (the other holds values it has not produced yet) steps; the
        // program after the pass leads otherwise.
        while (beforeError.empty() && afterError.empty() && !(beforeDone && afterDone)) {
            const bool stepBefore
                = afterDone || (!beforeDone && !waitingAfter.empty() && waitingBefore.empty());
            if (stepBefore)
                step(beforeRunner, beforeDone, beforeError);
            else
                step(afterRunner, afterDone, afterError);
        }
        beforeRunner.interpreter().removeObserver(&beforeRecorder);
        afterRunner.interpreter().removeObserver(&afterRecorder);
        recorders[0] = recorders[1] = nullptr;
        n.runPeakBytes
            = std::max(beforeRunner.interpreter().peakLiveBytes(), afterRunner.interpreter().peakLiveBytes());
        m_runPeakBytes = std::max(m_runPeakBytes, n.runPeakBytes);
        m_peakBytes = std::max(m_peakBytes, n.peakBytes);
        if (beforeError.empty() && afterError.empty()) {
            for (ProgramRunner::NamedTensor &t : beforeRunner.outputs())
                beforeOutputs.emplace_back(t.name, std::move(t.tensor));
            for (ProgramRunner::NamedTensor &t : afterRunner.outputs())
                afterOutputs.emplace_back(t.name, std::move(t.tensor));
        }
    }
    Run after;
    if (!beforeError.empty()) {
        // It ran before: only a bound (the op limit, a cancel) stops it now.
        n.skipped = "the program before the pass did not run: " + beforeError;
        after.error = beforeError;
        m_current = std::move(after);
        m_results.push_back(std::move(n));
        return;
    }
    if (!afterError.empty()) {
        n.skipped = "the program after the pass did not run: " + afterError;
        after.error = afterError;
        m_current = std::move(after);
        m_results.push_back(std::move(n));
        return;
    }
    n.checked = true;
    snapshot(program, after);
    // Every value both runs computed in program order, then the selections they went through.
    auto heldOf
        = [](std::unordered_map<const ValueImpl *, Held> &top,
              std::unordered_map<const ValueImpl *, Held> &region, const ValueImpl *v) -> const Held * {
        auto t = top.find(v);
        if (t != top.end())
            return &t->second;
        auto r = region.find(v);
        return r == region.end() ? nullptr : &r->second;
    };
    std::vector<const ValueImpl *> order;
    program.block().walk([&](Operation *op) {
        for (Value r : op->results()) {
            if (!compared.contains(r.impl())) {
                const Held *a = heldOf(waitingAfter, regionAfter, r.impl());
                const Held *b = heldOf(waitingBefore, regionBefore, r.impl());
                if (!a || !b)
                    continue;
                compareValue(*op, r, a->tensor, b->tensor);
            }
            order.push_back(r.impl());
        }
    });
    waitingBefore.clear();
    waitingAfter.clear();
    regionBefore.clear();
    regionAfter.clear();
    std::unordered_map<const ValueImpl *, Selected> marks;
    auto untouched = [&before, &after](const Operation &op) {
        auto b = before.selections.find(&op);
        auto a = after.selections.find(&op);
        return b != before.selections.end() && a != after.selections.end() && a->second == b->second;
    };
    markSelections(program.block(), compared, untouched, numbering, marks, n.orderSensitive);

    double worstExcess = -1;
    double worstOrderSensitive = -1;
    auto account = [&](ValueNumerics v, const ValueImpl *value, bool output) {
        auto mark = value ? marks.find(value) : marks.end();
        v.orderSensitive = !v.ok && mark != marks.end() && mark->second == Selected::NearTie;
        if (!v.ok)
            n.beyondTolerance.push_back(v);
        if (v.orderSensitive) {
            PassNumerics::OrderSensitive &o = n.orderSensitive;
            ++o.values;
            o.mismatches += v.mismatches;
            o.maxAbs = std::max(o.maxAbs, v.maxAbs);
            o.maxRel = std::max(o.maxRel, v.maxRel);
            if (v.maxAbs > worstOrderSensitive) {
                worstOrderSensitive = v.maxAbs;
                o.worstValue = v.value;
            }
            v.ok = true;
            n.beyondTolerance.back().ok = true;
        } else {
            n.valuesOutsideTolerance += !v.ok;
            n.maxAbs = std::max(n.maxAbs, v.maxAbs);
            n.maxRel = std::max(n.maxRel, v.maxRel);
            n.ok = n.ok && v.ok;
            // The worst value: a failing one before any passing one, then the largest absolute error.
            const double excess = (v.ok ? 0 : 1e300) + std::min(v.maxAbs, 1e299);
            if (excess > worstExcess) {
                worstExcess = excess;
                n.worstValue = v.value;
            }
        }
        ++n.valuesCompared;
        if (output)
            n.outputs.push_back(std::move(v));
    };
    const std::unordered_map<std::string, const ValueImpl *> outputs = outputValues(program);
    for (const auto &[name, tensor] : afterOutputs) {
        auto it = std::find_if(beforeOutputs.begin(), beforeOutputs.end(),
            [&name = name](const auto &o) { return o.first == name; });
        if (it == beforeOutputs.end())
            continue; // a new output: nothing to compare with
        ValueNumerics v = compareValues(tensor, it->second, n.rtol, n.atol).numerics;
        v.value = name;
        auto value = outputs.find(name);
        account(std::move(v), value == outputs.end() ? nullptr : value->second, true);
    }
    for (const ValueImpl *value : order)
        account(compared.at(value).numerics, value, false);
    after.ok = true;
    m_current = std::move(after);
    m_results.push_back(std::move(n));
}

} // namespace ps
