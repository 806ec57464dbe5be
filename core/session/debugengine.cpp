// DebugEngine: backends, building the runner, running commands and breakpoints.

#include "core/session/debugengine.h"

#include "core/ir/valuenumbering.h"
#include "core/runtime/backend.h"
#include "core/runtime/backendfactory.h"
#include "core/runtime/cpu/cpubackend.h"
#include "core/runtime/npyio.h"
#include "core/runtime/programrunner.h"
#include "core/session/memorymodel.h"

namespace ps {

DebugEngine::DebugEngine(RecordSink sink, ImageDecoder decoder)
    : m_sink(std::move(sink))
    , m_decoder(std::move(decoder))
{
}

DebugEngine::~DebugEngine()
{
    teardown();
}

Backend &DebugEngine::cpu()
{
    std::string reason;
    return *backend(Device::cpu(), reason);
}

Backend *DebugEngine::reference(const Backend &backend)
{
    const Device device = backend.device();
    if (device.isPlainCpu() || (device.isCpu() && !CpuBackend::hasOneDnn()))
        return nullptr;
    std::string reason;
    return this->backend(Device::cpuPlain(), reason);
}

Backend *DebugEngine::backend(Device device, std::string &reason)
{
    std::unique_ptr<Backend> &cached = m_backends[device.name()];
    if (!cached)
        cached = createBackend(device, reason);
    if (!cached) {
        m_backends.erase(device.name());
        return nullptr;
    }
    return cached.get();
}

std::vector<DeviceOption> DebugEngine::probeDevices()
{
    std::vector<DeviceOption> out;
    out.push_back({ Device::cpu(), cpu().name(), true, {} });
    // Devices are numbered densely: the first index that fails ends the list.
    for (int i = 0; i < 16; ++i) {
        std::string reason;
        const Backend *cuda = backend(Device::cuda(i), reason);
        if (!cuda) {
            if (i == 0)
                out.push_back({ Device::cuda(0), "CUDA (unavailable)", false, reason });
            break;
        }
        out.push_back({ Device::cuda(i), cuda->name(), true, {} });
    }
    // cuda-sim: the CUDA backend run on the host (slow; for checking the CUDA code path). Users
    // see what it is, not its device name.
    std::string simReason;
    if (backend(Device::cudaSim(), simReason))
        out.push_back(
            { Device::cudaSim(), "CUDA emulated on the CPU (slow: checks the CUDA kernels)", true, {} });
    // The plain kernels, the oracle the oneDNN ones are checked against (without oneDNN they are
    // what Device::cpu() runs already).
    if (CpuBackend::hasOneDnn())
        out.push_back({ Device::cpuPlain(), "CPU, plain kernels (the reference; slower)", true, {} });
    return out;
}

std::string DebugEngine::build(const DebugTarget &target, Device device, const DebugSources &sources,
    bool compareWithCpu, uint64_t epoch, const Interpreter::Options &interpreterOptions)
{
    teardown();
    if (!target.valid())
        return "nothing to debug: no program is open";
    // The host budget (a CUDA device's memory is its own): a run whose peak cannot fit is refused
    // before its parameters are loaded.
    if (!device.isCuda() || device.isSimulated())
        if (std::string why = MemoryModel::budgetProblem(target); !why.empty())
            return why;
    std::string reason;
    Backend *backend = this->backend(device, reason);
    if (!backend)
        return device.name() + " is not available: " + reason;
    std::unique_ptr<ProgramRunner> runner = target.makeRunner(*backend);
    ProgramRunner::Options options;
    options.interpreter = interpreterOptions;
    if (interpreterOptions.eagerDeletion)
        options.runInplace = MemoryModel::executorInplaceOps(
            target, device.isCuda() ? Place { Place::AllocType::Gpu, 0, {} } : MemoryModel::kCpu);
    std::string error;
    if (!sources.applyTo(target, m_decoder, options, error))
        return error;
    if (!runner->prepare(options, error))
        return error;
    Interpreter &interpreter = runner->interpreter();
    interpreter.addObserver(this);
    if (compareWithCpu)
        interpreter.setReferenceBackend(reference(*backend));
    {
        std::lock_guard lock(m_mutex);
        m_runner = std::move(runner);
        m_interpreter = &interpreter;
        m_coreIds.clear();
        for (const auto &[id, breakpoint] : m_breakpoints)
            install(breakpoint);
    }
    m_target = target;
    m_numberings.clear();
    m_numberings.resize(interpreter.segments().size());
    m_valuesByName.clear();
    m_namesIndexed = false;
    m_cause.clear();
    m_epoch = epoch;
    return {};
}

void DebugEngine::teardown()
{
    std::unique_ptr<ProgramRunner> old;
    {
        std::lock_guard lock(m_mutex);
        old = std::move(m_runner);
        m_interpreter = nullptr;
        m_coreIds.clear();
    }
    old.reset();
    m_numberings.clear();
    m_valuesByName.clear();
    m_namesIndexed = false;
    m_cause.clear();
    m_target = DebugTarget {};
}

bool DebugEngine::run(Command command, const std::optional<ProgramPosition> &cursor, uint64_t sequence)
{
    if (!m_interpreter)
        return false;
    m_cause.clear();
    m_runningSequence.store(sequence);
    // A stop requested before this run started (Interpreter::run resets its own flag).
    if (sequence <= m_stopUpTo.load())
        return false;
    StopInfo info;
    switch (command) {
    case Command::Continue:
        info = m_interpreter->continueRun();
        break;
    case Command::StepOver:
        info = m_interpreter->step();
        break;
    case Command::StepInto:
        info = m_interpreter->stepInto();
        break;
    case Command::StepOut:
        info = m_interpreter->stepOut();
        break;
    case Command::RunToCursor:
        info = cursor ? m_interpreter->runToCursor(*cursor) : m_interpreter->step();
        break;
    }
    if (info.reason == StopReason::NanInf && info.record && *info.record < m_interpreter->records().size())
        m_cause = nanCause(m_interpreter->records()[*info.record]);
    return true;
}

void DebugEngine::restart(uint64_t epoch)
{
    if (!m_interpreter)
        return;
    m_epoch = epoch;
    m_interpreter->restart();
    m_cause.clear();
}

bool DebugEngine::provideOutputs(const std::vector<std::string> &files, std::string &error)
{
    if (!m_interpreter || !m_interpreter->position()) {
        error = "the debugger is not paused at an op";
        return false;
    }
    return provideOutputs(*m_interpreter->position(), files, error);
}

bool DebugEngine::provideOutputs(
    const ProgramPosition &position, const std::vector<std::string> &files, std::string &error)
{
    if (!m_interpreter) {
        error = "no program is being debugged";
        return false;
    }
    std::vector<RuntimeValue> values;
    for (const std::string &file : files) {
        Tensor t = NpyIO::read(file, error);
        if (!t.defined())
            return false;
        values.emplace_back(std::move(t));
    }
    return m_interpreter->provideOutputs(position, std::move(values), error);
}

void DebugEngine::setCompareWithCpu(bool on)
{
    if (!m_interpreter)
        return;
    Backend &backend = m_interpreter->backend();
    m_interpreter->setReferenceBackend(on ? reference(backend) : nullptr);
}

DebugEngine::Snapshot DebugEngine::snapshot() const
{
    Snapshot s;
    s.epoch = m_epoch;
    if (!m_interpreter)
        return s;
    s.active = true;
    s.state = m_interpreter->state();
    s.position = m_interpreter->position();
    s.currentOp = m_interpreter->currentOp();
    s.frames = m_interpreter->frames();
    s.stop = m_interpreter->lastStop();
    s.error = m_interpreter->error();
    s.cause = m_cause;
    s.records = m_interpreter->records().size();
    s.opSeconds = m_interpreter->opSeconds();
    s.backendName = m_interpreter->backend().name();
    std::lock_guard lock(m_mutex);
    for (const auto &[id, core] : m_coreIds)
        if (core == s.stop.breakpointId)
            s.breakpointId = id;
    return s;
}

void DebugEngine::opExecuted(const OpRecord &record)
{
    if (m_sink)
        m_sink(m_epoch, record);
    if (m_interpreter && m_runningSequence.load() <= m_stopUpTo.load())
        m_interpreter->requestStop();
}

// --- Thread-safe ----------------------------------------------------------------------------------

void DebugEngine::requestStop(uint64_t sequence)
{
    uint64_t current = m_stopUpTo.load();
    while (current < sequence && !m_stopUpTo.compare_exchange_weak(current, sequence)) { }
    std::lock_guard lock(m_mutex);
    if (m_interpreter)
        m_interpreter->requestStop();
}

void DebugEngine::setBreakpoint(const DebugBreakpoint &breakpoint)
{
    std::lock_guard lock(m_mutex);
    m_breakpoints[breakpoint.id] = breakpoint;
    if (m_interpreter)
        install(breakpoint);
}

void DebugEngine::removeBreakpoint(int id)
{
    std::lock_guard lock(m_mutex);
    m_breakpoints.erase(id);
    auto it = m_coreIds.find(id);
    if (it == m_coreIds.end())
        return;
    if (m_interpreter)
        m_interpreter->breakpoints().remove(it->second);
    m_coreIds.erase(it);
}

void DebugEngine::install(const DebugBreakpoint &breakpoint)
{
    BreakpointSet &set = m_interpreter->breakpoints();
    auto it = m_coreIds.find(breakpoint.id);
    if (it != m_coreIds.end()) {
        set.remove(it->second);
        m_coreIds.erase(it);
    }
    int core = -1;
    switch (breakpoint.kind) {
    case DebugBreakpoint::Kind::Op:
        core = set.addOp(breakpoint.position);
        break;
    case DebugBreakpoint::Kind::NanInf:
        core = set.addNanInf();
        break;
    case DebugBreakpoint::Kind::NameRegex: {
        std::string error;
        core = set.addNameRegex(breakpoint.pattern, error);
        break;
    }
    }
    if (core < 0)
        return;
    if (!breakpoint.enabled)
        set.setEnabled(core, false);
    m_coreIds[breakpoint.id] = core;
}

} // namespace ps
