#include "core/transform/passtimelinerecorder.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/passmanager.h"
#include "core/transform/passrecord.h"

#include <algorithm>
#include <chrono>

namespace ps {

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
    m_steps.clear();
    OpKeys keys = keysOf(program);
    m_current = ProgramSnapshot::of(std::shared_ptr<const Program>(program.clone()), std::move(keys));
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

bool PassTimelineRecorder::unchangedSince(const Program &program) const
{
    const std::shared_ptr<const LoadedProgram> snapshot = m_current->load();
    const std::vector<const Operation *> now = program.allOps();
    const std::vector<const Operation *> then = snapshot->program->allOps();
    if (now.size() != then.size() || snapshot->keys.size() != then.size())
        return false;
    std::unordered_map<const Operation *, uint64_t> keyThen;
    keyThen.reserve(then.size());
    for (size_t i = 0; i < then.size(); ++i)
        keyThen.emplace(then[i], snapshot->keys[i]);
    auto keyNow = [this](const Operation *op) {
        auto it = m_keyOf.find(op);
        return it == m_keyOf.end() ? uint64_t(0) : it->second;
    };
    auto sameValue = [&](Value a, Value b) {
        if (a.isNull() || b.isNull())
            return a.isNull() == b.isNull();
        if (!(a.type() == b.type()) || a.isOpResult() != b.isOpResult())
            return false;
        if (a.isOpResult())
            return a.index() == b.index() && keyNow(a.definingOp()) == keyThen[b.definingOp()];
        return a.isKeywordArgument() ? a.keyword() == b.keyword() : a.index() == b.index();
    };
    for (size_t i = 0; i < now.size(); ++i) {
        const Operation &a = *now[i];
        const Operation &b = *then[i];
        if (keyNow(&a) != snapshot->keys[i] || a.name() != b.name() || a.numOperands() != b.numOperands()
            || a.numResults() != b.numResults() || a.numRegions() != b.numRegions())
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
    }
    return program.block().numKwargs() == snapshot->program->block().numKwargs()
        && program.block().numArguments() == snapshot->program->block().numArguments();
}

void PassTimelineRecorder::passRan(std::string_view pass, const Program &program, double seconds,
    long rewrites, std::optional<NumericCheck> numerics, bool implemented)
{
    PassTimelineStep step;
    step.kind = PassTimelineStep::Kind::Pass;
    step.implemented = implemented;
    step.pass = std::string(pass);
    step.target = m_target;
    step.before = m_current;
    step.seconds = seconds;
    step.rewrites = rewrites;
    step.numerics = std::move(numerics);
    if (!unchangedSince(program)) {
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
        const bool implemented = pass->implemented();
        const auto start = std::chrono::steady_clock::now();
        const size_t rewrites = implemented ? pass->run(program) : 0;
        const double seconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::optional<NumericCheck> numerics;
        if (options.check) {
            PassRecord record;
            record.pass = std::string(pass->name());
            record.target = m_target;
            record.implemented = implemented;
            record.rewrites = rewrites;
            record.seconds = seconds;
            numerics = options.check->afterPass(*pass, program, record);
        }
        passRan(pass->name(), program, implemented ? seconds : -1, implemented ? long(rewrites) : -1,
            std::move(numerics), implemented);
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
