#pragma once

#include "core/graph/diffgraph.h"
#include "ui/common/nodemarks.h"

#include <QWidget>
#include <memory>
#include <vector>

class QAction;
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

    /// The graph's nodes of removed, added and changed ops, in program order. Their layers open
    /// by themselves (GraphView::kRevealBudget boxes at most); a layer left closed shows its
    /// counts, and the first picture is centred on the first change.
    const std::vector<int> &changeNodes() const { return m_changeNodes; }
    /// Opens, centres at a readable zoom and selects the next (`step` 1) or previous (-1)
    /// change, wrapping around; F8 / Shift+F8. The index in changeNodes(), -1 when none.
    int goToChange(int step);
    int currentChange() const { return m_changeCursor; }
    /// F8 and Shift+F8 (WidgetWithChildrenShortcut): the pass view adds them to itself too.
    QAction *nextChangeAction() const { return m_nextChange; }
    QAction *previousChangeAction() const { return m_previousChange; }

signals:
    void opSelected(const ps::Operation *op);

private:
    void applyMarks();
    void fadeEdges();
    void onOpSelected(const Operation *op);

    std::shared_ptr<const DiffGraph> m_graph;
    std::vector<int> m_changeNodes;
    int m_changeCursor = -1;
    bool m_firstView = false; ///< centre the next finished layout on the first change
    Mode m_mode = Mode::Diff;
    OpMarks m_marks;
    GraphView *m_view;
    QLabel *m_summary;
    QLabel *m_selection;
    QLabel *m_message;
    QToolButton *m_modeButtons[3];
    QAction *m_nextChange;
    QAction *m_previousChange;
};

} // namespace ps
