#include "core/runtime/interpreter.h"

#include "core/analysis/namepattern.h"
#include "core/analysis/valuenames.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/staticdims.h"
#include "core/ir/valuenumbering.h"
#include "core/runtime/allocationmeter.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensorstack.h"

#include <algorithm>

namespace ps {

const char *stopReasonText(StopReason reason)
{
    switch (reason) {
    case StopReason::Step:
        return "step";
    case StopReason::Breakpoint:
        return "breakpoint";
    case StopReason::Cursor:
        return "cursor";
    case StopReason::NanInf:
        return "nan/inf";
    case StopReason::NameMatch:
        return "name match";
    case StopReason::Divergence:
        return "divergence";
    case StopReason::StopRequested:
        return "stop requested";
    case StopReason::Finished:
        return "finished";
    case StopReason::Error:
        break;
    }
    return "error";
}

Interpreter::Interpreter(std::vector<Segment> segments, Backend &backend, Scope &scope)
    : Interpreter(std::move(segments), backend, scope, Options {})
{
}

Interpreter::Interpreter(std::vector<Segment> segments, Backend &backend, Scope &scope, Options options)
    : m_segments(std::move(segments))
    , m_backend(backend)
    , m_scope(scope)
    , m_options(options)
{
    for (size_t i = 0; i < m_segments.size(); ++i) {
        m_programSegments[m_segments[i].program.get()] = i;
        m_numberings.push_back(std::make_unique<ValueNumbering>(*m_segments[i].program));
    }
    m_releasePlans.resize(m_segments.size());
    snapshotScope();
    m_state = State::Ready;
    beginMeasuring();
    startSegment(0);
    m_lastStop.position = position();
}

Interpreter::~Interpreter()
{
    dropRecords(m_records.size());
}

void Interpreter::addObserver(InterpreterObserver *observer)
{
    if (observer && std::find(m_observers.begin(), m_observers.end(), observer) == m_observers.end())
        m_observers.push_back(observer);
}

void Interpreter::removeObserver(InterpreterObserver *observer)
{
    std::erase(m_observers, observer);
}

void Interpreter::snapshotScope()
{
    m_scopeSnapshot.clear();
    if (!m_options.restartable)
        return;
    for (const std::string &name : m_scope.names()) {
        const RuntimeValue &v = *m_scope.find(name);
        if (v.isStack())
            m_scopeSnapshot.emplace_back(name, RuntimeValue(std::make_shared<TensorStack>(*v.stack())));
        else
            m_scopeSnapshot.emplace_back(name, deepHostCopy(m_backend, v));
    }
}

void Interpreter::restart()
{
    if (!m_options.restartable)
        throw RuntimeError(
            "this run was started without a restart snapshot (Interpreter::Options::restartable)");
    m_values.clear();
    dropRecords(m_records.size());
    m_recordingError.clear();
    m_sequence = 0;
    m_opsExecuted = 0;
    m_error.reset();
    m_frames.clear();
    m_pendingStop.reset();
    m_scope.clear();
    auto onDevice = [this](const Tensor &host) {
        if (!host.defined())
            return host;
        Tensor t = m_backend.toDevice(host);
        return t.storage() == host.storage() ? host.cloneHost() : t;
    };
    for (const auto &[name, v] : m_scopeSnapshot) {
        if (v.isTensor()) {
            m_scope.set(name, RuntimeValue(onDevice(v.tensor())));
        } else if (v.isList()) {
            std::vector<Tensor> list;
            for (const Tensor &t : v.list())
                list.push_back(onDevice(t));
            m_scope.set(name, RuntimeValue(std::move(list)));
        } else if (v.isStack()) {
            m_scope.set(name, RuntimeValue(std::make_shared<TensorStack>(*v.stack())));
        } else {
            m_scope.set(name, v);
        }
    }
    m_state = State::Ready;
    beginMeasuring();
    startSegment(0);
    m_lastStop = StopInfo {};
    m_lastStop.position = position();
}

// --- Position -----------------------------------------------------------------------------------

std::optional<ProgramPosition> Interpreter::position() const
{
    if (m_frames.empty())
        return std::nullopt;
    ProgramPosition p;
    p.segment = m_segment;
    for (size_t i = 0; i < m_frames.size(); ++i) {
        if (i > 0)
            p.path.push_back(m_frames[i].region);
        p.path.push_back(m_frames[i].next);
    }
    return p;
}

const Operation *Interpreter::currentOp() const
{
    if (m_frames.empty())
        return nullptr;
    const ActiveFrame &f = m_frames.back();
    return f.next < f.block->size() ? f.block->op(f.next) : nullptr;
}

std::vector<Interpreter::Frame> Interpreter::frames() const
{
    std::vector<Frame> out;
    for (const ActiveFrame &f : m_frames)
        out.push_back({ f.owner, f.region, f.iteration });
    return out;
}

const Operation *Interpreter::opAt(const ProgramPosition &position) const
{
    if (position.segment >= m_segments.size())
        return nullptr;
    return position.resolve(*m_segments[position.segment].program);
}

const RuntimeValue *Interpreter::valueOf(Value value) const
{
    auto it = m_values.find(value.impl());
    if (it == m_values.end())
        return nullptr;
    if (it->second.isTensor() && it->second.tensor().hasLayout())
        it->second = RuntimeValue(it->second.tensor().plain());
    return &it->second;
}

const ValueNumbering *Interpreter::numberingOf(Value value) const
{
    const Block *block = value.parentBlock();
    const Program *program = block ? block->program() : nullptr;
    auto it = m_programSegments.find(program);
    return it == m_programSegments.end() ? nullptr : m_numberings[it->second].get();
}

std::vector<ProgramPosition> Interpreter::opsMatching(const NamePattern &pattern, bool opNames) const
{
    std::vector<ProgramPosition> out;
    for (size_t s = 0; s < m_segments.size(); ++s)
        for (const Operation *op : pattern.matchingOps(*m_segments[s].program, opNames))
            out.push_back(ProgramPosition::of(op, s));
    return out;
}

std::string Interpreter::valueLabel(Value value) const
{
    if (value.isNull())
        return "<null>";
    const ValueNumbering *numbering = numberingOf(value);
    std::string label = numbering ? numbering->name(value) : std::string("%?");
    if (value.isKeywordArgument())
        return label;
    std::string names;
    for (const std::string &n : ValueNames::allNameStrings(value))
        if (names.find(n) == std::string::npos)
            names += (names.empty() ? "" : ", ") + n;
    return names.empty() ? label : label + " (" + names + ")";
}

double Interpreter::opSeconds() const
{
    double total = 0;
    for (const OpRecord &r : m_records)
        if (r.kind != OpRecord::Kind::ControlFlow)
            total += r.deviceSeconds;
    return total;
}

// --- Segments -----------------------------------------------------------------------------------

void Interpreter::startSegment(size_t segment)
{
    m_segment = segment;
    while (m_segment < m_segments.size()) {
        try {
            if (m_segments[m_segment].prologue)
                m_segments[m_segment].prologue(m_scope);
        } catch (const std::exception &) {
            // A prologue must not throw; what it failed to put in shows as missing kwargs.
        }
        m_freedEarly.assign(
            m_segments[m_segment].freeAfter.size() + m_segments[m_segment].collectable.size(), false);
        const Block &block = m_segments[m_segment].program->block();
        for (Value kw : block.kwargs()) {
            m_values.erase(kw.impl());
            const RuntimeValue *v = m_scope.find(kw.keyword());
            if (!v)
                continue; // reading it fails with "not in the scope"
            try {
                RuntimeValue bound = *v;
                if (bound.isTensor() && bound.tensor().defined()
                    && bound.tensor().device() != m_backend.device())
                    bound = RuntimeValue(m_backend.toDevice(bound.tensor()));
                m_values[kw.impl()] = std::move(bound);
            } catch (const std::exception &) {
                // Not bound: reading it fails with "has no value".
            }
        }
        if (!block.empty()) {
            ActiveFrame f;
            f.block = &block;
            m_frames.push_back(f);
            return;
        }
        finishSegment();
        ++m_segment;
    }
    m_state = State::Finished;
}

void Interpreter::finishSegment()
{
    for (size_t i = 0; i < m_segments[m_segment].freeAfter.size(); ++i)
        if (!m_freedEarly[i])
            freeScopeVariable(i);
    m_segmentEndLiveBytes.push_back(liveBytes());
    for (InterpreterObserver *o : m_observers)
        o->segmentFinished(m_segment);
}

void Interpreter::advance()
{
    ++m_frames.back().next;
    if (m_frames.size() == 1 && m_frames.back().next >= m_frames.back().block->size()) {
        m_frames.pop_back();
        finishSegment();
        startSegment(m_segment + 1);
    }
}

// --- Run loop -----------------------------------------------------------------------------------

StopInfo Interpreter::step()
{
    return run(Mode::Over, nullptr);
}

StopInfo Interpreter::stepInto()
{
    return run(Mode::Into, nullptr);
}

StopInfo Interpreter::stepOut()
{
    return run(Mode::Out, nullptr);
}

StopInfo Interpreter::runToCursor(const ProgramPosition &target)
{
    return run(Mode::Cursor, &target);
}

StopInfo Interpreter::continueRun()
{
    return run(Mode::Continue, nullptr);
}

StopInfo Interpreter::finish(StopInfo info)
{
    info.position = position();
    if (m_frames.empty())
        m_state = State::Finished;
    else if (m_error)
        m_state = State::Error;
    else
        m_state = State::Paused;
    m_lastStop = info;
    for (InterpreterObserver *o : m_observers)
        o->stopped(info);
    return info;
}

namespace {

std::atomic<uint64_t> g_defaultMaxOps { 0 };

} // namespace

uint64_t Interpreter::defaultMaxOps()
{
    return g_defaultMaxOps.load(std::memory_order_relaxed);
}

void Interpreter::setDefaultMaxOps(uint64_t ops)
{
    g_defaultMaxOps.store(ops, std::memory_order_relaxed);
}

namespace {

/// Ops that only fetch a value from the scope (a program's hundreds of parameters): stepping
/// runs through them instead of stopping at each; a breakpoint or the cursor still stops there.
bool loadsAValue(const Operation *op)
{
    return op && (ops::isParameter(*op) || ops::isConstant(*op));
}

} // namespace

StopInfo Interpreter::run(Mode mode, const ProgramPosition *target)
{
    const AllocationMeter::Use metered(m_meter);
    m_stopRequested.store(false, std::memory_order_relaxed);
    m_pendingStop.reset();
    if (m_frames.empty())
        return finish({ StopReason::Finished, std::nullopt, std::nullopt, -1, "the run has finished" });
    m_error.reset();
    const size_t startDepth = m_frames.size();
    const size_t startSegment = m_segment;
    for (bool first = true;; first = false) {
        if (!first) {
            if (m_frames.empty())
                return finish({ StopReason::Finished, std::nullopt, std::nullopt, -1, {} });
            const ProgramPosition here = *position();
            if (mode == Mode::Cursor && here == *target)
                return finish({ StopReason::Cursor, here, std::nullopt, -1, {} });
            if (!m_breakpoints.empty()) {
                const int id = m_breakpoints.opBreakpointAt(here);
                if (id >= 0)
                    return finish({ StopReason::Breakpoint, here, std::nullopt, id, {} });
            }
            if ((mode == Mode::Into || (mode == Mode::Over && m_frames.size() <= startDepth)
                    || (mode == Mode::Out
                        && (m_frames.size() < startDepth || (startDepth == 1 && m_segment != startSegment))))
                && !loadsAValue(currentOp()))
                return finish({ StopReason::Step, here, std::nullopt, -1, {} });
            if (m_stopRequested.load(std::memory_order_relaxed))
                return finish({ StopReason::StopRequested, here, std::nullopt, -1, {} });
        }
        if (!microStep()) {
            StopInfo info { StopReason::Error, std::nullopt, std::nullopt, -1, m_error->toString() };
            return finish(info);
        }
        if (m_pendingStop) {
            StopInfo info = std::move(*m_pendingStop);
            m_pendingStop.reset();
            return finish(std::move(info));
        }
    }
}

bool Interpreter::microStep()
{
    if (!currentOp()) {
        // A region block that ends without cf.yield: leave it with empty results.
        const Operation &owner = *m_frames.back().owner;
        try {
            leaveFrame(std::vector<RuntimeValue>(owner.numResults()));
        } catch (const std::exception &e) {
            fail(owner, e.what(), false);
            return false;
        }
        return true;
    }
    const Operation &op = *currentOp();
    const std::string_view name = op.name();
    std::string bound;
    if (!m_recordingError.empty())
        bound = m_recordingError;
    else if (const uint64_t limit = m_options.maxOps ? m_options.maxOps : defaultMaxOps();
             limit > 0 && m_opsExecuted >= limit)
        bound = "stopped before op " + std::to_string(m_opsExecuted + 1) + ": the limit of "
            + std::to_string(limit) + " executed ops (a pd_op.while that never ends?)";
    else if (m_options.canceled && m_options.canceled())
        bound = "canceled after " + std::to_string(m_opsExecuted) + " executed ops";
    if (!bound.empty()) {
        fail(op, bound, false);
        m_error->bounded = true;
        return false;
    }
    ++m_opsExecuted;
    try {
        auto provided = m_provided.find(&op);
        if (provided != m_provided.end()) {
            runProvided(op, provided->second);
            return true;
        }
        if (name == ops::kYield) {
            yieldFrame(op);
            return true;
        }
        if (name == ops::kIf) {
            enterIf(op);
            return true;
        }
        if (name == ops::kWhile) {
            enterWhile(op);
            return true;
        }
    } catch (const std::exception &e) {
        fail(op, e.what(), false);
        return false;
    }
    return executeOp(op);
}

bool Interpreter::provideOutputs(
    const ProgramPosition &position, std::vector<RuntimeValue> values, std::string &error)
{
    const Operation *op = opAt(position);
    if (!op) {
        error = "no op at " + position.toString();
        return false;
    }
    if (op->numRegions() > 0 || ops::isYield(*op)) {
        error = "the outputs of " + std::string(op->name()) + " cannot be provided";
        return false;
    }
    if (values.size() != op->numResults()) {
        error = std::string(op->name()) + " at " + position.toString() + " has "
            + std::to_string(op->numResults()) + " result(s), " + std::to_string(values.size())
            + " value(s) given";
        return false;
    }
    for (size_t i = 0; i < values.size(); ++i) {
        const Type type = op->result(unsigned(i)).type();
        const Tensor *t = values[i].isTensor() ? &values[i].tensor() : nullptr;
        if (!t || !t->defined() || !type || type.kind() != Type::Kind::DenseTensor)
            continue;
        if (t->dtype() != type.dtype() || !staticDimsMatch(type.dims(), t->shape())) {
            error = "value " + std::to_string(i) + " holds " + t->describe() + ", result " + std::to_string(i)
                + " of " + std::string(op->name()) + " at " + position.toString() + " is "
                + std::string(phiName(type.dtype())) + shapeText(type.dims());
            return false;
        }
    }
    m_provided[op] = std::move(values);
    if (currentOp() == op) {
        const AllocationMeter::Use metered(m_meter);
        m_error.reset();
        m_pendingStop.reset();
        const bool ok = microStep();
        finish({ ok ? StopReason::Step : StopReason::Error, std::nullopt, std::nullopt, -1,
            ok ? std::string() : m_error->toString() });
    }
    return true;
}

} // namespace ps
