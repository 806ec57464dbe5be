#include "ui/graphview.h"

#include "ui/graphfinder.h"
#include "ui/graphgroupitem.h"
#include "ui/graphminimap.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphsearchbar.h"
#include "ui/render/firstview.h"
#include "ui/render/graphexporter.h"
#include "ui/render/graphvizlayout.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QTimer>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ps {

namespace {

/// Where a graph opens when even its closed layers fitted whole would be too small to read: op
/// titles (drawn enlarged, GraphStyle::kDetailLod) read well here.
constexpr double kFirstViewZoom = 0.6;
/// An expansion that finishes faster than this shows no progress overlay (no flicker).
constexpr int kOverlayDelayMs = 300;

} // namespace

GraphView::GraphView(QWidget *parent)
    : QGraphicsView(parent)
    , m_scene(new GraphScene(this))
    , m_layout(new GraphvizLayout(this))
    , m_overlayDelay(new QTimer(this))
{
    setScene(m_scene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState | QGraphicsView::DontAdjustForAntialiasing);
    setCacheMode(QGraphicsView::CacheBackground);
    setFocusPolicy(Qt::StrongFocus);
    m_scene->setStyle(GraphStyle::forPalette(palette()));
    m_layout->setStyle(m_scene->style());

    m_overlay = new QFrame(this);
    m_overlay->setObjectName(QStringLiteral("layoutOverlay"));
    m_overlay->setFrameShape(QFrame::StyledPanel);
    m_overlay->setAutoFillBackground(true);
    auto *row = new QHBoxLayout(m_overlay);
    m_overlayLabel = new QLabel(m_overlay);
    auto *progress = new QProgressBar(m_overlay);
    progress->setRange(0, 0); // busy: gvLayout reports no progress
    progress->setFixedWidth(120);
    m_cancelButton = new QPushButton(tr("Cancel"), m_overlay);
    m_cancelButton->setObjectName(QStringLiteral("cancelLayoutButton"));
    row->addWidget(m_overlayLabel);
    row->addWidget(progress);
    row->addWidget(m_cancelButton);
    m_overlay->hide();
    m_overlayDelay->setSingleShot(true);
    connect(m_overlayDelay, &QTimer::timeout, this, [this] { setOverlayVisible(m_layout->isBusy()); });

    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("graphSummary"));
    m_summary->setAutoFillBackground(true);
    m_summary->setContentsMargins(6, 2, 6, 2);
    m_summary->setWordWrap(true);
    m_summary->hide();
    m_minimap = new GraphMinimap(this);
    m_finder = new GraphFinder(this);

    connect(m_cancelButton, &QPushButton::clicked, this, &GraphView::cancelLayout);
    connect(m_layout, &GraphvizLayout::finished, this, &GraphView::onLayoutFinished);
    connect(m_layout, &GraphvizLayout::progress, this, [this](quint64, int done, int total) {
        if (total > 1)
            m_overlayLabel->setText(tr("Laying out layer %1 of %2\u2026").arg(done + 1).arg(total));
    });
    connect(m_layout, &GraphvizLayout::failed, this, [this](quint64, const QString &message) {
        m_overlayDelay->stop();
        setOverlayVisible(false);
        emit layoutFailed(message);
    });
    connect(m_layout, &GraphvizLayout::canceled, this, [this](quint64) {
        m_overlayDelay->stop();
        setOverlayVisible(false);
        if (m_scene->sharedModel() != m_model)
            m_model = m_scene->sharedModel(); // keep showing (and expanding) what is on screen
        if (const GraphLayout *shown = m_scene->graphLayout())
            m_expansion = shown->expansion;
        emit layoutCanceled();
    });
    connect(m_scene, &GraphScene::groupToggleRequested, this, &GraphView::toggleGroup);
}

GraphView::~GraphView() = default;

GraphSearchBar *GraphView::searchBar() const
{
    return m_finder->bar();
}

void GraphView::setSplines(const QString &splines)
{
    m_splines = splines;
}

void GraphView::setGraphStyle(const GraphStyle &style)
{
    const bool resized = style.nodeFont() != m_scene->style().nodeFont()
        || style.ghostFont() != m_scene->style().ghostFont()
        || style.groupFont() != m_scene->style().groupFont();
    m_scene->setStyle(style);
    m_layout->setStyle(style);
    if (m_model && resized)
        requestLayout({ Anchor::Group, -1, {}, {} });
    m_minimap->refresh();
}

void GraphView::showGraph(std::shared_ptr<const GraphModel> model)
{
    showGraph(std::move(model), {});
}

void GraphView::showGraph(std::shared_ptr<const GraphModel> model, const std::vector<int> &open)
{
    m_timer.start();
    if (!model) {
        clearGraph();
        return;
    }
    GroupExpansion expansion = GroupExpansion::defaults(*model);
    if (m_model && m_model != model) {
        const GroupExpansion carried = GroupExpansion::fromPaths(*model, m_expansion.expandedPaths(*m_model));
        if (!carried.expandedPaths(*model).empty())
            expansion = carried;
    }
    m_keepOpened = false;
    // O(groups + nodes) per node that opens a layer (the budget check); one that would not fit
    // is left closed and the next ones are tried.
    for (int node : open) {
        if (node < 0 || size_t(node) >= model->nodes.size())
            continue;
        const GraphNode &n = model->nodes[size_t(node)];
        GroupExpansion opened = expansion;
        opened.reveal(*model, n.ghost && n.attachedTo >= 0 ? n.attachedTo : node);
        if (opened == expansion)
            continue;
        if (opened.visibleItemCount(*model) > std::min(kRevealBudget, m_maxShownItems))
            continue;
        expansion = std::move(opened);
        m_keepOpened = true;
    }
    m_model = std::move(model);
    m_expansion = expansion;
    m_overlayLabel->setText(
        tr("Laying out %1 ops\u2026").arg(QLocale().toString(qulonglong(m_model->opNodeCount()))));
    requestLayout({});
}

void GraphView::clearGraph()
{
    if (m_layout->isBusy())
        m_layout->cancel();
    m_model.reset();
    m_scene->clearGraph();
    m_finder->reset();
    m_minimap->refresh();
    updateSummary();
}

bool GraphView::isLayoutRunning() const
{
    return m_layout->isBusy();
}

void GraphView::cancelLayout()
{
    m_layout->cancel();
}

void GraphView::requestLayout(const Anchor &anchor)
{
    m_anchor = anchor;
    DotWriterOptions options;
    options.splines = m_splines.toStdString();
    options.fontName = m_scene->style().nodeFont().family().toStdString();
    m_layout->setDotOptions(options);
    m_layout->request(m_model, m_expansion);
    if (anchor.kind == Anchor::Initial) {
        setOverlayVisible(true);
    } else {
        m_overlayLabel->setText(tr("Laying out\u2026"));
        m_overlayDelay->start(kOverlayDelayMs);
    }
}

void GraphView::onLayoutFinished(quint64, std::shared_ptr<const GraphLayout> layout)
{
    if (m_anchor.kind == Anchor::Initial) {
        // Fit must show a usable picture: close the deepest open layers while it would not.
        const QSizeF area = isVisible() && viewport()->width() >= 300 && viewport()->height() >= 200
            ? QSizeF(viewport()->size())
            : QSizeF(1200, 760);
        const double fit = FirstView::fitZoom(layout->bounds, area);
        // Layers opened on purpose (showGraph's `open`) stay open: the view starts zoomed in.
        if (fit < FirstView::kUsableZoom && !m_keepOpened
            && FirstView::closeTowardsLegible(*m_model, m_expansion, fit)) {
            requestLayout({});
            return;
        }
    }
    m_overlayDelay->stop();
    setOverlayVisible(false);
    const bool newModel = m_scene->sharedModel() != m_model;
    const bool fromCache = layout->graphvizRuns == 0;
    m_scene->setGraph(m_model, std::move(layout));
    if (newModel)
        m_finder->reset();
    // The summary strip takes its height from the viewport: settle it before placing the anchor.
    updateSummary();
    applyAnchor();
    m_minimap->refresh();
    emit layoutFinished(m_timer.nsecsElapsed() / 1e9, fromCache);
}

void GraphView::bringOpenedIntoView(const QRectF &frame)
{
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    if (visible.contains(frame))
        return;
    // Out as far as the whole layer needs, never below a zoom where its ops can still be told
    // apart; what still does not fit shows its top-left corner, where the layer starts.
    constexpr qreal kMargin = 24;
    const qreal fit = std::min(viewport()->width() / (frame.width() + 2 * kMargin),
        viewport()->height() / (frame.height() + 2 * kMargin));
    const qreal target = std::max(fit, qreal(FirstView::kUsableZoom));
    if (target < zoom())
        zoomBy(target / zoom());
    const QRectF now = mapToScene(viewport()->rect()).boundingRect();
    if (frame.width() + 2 * kMargin <= now.width() && frame.height() + 2 * kMargin <= now.height())
        centerOn(frame.center());
    else
        centerOn(frame.topLeft() + QPointF(now.width() / 2 - kMargin, now.height() / 2 - kMargin));
}

void GraphView::applyAnchor()
{
    switch (m_anchor.kind) {
    case Anchor::Initial:
        showInitialView();
        break;
    case Anchor::Group: {
        const auto &groups = m_scene->groupItems();
        if (m_anchor.id < 0 || size_t(m_anchor.id) >= groups.size() || !groups[size_t(m_anchor.id)])
            break;
        const QPointF moved = mapFromScene(groups[size_t(m_anchor.id)]->rect().topLeft()) - m_anchor.screen;
        horizontalScrollBar()->setValue(horizontalScrollBar()->value() + qRound(moved.x()));
        verticalScrollBar()->setValue(verticalScrollBar()->value() + qRound(moved.y()));
        if (groups[size_t(m_anchor.id)]->isExpanded())
            bringOpenedIntoView(groups[size_t(m_anchor.id)]->rect());
        break;
    }
    case Anchor::Node:
        if (QGraphicsItem *item = m_scene->visibleItemForNode(m_anchor.id)) {
            if (m_anchor.readable && zoom() < kReadableZoom)
                zoomBy(kReadableZoom / zoom());
            QRectF all = item->sceneBoundingRect();
            for (int other : m_anchor.more)
                if (QGraphicsItem *o = m_scene->visibleItemForNode(other))
                    all |= o->sceneBoundingRect();
            const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
            if (m_anchor.keepOnScreen) {
                const QPointF moved = mapFromScene(all.center()) - m_anchor.screen;
                horizontalScrollBar()->setValue(horizontalScrollBar()->value() + qRound(moved.x()));
                verticalScrollBar()->setValue(verticalScrollBar()->value() + qRound(moved.y()));
            } else if (all.width() <= visible.width() && all.height() <= visible.height())
                centerOn(all.center());
            else
                centerOn(item);
            if (m_anchor.select)
                m_scene->selectNode(m_anchor.id);
        }
        break;
    }
    m_anchor = {};
    m_anchor.kind = Anchor::Group; // later layouts of this model keep the view unless told
    m_minimap->updateFrame();
}

bool GraphView::setExpansion(const GroupExpansion &expansion, int anchorGroup)
{
    if (!m_model || !admits(expansion))
        return false;
    m_timer.start();
    m_expansion = expansion;
    Anchor anchor;
    anchor.kind = Anchor::Group;
    anchor.id = anchorGroup;
    const auto &groups = m_scene->groupItems();
    if (anchorGroup >= 0 && size_t(anchorGroup) < groups.size() && groups[size_t(anchorGroup)])
        anchor.screen = mapFromScene(groups[size_t(anchorGroup)]->rect().topLeft());
    else
        anchor.id = -1;
    requestLayout(anchor);
    return true;
}

bool GraphView::admits(const GroupExpansion &expansion)
{
    const size_t items = expansion.visibleItemCount(*m_model);
    if (items > m_maxShownItems) {
        const QLocale locale;
        m_notice = tr("Not opened: that would draw %1 boxes, more than the %2 the view lays out at once. "
                      "Open layers one by one, or draw the whole graph with pirscope-cli render.")
                       .arg(locale.toString(qulonglong(items)), locale.toString(qulonglong(m_maxShownItems)));
        updateSummary();
        return false;
    }
    m_notice.clear();
    return true;
}

void GraphView::setGroupExpanded(int group, bool expanded)
{
    GroupExpansion e = m_expansion;
    e.setExpanded(group, expanded);
    setExpansion(e, group);
}

void GraphView::toggleGroup(int group)
{
    setGroupExpanded(group, !m_expansion.isExpanded(group));
}

bool GraphView::expandAll()
{
    return m_model && relayoutInPlace(GroupExpansion::all(*m_model));
}

void GraphView::collapseAll()
{
    if (m_model)
        relayoutInPlace(GroupExpansion(*m_model));
}

bool GraphView::relayoutInPlace(const GroupExpansion &expansion)
{
    if (!admits(expansion))
        return false;
    const int node = nodeInSight();
    if (node < 0)
        return setExpansion(expansion);
    m_timer.start();
    m_expansion = expansion;
    Anchor anchor;
    anchor.kind = Anchor::Node;
    anchor.id = node;
    anchor.keepOnScreen = true;
    if (QGraphicsItem *item = m_scene->visibleItemForNode(node))
        anchor.screen = mapFromScene(item->sceneBoundingRect().center());
    requestLayout(anchor);
    return true;
}

int GraphView::nodeInSight() const
{
    if (const Operation *op = m_scene->selectedOp()) {
        const int node = m_scene->nodeOfOp(op);
        if (node >= 0 && m_scene->visibleItemForNode(node))
            return node;
    }
    const QPointF centre = mapToScene(viewport()->rect().center());
    int best = -1;
    double bestDistance = 0;
    auto consider = [&](const QGraphicsItem *item, int node) {
        if (!item || node < 0)
            return;
        const QPointF d = item->sceneBoundingRect().center() - centre;
        const double distance = d.x() * d.x() + d.y() * d.y();
        if (best < 0 || distance < bestDistance) {
            best = node;
            bestDistance = distance;
        }
    };
    const std::vector<GraphNodeItem *> &nodes = m_scene->nodeItems();
    for (size_t i = 0; i < nodes.size(); ++i)
        if (nodes[i] && !nodes[i]->isGhost())
            consider(nodes[i], int(i));
    const std::vector<GraphGroupItem *> &groups = m_scene->groupItems();
    for (size_t g = 0; g < groups.size(); ++g) {
        if (!groups[g] || m_expansion.isExpanded(int(g)))
            continue;
        // A closed layer's first op, found through its first child layers.
        int group = int(g);
        while (m_model->groups[size_t(group)].nodes.empty() && !m_model->groups[size_t(group)].groups.empty())
            group = m_model->groups[size_t(group)].groups.front();
        const std::vector<int> &members = m_model->groups[size_t(group)].nodes;
        consider(groups[g], members.empty() ? -1 : members.front());
    }
    return best;
}

void GraphView::revealNode(int node, bool readable, bool select)
{
    if (!m_model || node < 0 || size_t(node) >= m_model->nodes.size())
        return;
    const GraphNode &n = m_model->nodes[size_t(node)];
    GroupExpansion expansion = m_expansion;
    expansion.reveal(*m_model, n.ghost && n.attachedTo >= 0 ? n.attachedTo : node);
    Anchor anchor;
    anchor.kind = Anchor::Node;
    anchor.id = node;
    anchor.readable = readable;
    anchor.select = select;
    const GraphLayout *shown = m_scene->graphLayout();
    if (expansion == m_expansion && shown && m_scene->sharedModel() == m_model && shown->shows(node)) {
        m_anchor = anchor;
        applyAnchor();
        return;
    }
    if (!admits(expansion))
        return;
    m_timer.start();
    m_expansion = expansion;
    requestLayout(anchor);
}

void GraphView::centerOnOp(const Operation *op)
{
    revealNode(m_scene->nodeOfOp(op), true, false);
}

void GraphView::bringOpsIntoView(const std::vector<const Operation *> &ops)
{
    std::vector<int> nodes;
    if (m_model)
        for (const Operation *op : ops) {
            int node = op ? m_model->nodeOf(op) : -1;
            if (node < 0 && op)
                if (auto it = m_model->ghostsOfOp.find(op); it != m_model->ghostsOfOp.end())
                    node = it->second;
            if (node >= 0)
                nodes.push_back(node);
        }
    bringIntoView(nodes);
}

void GraphView::bringValueIntoView(Value value)
{
    if (!m_model || !value)
        return;
    if (const Operation *op = value.definingOp()) {
        bringOpsIntoView({ op });
        return;
    }
    int found = -1;
    for (const GraphNode &n : m_model->nodes)
        if (n.value == value && (found < 0 || !n.ghost)) {
            found = n.id;
            if (!n.ghost)
                break;
        }
    if (found >= 0)
        bringIntoView({ found });
}

void GraphView::bringIntoView(const std::vector<int> &nodes)
{
    if (!m_model || nodes.empty())
        return;
    const auto target = [this](int node) {
        const GraphNode &n = m_model->nodes[size_t(node)];
        return n.ghost && n.attachedTo >= 0 ? n.attachedTo : node;
    };
    Anchor anchor;
    anchor.kind = Anchor::Node;
    anchor.readable = true;
    GroupExpansion expansion = m_expansion;
    for (int node : nodes) {
        if (node < 0 || size_t(node) >= m_model->nodes.size())
            continue;
        GroupExpansion opened = expansion;
        opened.reveal(*m_model, target(node));
        if (anchor.id >= 0 && !(opened == expansion) && opened.visibleItemCount(*m_model) > m_maxShownItems)
            continue; // the first one is opened; the others only while the view admits them
        expansion = std::move(opened);
        if (anchor.id < 0)
            anchor.id = node;
        else
            anchor.more.push_back(node);
    }
    if (anchor.id < 0)
        return;
    const GraphLayout *shown = m_scene->graphLayout();
    const bool drawn = shown && m_scene->sharedModel() == m_model && expansion == m_expansion;
    if (drawn && shown->shows(target(anchor.id))) {
        if (zoom() >= kReadableZoom * 0.999) {
            const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
            bool inView = true;
            for (int node : nodes)
                if (const QGraphicsItem *item = m_scene->visibleItemForNode(node))
                    inView = inView && visible.contains(item->sceneBoundingRect());
            if (inView)
                return;
        }
        m_anchor = anchor;
        applyAnchor();
        return;
    }
    if (expansion == m_expansion && m_layout->isBusy()) {
        m_anchor = anchor; // the layout on its way shows them
        return;
    }
    if (!admits(expansion))
        return;
    m_timer.start();
    m_expansion = expansion;
    requestLayout(anchor);
}

QString GraphView::summary() const
{
    const GraphLayout *layout = m_scene->graphLayout();
    const GraphModel *model = m_scene->model();
    if (!layout || !model)
        return QString();
    // Ops drawn only as chips (parameters, constants) count as shown with any chip of theirs.
    size_t shown = 0, total = 0, closed = 0;
    std::unordered_map<const Operation *, bool> chipOps;
    for (const GraphNode &n : model->nodes) {
        if (n.ghost && n.op && model->nodeOf(n.op) < 0)
            chipOps[n.op] = chipOps[n.op] || layout->shows(n.id);
        else if (!n.ghost && n.op) {
            ++total;
            shown += layout->shows(n.id) ? 1 : 0;
        }
    }
    for (const auto &[op, anyShown] : chipOps) {
        ++total;
        shown += anyShown ? 1 : 0;
    }
    for (const GraphLayout::Group &g : layout->groups)
        closed += g.state == GraphLayout::GroupState::Collapsed ? 1 : 0;
    if (closed == 0)
        return QString();
    const QLocale locale;
    const QString layers = closed == 1 ? tr("1 layer closed") : tr("%1 layers closed").arg(closed);
    return tr("Showing %1 of %2 ops \u00b7 %3: double-click one to open it, Ctrl+F finds any op")
        .arg(locale.toString(qulonglong(shown)), locale.toString(qulonglong(total)), layers);
}

void GraphView::updateSummary()
{
    const QString shown = summary();
    const QString text = m_notice.isEmpty() ? shown
        : shown.isEmpty()                   ? m_notice
                                            : m_notice + QLatin1Char('\n') + shown;
    m_summary->setText(text);
    m_summary->setVisible(!text.isEmpty());
    placeOverlays();
    emit summaryChanged(text);
}

bool GraphView::exportGraph(const QString &path, bool asShown, QString *error)
{
    const GraphModel *model = m_scene->model();
    std::shared_ptr<const GraphLayout> layout = m_scene->sharedLayout();
    if (!model || !layout) {
        if (error)
            *error = tr("there is no graph to export");
        return false;
    }
    if (!asShown) {
        QApplication::setOverrideCursor(Qt::WaitCursor);
        layout = m_layout->layoutNow(m_scene->sharedModel(), GroupExpansion::all(*model), -1, error);
        QApplication::restoreOverrideCursor();
        if (!layout)
            return false;
    }
    GraphExporter::Decorations decorations;
    if (const int selected = m_scene->nodeOfOp(m_scene->selectedOp()); selected >= 0)
        decorations.selectedNodes.insert(selected);
    decorations.marks = m_scene->opMarks();
    if (QFileInfo(path).suffix().compare(QLatin1String("svg"), Qt::CaseInsensitive) == 0)
        return GraphExporter::writeSvg(
            path, *model, *layout, m_scene->style(), decorations, window()->windowTitle(), error);
    return GraphExporter::writePng(path, *model, *layout, m_scene->style(), decorations, 2.0,
        GraphExporter::kMaxPngSide, nullptr, error);
}

void GraphView::showInitialView()
{
    fitGraph();
    if (zoom() >= FirstView::kUsableZoom)
        return;
    // A big graph fitted whole is a grey carpet: start instead where op titles read well, at
    // the program's first input, and leave the whole view to F.
    zoomBy(kFirstViewZoom / zoom());
    const QRectF bounds = m_scene->graphBounds();
    QPointF focus(bounds.center().x(), bounds.top());
    if (const GraphModel *model = m_scene->model()) {
        for (const GraphNode &node : model->nodes) {
            if (node.kind != NodeKind::Data)
                continue;
            if (QGraphicsItem *item = m_scene->visibleItemForNode(node.ghost ? node.attachedTo : node.id)) {
                focus = QPointF(item->sceneBoundingRect().center().x(), item->sceneBoundingRect().top());
                break;
            }
        }
    }
    // Keep the graph's left edge in view when the focus is near it (narrow panes).
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    const double x = std::max(focus.x(), bounds.left() + visible.width() / 2 - 20);
    centerOn(x, focus.y() + visible.height() / 2 - 30);
}

void GraphView::fitGraph()
{
    const QRectF bounds = m_scene->graphBounds();
    if (bounds.isEmpty())
        return;
    fitInView(bounds.adjusted(-10, -10, 10, 10), Qt::KeepAspectRatio);
    if (zoom() > 1.5)
        zoomBy(1.5 / zoom());
    m_minimap->updateFrame();
}

double GraphView::zoom() const
{
    return transform().m11();
}

void GraphView::zoomBy(double factor)
{
    const double target = std::clamp(zoom() * factor, kMinZoom, kMaxZoom);
    if (zoom() <= 0)
        return;
    factor = target / zoom();
    scale(factor, factor);
    m_minimap->updateFrame();
}

void GraphView::reveal(const QGraphicsItem *item)
{
    if (!item)
        return;
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    if (!visible.contains(item->sceneBoundingRect()))
        centerOn(item);
}

void GraphView::wheelEvent(QWheelEvent *event)
{
    const int delta = event->angleDelta().y();
    if (delta == 0) {
        QGraphicsView::wheelEvent(event);
        return;
    }
    zoomAt(std::pow(1.0015, delta), event->position());
    event->accept();
}

void GraphView::zoomAt(double factor, const QPointF &viewportPos)
{
    // Done by hand: AnchorUnderMouse reads QCursor::pos(), which is wrong for synthetic events.
    const QPointF anchor = mapToScene(viewportPos.toPoint());
    const ViewportAnchor saved = transformationAnchor();
    setTransformationAnchor(NoAnchor);
    zoomBy(factor);
    setTransformationAnchor(saved);
    const QPointF moved = viewportTransform().map(anchor) - viewportPos;
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + qRound(moved.x()));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + qRound(moved.y()));
}

void GraphView::keyPressEvent(QKeyEvent *event)
{
    const Qt::KeyboardModifiers mods = event->modifiers();
    if ((event->key() == Qt::Key_F && mods == Qt::NoModifier)
        || (event->key() == Qt::Key_0 && mods == Qt::ControlModifier)) {
        fitGraph();
    } else if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal) {
        zoomBy(1.25);
    } else if (event->key() == Qt::Key_Minus) {
        zoomBy(0.8);
    } else if (event->matches(QKeySequence::Find)) {
        m_finder->open();
    } else if (event->key() == Qt::Key_F3) {
        mods &Qt::ShiftModifier ? m_finder->previous() : m_finder->next();
    } else if (event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) {
        for (QGraphicsItem *item : m_scene->selectedItems())
            if (item->type() == GraphGroupItem::Type)
                toggleGroup(static_cast<GraphGroupItem *>(item)->groupId());
    } else {
        QGraphicsView::keyPressEvent(event);
    }
}

void GraphView::contextMenuEvent(QContextMenuEvent *event)
{
    if (!m_model) {
        QGraphicsView::contextMenuEvent(event);
        return;
    }
    QMenu menu(this);
    for (QGraphicsItem *item : items(event->pos())) {
        if (item->type() != GraphGroupItem::Type)
            continue;
        const int group = static_cast<GraphGroupItem *>(item)->groupId();
        const bool open = m_expansion.isExpanded(group);
        menu.addAction(
            open ? tr("Close Layer") : tr("Open Layer"), this, [this, group] { toggleGroup(group); });
        menu.addAction(tr("Open Everything Inside"), this, [this, group] {
            GroupExpansion e = m_expansion;
            e.setSubtreeExpanded(*m_model, group, true);
            setExpansion(e, group);
        });
        menu.addSeparator();
        break;
    }
    menu.addAction(tr("Open All Layers"), this, &GraphView::expandAll);
    menu.addAction(tr("Close All Layers"), this, &GraphView::collapseAll);
    menu.addAction(tr("Fit Graph"), this, &GraphView::fitGraph);
    menu.addAction(tr("Find\u2026"), this, [this] { m_finder->open(); });
    menu.addSeparator();
    menu.addAction(tr("Export as Shown (Closed Layers Kept)\u2026"), this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Graph as Shown"), QString(), tr("SVG images (*.svg);;PNG images (*.png)"));
        QString error;
        if (!path.isEmpty() && !exportGraph(path, true, &error))
            QMessageBox::warning(this, tr("Export"), tr("Could not export: %1").arg(error));
    });
    menu.exec(event->globalPos());
}

void GraphView::changeEvent(QEvent *event)
{
    QGraphicsView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange
        && GraphStyle::forPalette(palette()).isDark() != m_scene->style().isDark())
        setGraphStyle(GraphStyle::forPalette(palette()));
}

void GraphView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    placeOverlays();
    // The minimap is a share of the pane: rendered again when that changes its size.
    const QSize limit = m_minimap->maxSize();
    if (event->oldSize().isValid() && limit != m_lastMinimapLimit)
        m_minimap->refresh();
    m_lastMinimapLimit = limit;
    m_minimap->place();
    m_minimap->updateFrame();
}

void GraphView::scrollContentsBy(int dx, int dy)
{
    QGraphicsView::scrollContentsBy(dx, dy);
    m_minimap->updateFrame();
}

void GraphView::setOverlayVisible(bool visible)
{
    m_overlay->setVisible(visible);
    if (visible) {
        placeOverlays();
        m_overlay->raise();
    }
}

void GraphView::placeOverlays()
{
    const QRect area = viewport()->geometry();
    m_overlay->adjustSize();
    m_overlay->move(area.left() + (area.width() - m_overlay->width()) / 2, area.top() + 12);
    GraphSearchBar *bar = m_finder->bar();
    bar->adjustSize();
    bar->move(area.right() - bar->width() - 8, area.top() + 8);
    // The summary gets a strip of its own below the viewport instead of covering the graph's
    // bottom rows (and the nodes a Fit to view puts there).
    const int strip = m_summary->isVisibleTo(this) ? m_summary->heightForWidth(area.width()) : 0;
    if (viewportMargins().bottom() != strip)
        setViewportMargins(0, 0, 0, strip); // lays the viewport out again at once
    const QRect graph = viewport()->geometry();
    m_summary->setGeometry(graph.left(), graph.bottom() + 1, graph.width(), strip);
}

} // namespace ps
