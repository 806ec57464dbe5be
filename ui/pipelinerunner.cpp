#include "ui/pipelinerunner.h"

#include "core/session/pipelinesource.h"
#include "ui/common/workerpool.h"

#include <QFutureWatcher>
#include <QPointer>
#include <QThreadPool>
#include <QtConcurrent>

namespace ps {

namespace {

/// The pipeline workers: two threads (a stale task may still be finishing while the newest
/// starts) with a roomy stack for deep programs. Lives until the application exits, so a
/// closing window does not wait for a running task.
QThreadPool *pipelinePool()
{
    static QThreadPool *pool = makeWorkerPool(QStringLiteral("pipeline"), 2);
    return pool;
}

} // namespace

PipelineRunner::PipelineRunner(QObject *parent)
    : QObject(parent)
    , m_latest(std::make_shared<std::atomic<quint64>>(0))
{
}

PipelineRunner::~PipelineRunner()
{
    m_latest->store(~quint64(0)); // every task still queued is stale now
}

void PipelineRunner::setSource(std::shared_ptr<const PipelineSource> source, bool training)
{
    m_source = std::move(source);
    m_training = training;
    m_passes.clear();
    m_cache = {};
    m_current.reset();
    request();
}

void PipelineRunner::setTraining(bool training)
{
    if (training == m_training)
        return;
    m_training = training;
    if (const auto &cached = m_cache[training ? 1 : 0]) {
        ++m_generation;
        m_latest->store(m_generation);
        setBusy(false);
        m_current = cached;
        emit snapshotReady(cached);
        return;
    }
    request();
}

void PipelineRunner::setPassEnabled(const std::string &name, bool enabled)
{
    m_passes[name] = enabled;
    m_cache = {};
    request();
}

void PipelineRunner::request()
{
    const quint64 generation = ++m_generation;
    m_latest->store(generation);
    if (!m_source) {
        setBusy(false);
        return;
    }
    setBusy(true);
    auto *watcher = new QFutureWatcher<std::shared_ptr<const PipelineSnapshot>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        deliver(generation, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(pipelinePool(),
        [source = m_source, training = m_training, passes = m_passes, latest = m_latest,
            generation]() -> std::shared_ptr<const PipelineSnapshot> {
            if (latest->load() != generation)
                return nullptr;
            return PipelineSnapshot::compute(*source, training, passes);
        }));
}

void PipelineRunner::deliver(quint64 generation, std::shared_ptr<const PipelineSnapshot> snapshot)
{
    if (generation != m_generation || !snapshot)
        return; // superseded
    m_cache[snapshot->training ? 1 : 0] = snapshot;
    m_current = std::move(snapshot);
    setBusy(false);
    emit snapshotReady(m_current);
}

void PipelineRunner::setBusy(bool busy)
{
    if (busy == m_busy)
        return;
    m_busy = busy;
    emit busyChanged(busy);
}

} // namespace ps
