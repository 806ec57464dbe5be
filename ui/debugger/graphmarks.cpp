#include "ui/debugger/graphmarks.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/session/targetshapes.h"
#include "ui/debugger/debugsession.h"

#include <QTimer>
#include <unordered_map>

namespace ps {

GraphMarks::GraphMarks(DebugSession *session, QObject *parent)
    : QObject(parent)
    , m_session(session)
{
    connect(session, &DebugSession::stateChanged, this, &GraphMarks::schedule);
    connect(session, &DebugSession::stoppedAt, this, &GraphMarks::schedule);
    connect(session, &DebugSession::breakpointsChanged, this, &GraphMarks::schedule);
    connect(session, &DebugSession::recordsReset, this, &GraphMarks::schedule);
    connect(session, &DebugSession::targetChanged, this, &GraphMarks::schedule);
    connect(session, &DebugSession::targetChanged, this, &GraphMarks::inferShapes);
    connect(session, &DebugSession::sourcesChanged, this, &GraphMarks::inferShapes);
    inferShapes();
}

void GraphMarks::inferShapes()
{
    auto shapes
        = std::make_shared<TargetShapes>(TargetShapes::infer(m_session->target(), m_session->inputShapes()));
    OpMarks marks;
    for (const Program *program : m_session->target().programs()) {
        program->block().walk([&](Operation *op) {
            bool dynamic = false;
            for (unsigned r = 0; r < op->numResults() && !dynamic; ++r) {
                const Type t = op->result(r).type();
                dynamic = t && t.isTensorLike() && t.numElements() < 0;
            }
            if (!dynamic)
                return;
            NodeMarks &m = marks[op];
            for (unsigned r = 0; r < op->numResults(); ++r) {
                const InferredShape *s = shapes->shape(op->result(r));
                m.inferredShapes.push_back(s && s->known() ? s->dims : std::vector<int64_t>());
                if (s && !s->known() && m.shapeUnknown.empty())
                    m.shapeUnknown = s->whyUnknown;
            }
        });
    }
    m_shapes = std::move(shapes);
    m_shapeMarks = std::move(marks);
    emit shapesChanged();
}

NodeMarks GraphMarks::marksOf(const Operation *op) const
{
    auto it = m_marks.find(op);
    return it == m_marks.end() ? NodeMarks {} : it->second;
}

void GraphMarks::schedule()
{
    if (m_scheduled)
        return;
    m_scheduled = true;
    QTimer::singleShot(0, this, &GraphMarks::recompute);
}

void GraphMarks::setTimeOverlay(bool on)
{
    if (m_timeOverlay == on)
        return;
    m_timeOverlay = on;
    recompute();
}

void GraphMarks::recompute()
{
    m_scheduled = false;
    OpMarks marks;
    std::unordered_map<const Operation *, double> seconds;
    double total = 0;
    for (const OpRecord &r : m_session->records()) {
        if (!r.op)
            continue;
        NodeMarks &m = marks[r.op];
        m.milliseconds = r.hostSeconds * 1000.0;
        m.deviceMilliseconds = r.deviceSeconds * 1000.0;
        m.nonFinite = m.nonFinite || r.hasNanInf;
        m.runtimeShapes = r.outputShapes;
        // A control-flow op's time includes its region's ops, which have records of their own.
        if (m_timeOverlay && r.kind != OpRecord::Kind::ControlFlow) {
            seconds[r.op] += r.deviceSeconds;
            total += r.deviceSeconds;
        }
    }
    if (m_timeOverlay)
        for (const auto &[op, s] : seconds)
            marks[op].timeShare = total > 0 ? float(s / total) : 0.f;
    for (const DebugBreakpoint &b : m_session->breakpoints()) {
        if (b.kind != DebugBreakpoint::Kind::Op || !b.op)
            continue;
        NodeMarks &m = marks[b.op];
        m.breakpoint = true;
        m.breakpointDisabled = !b.enabled;
    }
    const DebugSession::State state = m_session->state();
    if (const Operation *current = m_session->currentOp();
        current && (state == DebugSession::State::Paused || state == DebugSession::State::Error)) {
        NodeMarks &m = marks[current];
        m.current = true;
        m.error = state == DebugSession::State::Error;
    }
    if (marks == m_marks)
        return;
    m_marks = std::move(marks);
    emit marksChanged();
}

} // namespace ps
