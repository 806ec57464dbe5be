#pragma once

#include "core/ir/value.h"
#include "core/runtime/breakpointset.h"
#include "core/runtime/interpreterobserver.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/oprecord.h"
#include "core/runtime/programposition.h"
#include "core/runtime/runtimevalue.h"
#include "core/runtime/scope.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ps {

class NamePattern;

class AllocationMeter;
class Backend;
class Block;
class Operation;
class Program;
class ValueNumbering;

/// Executes a timeline of programs op by op, like Paddle's pir_run_program (PADDLE_PIR.md §5):
/// the forward program's ops, then the backward program's, all reading and writing one Scope by
/// name. A debugger drives it from a worker thread with step()/stepInto()/stepOut()/
/// runToCursor()/continueRun(); between calls the state (position, values, records, scope) can be
/// read. requestStop() may be called from any thread.
///
/// The interpreter runs these ops itself: `pd_op.data` (scope by `name`), `builtin.parameter`
/// (scope by `parameter_name`), `builtin.shadow_output` (writes the scope by `output_name`),
/// `pd_op.fetch`, `builtin.combine`/`split`/`slice`, `pd_op.if`, `pd_op.while`, `cf.yield`,
/// `cf.stack_create`/`tuple_push`/`tuple_pop`/`has_elements`; a segment's block kwargs are read
/// from the scope by keyword when the segment starts. Every other op goes to the backend's kernel.
/// Nothing is thrown out of a run call: a failing op leaves the interpreter in the Error state at
/// that op (error() says why); a missing kernel can be stepped past with provideOutputs().
///
/// Inplace ops (`batch_norm_`, `relu_`, ...) share their input's buffer as in Paddle: a result a
/// kernel wrote elsewhere is copied back into the input (host tensors).
///
/// Kernel layouts: where every use of an op's result 0 is an operand the backend's kernel reads
/// in its library's own layout (KernelRegistry::acceptLayout: oneDNN convolutions), the kernel
/// may leave the result in that layout (KernelContext::mayKeepLayout), so no reorder runs between
/// them. That is the only place such a tensor goes: valueOf() and operandValue() replace it by
/// its plain tensor (the same value) the first time anything else reads it, and KernelContext
/// hands a kernel that does not accept it the plain tensor. No layout is kept while a NaN check
/// or the differential mode reads every output.
///
/// Cost per op beyond the kernel: one hash lookup per operand and result, a KernelContext, two
/// clock reads; 0.5-0.8 us measured with `pirscope-cli bench run` on the golden bundles. The
/// scope snapshot for restart() costs host memory equal to the inputs and parameters
/// (Options::restartable).
class Interpreter
{
public:
    /// One program of the timeline.
    struct Segment
    {
        /// "forward", "backward", "program".
        std::string name;
        std::shared_ptr<const Program> program;
        /// Scope variables freed after the segment's last op (run_program's garbage collection).
        /// NoNeedBuffer ones keep their meta (the backward reads their shape).
        std::vector<std::pair<std::string, FreeReason>> freeAfter;
        /// Scope variables Paddle's garbage collector frees after their last read in this segment
        /// (the forward's middles and the output gradients in the backward). Only eager deletion
        /// frees them; otherwise they stay.
        std::vector<std::string> collectable;
        /// Ops run in their `_` form, as run_program's inplace_pass makes Paddle's executor run
        /// them: each result takes the buffer of its inplace input (OpRegistry::inplaceInfo of the
        /// `_` name), which dies at the op. Only under eager deletion (the input's values are gone).
        std::unordered_set<const Operation *> runInplace;
        /// Called when the segment starts, before its kwargs are read from the scope (e.g. to put
        /// the output gradients in). Must not throw.
        std::function<void(Scope &)> prologue;
    };

    struct Options
    {
        /// Backend::synchronize() after every op, so deviceSeconds is per op.
        bool synchronizeEachOp = true;
        /// Check every floating output for NaN/Inf (always on while a NaN/Inf breakpoint is set).
        bool checkNanInf = false;
        /// Freed no_need_buffer variables hold NaN-filled buffers (Scope::free's `poison`).
        bool poisonFreedBuffers = true;
        /// Differential mode tolerance: |a - r| <= atol + rtol * |r|.
        double rtol = 1e-4;
        double atol = 1e-5;
        /// An op without a kernel on a device backend runs on the CPU backend instead: operands
        /// copied to the host, the CPU kernel, results copied back (OpRecord::fallback). Off: a
        /// missing kernel is an error, as on the CPU.
        bool cpuFallback = true;
        /// Differential mode: stop (StopReason::Divergence) at the first op that differs.
        bool stopOnDivergence = true;
        /// records() keeps at most this many records; the older half is dropped when it is full
        /// (long loops), so StopInfo::record indexes stay valid only until the next run call.
        /// The records' bytes are reserved in the MemoryBudget: a record the budget refuses
        /// stops the run at the next op with the budget's message.
        size_t recordLimit = 1000000;
        /// Paddle's eager deletion (PirInterpreter's garbage collection): a value is dropped after
        /// its last use in its segment (an op nested in a region uses what it reads for its
        /// top-level op; a region's own values go when the region op ends), and a variable of the
        /// segment's freeAfter list is freed then instead of at the segment's end, a no_need_buffer
        /// one keeping an unbacked meta (FreedMeta::Unbacked). valueOf() is nullptr for a dropped
        /// value, so a debugger that shows values keeps this off. Cost: one walk of a segment's
        /// ops when it first starts.
        bool eagerDeletion = false;
        /// restart() is possible: the constructor keeps deep host copies of the scope (the inputs
        /// and parameters, as much host memory again). A one-shot run (the passes' numeric check,
        /// `pirscope-cli run`) turns it off; restart() then throws.
        bool restartable = true;
        /// At most this many ops execute between restarts (0: defaultMaxOps()): the op that would
        /// pass it fails instead ("stopped before op N+1: the limit of N executed ops"), so a
        /// `pd_op.while` whose condition never turns false ends. Every op counts, inside regions
        /// too (an if or while itself, a cf.yield, each body op per iteration).
        uint64_t maxOps = 0;
        /// Asked before every op from the thread that runs; true makes the op fail with "canceled"
        /// (the Error state): how a background run whose result nobody waits for any more ends
        /// inside a loop. Must be cheap and thread-safe.
        std::function<bool()> canceled;
    };

    enum class State : unsigned char {
        Ready, ///< at the first op, nothing run
        Paused, ///< between ops
        Finished,
        Error, ///< at the op that failed
    };

    /// One level of the region nesting at the current position (outermost first).
    struct Frame
    {
        /// The region op (`pd_op.if`/`pd_op.while`), or nullptr for the segment's top block.
        const Operation *owner = nullptr;
        unsigned region = 0;
        size_t iteration = 0;
    };

    /// `scope` must outlive the interpreter and already hold the inputs; its current contents are
    /// what restart() restores (snapshotScope()).
    Interpreter(std::vector<Segment> segments, Backend &backend, Scope &scope, Options options);
    Interpreter(std::vector<Segment> segments, Backend &backend, Scope &scope);
    ~Interpreter();
    Interpreter(const Interpreter &) = delete;
    Interpreter &operator=(const Interpreter &) = delete;

    const std::vector<Segment> &segments() const { return m_segments; }
    Backend &backend() const { return m_backend; }
    Scope &scope() const { return m_scope; }
    const Options &options() const { return m_options; }
    void setOptions(const Options &options) { m_options = options; }

    /// Differential mode: every kernel op also runs on `reference` (the CPU oracle) with host
    /// copies of the same inputs, and the outputs are compared; nullptr switches it off.
    void setReferenceBackend(Backend *reference) { m_reference = reference; }
    /// Ops of the kept records that ran on the CPU fallback (Options::cpuFallback): name -> count.
    std::map<std::string, size_t> fallbackOps() const;
    Backend *referenceBackend() const { return m_reference; }

    BreakpointSet &breakpoints() { return m_breakpoints; }
    void addObserver(InterpreterObserver *observer);
    void removeObserver(InterpreterObserver *observer);

    // --- Control (call from one thread at a time) ---------------------------------------------

    /// Executes the current op; a `pd_op.if`/`pd_op.while` runs as a whole (breakpoints inside
    /// it still stop).
    StopInfo step();
    /// Like step(), but enters the taken branch of a `pd_op.if` or the next iteration of a
    /// `pd_op.while` body and stops at its first op.
    StopInfo stepInto();
    /// Runs until the current region is left (at top level: to the end of the segment).
    StopInfo stepOut();
    /// Runs until the op at `target` is the next op (any loop iteration), a breakpoint, the end,
    /// an error or a stop request.
    StopInfo runToCursor(const ProgramPosition &target);
    /// Runs until a breakpoint, the end, an error or a stop request.
    StopInfo continueRun();
    /// Back to the first op: values, records and error cleared, the scope restored to the
    /// snapshot (snapshotScope()).
    void restart();
    /// Makes the run call in progress return (StopReason::StopRequested) after the current op.
    /// Thread-safe; ignored when no run call is in progress.
    void requestStop() { m_stopRequested.store(true, std::memory_order_relaxed); }

    /// The op at `position` gets `values` as its results instead of running (one per result).
    /// When `position` is the current op (e.g. after a missing-kernel error) it is stepped past
    /// at once; otherwise the values are used when it is reached. False with `error` set when the
    /// position or the number of values is wrong, or a tensor's dtype or static dims differ from
    /// the result's declared type.
    bool provideOutputs(
        const ProgramPosition &position, std::vector<RuntimeValue> values, std::string &error);

    /// Makes the scope's current contents (deep host copies) what restart() restores.
    void snapshotScope();

    // --- State (read between run calls) --------------------------------------------------------

    State state() const { return m_state; }
    bool finished() const { return m_state == State::Finished; }
    /// The next op to execute; nullopt when finished.
    std::optional<ProgramPosition> position() const;
    const Operation *currentOp() const;
    /// Outermost first; empty when finished.
    std::vector<Frame> frames() const;
    const StopInfo &lastStop() const { return m_lastStop; }
    const std::optional<OpError> &error() const { return m_error; }
    const std::vector<OpRecord> &records() const { return m_records; }
    /// Segment of the current position (segments().size() when finished).
    size_t currentSegment() const { return m_segment; }

    /// The value an IR value of one of the segments holds now (the latest iteration inside loops);
    /// nullptr when not computed (yet).
    const RuntimeValue *valueOf(Value value) const;
    /// "%5" or "%5 (middle_0)": the printer's id plus the value's Paddle names.
    std::string valueLabel(Value value) const;
    /// The op at `position`, or nullptr.
    const Operation *opAt(const ProgramPosition &position) const;
    /// NamePattern::matchingOps over every segment, as positions.
    std::vector<ProgramPosition> opsMatching(const NamePattern &pattern, bool opNames) const;

    /// Sum of the records' deviceSeconds (kernel and builtin ops; control-flow ops excluded).
    double opSeconds() const;

    /// Bytes this run holds now: the scope's when it (re)started, and every storage allocated
    /// while it ran (AllocationMeter) and not freed yet, on any device. Other threads' tensors and
    /// restart()'s snapshot do not count; a scope variable of the start that is freed still does.
    int64_t liveBytes() const;
    /// The most liveBytes() reached since the run (re)started, kernels' temporaries included.
    int64_t peakLiveBytes() const;
    /// liveBytes() when the run (re)started: the scope's inputs and parameters.
    int64_t startLiveBytes() const { return m_startLiveBytes; }
    /// liveBytes() once each finished segment's variables were freed (index: segment).
    const std::vector<int64_t> &segmentEndLiveBytes() const { return m_segmentEndLiveBytes; }

    /// Ops the interpreter runs itself (not control flow): data, parameter, shadow_output, ...
    static bool isBuiltinOp(std::string_view name);

    /// The process's limit for runs whose Options::maxOps is 0 (0: none, the default); the
    /// CLI's `--max-ops` sets it. Thread-safe.
    static uint64_t defaultMaxOps();
    static void setDefaultMaxOps(uint64_t ops);

private:
    enum class Mode : unsigned char { Into, Over, Out, Cursor, Continue };
    struct ActiveFrame
    {
        const Block *block = nullptr;
        size_t next = 0;
        const Operation *owner = nullptr;
        unsigned region = 0;
        size_t iteration = 0;
        /// The summed times of the ops run inside (nested control flow included): the owner's
        /// record gets them, so time paused between steps inside a region is not counted.
        double hostSeconds = 0;
        double deviceSeconds = 0;
    };

    StopInfo run(Mode mode, const ProgramPosition *target);
    StopInfo finish(StopInfo info);
    /// Executes, enters or leaves at the current op; false when it failed (m_error set).
    bool microStep();
    void startSegment(size_t segment);
    void finishSegment();
    /// Frees a variable of the current segment's freeAfter list, or past its end, of its
    /// collectable list (Release::scopeVariables).
    void freeScopeVariable(size_t index);
    /// Starts liveBytes() and the peak from the scope as it is now.
    void beginMeasuring();
    /// Eager deletion after the top-level op `op` of the current segment.
    void releaseAfter(const Operation &op);
    /// Moves past the current op; at the end of a segment frees its variables and starts the next.
    void advance();
    bool executeOp(const Operation &op);
    void runProvided(const Operation &op, const std::vector<RuntimeValue> &values);
    void runKernel(const Operation &op, KernelFn fn, std::vector<RuntimeValue> &results, OpRecord &record);
    /// Runs a CPU kernel for a device backend's op (Options::cpuFallback).
    void runFallback(const Operation &op, KernelFn fn, std::vector<RuntimeValue> &results, OpRecord &record);
    /// The CPU backend fallbacks run on (nullptr when the backend is the CPU or fallback is off).
    Backend *fallbackBackend();
    /// Inplace ops (`batch_norm_`, `relu_`): a result the kernel wrote to a new buffer is copied
    /// into its input's buffer (host tensors of the same shape), as Paddle shares them; the pairs
    /// are `inplaceName`'s. `onlyDying`: only an input that eager deletion drops after `op` and
    /// that a kernel of the segment computed (not a parameter, an input or a keyword argument)
    /// gives its buffer.
    void shareInplaceOutputs(const Operation &op, std::string_view inplaceName,
        std::vector<RuntimeValue> &results, bool onlyDying = false);
    /// Whether `value`, computed by a kernel of the current segment, is dropped after its
    /// top-level op `op` (eager deletion's plan).
    bool diesAt(const Operation &op, Value value);
    void compareWithReference(const std::vector<RuntimeValue> &results,
        const std::vector<RuntimeValue> &reference, OpRecord &record);
    void runBuiltin(const Operation &op, std::vector<RuntimeValue> &results);
    RuntimeValue fromScope(const std::string &name, std::string_view what) const;
    void enterIf(const Operation &op);
    void enterWhile(const Operation &op);
    void bindArguments(const Block &body, std::vector<RuntimeValue> &values);
    void yieldFrame(const Operation &yield);
    void leaveFrame(std::vector<RuntimeValue> results);
    /// Dense row-major (a value a kernel left in its library's layout is made plain in place).
    const RuntimeValue &operandValue(const Operation &op, unsigned i) const;
    /// As it is: for a kernel's context (KernelContext converts for the kernels that want it).
    const RuntimeValue &operandValueKeepingLayout(const Operation &op, unsigned i) const;
    /// `op`'s kernel may leave result 0 in its library's layout: every use of it is an operand
    /// the backend's kernel reads in that layout, and no per-op check reads it.
    bool mayKeepLayout(const Operation &op) const;
    /// `op`'s kernel may write into operand `i`'s buffer (KernelContext::mayOverwriteInput):
    /// eager deletion drops the value after `op`, no other operand of `op` is it, and its
    /// storage has no other holder (an observer's or a watch's copy, an alias, the scope), so no
    /// one who looks at the value later (the numeric check, the debugger) sees it overwritten.
    /// Off in the compare mode and inside regions.
    bool mayOverwriteOperand(const Operation &op, size_t i);
    /// Throws when a computed tensor's dtype or static dims differ from its result's declared
    /// type (dynamic dims and rank 0 vs [1] pass; non-tensor values are not judged). Where
    /// Paddle's declared types are known to be loose, less is judged: an empty tensor for an
    /// optional or intermediate output is a placeholder, and the results after the first of an
    /// op with a dynamic operand are checked for dtype and rank only.
    void checkResults(const Operation &op, const std::vector<RuntimeValue> &results) const;
    /// A one-element bool tensor's value; throws for anything else.
    bool condition(const RuntimeValue &value, const Operation &op) const;
    void setResults(const Operation &op, std::vector<RuntimeValue> results);
    OpRecord newRecord(const Operation &op, OpRecord::Kind kind);
    /// Fills the output shapes, runs the NaN/name/divergence checks, stores, notifies.
    void commitRecord(OpRecord record);
    /// Releases the budget of m_records' first `count` records and erases them.
    void dropRecords(size_t count);
    /// `index`: where the record will be in records().
    void checkOutputs(OpRecord &record, size_t index);
    void fail(const Operation &op, const std::string &message, bool missingKernel);
    const ValueNumbering *numberingOf(Value value) const;

    std::vector<Segment> m_segments;
    Backend &m_backend;
    Scope &m_scope;
    Options m_options;
    Backend *m_reference = nullptr;
    std::unique_ptr<Backend> m_fallback;
    BreakpointSet m_breakpoints;
    std::vector<InterpreterObserver *> m_observers;

    State m_state = State::Ready;
    size_t m_segment = 0;
    std::vector<ActiveFrame> m_frames;
    /// Mutable: a value a kernel left in its library's layout (TensorLayout) is replaced by its
    /// dense row-major tensor (the same value) the first time anything else reads it: valueOf(),
    /// operandValue(). Only the kernels that accept the layout see it as it is.
    mutable std::unordered_map<const ValueImpl *, RuntimeValue> m_values;
    mutable std::unordered_map<const Operation *, bool> m_layoutUses; ///< mayKeepLayout's answers
    std::vector<OpRecord> m_records;
    size_t m_sequence = 0;
    uint64_t m_opsExecuted = 0; ///< against Options::maxOps
    uint64_t m_recordBytes = 0; ///< reserved in the MemoryBudget for m_records
    std::string m_recordingError; ///< the budget refused a record: the next op fails with it
    std::optional<OpError> m_error;
    StopInfo m_lastStop;
    std::optional<StopInfo> m_pendingStop;
    std::map<const Operation *, std::vector<RuntimeValue>> m_provided;
    std::atomic<bool> m_stopRequested { false };
    std::vector<std::pair<std::string, RuntimeValue>> m_scopeSnapshot;
    std::vector<std::unique_ptr<ValueNumbering>> m_numberings;
    std::unordered_map<const Program *, size_t> m_programSegments;

    /// What eager deletion drops after one top-level op.
    struct Release
    {
        /// Read for their meta alone from now on: their buffers go, an unbacked meta stays.
        std::vector<const ValueImpl *> demoted;
        std::vector<const ValueImpl *> values;
        /// Indexes into Segment::freeAfter, then past its end into Segment::collectable.
        std::vector<size_t> scopeVariables;
    };
    using ReleasePlan = std::unordered_map<const Operation *, Release>;
    static ReleasePlan planReleases(const Segment &segment);
    /// Per segment, built when it first runs under eager deletion.
    std::vector<std::optional<ReleasePlan>> m_releasePlans;
    /// The current segment's freeAfter and collectable entries eager deletion already freed.
    std::vector<bool> m_freedEarly;
    std::shared_ptr<AllocationMeter> m_meter;
    int64_t m_startLiveBytes = 0;
    std::vector<int64_t> m_segmentEndLiveBytes;
};

} // namespace ps
