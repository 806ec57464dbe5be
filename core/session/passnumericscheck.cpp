#include "core/session/passnumericscheck.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/datatypekind.h"
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

/// Copies each op's tensor results as the op produces them (later inplace ops may overwrite the
/// buffer; a loop body keeps its last iteration's values) into storages counted by `meter`, and
/// hands each copy to `take` before the run drops the value. Samples `meter`'s bytes plus the
/// run's live bytes after each op into `peak`.
class ValueRecorder : public InterpreterObserver
{
public:
    using Take = std::function<void(const Operation &, Value, Tensor)>;
    ValueRecorder(Interpreter &interpreter, Backend &backend, std::shared_ptr<AllocationMeter> meter,
        Take take, int64_t &peak)
        : m_interpreter(interpreter)
        , m_backend(backend)
        , m_meter(std::move(meter))
        , m_take(std::move(take))
        , m_peak(peak)
    {
    }
    void opExecuted(const OpRecord &record) override
    {
        const Operation *op = record.op;
        if (op && !DeadCodeElimination::hasSideEffect(*op) && op->name() != "pd_op.empty"
            && op->name() != "pd_op.empty_like") {
            const AllocationMeter::Use metered(m_meter);
            for (Value r : op->results()) {
                const RuntimeValue *v = m_interpreter.valueOf(r);
                if (v && v->isTensor() && v->tensor().defined())
                    m_take(*op, r, copyOf(v->tensor()));
            }
        }
        m_peak = std::max(m_peak, m_meter->liveBytes() + record.liveBytes);
    }

private:
    /// A host tensor that views the bytes of one copied before (reshape, flatten, squeeze ...),
    /// equal to them still, shares that copy: one memcmp instead of a copy.
    Tensor copyOf(const Tensor &t)
    {
        const bool host = t.storage()->device().isCpu();
        const std::pair<const Storage *, size_t> key(t.storage().get(), t.byteOffset());
        if (host) {
            auto it = m_copies.find(key);
            if (it != m_copies.end() && it->second.dtype() == t.dtype()
                && it->second.byteSize() == t.byteSize()
                && std::memcmp(it->second.rawData(), t.rawData(), t.byteSize()) == 0)
                return it->second.reshaped(t.shape());
        }
        Tensor copy = deepHostCopy(m_backend, t);
        if (host)
            m_copies[key] = copy;
        return copy;
    }

    Interpreter &m_interpreter;
    Backend &m_backend;
    std::shared_ptr<AllocationMeter> m_meter;
    Take m_take;
    int64_t &m_peak;
    /// The copy of each host buffer (storage, offset) last copied.
    std::map<std::pair<const Storage *, size_t>, Tensor> m_copies;
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

PassNumericsCheck::Run PassNumericsCheck::execute(const Program &program, const Take &take)
{
    Run run;
    // The live program, not owned: it is only read during this call.
    std::shared_ptr<const Program> view(&program, [](const Program *) {});
    ProgramRunner runner(view, m_backend);
    ProgramRunner::Options options;
    options.inputs = m_options.inputs;
    options.params = m_params->source();
    options.inputShapes = m_options.inputShapes;
    options.dynamicDim = m_options.dynamicDim;
    options.interpreter.synchronizeEachOp = false;
    options.interpreter.eagerDeletion = true; // the check keeps its own copies
    options.interpreter.maxOps = m_options.maxOps;
    options.interpreter.canceled = m_options.canceled;
    if (!runner.prepare(options, run.error))
        return run;
    ValueRecorder recorder(
        runner.interpreter(), m_backend, m_meter,
        [&run, &take](const Operation &op, Value r, Tensor copy) {
            if (take)
                take(op, r, copy);
            run.values[r.impl()] = std::move(copy);
        },
        m_peakBytes);
    runner.interpreter().addObserver(&recorder);
    const StopInfo stop = runner.run();
    runner.interpreter().removeObserver(&recorder);
    m_runPeakBytes = std::max(m_runPeakBytes, runner.interpreter().peakLiveBytes());
    if (stop.reason != StopReason::Finished) {
        const std::optional<OpError> &error = runner.interpreter().error();
        run.error = error ? error->toString() : stop.message;
        if (error && error->bounded && m_boundedError.empty())
            m_boundedError = run.error;
        return run;
    }
    {
        const AllocationMeter::Use metered(m_meter);
        for (ProgramRunner::NamedTensor &t : runner.outputs())
            run.outputs.emplace_back(t.name, std::move(t.tensor));
    }
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
    run.ok = true;
    return run;
}

void PassNumericsCheck::runBeforePipeline(const Program &program, std::string_view)
{
    m_current = execute(program, {});
    m_baselineError = m_current.ok ? std::string() : m_current.error;
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
        m_current = Run(); // its values go before the next run records its own
        m_current = execute(program, {}); // the next pass may have a runnable program to start from
        m_results.push_back(std::move(n));
        return;
    }
    if (!record.changed()) {
        n.checked = true;
        n.skipped = "unchanged";
        m_results.push_back(std::move(n));
        return;
    }
    // The values the pass removed go before the run: the reference keeps only what it can be
    // compared with.
    std::unordered_set<const ValueImpl *> live;
    program.block().walk([&live](Operation *op) {
        for (Value r : op->results())
            live.insert(r.impl());
    });
    std::erase_if(m_current.values, [&live](const auto &v) { return !live.contains(v.first); });

    // A top-level value is compared as the run produces it and the reference's copy released, so
    // the check holds about one run's values; a value inside a region (a loop body runs many
    // times) is compared once the run ends.
    const ValueNumbering numbering(program);
    std::unordered_map<const ValueImpl *, Compared> compared;
    Run &before = m_current;
    auto compareValue = [&](const Operation &op, Value r, const Tensor &actual, const Tensor &expected) {
        const bool movedToNhwc = isChannelsLast(r) && !before.channelsLast.contains(r.impl())
            && actual.defined() && actual.rank() == 4;
        Compared c = compareValues(movedToNhwc ? toChannelsFirst(actual) : actual, expected, n.rtol, n.atol);
        c.numerics.value = numbering.name(r);
        c.numerics.op = std::string(op.name());
        compared.insert_or_assign(r.impl(), std::move(c));
    };
    const Take streamed = [&](const Operation &op, Value r, const Tensor &copy) {
        if (op.parentBlock() != &program.block())
            return;
        auto b = before.values.find(r.impl());
        if (b != before.values.end()) {
            compareValue(op, r, copy, b->second);
            before.values.erase(b);
        }
    };
    Run after = execute(program, streamed);
    if (!after.ok) {
        n.skipped = "the program after the pass did not run: " + after.error;
        m_current = std::move(after);
        m_results.push_back(std::move(n));
        return;
    }
    n.checked = true;
    // Every value both runs computed in program order, then the selections they went through.
    std::vector<const ValueImpl *> order;
    program.block().walk([&](Operation *op) {
        for (Value r : op->results()) {
            if (!compared.contains(r.impl())) {
                auto a = after.values.find(r.impl());
                auto b = before.values.find(r.impl());
                if (a == after.values.end() || b == before.values.end())
                    continue;
                compareValue(*op, r, a->second, b->second);
            }
            order.push_back(r.impl());
        }
    });
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
    for (const auto &[name, tensor] : after.outputs) {
        auto it = std::find_if(m_current.outputs.begin(), m_current.outputs.end(),
            [&name = name](const auto &o) { return o.first == name; });
        if (it == m_current.outputs.end())
            continue; // a new output: nothing to compare with
        ValueNumerics v = compareValues(tensor, it->second, n.rtol, n.atol).numerics;
        v.value = name;
        auto value = outputs.find(name);
        account(std::move(v), value == outputs.end() ? nullptr : value->second, true);
    }
    for (const ValueImpl *value : order)
        account(compared.at(value).numerics, value, false);
    m_current = std::move(after);
    m_results.push_back(std::move(n));
}

} // namespace ps
