#include "core/transform/passtimelinerecorder.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/passmanager.h"
#include "core/transform/passrecord.h"

#include <algorithm>

namespace ps {

namespace {

/// The keys of the snapshot's ops by op.
std::unordered_map<const Operation *, uint64_t> keysByOp(
    const std::vector<const Operation *> &ops, const OpKeys &keys)
{
    std::unordered_map<const Operation *, uint64_t> out;
    out.reserve(ops.size());
    for (size_t i = 0; i < ops.size() && i < keys.size(); ++i)
        out.emplace(ops[i], keys[i]);
    return out;
}

} // namespace

PassTimelineRecorder::PassTimelineRecorder(std::string target)
    : m_target(std::move(target))
{
}

OpKeys PassTimelineRecorder::keysOf(const Program &program)
{
    OpKeys keys;
    program.block().walk([&](Operation *op) {
        auto [it, fresh] = m_keyOf.emplace(op, 0);
        if (fresh)
            it->second = m_nextKey++;
        keys.push_back(it->second);
    });
    return keys;
}

void PassTimelineRecorder::begin(const Program &program)
{
    OpKeys keys = keysOf(program);
    m_current = ProgramSnapshot::of(std::shared_ptr<const Program>(program.clone()), std::move(keys));
}

void PassTimelineRecorder::runBeforePipeline(const Program &program, std::string_view target)
{
    m_target = std::string(target);
    begin(program);
}

void PassTimelineRecorder::runAfterPass(const Pass &, const Program &program, const PassRecord &record)
{
    passRan(record, program);
}

Program &PassTimelineRecorder::beginFrom(std::shared_ptr<const ProgramSnapshot> snapshot)
{
    m_steps.clear();
    std::shared_ptr<const LoadedProgram> loaded = snapshot->load();
    m_live = loaded->program->clone();
    // The copy's ops take the snapshot's keys (a clone keeps the walk order).
    const std::vector<const Operation *> ops = m_live->allOps();
    for (size_t i = 0; i < ops.size() && i < loaded->keys.size(); ++i) {
        m_keyOf[ops[i]] = loaded->keys[i];
        m_nextKey = std::max(m_nextKey, loaded->keys[i] + 1);
    }
    m_current = std::move(snapshot);
    return *m_live;
}

bool PassTimelineRecorder::sameOp(const Operation &a, const Operation &b,
    const std::unordered_map<const Operation *, uint64_t> &keyThen) const
{
    auto keyNow = [this](const Operation *op) {
        auto it = m_keyOf.find(op);
        return it == m_keyOf.end() ? uint64_t(0) : it->second;
    };
    auto keyBefore = [&keyThen](const Operation *op) {
        auto it = keyThen.find(op);
        return it == keyThen.end() ? uint64_t(0) : it->second;
    };
    auto sameValue = [&](Value x, Value y) {
        if (x.isNull() || y.isNull())
            return x.isNull() == y.isNull();
        if (!(x.type() == y.type()) || x.isOpResult() != y.isOpResult())
            return false;
        if (x.isOpResult())
            return x.index() == y.index() && keyNow(x.definingOp()) == keyBefore(y.definingOp());
        return x.isKeywordArgument() ? x.keyword() == y.keyword() : x.index() == y.index();
    };
    if (a.name() != b.name() || a.numOperands() != b.numOperands() || a.numResults() != b.numResults()
        || a.numRegions() != b.numRegions())
        return false;
    // A clone shares its original's attribute list until one of them changes it.
    if (a.attributes().data() != b.attributes().data()
        && !std::equal(
            a.attributes().begin(), a.attributes().end(), b.attributes().begin(), b.attributes().end()))
        return false;
    for (unsigned k = 0; k < a.numOperands(); ++k)
        if (!sameValue(a.operand(k), b.operand(k)))
            return false;
    for (unsigned k = 0; k < a.numResults(); ++k)
        if (!(a.result(k).type() == b.result(k).type()))
            return false;
    return true;
}

bool PassTimelineRecorder::unchangedSince(const Program &program) const
{
    const std::shared_ptr<const LoadedProgram> snapshot = m_current->load();
    const std::vector<const Operation *> now = program.allOps();
    const std::vector<const Operation *> then = snapshot->program->allOps();
    if (now.size() != then.size() || snapshot->keys.size() != then.size())
        return false;
    const std::unordered_map<const Operation *, uint64_t> keyThen = keysByOp(then, snapshot->keys);
    for (size_t i = 0; i < now.size(); ++i) {
        auto key = m_keyOf.find(now[i]);
        if (key == m_keyOf.end() || key->second != snapshot->keys[i] || !sameOp(*now[i], *then[i], keyThen))
            return false;
    }
    return program.block().numKwargs() == snapshot->program->block().numKwargs()
        && program.block().numArguments() == snapshot->program->block().numArguments();
}

std::vector<PassOpRef> PassTimelineRecorder::modifiedSince(const Program &program) const
{
    const std::shared_ptr<const LoadedProgram> snapshot = m_current->load();
    const std::vector<const Operation *> then = snapshot->program->allOps();
    const std::unordered_map<const Operation *, uint64_t> keyThen = keysByOp(then, snapshot->keys);
    std::unordered_map<uint64_t, const Operation *> opThen;
    opThen.reserve(keyThen.size());
    for (const auto &[op, key] : keyThen)
        opThen.emplace(key, op);
    std::vector<PassOpRef> out;
    const std::vector<const Operation *> now = program.allOps();
    for (size_t i = 0; i < now.size(); ++i) {
        auto key = m_keyOf.find(now[i]);
        if (key == m_keyOf.end())
            continue;
        auto before = opThen.find(key->second);
        if (before != opThen.end() && !sameOp(*now[i], *before->second, keyThen))
            out.push_back({ i, now[i]->name() });
    }
    return out;
}

PassTimelineStep PassTimelineRecorder::stepOf(const PassRecord &record)
{
    PassTimelineStep step;
    step.kind = PassTimelineStep::Kind::Pass;
    step.implemented = record.implemented;
    step.pass = record.pass;
    step.target = record.target;
    step.seconds = record.implemented ? record.seconds : -1;
    step.rewrites = record.implemented ? long(record.rewrites) : -1;
    step.removedOps = record.removedOps;
    step.addedOps = record.addedOps;
    step.notes = record.notes;
    return step;
}

void PassTimelineRecorder::passRan(
    const PassRecord &record, const Program &program, std::optional<NumericCheck> numerics)
{
    PassTimelineStep step = stepOf(record);
    step.target = m_target;
    step.before = m_current;
    step.numerics = std::move(numerics);
    if (!unchangedSince(program)) {
        // Modified ops are looked for only where the pass says it changed something, and
        // before the keys of the ops it added are handed out.
        if (step.changed())
            step.modifiedOps = modifiedSince(program);
        OpKeys keys = keysOf(program);
        m_current = ProgramSnapshot::of(std::shared_ptr<const Program>(program.clone()), std::move(keys));
    }
    step.after = m_current;
    m_steps.push_back(std::move(step));
}

void PassTimelineRecorder::passSkipped(std::string_view pass)
{
    PassTimelineStep step;
    step.kind = PassTimelineStep::Kind::Pass;
    step.pass = std::string(pass);
    step.target = m_target;
    step.enabled = false;
    step.before = step.after = m_current;
    m_steps.push_back(std::move(step));
}

void PassTimelineRecorder::runFrom(
    PassManager &pm, Program &program, size_t firstPass, const PassTimelineOptions &options)
{
    const size_t count = pm.passes().size();
    bool checking = false;
    for (size_t i = firstPass; i < count; ++i) {
        Pass *pass = pm.passAt(i);
        if (!pm.isEnabledAt(i)) {
            passSkipped(pass->name());
            continue;
        }
        if (options.check && !checking) {
            options.check->begin(program);
            checking = true;
        }
        const PassRecord record = pm.runAt(i, program, m_target);
        std::optional<NumericCheck> numerics;
        if (options.check)
            numerics = options.check->afterPass(*pass, program, record);
        passRan(record, program, std::move(numerics));
    }
}

std::shared_ptr<PassTimeline> PassTimelineRecorder::run(
    PassManager &pm, const Program &input, const PassTimelineOptions &options)
{
    PassTimelineRecorder recorder(options.target);
    recorder.m_live = input.clone();
    recorder.begin(*recorder.m_live);
    recorder.runFrom(pm, *recorder.m_live, 0, options);
    return std::make_shared<PassTimeline>(recorder.takeSteps(), "pass manager");
}

std::shared_ptr<PassTimeline> PassTimelineRecorder::rerun(
    PassManager &pm, const PassTimeline &previous, size_t fromStep, const PassTimelineOptions &options)
{
    if (fromStep == 0 || previous.size() == 0 || !previous.step(0).before)
        return run(pm, *previous.input()->load()->program, options);
    fromStep = std::min(fromStep, previous.size());
    PassTimelineRecorder recorder(options.target);
    Program &live = recorder.beginFrom(previous.step(fromStep - 1).after);
    recorder.runFrom(pm, live, fromStep, options);
    std::vector<PassTimelineStep> steps(previous.steps().begin(), previous.steps().begin() + long(fromStep));
    for (PassTimelineStep &s : recorder.takeSteps())
        steps.push_back(std::move(s));
    return std::make_shared<PassTimeline>(std::move(steps), previous.source());
}

} // namespace ps
