#include "ui/passtimelinerunner.h"

#include "core/ir/block.h"
#include "core/ir/program.h"
#include "core/runtime/parameterstore.h"
#include "core/session/passsession.h"
#include "core/transform/passpipeline.h"
#include "core/transform/passtimelinerecorder.h"
#include "ui/common/workerpool.h"
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
    static QThreadPool *pool = makeWorkerPool(QStringLiteral("passTimeline"), 1);
    return pool;
}

} // namespace

struct PassTimelineRunner::Result
{
    std::shared_ptr<const PassTimeline> timeline;
    std::shared_ptr<const ProgramDocument> document;
    Switches switches;
    size_t from = 0;
    std::shared_ptr<ParameterStore> store;
};

PassTimelineRunner::PassTimelineRunner(QObject *parent)
    : QObject(parent)
    , m_factory([](const PassOptions &) { return PassManager::withDefaultPasses(); })
    , m_latest(std::make_shared<std::atomic<quint64>>(0))
{
}

PassTimelineRunner::~PassTimelineRunner()
{
    m_latest->store(~quint64(0));
}

void PassTimelineRunner::Switches::applyTo(PassManager &pm) const
{
    for (const auto &[name, on] : byName)
        pm.setEnabled(name, on);
    const size_t count = pm.passes().size();
    for (const auto &[index, on] : byIndex)
        if (index < count)
            pm.setEnabledAt(index, on);
}

PassManager PassTimelineRunner::makePipeline(const Switches &switches, const PassOptions &options) const
{
    PassManager pm = m_factory(options);
    switches.applyTo(pm);
    return pm;
}

void PassTimelineRunner::setInput(std::shared_ptr<const Program> program, const QString &path)
{
    m_input = std::move(program);
    m_path = path;
    m_switches = {};
    m_switchedByUser = false;
    m_current.reset();
    m_result.reset();
    m_store.reset();
    if (!m_numericsChosen)
        m_checkNumerics = m_input && m_input->numOpsTotal() <= kNumericsOpLimit;
    request(0);
}

bool PassTimelineRunner::setPipelineName(const std::string &name)
{
    if (name.empty()) {
        m_factory = [](const PassOptions &) { return PassManager::withDefaultPasses(); };
    } else {
        if (!PassPipeline::passNames(name))
            return false;
        m_factory = [name](const PassOptions &options) {
            std::string error;
            std::optional<PassManager> pm = PassPipeline::build(name, options, error);
            return pm ? std::move(*pm) : PassManager();
        };
    }
    m_pipelineName = name;
    m_switches.byIndex.clear(); // positions in another pipeline
    m_current.reset();
    m_result.reset();
    m_store.reset();
    request(0);
    return true;
}

void PassTimelineRunner::setCheckNumerics(bool on)
{
    m_numericsChosen = true;
    if (on == m_checkNumerics)
        return;
    m_checkNumerics = on;
    m_current.reset();
    request(0);
}

void PassTimelineRunner::setPassEnabled(const std::string &name, bool enabled)
{
    const PassManager pm = makePipeline(m_switches);
    const Pass *pass = pm.pass(name);
    if (!pass)
        return;
    m_switches.byName[std::string(pass->name())] = enabled;
    const std::vector<const Pass *> passes = pm.passes();
    for (auto it = m_switches.byIndex.begin(); it != m_switches.byIndex.end();) {
        const bool sameName = it->first < passes.size() && passes[it->first]->name() == pass->name();
        it = sameName ? m_switches.byIndex.erase(it) : std::next(it);
    }
    rerunChanged();
}

void PassTimelineRunner::setPassEnabledAt(size_t index, bool enabled)
{
    if (index >= makePipeline(m_switches).passes().size())
        return;
    m_switches.byIndex[index] = enabled;
    rerunChanged();
}

void PassTimelineRunner::rerunChanged()
{
    m_switchedByUser = true;
    // Re-run from the first pass whose switch differs from what the shown timeline used.
    size_t from = 0;
    if (m_current) {
        const PassManager now = makePipeline(m_switches);
        const PassManager then = makePipeline(m_currentSwitches);
        const std::vector<const Pass *> passes = now.passes();
        from = passes.size();
        for (size_t i = 0; i < passes.size(); ++i) {
            if (now.isEnabledAt(i) != then.isEnabledAt(i)) {
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
        m_store = r->store;
        setBusy(false);
        emit timelineReady(m_current, m_result);
    });
    const std::shared_ptr<const PassTimeline> previous = fromStep > 0 ? m_current : nullptr;
    if (!previous)
        m_store.reset();
    auto factory = m_factory;
    watcher->setFuture(QtConcurrent::run(timelinePool(),
        [factory, input = m_input, path = m_path, switches = m_switches, previous, fromStep,
            latest = m_latest, generation, numerics = m_checkNumerics,
            store = m_store]() mutable -> std::shared_ptr<Result> {
            if (latest->load() != generation)
                return nullptr;
            auto r = std::make_shared<Result>();
            r->switches = switches;
            r->from = previous ? fromStep : 0;
            // Parameters for constant folding's values and the numeric check.
            PassSession session;
            std::string error;
            if (store)
                session.shareParameters(std::move(store));
            else
                session.loadParameters(*input, TensorSource::random(0), error);
            PassTimelineOptions options;
            if (numerics && session.hasParameters()) {
                // A superseded run or a closed window stops the check at its next op, so an
                // endless pd_op.while neither holds the one worker nor the application's exit.
                PassNumericsCheck::Options check;
                check.canceled = [latest, generation] { return latest->load() != generation; };
                check.maxOps = kNumericsMaxOps;
                options.check = session.timelineCheck(check);
            }
            r->store = session.parameters();
            PassManager pm = factory(session.passOptions());
            switches.applyTo(pm);
            r->timeline = previous ? PassTimelineRecorder::rerun(pm, *previous, fromStep, options)
                                   : PassTimelineRecorder::run(pm, *input, options);
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
