#pragma once

#include "core/graph/diffgraph.h"
#include "ui/common/nodemarks.h"

#include <QWidget>
#include <memory>

class QLabel;
class QToolButton;

namespace ps {

class GraphView;
class Operation;

/// The graph diff of one pass step: one DiffGraph (the program after the pass plus the ops it
/// removed) laid out once, shown as the program Before the pass (added ops faded), the Diff
/// (removed ops red, added green, changed amber, each with a − + ~ badge) or the program After
/// it (removed ops faded). Switching between the three never moves an op. Selecting an added
/// op highlights the removed ops it was made from (and a removed op the ops that replaced it).
class PassDiffView : public QWidget
{
    Q_OBJECT

public:
    enum class Mode { Before, Diff, After };

    explicit PassDiffView(QWidget *parent = nullptr);

    /// Shows `graph` (laid out on the Graphviz thread); null clears. `message` replaces the
    /// graph with a sentence (why there is no diff).
    void setDiffGraph(std::shared_ptr<const DiffGraph> graph);
    void showMessage(const QString &message);
    std::shared_ptr<const DiffGraph> diffGraph() const { return m_graph; }

    void setMode(Mode mode);
    Mode mode() const { return m_mode; }
    GraphView *graphView() const { return m_view; }
    /// The marks applied to the scene (by op of the DiffGraph's program).
    const OpMarks &marks() const { return m_marks; }
    /// "conv2d (added) ⇐ ..." for the selected op; empty when none is selected.
    QString selectionText() const;
    QLabel *summaryLabel() const { return m_summary; }

    /// Selects an op of the DiffGraph's program, as a click would.
    void selectOp(const Operation *op);

signals:
    void opSelected(const ps::Operation *op);

private:
    void applyMarks();
    void fadeEdges();
    void onOpSelected(const Operation *op);

    std::shared_ptr<const DiffGraph> m_graph;
    Mode m_mode = Mode::Diff;
    OpMarks m_marks;
    GraphView *m_view;
    QLabel *m_summary;
    QLabel *m_selection;
    QLabel *m_message;
    QToolButton *m_modeButtons[3];
};

} // namespace ps
