#pragma once

#include "core/graph/graphmodel.h"
#include "core/graph/groupexpansion.h"
#include "ui/render/graphlayout.h"
#include "ui/render/graphstyle.h"

#include <QElapsedTimer>
#include <QGraphicsView>
#include <memory>

class QFrame;
class QLabel;
class QPushButton;
class QTimer;

namespace ps {

class GraphFinder;
class GraphMinimap;
class GraphScene;
class GraphSearchBar;
class GraphvizLayout;

/// Shows a GraphModel with its layer groups: lays it out on the Graphviz thread (progress and a
/// Cancel button meanwhile), then fills the GraphScene. Big graphs open with their layers
/// collapsed (GroupExpansion::defaults) and a line saying so; a double-click opens or closes a
/// layer, laying out only what changed. Wheel zooms under the cursor, dragging the background
/// pans, F / Ctrl+0 fit the graph, Ctrl+F finds ops (next/previous, a count, and each match
/// opened and zoomed to a readable size), a minimap shows where the view is.
class GraphView : public QGraphicsView
{
    Q_OBJECT

public:
    explicit GraphView(QWidget *parent = nullptr);
    ~GraphView() override;

    GraphScene *graphScene() const { return m_scene; }
    GraphvizLayout *layoutEngine() const { return m_layout; }
    GraphMinimap *minimap() const { return m_minimap; }
    GraphSearchBar *searchBar() const;
    GraphFinder *finder() const { return m_finder; }

    /// Starts laying out `model`; the current graph stays visible until the layout finishes.
    /// Layers open as they were when the previous model had the same layers (a pass toggled),
    /// else by GroupExpansion::defaults.
    void showGraph(std::shared_ptr<const GraphModel> model);
    /// As showGraph(model), also opening the layers around `open` (in that order) while the
    /// picture stays within kRevealBudget boxes: a pass diff opens the layers it changed.
    void showGraph(std::shared_ptr<const GraphModel> model, const std::vector<int> &open);
    static constexpr size_t kRevealBudget = 1500;
    void clearGraph();
    bool isLayoutRunning() const;
    void cancelLayout();
    /// DOT `splines` value used for the next layout; "spline" by default.
    void setSplines(const QString &splines);
    void setGraphStyle(const GraphStyle &style);

    const GroupExpansion &expansion() const { return m_expansion; }
    /// Lays out again with `expansion`, keeping `anchorGroup` (if >= 0) where it is on screen.
    /// Refused (false, with a notice in the summary line) when it would draw more than
    /// maxShownItems() boxes: one Graphviz pass over a 100,000-op program takes minutes and a
    /// scene of that many items does not pan smoothly.
    bool setExpansion(const GroupExpansion &expansion, int anchorGroup = -1);
    void setGroupExpanded(int group, bool expanded);
    void toggleGroup(int group);
    /// Opens every layer (refused, as setExpansion is, above maxShownItems()). Both keep the op
    /// the user was looking at (the selected one, else the one nearest the view's centre) where
    /// it was on screen, at the same zoom.
    bool expandAll();
    void collapseAll();
    /// Opens the layers around `node` (a chip: its consumer) and centres it; `readable` zooms in
    /// to kReadableZoom when the view is farther out; `select` selects it as a click would.
    void revealNode(int node, bool readable, bool select);
    /// Centres `op`, opening the layers around it and zooming in to a readable size first.
    void centerOnOp(const Operation *op);
    /// What a selection made in another panel does: opens the layers around `nodes` (a chip:
    /// its consumer; all of them while within maxShownItems(), else the first), zooms in to
    /// kReadableZoom when farther out and centres them, all together when they fit the view at
    /// that zoom, else the first. Nothing moves when they are drawn, in view and readable.
    void bringIntoView(const std::vector<int> &nodes);
    /// bringIntoView() of the nodes of `ops` (ops not in the graph are skipped).
    void bringOpsIntoView(const std::vector<const Operation *> &ops);
    /// bringIntoView() of `value`'s producer, or of its argument node (else its first chip).
    void bringValueIntoView(Value value);
    /// "312 of 2,641 ops shown · 14 layers closed"; empty when everything is shown.
    QString summary() const;
    /// Why the last expansion was refused; empty after one that was laid out.
    QString notice() const { return m_notice; }
    size_t maxShownItems() const { return m_maxShownItems; }
    void setMaxShownItems(size_t items) { m_maxShownItems = items; }
    /// Boxes (ops and closed layers) the view draws at most: the 20,000-op train program opened
    /// whole (15,000 boxes) lays out in about 5 s.
    static constexpr size_t kMaxShownItems = 30000;

    /// The whole graph (every layer open unless `asShown`) as PNG (twice the screen scale) or
    /// SVG (labels as text), by the file's suffix.
    bool exportGraph(const QString &path, bool asShown, QString *error = nullptr);
    bool exportPng(const QString &path) { return exportGraph(path, false); }
    bool exportSvg(const QString &path) { return exportGraph(path, false); }

    void fitGraph();
    /// The view a freshly laid out graph opens with; again after the view was resized.
    void showInitialView();
    /// Centres on `item` unless it is wholly in view already (null: nothing), so following a
    /// selection made in this view does not move it.
    void reveal(const QGraphicsItem *item);
    /// Zooms by `factor` around the view centre, clamped to [kMinZoom, kMaxZoom].
    void zoomBy(double factor);
    /// Zooms by `factor` keeping the scene point under `viewportPos` in place (wheel zoom).
    void zoomAt(double factor, const QPointF &viewportPos);
    double zoom() const;

    static constexpr double kMinZoom = 0.005;
    static constexpr double kMaxZoom = 8.0;
    /// Every label line is legible from here on.
    static constexpr double kReadableZoom = 1.0;

signals:
    /// `seconds`: from the request to the scene being filled; `fromCache`: no group needed
    /// Graphviz.
    void layoutFinished(double seconds, bool fromCache);
    void layoutFailed(const QString &message);
    void layoutCanceled();
    void summaryChanged(const QString &summary);

protected:
    void wheelEvent(QWheelEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void scrollContentsBy(int dx, int dy) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    /// The graph's colours follow the palette (light or dark).
    void changeEvent(QEvent *event) override;

private:
    /// Whether the view lays out `expansion`; false sets notice() (too many boxes).
    bool admits(const GroupExpansion &expansion);
    /// What to keep in place when a new layout of the same model arrives.
    struct Anchor
    {
        enum Kind { Initial, Group, Node } kind = Initial;
        int id = -1;
        std::vector<int> more; ///< Node: shown with `id` when they fit the view together
        QPointF screen; ///< where the group's top-left was (Group)
        bool readable = false; ///< Node: zoom in to kReadableZoom
        bool select = false; ///< Node: select it as a click would
        bool keepOnScreen = false; ///< Node: back where `screen` says, not centred
    };

    void requestLayout(const Anchor &anchor);
    /// Lays out `expansion` keeping the op the user looks at in place (expandAll, collapseAll).
    bool relayoutInPlace(const GroupExpansion &expansion);
    /// The selected op's node when it is drawn, else the node drawn nearest the view's centre (a
    /// closed layer stands for its first op); -1 for an empty scene.
    int nodeInSight() const;
    void onLayoutFinished(quint64 generation, std::shared_ptr<const GraphLayout> layout);
    void applyAnchor();
    /// After a layer is opened: zooms out (down to FirstView::kUsableZoom) and scrolls so that
    /// its frame is in view, or at least its top-left corner when it cannot fit.
    void bringOpenedIntoView(const QRectF &frame);
    void setOverlayVisible(bool visible);
    void placeOverlays();
    void updateSummary();

    GraphScene *m_scene;
    GraphvizLayout *m_layout;
    std::shared_ptr<const GraphModel> m_model; ///< the model being shown or laid out
    GroupExpansion m_expansion;
    bool m_keepOpened = false; ///< the first layout keeps the layers showGraph opened
    size_t m_maxShownItems = kMaxShownItems;
    QString m_notice;
    Anchor m_anchor;
    QString m_splines = QStringLiteral("spline");
    QElapsedTimer m_timer;
    QTimer *m_overlayDelay;
    QFrame *m_overlay;
    QLabel *m_overlayLabel;
    QPushButton *m_cancelButton;
    QLabel *m_summary;
    GraphMinimap *m_minimap;
    QSize m_lastMinimapLimit;
    GraphFinder *m_finder;
};

} // namespace ps
