#pragma once

#include "core/runtime/interpreter.h"
#include "core/runtime/oprecord.h"
#include "core/session/debugbreakpoint.h"
#include "core/session/debugengine.h"
#include "core/session/debugsources.h"
#include "core/session/debugtarget.h"
#include "core/session/deviceoption.h"
#include "core/session/pipelineopmap.h"
#include "core/session/referencefiles.h"

#include <QObject>
#include <QStringList>
#include <QThread>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

class QTemporaryDir;

namespace ps {

/// One debugging session over a program or a dy2static pipeline (forward + backward as one
/// timeline): the backend, scope and interpreter live in a DebugEngine on a dedicated worker
/// thread, which makes every interpreter call, so the UI stays responsive during a long run and
/// Stop works at the next op boundary. Commands are the usual debugger ones (F5, F10, F11, ...);
/// a step command with no session starts one and stops at the first op, Continue and Run to
/// cursor start one and run; after the end, the same commands restart the session first. Breakpoints, device
/// and sources belong to the session object and outlive the runs; changing the device or sources ends the run
/// in progress.
///
/// State queries (position, frames, records, values) answer for the last stop; value reads go to
/// the worker and return nothing while a command runs.
class DebugSession : public QObject
{
    Q_OBJECT

public:
    enum class State {
        NotStarted, ///< no interpreter (never started, or stopped)
        Running, ///< a command is in progress on the worker
        Paused, ///< between ops
        Finished, ///< the last op ran; values stay readable
        Error, ///< paused at an op that failed
    };
    Q_ENUM(State)

    explicit DebugSession(QObject *parent = nullptr);
    /// Stops the run in progress and joins the worker.
    ~DebugSession() override;

    // --- Target ----------------------------------------------------------------------------------

    /// One program (one segment). `path` is its file (":/" resources too): a `.pdiparams` next to
    /// it can provide the parameters. Ends a running session; op breakpoints on ops of other
    /// programs are dropped.
    void setProgram(std::shared_ptr<const Program> program, const QString &path = {},
        std::shared_ptr<const TraceBundle> bundle = {});
    /// The forward (and, when not empty, backward) program of a pipeline as one timeline.
    /// `loaded` is the program the pipeline was built from (the Program tab's): its ops stand for
    /// their clones (opMap()), so a breakpoint or cursor on them stops the pipeline there, and its
    /// op breakpoints move onto the clones (and back when the target becomes `loaded` again).
    void setPipeline(std::shared_ptr<const PipelineResult> pipeline,
        std::shared_ptr<const TraceBundle> bundle = {}, const QString &programPath = {},
        std::shared_ptr<const Program> loaded = {});
    void clearTarget();
    const DebugTarget &target() const { return m_target; }
    bool hasTarget() const { return m_target.valid(); }
    /// The programs of the timeline, in segment order.
    std::vector<const Program *> segmentPrograms() const;
    /// "program", "forward", "backward".
    QString segmentName(size_t segment) const;
    /// The loaded program's ops and their clones in the pipeline debugged (empty for a program).
    const PipelineOpMap &opMap() const { return m_opMap; }
    /// The position of `op` on the timeline (an op of the loaded program: its clone's, opMap());
    /// nullopt when it is in none of its programs.
    std::optional<ProgramPosition> positionOf(const Operation *op) const;
    const Operation *opAt(const ProgramPosition &position) const;

    // --- Configuration ---------------------------------------------------------------------------

    /// CPU first; CUDA devices once probed on the worker (devicesChanged()), an unavailable CUDA
    /// with the reason.
    const std::vector<DeviceOption> &devices() const { return m_devices; }
    int deviceIndex() const { return m_device; }
    /// False (no change) for an unavailable or unknown entry.
    bool setDeviceIndex(int index);
    /// The sources the next session starts with. Until setSources() they follow the target (the
    /// bundle's .npy, the .pdiparams next to the program, else random); a choice made with
    /// setSources() is kept across targets while it applies to them.
    const DebugSources &sources() const { return m_sources; }
    /// Ends a running session when the sources change; they apply at the next start.
    void setSources(const DebugSources &sources);
    /// Bundle needs a trace bundle; Pdiparams (parameters only) a `.pdiparams` file next to the
    /// program; the other kinds are always offered (their files are checked at the start).
    bool sourceAvailable(DebugSources::Kind kind) const;
    /// Why the last start failed (a bad input or parameter file, no image-shaped input, ...);
    /// empty once a session starts or the sources or target change.
    const QString &startError() const { return m_startError; }
    /// The target's inputs with the shapes the next session gives them and why
    /// (DebugSources::inputShapes: chosen shapes, the `.yml` beside the program, batch 1; files,
    /// the image's size). An Unresolved entry refuses the start until a shape is chosen.
    std::vector<InputShape> inputShapes(QStringList *errors = nullptr) const;
    /// Chooses input shapes by name (the command line's `--shape NAME=DIMS`), kept across
    /// targets like the rest of the sources; ends a running session. Returns why some do not
    /// fit the current target (empty when they all do); such a shape fails the next start.
    QString setShapes(const std::map<std::string, std::vector<int64_t>> &shapes);
    /// Why the `.yml` beside the program was not used (it does not parse), or empty.
    const QString &configWarning() const { return m_configWarning; }
    /// Differential mode: every kernel also runs on the CPU and the run stops where they differ.
    void setCompareWithCpu(bool on);
    bool compareWithCpu() const { return m_compareWithCpu; }
    /// Frees each value after its last read and runs inplace_pass's ops in place, as Paddle's
    /// executor does (Interpreter::Options::eagerDeletion), so the records' live bytes are a Paddle
    /// run's; freed values are gone from the inspector. Takes effect at the next start.
    void setFreeAsPaddle(bool on) { m_freeAsPaddle = on; }
    bool freeAsPaddle() const { return m_freeAsPaddle; }

    // --- Breakpoints (may be edited while running) -----------------------------------------------

    const std::vector<DebugBreakpoint> &breakpoints() const { return m_breakpoints; }
    /// Adds or removes the op breakpoint at `position`; true when one is set afterwards.
    bool toggleBreakpoint(const ProgramPosition &position);
    bool toggleBreakpointAt(const Operation *op);
    /// The id of the op breakpoint at `position`, or -1.
    int breakpointAt(const ProgramPosition &position) const;
    /// A breakpoint after any op writing a value whose name `pattern` (an RE2 regex, NamePattern)
    /// is found in; -1 with `error` when it does not compile. When no op of the target writes
    /// such a name it is still added, and warning() says so.
    int addNameBreakpoint(const QString &pattern, QString *error = nullptr);
    bool removeBreakpoint(int id);
    bool setBreakpointEnabled(int id, bool enabled);
    /// The NaN/Inf breakpoint: stop after the first op producing a NaN or an infinity.
    void setBreakOnNanInf(bool on);
    bool breakOnNanInf() const;

    // --- State (of the last stop) ----------------------------------------------------------------

    State state() const { return m_state; }
    bool isRunning() const { return m_state == State::Running; }
    /// A session exists (any state but NotStarted).
    bool isActive() const { return m_state != State::NotStarted; }
    std::optional<ProgramPosition> position() const { return m_snapshot.position; }
    const Operation *currentOp() const { return m_snapshot.currentOp; }
    const std::vector<Interpreter::Frame> &frames() const { return m_snapshot.frames; }
    const std::vector<OpRecord> &records() const { return m_records; }
    const std::optional<OpError> &currentError() const { return m_snapshot.error; }
    const StopInfo &lastStop() const { return m_snapshot.stop; }
    /// "breakpoint", "nan/inf: pd_op.log at 0:3 produced ... Cause: ...".
    QString stopText() const;
    /// NaN/Inf stops: which operand carried the values, or that the op made them.
    QString causeText() const { return QString::fromStdString(m_snapshot.cause); }
    QString backendName() const { return QString::fromStdString(m_snapshot.backendName); }
    /// Sum of the executed ops' device times.
    double opSeconds() const { return m_snapshot.opSeconds; }

    // --- Values (read on the worker; empty while running) ----------------------------------------

    /// A deep host copy of what `value` holds now.
    Tensor hostValue(Value value) const;
    QString describe(Value value) const;
    QString valueLabel(Value value) const;
    /// `value`'s op recomputed on the CPU from its operands' current values.
    Tensor cpuValue(Value value, QString *error = nullptr) const;
    /// Paddle's `.npy` for `value` in the trace bundle, or empty.
    QString referenceFile(Value value) const;

    /// Watched names: value ids ("%5"), scope variables or Paddle value names.
    void setWatches(const QStringList &names);
    const QStringList &watches() const { return m_watchNames; }
    /// Parallel to watches() after the last stop (or setWatches()); a value's `value` is the
    /// program value it names (DebugEngine::WatchValue), of the current target.
    const std::vector<DebugEngine::WatchValue> &watchValues() const { return m_watchValues; }

    /// Error state at a missing kernel: the op's results from `.npy` files (one per result), then
    /// a step past it. False with `error` when not paused at an op.
    bool provideOutputs(const QStringList &files, QString *error = nullptr);

public slots:
    /// Starts a session paused at the first op (no-op when one exists).
    void start();
    void continueRun();
    void stepOver();
    void stepInto();
    void stepOut();
    void runToCursor(const ps::ProgramPosition &position);
    /// Interrupts a running command after the current op; the session stays.
    void pause();
    /// Interrupts a running command and ends the session.
    void stop();
    /// Back to the first op (values and records cleared), paused.
    void restart();

signals:
    void stateChanged(ps::DebugSession::State state);
    /// After every command of a session: the next op (invalid when finished) and why it stopped.
    void stoppedAt(const ps::ProgramPosition &position, const QString &reason);
    /// Each executed op, in order (delivered in batches while running).
    void opExecuted(const ps::ProgramPosition &position, double wallSeconds, double deviceSeconds);
    /// records() grew by `count` rows from `first`.
    void recordsAppended(int first, int count);
    void recordsReset();
    /// A failed op ("pd_op.foo at 0:12 (results %5): message; operands: ...") or a failed start.
    void error(const QString &message);
    /// Something the user should know that stops nothing (a breakpoint that matches no op).
    void warning(const QString &message);
    void valuesChanged();
    void breakpointsChanged();
    void devicesChanged();
    void sourcesChanged();
    void targetChanged();
    void watchesUpdated();
    /// A start was refused because `inputs` have dynamic dims nothing fills (no shape chosen, no
    /// `.yml` default): the UI asks for their shapes.
    void shapesNeeded(const QStringList &inputs);

private:
    void post(std::function<void()> fn);
    template<class F> auto onWorker(F &&fn) const;
    void command(DebugEngine::Command command, std::optional<ProgramPosition> cursor);
    /// Before a start: false (after error() and shapesNeeded()) when a chosen shape does not fit
    /// or an input still needs one.
    bool refuseWithoutShapes();
    /// Queues `work` (worker thread) followed by a snapshot for finishCommand().
    void queue(std::function<QString(DebugEngine &, bool &ran)> work);
    void finishCommand(const DebugEngine::Snapshot &snapshot, std::vector<DebugEngine::WatchValue> watches,
        const QString &error, bool ran);
    void flushRecords();
    /// Empties m_records, releasing their budget.
    void clearRecords();
    void setState(State state);
    void setTarget(DebugTarget target, PipelineOpMap map = {});
    void endSession();
    int addBreakpoint(DebugBreakpoint breakpoint);
    void sendBreakpoint(const DebugBreakpoint &breakpoint);
    void findPdiparams(DebugTarget &target);

    QThread m_thread;
    QObject *m_context; ///< lives in m_thread: queued lambdas run there
    std::unique_ptr<DebugEngine> m_engine;

    DebugTarget m_target;
    PipelineOpMap m_opMap;
    ReferenceFiles m_references;
    std::unique_ptr<QTemporaryDir> m_tempDir;
    std::vector<DeviceOption> m_devices;
    int m_device = 0;
    DebugSources m_sources;
    bool m_sourcesChosen = false;
    QString m_startError;
    QString m_configWarning;
    bool m_freeAsPaddle = false;
    bool m_compareWithCpu = false;

    std::vector<DebugBreakpoint> m_breakpoints;
    int m_nextBreakpointId = 1;

    State m_state = State::NotStarted;
    bool m_built = false; ///< a build was queued and no teardown since
    int m_pending = 0; ///< queued commands not yet finished
    uint64_t m_sequence = 0;
    DebugEngine::Snapshot m_snapshot;
    std::vector<OpRecord> m_records;
    uint64_t m_epoch = 0; ///< of m_records
    uint64_t m_lastEpoch = 0; ///< the latest given to a build or restart
    /// Epochs up to this one belong to programs no longer debugged: their records and stops are
    /// dropped (their ops may be gone).
    uint64_t m_staleEpoch = 0;
    QStringList m_watchNames;
    std::vector<DebugEngine::WatchValue> m_watchValues;
    uint64_t m_targetGeneration = 0; ///< counts setTarget() calls: watch values of older targets are dropped

    std::mutex m_recordsMutex;
    std::vector<std::pair<uint64_t, OpRecord>> m_incoming;
    bool m_flushQueued = false;
    /// Reserved in the MemoryBudget for m_incoming and m_records (guarded by m_recordsMutex).
    uint64_t m_recordBytes = 0;
    /// The budget refused a record: none is kept until the records are cleared.
    std::string m_recordsRefused;
    bool m_refusalReported = false;
};

} // namespace ps

Q_DECLARE_METATYPE(ps::ProgramPosition)
