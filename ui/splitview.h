#pragma once

#include "core/ir/operation.h" // complete type for the signals' meta types
#include "ui/common/itemroles.h"

#include <QWidget>
#include <memory>

class QFrame;
class QLabel;
class QSplitter;
class QTableView;

namespace ps {

class CrossingValuesModel;
class TargetShapes;
struct MemoryReport;
class GraphView;
struct PipelineSnapshot;

/// The split programs side by side: the forward graph, the cut (every value the backward reads
/// from the forward, with its size and no-need-buffer flag) and the backward graph, in a
/// QSplitter. Selecting a forward op highlights the grad ops made from it in the backward graph;
/// selecting a grad op highlights its forward op. Graphs are laid out only while the view is
/// visible, so a hidden split view costs no Graphviz time.
class SplitView : public QWidget
{
    Q_OBJECT

public:
    explicit SplitView(QWidget *parent = nullptr);
    ~SplitView() override;

    /// Shows `snapshot` (null clears); a failed or empty pipeline shows its notice.
    void setSnapshot(std::shared_ptr<const PipelineSnapshot> snapshot);
    /// Shapes inferred from the input shapes for the snapshot's pipeline (the debug session's
    /// target): the cut's bytes and its "kept" total become concrete where the types are dynamic.
    void setShapes(std::shared_ptr<const TargetShapes> shapes);
    std::shared_ptr<const PipelineSnapshot> snapshot() const { return m_snapshot; }

    GraphView *forwardView() const { return m_forward; }
    GraphView *backwardView() const { return m_backward; }
    /// The graph of a split side; nullptr for Origin.
    GraphView *view(ProgramSide side) const;
    QTableView *cutView() const { return m_cutView; }
    CrossingValuesModel *cutModel() const { return m_cutModel; }
    QLabel *noticeLabel() const { return m_notice; }
    QLabel *cutSummaryLabel() const { return m_cutSummary; }
    QSplitter *splitter() const { return m_splitter; }

    /// How a selection moves its graph: Keep (picked in that graph) only scrolls to an op out
    /// of view; Readable (picked in another panel) opens its layers and zooms in to read it
    /// (GraphView::bringIntoView). The other pane's linked ops are always brought into view.
    enum class Reveal { Keep, Readable };
    /// Selects `op` in its side's graph and highlights the linked ops on the other side (the
    /// grad ops of a forward op, the forward op of a grad op), opening their layers and bringing
    /// them into view. No signal is emitted.
    void selectOp(ProgramSide side, const Operation *op, Reveal reveal = Reveal::Readable);
    /// Highlights `value`'s edges and selects the node of `at` (an op using or producing it),
    /// else of its producer, or for a keyword argument its argument node. No signal is emitted.
    void selectValue(
        ProgramSide side, Value value, const Operation *at = nullptr, Reveal reveal = Reveal::Readable);
    /// The grad ops made from a forward op / the forward op of a grad op (empty without links).
    std::vector<const Operation *> linkedOps(ProgramSide side, const Operation *op) const;
    /// Whether a layout for the current snapshot is still to come.
    bool isLayoutPending() const { return m_layoutsRunning > 0 || m_layoutWanted; }
    /// Shares the width out by what the panes hold: the cut as wide as its columns (at most a
    /// third), the rest to the two graphs in proportion to their widths, so a small graph is
    /// not clipped beside a big one; then shows each graph afresh. Without a backward (infer
    /// mode, nothing to differentiate) the forward graph gets the whole width. Runs when both
    /// layouts finish and when the view is resized a lot.
    void fitPanes();
    QWidget *forwardPane() const { return m_forwardPane; }
    QWidget *backwardPane() const { return m_backwardPane; }
    QFrame *cutPane() const { return m_cutPane; }

signals:
    void opSelected(ps::ProgramSide side, ps::Operation *op);
    void valueSelected(ps::ProgramSide side, ps::Value value);
    /// Both graphs of the current snapshot are laid out (or failed or were canceled).
    void layoutsFinished();

protected:
    void showEvent(QShowEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    void startLayouts();
    void onLayoutEnded();
    void onOpSelected(ProgramSide side, Operation *op);
    void onCutRowChanged(const QModelIndex &current);
    void updateHeaders();

    std::shared_ptr<const PipelineSnapshot> m_snapshot;
    std::shared_ptr<const TargetShapes> m_shapes;
    /// The snapshot's memory model with the inferred sizes (null without shapes).
    std::shared_ptr<const MemoryReport> m_inferredMemory;
    QSplitter *m_splitter;
    GraphView *m_forward;
    GraphView *m_backward;
    QLabel *m_forwardTitle;
    QLabel *m_backwardTitle;
    QLabel *m_notice;
    QWidget *m_forwardPane;
    QWidget *m_backwardPane;
    QFrame *m_cutPane;
    QLabel *m_cutSummary;
    QTableView *m_cutView;
    CrossingValuesModel *m_cutModel;
    bool m_layoutWanted = false;
    int m_layoutsRunning = 0;
    int m_fittedWidth = 0; ///< the width fitPanes() last shared out
};

} // namespace ps
