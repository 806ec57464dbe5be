#pragma once

#include "core/runtime/interpreter.h"
#include "core/runtime/programrunner.h"
#include "core/runtime/tensorstats.h"
#include "core/session/debugbreakpoint.h"
#include "core/session/debugsources.h"
#include "core/session/debugtarget.h"
#include "core/session/deviceoption.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ps {

class Backend;
class ValueNumbering;

/// A debug session's engine: owns the backends and the ProgramRunner (scope and interpreter) and
/// makes every interpreter call. Qt-free; the GUI's DebugSession drives it from one worker
/// thread. Not thread-safe: one thread calls it, except requestStop() and the breakpoint edits,
/// which must reach an interpreter that is running.
class DebugEngine : public InterpreterObserver
{
public:
    enum class Command { Continue, StepOver, StepInto, StepOut, RunToCursor };

    /// The interpreter's state after a command, copied out for the UI thread.
    struct Snapshot
    {
        bool active = false; ///< a session (runner + interpreter) exists
        Interpreter::State state = Interpreter::State::Ready;
        std::optional<ProgramPosition> position;
        const Operation *currentOp = nullptr;
        std::vector<Interpreter::Frame> frames;
        StopInfo stop;
        /// The DebugBreakpoint id of the breakpoint that fired, or -1.
        int breakpointId = -1;
        std::optional<OpError> error;
        /// NaN/Inf stops: which operand carried the non-finite values, or that all were finite.
        std::string cause;
        size_t records = 0;
        double opSeconds = 0;
        /// Given by the session to every build and restart: records of another epoch are stale.
        uint64_t epoch = 0;
        std::string backendName;
    };

    /// One watched name's value now.
    struct WatchValue
    {
        /// Missing: a known value not computed yet; Unknown: the name is no value id, scope
        /// variable or value name of the programs (mistyped).
        enum class State { Missing, Live, Freed, Unknown };
        std::string name;
        State state = State::Missing;
        std::vector<int64_t> shape;
        DataType dtype = DataType::Undefined;
        TensorStats stats;
        /// The program value the name resolves to (null for a scope variable that is none, and
        /// when Unknown): what the UI opens in the inspector. Belongs to the built programs.
        Value value;
    };

    /// Receives every executed op on the worker thread, tagged with the epoch.
    using RecordSink = std::function<void(uint64_t epoch, const OpRecord &record)>;

    /// `decoder` reads image inputs other than netpbm (the GUI's QImage decoder; none in the CLI).
    explicit DebugEngine(RecordSink sink, ImageDecoder decoder = {});
    ~DebugEngine() override;

    /// CPU plus every CUDA device that initialises; a CUDA that does not is listed unavailable
    /// with createCudaBackend's reason. The backends created stay cached for build().
    std::vector<DeviceOption> probeDevices();
    /// The backend for `device` (createBackend), created on first use and cached for build(); null
    /// with createBackend's `reason` when the device cannot run.
    Backend *backend(Device device, std::string &reason);
    /// Creates the runner on `device` and prepares its scope, its interpreter set as
    /// `interpreterOptions`; "" on success, else why not. Records are tagged with `epoch` from
    /// now on.
    std::string build(const DebugTarget &target, Device device, const DebugSources &sources,
        bool compareWithCpu, uint64_t epoch, const Interpreter::Options &interpreterOptions = {});
    void teardown();
    bool active() const { return m_runner != nullptr; }

    /// Runs `command` unless a stop was requested up to `sequence` meanwhile; false when it did
    /// not run.
    bool run(Command command, const std::optional<ProgramPosition> &cursor, uint64_t sequence);
    void restart(uint64_t epoch);
    /// The current op's results from `.npy` files (one per result); steps past it.
    bool provideOutputs(const std::vector<std::string> &files, std::string &error);
    /// The results of the op at `position` from `.npy` files (one per result), used instead of
    /// running it when the run reaches it, or at once when it is the current op
    /// (Interpreter::provideOutputs). False with `error`: a file that cannot be read, a position
    /// or result that does not fit.
    bool provideOutputs(
        const ProgramPosition &position, const std::vector<std::string> &files, std::string &error);
    /// Differential mode against the oracle, the plain CPU kernels (cpu-plain): for CUDA and for
    /// the CPU device when it runs oneDNN (no-op on cpu-plain itself and on a CPU without oneDNN).
    void setCompareWithCpu(bool on);
    Snapshot snapshot() const;
    /// The runner of the last build (its interpreter, scope and named results), null when none;
    /// for a caller that reports on a whole run, as `pirscope-cli run` does.
    ProgramRunner *runner() { return m_runner.get(); }

    // --- Values (worker thread, interpreter idle) -----------------------------------------------

    /// A watched name: a value id of the current segment ("%5"), a scope variable or a Paddle
    /// value name of any segment.
    std::vector<WatchValue> watch(const std::vector<std::string> &names);
    /// A deep host copy of what `value` holds now (a list: its first tensor); undefined if none.
    Tensor hostValue(Value value) const;
    /// "float32[2, 3] on cuda:0", "not computed", "list of 3", "freed (no_need_buffer)".
    std::string describe(Value value) const;
    /// Recomputes `value`'s op on the CPU backend from host copies of its operands' current values.
    Tensor cpuValue(Value value, std::string &error);
    /// `%5 (relu_0.tmp_0)`.
    std::string label(Value value) const;

    // --- Thread-safe -----------------------------------------------------------------------------

    /// Stops the run in progress and skips queued runs whose sequence is <= `sequence`.
    void requestStop(uint64_t sequence);
    /// Adds or updates a breakpoint (also in later builds).
    void setBreakpoint(const DebugBreakpoint &breakpoint);
    void removeBreakpoint(int id);

    void opExecuted(const OpRecord &record) override;

private:
    Backend &cpu();
    /// The oracle the differential mode compares `backend` with; null when it is the oracle's
    /// own kernels.
    Backend *reference(const Backend &backend);
    /// Must hold m_mutex.
    void install(const DebugBreakpoint &breakpoint);
    std::string nanCause(const OpRecord &record) const;
    const RuntimeValue *resolve(const std::string &name, bool &freed, Value &value);
    const ValueNumbering &numbering(size_t segment);

    RecordSink m_sink;
    ImageDecoder m_decoder;
    std::map<std::string, std::unique_ptr<Backend>> m_backends; ///< by Device::name()
    std::unique_ptr<ProgramRunner> m_runner;
    Interpreter *m_interpreter = nullptr;
    DebugTarget m_target;
    std::vector<std::unique_ptr<ValueNumbering>> m_numberings;
    std::map<std::string, Value> m_valuesByName;
    bool m_namesIndexed = false;
    std::string m_cause;
    uint64_t m_epoch = 0;

    std::atomic<uint64_t> m_stopUpTo { 0 };
    std::atomic<uint64_t> m_runningSequence { 0 };
    /// Guards m_interpreter against replacement while the UI thread edits breakpoints or stops.
    mutable std::mutex m_mutex;
    std::map<int, DebugBreakpoint> m_breakpoints;
    std::map<int, int> m_coreIds; ///< DebugBreakpoint id -> BreakpointSet id
};

} // namespace ps
