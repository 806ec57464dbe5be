// DebugSession: the worker thread, commands, their results, and reading values.

#include "ui/debugger/debugsession.h"

#include "core/io/memorybudget.h"
#include "ui/debugger/qtimagedecoder.h"

#include <QTemporaryDir>
#include <algorithm>
#include <limits>

namespace ps {

DebugSession::DebugSession(QObject *parent)
    : QObject(parent)
    , m_context(new QObject)
{
    m_engine = std::make_unique<DebugEngine>(
        [this](uint64_t epoch, const OpRecord &record) {
            std::lock_guard lock(m_recordsMutex);
            // The Executed ops list holds a copy of every record: it counts against the budget,
            // and once refused the list stops growing and the run is paused (flushRecords).
            const uint64_t bytes = record.bytes();
            std::string why;
            if (m_recordsRefused.empty() && MemoryBudget::reserve(bytes, why)) {
                m_recordBytes += bytes;
                m_incoming.emplace_back(epoch, record);
            } else if (m_recordsRefused.empty()) {
                m_recordsRefused = "keeping the executed ops " + why + " (the host-memory budget)";
            }
            if (!m_flushQueued) {
                m_flushQueued = true;
                QMetaObject::invokeMethod(this, &DebugSession::flushRecords, Qt::QueuedConnection);
            }
        },
        &QtImageDecoder::decode);
    m_thread.setObjectName(QStringLiteral("pirscope-debugger"));
    m_context->moveToThread(&m_thread);
    m_thread.start();
    m_devices.push_back({ Device::cpu(), tr("CPU").toStdString(), true, {} });
    post([this] {
        const std::vector<DeviceOption> devices = m_engine->probeDevices();
        QMetaObject::invokeMethod(
            this,
            [this, devices] {
                const Device chosen = m_devices[size_t(m_device)].device;
                m_devices = devices;
                m_device = 0;
                for (size_t i = 0; i < m_devices.size(); ++i)
                    if (m_devices[i].available && m_devices[i].device == chosen)
                        m_device = int(i);
                emit devicesChanged();
            },
            Qt::QueuedConnection);
    });
}

DebugSession::~DebugSession()
{
    m_engine->requestStop(std::numeric_limits<uint64_t>::max());
    m_thread.quit();
    m_thread.wait();
    delete m_context;
    m_engine.reset();
    MemoryBudget::release(m_recordBytes);
}

void DebugSession::clearRecords()
{
    std::lock_guard lock(m_recordsMutex);
    uint64_t bytes = 0;
    for (const OpRecord &r : m_records)
        bytes += r.bytes();
    bytes = std::min(bytes, m_recordBytes);
    MemoryBudget::release(bytes);
    m_recordBytes -= bytes;
    m_records.clear();
    m_recordsRefused.clear();
    m_refusalReported = false;
}

void DebugSession::post(std::function<void()> fn)
{
    QMetaObject::invokeMethod(m_context, std::move(fn), Qt::QueuedConnection);
}

/// Runs `fn` on the worker and waits: only while no command is queued, so it returns at once.
template<class F> auto DebugSession::onWorker(F &&fn) const
{
    std::invoke_result_t<F> result {};
    if (m_pending > 0 || !m_built)
        return result;
    QMetaObject::invokeMethod(
        m_context, [&result, &fn] { result = fn(); }, Qt::BlockingQueuedConnection);
    return result;
}

// --- Commands -------------------------------------------------------------------------------------

void DebugSession::queue(std::function<QString(DebugEngine &, bool &)> work)
{
    ++m_pending;
    setState(State::Running);
    std::vector<std::string> watches;
    for (const QString &name : m_watchNames)
        watches.push_back(name.toStdString());
    post([this, work = std::move(work), watches] {
        bool ran = false;
        const QString error = work(*m_engine, ran);
        const DebugEngine::Snapshot snapshot = m_engine->snapshot();
        const std::vector<DebugEngine::WatchValue> values = m_engine->watch(watches);
        QMetaObject::invokeMethod(
            this, [this, snapshot, values, error, ran] { finishCommand(snapshot, values, error, ran); },
            Qt::QueuedConnection);
    });
}

void DebugSession::command(DebugEngine::Command command, std::optional<ProgramPosition> cursor)
{
    // While a command runs, further commands are dropped (key repeat must not queue steps); a
    // session that is ending (m_built false) may already be followed by a new one.
    if (!m_target.valid() || (m_pending > 0 && m_built))
        return;
    const bool starting = !m_built;
    if (starting && !refuseWithoutShapes())
        return;
    // After the end, a command starts over from the first op with the same inputs (as F5 does in
    // an IDE once the program has exited).
    const bool restarting = !starting && m_state == State::Finished;
    m_built = true;
    const uint64_t sequence = ++m_sequence;
    const uint64_t epoch = starting || restarting ? ++m_lastEpoch : 0;
    const DebugTarget target = m_target;
    const Device device = m_devices[size_t(m_device)].device;
    const DebugSources sources = m_sources;
    const bool compare = m_compareWithCpu;
    Interpreter::Options options;
    options.eagerDeletion = m_freeAsPaddle;
    // Starting with a step stops at the first op, like a debugger's "stop on entry".
    const bool run = !(starting || restarting) || command == DebugEngine::Command::Continue
        || command == DebugEngine::Command::RunToCursor;
    queue([=](DebugEngine &engine, bool &ran) {
        if (starting) {
            const std::string error = engine.build(target, device, sources, compare, epoch, options);
            if (!error.empty())
                return QString::fromStdString(error);
        } else if (restarting) {
            engine.restart(epoch);
        }
        if (run)
            ran = engine.run(command, cursor, sequence);
        return QString();
    });
}

bool DebugSession::refuseWithoutShapes()
{
    QStringList errors;
    const std::vector<InputShape> shapes = inputShapes(&errors);
    QStringList needed;
    std::vector<InputShape> missing;
    for (const InputShape &s : shapes)
        if (!s.resolved()) {
            needed << QString::fromStdString(s.name);
            missing.push_back(s);
        }
    if (errors.isEmpty() && needed.isEmpty())
        return true;
    m_startError = !errors.isEmpty()
        ? tr("shape %1").arg(errors.first())
        : tr("inputs with dynamic dims need a shape: %1 (%2); choose it in Inputs and Parameters")
              .arg(QString::fromStdString(InputShapes::unresolvedText(missing)),
                  QString::fromStdString(missing.front().note));
    emit error(m_startError);
    emit shapesNeeded(needed);
    return false;
}

void DebugSession::start()
{
    if (!m_built)
        command(DebugEngine::Command::StepOver, std::nullopt);
}

void DebugSession::continueRun()
{
    command(DebugEngine::Command::Continue, std::nullopt);
}

void DebugSession::stepOver()
{
    command(DebugEngine::Command::StepOver, std::nullopt);
}

void DebugSession::stepInto()
{
    command(DebugEngine::Command::StepInto, std::nullopt);
}

void DebugSession::stepOut()
{
    if (m_built)
        command(DebugEngine::Command::StepOut, std::nullopt);
}

void DebugSession::runToCursor(const ProgramPosition &position)
{
    command(DebugEngine::Command::RunToCursor, position);
}

void DebugSession::pause()
{
    if (m_pending > 0)
        m_engine->requestStop(m_sequence);
}

void DebugSession::stop()
{
    if (!m_built)
        return;
    m_engine->requestStop(m_sequence);
    m_built = false;
    ++m_sequence;
    queue([](DebugEngine &engine, bool &) {
        engine.teardown();
        return QString();
    });
}

void DebugSession::restart()
{
    if (!m_built)
        return;
    if (m_pending > 0)
        m_engine->requestStop(m_sequence);
    ++m_sequence;
    queue([epoch = ++m_lastEpoch](DebugEngine &engine, bool &) {
        engine.restart(epoch);
        return QString();
    });
}

bool DebugSession::provideOutputs(const QStringList &files, QString *error)
{
    if (m_pending > 0 || !m_built || !m_snapshot.position) {
        if (error)
            *error = tr("the debugger is not paused at an op");
        return false;
    }
    std::vector<std::string> paths;
    for (const QString &f : files)
        paths.push_back(f.toStdString());
    queue([paths](DebugEngine &engine, bool &ran) {
        ran = true;
        std::string why;
        return engine.provideOutputs(paths, why) ? QString() : QString::fromStdString(why);
    });
    return true;
}

void DebugSession::finishCommand(const DebugEngine::Snapshot &snapshot,
    std::vector<DebugEngine::WatchValue> watches, const QString &message, bool ran)
{
    flushRecords();
    --m_pending;
    if (snapshot.active && snapshot.epoch <= m_staleEpoch)
        return; // a command of a session whose target was replaced (its teardown follows)
    m_snapshot = snapshot;
    m_watchValues = std::move(watches);
    if (!snapshot.active && !message.isEmpty())
        m_startError = message; // the build failed: no session
    else if (snapshot.active)
        m_startError.clear();
    // Records of a later command (already flushed) are newer than this snapshot: keep them.
    if (snapshot.epoch > m_epoch || (!snapshot.active && snapshot.epoch >= m_epoch && !m_records.empty())) {
        m_epoch = std::max(m_epoch, snapshot.epoch);
        clearRecords();
        emit recordsReset();
    }
    if (!snapshot.active && m_pending == 0)
        m_built = false;
    if (ran && snapshot.breakpointId >= 0) {
        for (DebugBreakpoint &b : m_breakpoints)
            if (b.id == snapshot.breakpointId)
                ++b.hits;
        emit breakpointsChanged();
    }
    if (!message.isEmpty())
        emit error(message);
    if (m_pending > 0)
        return;
    State state = State::NotStarted;
    if (snapshot.active) {
        state = snapshot.state == Interpreter::State::Finished ? State::Finished
            : snapshot.state == Interpreter::State::Error      ? State::Error
                                                               : State::Paused;
    }
    setState(state);
    emit valuesChanged();
    emit watchesUpdated();
    if (state == State::Error && ran && snapshot.error)
        emit error(QString::fromStdString(snapshot.error->toString()));
    if (snapshot.active)
        emit stoppedAt(snapshot.position.value_or(ProgramPosition {}), stopText());
}

void DebugSession::flushRecords()
{
    std::vector<std::pair<uint64_t, OpRecord>> incoming;
    std::string refused;
    {
        std::lock_guard lock(m_recordsMutex);
        incoming.swap(m_incoming);
        m_flushQueued = false;
        if (!m_refusalReported)
            refused = m_recordsRefused;
        m_refusalReported = m_refusalReported || !refused.empty();
    }
    size_t first = m_records.size();
    uint64_t dropped = 0;
    for (auto &[epoch, record] : incoming) {
        if (epoch < m_epoch || epoch <= m_staleEpoch) {
            dropped += record.bytes();
            continue;
        }
        if (epoch > m_epoch) {
            m_epoch = epoch;
            clearRecords();
            emit recordsReset();
            first = 0;
        }
        m_records.push_back(std::move(record));
    }
    if (dropped > 0) {
        std::lock_guard lock(m_recordsMutex);
        dropped = std::min(dropped, m_recordBytes);
        MemoryBudget::release(dropped);
        m_recordBytes -= dropped;
    }
    if (!refused.empty()) {
        m_engine->requestStop(m_sequence);
        emit error(QString::fromStdString(refused) + tr(": the run was paused"));
    }
    if (m_records.size() <= first)
        return;
    emit recordsAppended(int(first), int(m_records.size() - first));
    for (size_t i = first; i < m_records.size(); ++i)
        emit opExecuted(m_records[i].position, m_records[i].hostSeconds, m_records[i].deviceSeconds);
}

void DebugSession::setState(State state)
{
    if (state == m_state)
        return;
    m_state = state;
    emit stateChanged(state);
}

// --- State and values -----------------------------------------------------------------------------

QString DebugSession::stopText() const
{
    if (!m_snapshot.active)
        return {};
    const StopInfo &stop = m_snapshot.stop;
    QString text = QString::fromLatin1(stopReasonText(stop.reason));
    if (!stop.message.empty())
        text += QStringLiteral(": ") + QString::fromStdString(stop.message);
    if (!m_snapshot.cause.empty())
        text += QStringLiteral("; ") + QString::fromStdString(m_snapshot.cause);
    return text;
}

Tensor DebugSession::hostValue(Value value) const
{
    return onWorker([this, value] { return m_engine->hostValue(value); });
}

QString DebugSession::describe(Value value) const
{
    if (m_pending > 0)
        return tr("running…");
    return QString::fromStdString(onWorker([this, value] { return m_engine->describe(value); }));
}

QString DebugSession::valueLabel(Value value) const
{
    return QString::fromStdString(onWorker([this, value] { return m_engine->label(value); }));
}

Tensor DebugSession::cpuValue(Value value, QString *error) const
{
    std::string why = "the debugger is running";
    Tensor t = onWorker([this, value, &why] {
        why.clear();
        return m_engine->cpuValue(value, why);
    });
    if (error)
        *error = QString::fromStdString(why);
    return t;
}

QString DebugSession::referenceFile(Value value) const
{
    return QString::fromStdString(m_references.fileFor(value));
}

void DebugSession::setWatches(const QStringList &names)
{
    m_watchNames = names;
    if (!m_built || m_pending > 0) {
        m_watchValues.clear();
        for (const QString &n : names)
            m_watchValues.push_back(
                { n.toStdString(), DebugEngine::WatchValue::State::Missing, {}, {}, {}, {} });
        emit watchesUpdated();
        return;
    }
    std::vector<std::string> list;
    for (const QString &n : names)
        list.push_back(n.toStdString());
    post([this, list, generation = m_targetGeneration] {
        const std::vector<DebugEngine::WatchValue> values = m_engine->watch(list);
        QMetaObject::invokeMethod(
            this,
            [this, values, generation] {
                // Values of programs no longer debugged would dangle.
                if (values.size() != size_t(m_watchNames.size()) || generation != m_targetGeneration)
                    return;
                m_watchValues = values;
                emit watchesUpdated();
            },
            Qt::QueuedConnection);
    });
}

} // namespace ps
