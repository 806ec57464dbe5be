#pragma once

#include "ui/common/nodemarks.h"

#include <QObject>
#include <memory>

namespace ps {

class DebugSession;
class TargetShapes;

/// What the graph views show of a debug session, as NodeMarks per op: the op the session stands
/// at (current, or failed), the ops with op breakpoints, the ops that produced NaN/Inf, each
/// executed op's latest wall and device time and result shapes, and with the time overlay on
/// its share of the run's time, and the shapes inferred for results with dynamic dims. Recomputed once per
/// stop (not per op while running); marksChanged() tells the views to apply marks() (GraphScene::setOpMarks).
class GraphMarks : public QObject
{
    Q_OBJECT

public:
    explicit GraphMarks(DebugSession *session, QObject *parent = nullptr);

    const OpMarks &marks() const { return m_marks; }
    /// No marks for `op` gives an empty NodeMarks.
    NodeMarks marksOf(const Operation *op) const;
    /// Recomputes now (normally done on the next event-loop turn after a change).
    void recompute();

    /// The concrete shapes of the target's values inferred from the session's input shapes
    /// (TargetShapes), redone when the target or the sources change; never null.
    std::shared_ptr<const TargetShapes> shapes() const { return m_shapes; }
    /// NodeMarks::inferredShapes/shapeUnknown of the target's ops with dynamic result dims, kept
    /// apart from marks() (the views merge them: MainWindowDebugger::applyMarks).
    const OpMarks &shapeMarks() const { return m_shapeMarks; }

    /// The time overlay: executed ops carry NodeMarks::timeShare (the views colour them by it).
    void setTimeOverlay(bool on);
    bool timeOverlay() const { return m_timeOverlay; }

signals:
    void marksChanged();
    /// shapes() and shapeMarks() were inferred again.
    void shapesChanged();

private:
    void schedule();
    /// Infers shapes() and the marks carrying them (NodeMarks::inferredShapes). O(ops).
    void inferShapes();

    DebugSession *m_session;
    OpMarks m_marks;
    std::shared_ptr<const TargetShapes> m_shapes;
    OpMarks m_shapeMarks;
    bool m_scheduled = false;
    bool m_timeOverlay = false;
};

} // namespace ps
