#include "ui/passtimelinerunner.h"

#include "core/ir/program.h"
#include "core/transform/passtimelinerecorder.h"
#include "ui/programdocument.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QThreadPool>
#include <QtConcurrent>

namespace ps {

namespace {

/// One worker (the recorder copies programs; two runs at once would only compete) with a
/// roomy stack, living until the application exits.
QThreadPool *timelinePool()
{
    static QThreadPool *pool = [] {
        auto *p = new QThreadPool(QCoreApplication::instance());
        p->setObjectName(QStringLiteral("passTimeline"));
        p->setMaxThreadCount(1);
        p->setStackSize(64u << 20);
        return p;
    }();
    return pool;
}

} // namespace

struct PassTimelineRunner::Result
{
    std::shared_ptr<const PassTimeline> timeline;
    std::shared_ptr<const ProgramDocument> document;
    PassSwitches switches;
    size_t from = 0;
};

PassTimelineRunner::PassTimelineRunner(QObject *parent)
    : QObject(parent)
    , m_factory([] { return PassManager::withDefaultPasses(); })
    , m_latest(std::make_shared<std::atomic<quint64>>(0))
{
}

PassTimelineRunner::~PassTimelineRunner()
{
    m_latest->store(~quint64(0));
}

PassManager PassTimelineRunner::makePipeline(const PassSwitches &switches) const
{
    PassManager pm = m_factory();
    for (const auto &[name, on] : switches)
        pm.setEnabled(name, on);
    return pm;
}

void PassTimelineRunner::setInput(std::shared_ptr<const Program> program, const QString &path)
{
    m_input = std::move(program);
    m_path = path;
    m_switches.clear();
    m_switchedByUser = false;
    m_current.reset();
    m_result.reset();
    request(0);
}

void PassTimelineRunner::setPassEnabled(const std::string &name, bool enabled)
{
    const PassManager pm = makePipeline(m_switches);
    const Pass *pass = pm.pass(name);
    if (!pass)
        return;
    m_switches[std::string(pass->name())] = enabled;
    m_switchedByUser = true;
    // Re-run from the first pass whose switch differs from what the shown timeline used.
    size_t from = 0;
    if (m_current) {
        const PassManager now = makePipeline(m_switches);
        const PassManager then = makePipeline(m_currentSwitches);
        const std::vector<const Pass *> passes = now.passes();
        from = passes.size();
        for (size_t i = 0; i < passes.size(); ++i) {
            if (now.isEnabled(passes[i]->name()) != then.isEnabled(passes[i]->name())) {
                from = i;
                break;
            }
        }
        if (from == passes.size())
            return; // nothing differs from what is shown
    }
    request(from);
}

void PassTimelineRunner::request(size_t fromStep)
{
    const quint64 generation = ++m_generation;
    m_latest->store(generation);
    if (!m_input) {
        setBusy(false);
        return;
    }
    setBusy(true);
    auto *watcher = new QFutureWatcher<std::shared_ptr<Result>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        std::shared_ptr<Result> r = watcher->result();
        if (generation != m_generation || !r)
            return; // superseded
        m_current = r->timeline;
        m_currentSwitches = r->switches;
        m_result = r->document;
        m_lastRunFrom = r->from;
        setBusy(false);
        emit timelineReady(m_current, m_result);
    });
    const std::shared_ptr<const PassTimeline> previous = fromStep > 0 ? m_current : nullptr;
    auto pm = std::make_shared<PassManager>(makePipeline(m_switches));
    watcher->setFuture(QtConcurrent::run(timelinePool(),
        [pm, input = m_input, path = m_path, switches = m_switches, previous, fromStep, latest = m_latest,
            generation]() -> std::shared_ptr<Result> {
            if (latest->load() != generation)
                return nullptr;
            auto r = std::make_shared<Result>();
            r->switches = switches;
            r->from = previous ? fromStep : 0;
            r->timeline = previous ? PassTimelineRecorder::rerun(*pm, *previous, fromStep)
                                   : PassTimelineRecorder::run(*pm, *input);
            const auto result = r->timeline->result();
            if (result && result != r->timeline->input() && latest->load() == generation)
                r->document = std::make_shared<ProgramDocument>(
                    result->load()->program, path, LoadResult::Format::Unknown, 0.0);
            return r;
        }));
}

void PassTimelineRunner::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

} // namespace ps
