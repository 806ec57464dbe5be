// DebugSession: what to debug, the device and sources, and the breakpoints.

#include "core/analysis/namepattern.h"
#include "core/io/numbertext.h"
#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/pipelineresult.h"
#include "ui/debugger/debugsession.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>

namespace ps {

// --- Target ---------------------------------------------------------------------------------------

void DebugSession::setProgram(
    std::shared_ptr<const Program> program, const QString &path, std::shared_ptr<const TraceBundle> bundle)
{
    DebugTarget t;
    t.program = std::move(program);
    t.bundle = std::move(bundle);
    t.programPath = path.toStdString();
    setTarget(std::move(t));
}

void DebugSession::setPipeline(std::shared_ptr<const PipelineResult> pipeline,
    std::shared_ptr<const TraceBundle> bundle, const QString &programPath,
    std::shared_ptr<const Program> loaded)
{
    DebugTarget t;
    t.pipeline = pipeline;
    t.bundle = std::move(bundle);
    t.programPath = programPath.toStdString();
    setTarget(std::move(t), PipelineOpMap(std::move(loaded), std::move(pipeline)));
}

void DebugSession::clearTarget()
{
    setTarget(DebugTarget {});
}

void DebugSession::setTarget(DebugTarget target, PipelineOpMap map)
{
    if (m_built)
        stop();
    // Nothing the UI holds may point into the old programs once they are released.
    m_staleEpoch = m_lastEpoch;
    m_snapshot = DebugEngine::Snapshot {};
    m_snapshot.epoch = m_epoch;
    if (!m_records.empty()) {
        clearRecords();
        emit recordsReset();
    }
    // Op breakpoints on ops of the new programs stay (re-positioned), as do those on ops of the
    // loaded program and on their clones in a pipeline (moved onto the op that stands for them in
    // the new target); the others go. The old target still owns its programs here, so the
    // breakpoints' op pointers are valid.
    const std::vector<const Program *> programs = target.programs();
    auto segmentOf = [&programs](const Operation *op) {
        const Program *program = op && op->parentBlock() ? op->parentBlock()->program() : nullptr;
        return size_t(std::find(programs.begin(), programs.end(), program) - programs.begin());
    };
    bool changed = false;
    for (auto it = m_breakpoints.begin(); it != m_breakpoints.end();) {
        if (it->kind != DebugBreakpoint::Kind::Op) {
            ++it;
            continue;
        }
        const Operation *op = it->op;
        if (segmentOf(op) == programs.size() && m_opMap.toLoaded(op))
            op = m_opMap.toLoaded(op); // a clone in the old pipeline: its op of the loaded program
        if (segmentOf(op) == programs.size() && map.toSplit(op))
            op = map.toSplit(op); // an op of the loaded program: its clone in the new pipeline
        if (const size_t segment = segmentOf(op); segment < programs.size()) {
            const ProgramPosition position = ProgramPosition::of(op, segment);
            if (position != it->position || op != it->op) {
                it->op = op;
                it->position = position;
                m_engine->setBreakpoint(*it);
                changed = true;
            }
            ++it;
            continue;
        }
        m_engine->removeBreakpoint(it->id);
        it = m_breakpoints.erase(it);
        changed = true;
    }
    m_target = std::move(target);
    m_opMap = std::move(map);
    // The watches' values belonged to the old programs: not computed until the next stop.
    ++m_targetGeneration;
    for (DebugEngine::WatchValue &w : m_watchValues)
        w = DebugEngine::WatchValue { w.name, DebugEngine::WatchValue::State::Missing, {}, {}, {}, {} };
    findPdiparams(m_target);
    m_references = ReferenceFiles();
    if (m_target.bundle && m_target.pipeline)
        m_references = ReferenceFiles::forPipeline(*m_target.bundle, *m_target.pipeline);
    else if (m_target.bundle && m_target.program)
        m_references = ReferenceFiles::forProgram(*m_target.bundle, *m_target.program);

    // The user's choice stays while it applies to the new target; otherwise (and until the user
    // chooses) the target's own files: the bundle's .npy, the .pdiparams next to the program.
    DebugSources sources = m_sources;
    const DebugSources defaults = DebugSources::defaultsFor(m_target);
    if (!m_sourcesChosen || !sourceAvailable(sources.inputs))
        sources.inputs = defaults.inputs;
    if (!m_sourcesChosen || !sourceAvailable(sources.params))
        sources.params = defaults.params;
    m_sources = sources;
    m_startError.clear();
    if (changed)
        emit breakpointsChanged();
    emit sourcesChanged();
    emit targetChanged();
    emit watchesUpdated();
}

void DebugSession::findPdiparams(DebugTarget &target)
{
    const QString path = QString::fromStdString(target.programPath);
    m_configWarning.clear();
    if (!path.startsWith(QLatin1Char(':'))) {
        DiagnosticList warnings;
        target.findCompanions(warnings);
        if (!warnings.empty())
            m_configWarning = QString::fromStdString(warnings[0].toString());
        return;
    }
    target.pdiparamsPath.clear();
    target.config.reset();
    const QFileInfo program(path);
    const QString candidate = program.path() + QLatin1Char('/') + program.completeBaseName() + ".pdiparams";
    if (!QFile::exists(candidate))
        return;
    // A resource: the core reads files, so copy it out once.
    if (!m_tempDir)
        m_tempDir = std::make_unique<QTemporaryDir>();
    const QString copy = m_tempDir->filePath(QFileInfo(candidate).fileName());
    if (QFile::exists(copy) || QFile::copy(candidate, copy))
        target.pdiparamsPath = copy.toStdString();
}

std::vector<const Program *> DebugSession::segmentPrograms() const
{
    return m_target.programs();
}

QString DebugSession::segmentName(size_t segment) const
{
    if (segmentPrograms().size() < 2)
        return tr("program");
    return segment == 0 ? tr("forward") : tr("backward");
}

std::optional<ProgramPosition> DebugSession::positionOf(const Operation *op) const
{
    if (!op || !op->parentBlock())
        return std::nullopt;
    const Program *program = op->parentBlock()->program();
    const std::vector<const Program *> programs = segmentPrograms();
    for (size_t i = 0; i < programs.size(); ++i) {
        if (programs[i] != program)
            continue;
        ProgramPosition p = ProgramPosition::of(op, i);
        if (p.valid())
            return p;
    }
    if (const Operation *clone = m_opMap.toSplit(op))
        return positionOf(clone);
    return std::nullopt;
}

const Operation *DebugSession::opAt(const ProgramPosition &position) const
{
    const std::vector<const Program *> programs = segmentPrograms();
    return position.segment < programs.size() ? position.resolve(*programs[position.segment]) : nullptr;
}

// --- Configuration --------------------------------------------------------------------------------

bool DebugSession::setDeviceIndex(int index)
{
    if (index < 0 || size_t(index) >= m_devices.size() || !m_devices[size_t(index)].available)
        return false;
    if (index == m_device)
        return true;
    if (m_built)
        stop();
    m_device = index;
    emit devicesChanged();
    return true;
}

void DebugSession::setSources(const DebugSources &sources)
{
    m_sourcesChosen = true;
    if (sources == m_sources)
        return;
    if (m_built)
        stop();
    m_sources = sources;
    m_startError.clear();
    emit sourcesChanged();
}

std::vector<InputShape> DebugSession::inputShapes(QStringList *errors) const
{
    std::vector<std::string> why;
    std::vector<InputShape> shapes = m_sources.inputShapes(m_target, why);
    if (errors)
        for (const std::string &e : why)
            *errors << QString::fromStdString(e);
    return shapes;
}

QString DebugSession::setShapes(const std::map<std::string, std::vector<int64_t>> &shapes)
{
    if (shapes != m_sources.shapes) {
        if (m_built)
            stop();
        m_sources.shapes = shapes;
        m_startError.clear();
        emit sourcesChanged();
    }
    QStringList errors;
    inputShapes(&errors);
    return errors.join(QStringLiteral("; "));
}

bool DebugSession::sourceAvailable(DebugSources::Kind kind) const
{
    return DebugSources::available(kind, m_target);
}

void DebugSession::setCompareWithCpu(bool on)
{
    if (on == m_compareWithCpu)
        return;
    m_compareWithCpu = on;
    if (m_built)
        queue([on](DebugEngine &engine, bool &) {
            engine.setCompareWithCpu(on);
            return QString();
        });
}

// --- Breakpoints ----------------------------------------------------------------------------------

int DebugSession::addBreakpoint(DebugBreakpoint breakpoint)
{
    breakpoint.id = m_nextBreakpointId++;
    m_breakpoints.push_back(breakpoint);
    m_engine->setBreakpoint(breakpoint);
    emit breakpointsChanged();
    return breakpoint.id;
}

int DebugSession::breakpointAt(const ProgramPosition &position) const
{
    for (const DebugBreakpoint &b : m_breakpoints)
        if (b.kind == DebugBreakpoint::Kind::Op && b.position == position)
            return b.id;
    return -1;
}

bool DebugSession::toggleBreakpoint(const ProgramPosition &position)
{
    const int existing = breakpointAt(position);
    if (existing >= 0) {
        removeBreakpoint(existing);
        return false;
    }
    const Operation *op = opAt(position);
    if (!op)
        return false;
    DebugBreakpoint b;
    b.kind = DebugBreakpoint::Kind::Op;
    b.position = position;
    b.op = op;
    addBreakpoint(b);
    return true;
}

bool DebugSession::toggleBreakpointAt(const Operation *op)
{
    const std::optional<ProgramPosition> position = positionOf(op);
    return position && toggleBreakpoint(*position);
}

int DebugSession::addNameBreakpoint(const QString &pattern, QString *error)
{
    std::string why;
    const std::optional<NamePattern> compiled = NamePattern::compile(pattern.toStdString(), why);
    if (!compiled) {
        if (error)
            *error = QString::fromStdString(why);
        return -1;
    }
    DebugBreakpoint b;
    b.kind = DebugBreakpoint::Kind::NameRegex;
    b.pattern = pattern.toStdString();
    const int id = addBreakpoint(b);
    size_t matches = 0;
    for (const Program *p : m_target.programs())
        matches += p ? compiled->matchingOps(*p, false).size() : 0;
    if (m_target.valid() && matches == 0)
        emit warning(
            tr("Breakpoint %1: no op writes a value whose name matches it; the session will not stop there")
                .arg(QString::fromStdString(NumberText::quote(pattern.toStdString()))));
    return id;
}

bool DebugSession::removeBreakpoint(int id)
{
    auto it = std::find_if(
        m_breakpoints.begin(), m_breakpoints.end(), [id](const auto &b) { return b.id == id; });
    if (it == m_breakpoints.end())
        return false;
    m_breakpoints.erase(it);
    m_engine->removeBreakpoint(id);
    emit breakpointsChanged();
    return true;
}

bool DebugSession::setBreakpointEnabled(int id, bool enabled)
{
    for (DebugBreakpoint &b : m_breakpoints) {
        if (b.id != id)
            continue;
        if (b.enabled != enabled) {
            b.enabled = enabled;
            m_engine->setBreakpoint(b);
            emit breakpointsChanged();
        }
        return true;
    }
    return false;
}

void DebugSession::setBreakOnNanInf(bool on)
{
    auto it = std::find_if(m_breakpoints.begin(), m_breakpoints.end(),
        [](const auto &b) { return b.kind == DebugBreakpoint::Kind::NanInf; });
    if (it == m_breakpoints.end()) {
        if (on) {
            DebugBreakpoint b;
            b.kind = DebugBreakpoint::Kind::NanInf;
            addBreakpoint(b);
        }
        return;
    }
    if (on)
        setBreakpointEnabled(it->id, true);
    else
        removeBreakpoint(it->id);
}

bool DebugSession::breakOnNanInf() const
{
    return std::any_of(m_breakpoints.begin(), m_breakpoints.end(),
        [](const auto &b) { return b.kind == DebugBreakpoint::Kind::NanInf && b.enabled; });
}

} // namespace ps
