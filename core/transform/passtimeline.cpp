#include "core/transform/passtimeline.h"

#include "core/analysis/programdiff.h"
#include "core/io/paddlepasslog.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"

namespace ps {

namespace {

constexpr size_t kCachedDiffs = 6;

PassTimelineStep::Kind kindOf(LoggedStep::Kind k)
{
    switch (k) {
    case LoggedStep::Kind::Pass:
        return PassTimelineStep::Kind::Pass;
    case LoggedStep::Kind::Lowering:
        return PassTimelineStep::Kind::Lowering;
    case LoggedStep::Kind::Split:
        return PassTimelineStep::Kind::Split;
    case LoggedStep::Kind::Printed:
        return PassTimelineStep::Kind::Printed;
    case LoggedStep::Kind::Unlogged:
        return PassTimelineStep::Kind::Unlogged;
    }
    return PassTimelineStep::Kind::Pass;
}

/// The first line of each referenced op's text in `snapshot`'s program.
std::vector<std::string> opLines(const ProgramSnapshot *snapshot, const std::vector<PassOpRef> &refs)
{
    std::vector<std::string> lines;
    if (!snapshot || refs.empty())
        return lines;
    const std::shared_ptr<const LoadedProgram> loaded = snapshot->load();
    if (!loaded->program)
        return lines;
    const Program &program = *loaded->program;
    const std::vector<const Operation *> ops = program.allOps();
    const ValueNumbering numbering(program);
    for (const PassOpRef &ref : refs) {
        if (ref.index >= ops.size())
            continue;
        std::string text = PirPrinter::opText(*ops[ref.index], numbering);
        const size_t newline = text.find('\n');
        if (newline != std::string::npos)
            text.resize(newline);
        lines.push_back(std::move(text));
    }
    return lines;
}

} // namespace

std::vector<std::string> PassTimelineStep::removedOpTexts() const
{
    return opLines(before.get(), removedOps);
}

std::vector<std::string> PassTimelineStep::addedOpTexts() const
{
    return opLines(after.get(), addedOps);
}

std::vector<std::string> PassTimelineStep::modifiedOpTexts() const
{
    return opLines(after.get(), modifiedOps);
}

PassTimeline::PassTimeline(std::vector<PassTimelineStep> steps, std::string source)
    : m_steps(std::move(steps))
    , m_source(std::move(source))
    , m_counts(m_steps.size())
{
    for (size_t i = 0; i < m_steps.size(); ++i)
        if (m_steps[i].before && m_steps[i].before == m_steps[i].after)
            m_counts[i] = Counts { m_steps[i].after->opCount(), 0, 0, 0 };
}

std::shared_ptr<PassTimeline> PassTimeline::fromLog(std::shared_ptr<const PassLogIndex> index)
{
    std::vector<std::shared_ptr<const ProgramSnapshot>> programs;
    programs.reserve(index->programs.size());
    for (size_t i = 0; i < index->programs.size(); ++i) {
        programs.push_back(ProgramSnapshot::lazy(
            [index, i] {
                PirTextReader::OpIdMap ids;
                LoadResult r = PaddlePassLog::readProgram(*index, i, &ids);
                LoadedProgram loaded;
                loaded.diagnostics = std::move(r.diagnostics);
                if (r.program) {
                    if (!ids.empty()) {
                        r.program->block().walk([&](Operation *op) {
                            auto it = ids.find(op);
                            loaded.keys.push_back(it == ids.end() ? 0 : uint64_t(it->second));
                        });
                    }
                    loaded.program = std::move(r.program);
                }
                return loaded;
            },
            index->programs[i].opLines));
    }
    std::vector<PassTimelineStep> steps;
    steps.reserve(index->steps.size());
    for (const LoggedStep &s : index->steps) {
        PassTimelineStep step;
        step.kind = kindOf(s.kind);
        step.pass = s.pass;
        step.target = s.target;
        step.depth = s.depth;
        step.line = s.line;
        step.statistics = s.statistics;
        step.seconds = s.seconds;
        if (s.before >= 0)
            step.before = programs[size_t(s.before)];
        if (s.after >= 0)
            step.after = programs[size_t(s.after)];
        steps.push_back(std::move(step));
    }
    auto timeline = std::make_shared<PassTimeline>(std::move(steps), index->path);
    timeline->diagnostics.append(index->diagnostics);
    timeline->m_log = std::move(index);
    return timeline;
}

std::shared_ptr<const StepDiff> PassTimeline::diff(size_t i) const
{
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_recent.begin(); it != m_recent.end(); ++it) {
            if (it->first == i) {
                m_recent.splice(m_recent.begin(), m_recent, it);
                return it->second;
            }
        }
    }
    auto d = std::make_shared<StepDiff>();
    const PassTimelineStep &s = m_steps[i];
    if (s.after)
        d->after = s.after->load();
    if (s.before)
        d->before = s.before->load();
    for (const auto *p : { &d->before, &d->after })
        if (*p)
            d->diagnostics.append((*p)->diagnostics);
    if (!s.before) {
        d->error = "the log does not show the program before this step";
    } else if (!s.after) {
        d->error = "the log does not show the program after this step";
    } else if (!d->before->program || !d->after->program) {
        d->error = "a program of this step could not be read";
    } else {
        const OpKeys *kb = d->before->keys.empty() ? nullptr : &d->before->keys;
        const OpKeys *ka = d->after->keys.empty() ? nullptr : &d->after->keys;
        d->ops = ProgramDiff::ops(*d->before->program, *d->after->program, kb, ka);
    }
    std::lock_guard lock(m_mutex);
    if (d->error.empty())
        m_counts[i] = Counts { d->ops.kept, d->ops.changed, d->ops.removed, d->ops.added };
    m_recent.emplace_front(i, d);
    if (m_recent.size() > kCachedDiffs)
        m_recent.pop_back();
    return d;
}

std::optional<PassTimeline::Counts> PassTimeline::counts(size_t i) const
{
    std::lock_guard lock(m_mutex);
    return m_counts[i];
}

std::shared_ptr<const ProgramSnapshot> PassTimeline::result() const
{
    for (auto it = m_steps.rbegin(); it != m_steps.rend(); ++it)
        if (it->depth == 0 && it->after)
            return it->after;
    return input();
}

std::shared_ptr<const ProgramSnapshot> PassTimeline::input() const
{
    for (const PassTimelineStep &s : m_steps)
        if (s.depth == 0)
            return s.before ? s.before : s.after;
    return nullptr;
}

} // namespace ps
