#include "ui/graphview.h"

#include "core/graph/dotwriter.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphvizlayout.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollBar>
#include <QSvgGenerator>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

namespace ps {

GraphView::GraphView(QWidget *parent)
    : QGraphicsView(parent)
    , m_scene(new GraphScene(this))
    , m_layout(new GraphvizLayout(this))
{
    setScene(m_scene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorViewCenter);
    setResizeAnchor(QGraphicsView::AnchorViewCenter);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setOptimizationFlags(QGraphicsView::DontSavePainterState);
    setCacheMode(QGraphicsView::CacheBackground);
    setFocusPolicy(Qt::StrongFocus);

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

    connect(m_cancelButton, &QPushButton::clicked, this, &GraphView::cancelLayout);
    connect(m_layout, &GraphvizLayout::finished, this, &GraphView::onLayoutFinished);
    connect(m_layout, &GraphvizLayout::failed, this, [this](quint64, const QString &message) {
        setOverlayVisible(false);
        m_pendingModel.reset();
        emit layoutFailed(message);
    });
    connect(m_layout, &GraphvizLayout::canceled, this, [this](quint64) {
        setOverlayVisible(false);
        m_pendingModel.reset();
        emit layoutCanceled();
    });
}

GraphView::~GraphView() = default;

void GraphView::showGraph(std::shared_ptr<const GraphModel> model)
{
    m_timer.start();
    m_pendingModel = std::move(model);
    if (!m_pendingModel) {
        clearGraph();
        return;
    }
    DotWriterOptions options;
    options.nodeSizes = m_scene->measureNodes(*m_pendingModel);
    options.splines = m_splines.toStdString();
    options.fontName = m_scene->nodeFont().family().toStdString();
    m_dot = QByteArray::fromStdString(DotWriter::write(*m_pendingModel, options));
    m_overlayLabel->setText(tr("Laying out %n node(s)\u2026", nullptr, int(m_pendingModel->nodes.size())));
    setOverlayVisible(true);
    m_layout->request(m_dot);
}

void GraphView::clearGraph()
{
    if (m_layout->isBusy())
        m_layout->cancel();
    m_pendingModel.reset();
    m_scene->clearGraph();
}

bool GraphView::isLayoutRunning() const
{
    return m_layout->isBusy();
}

void GraphView::cancelLayout()
{
    m_layout->cancel();
}

void GraphView::onLayoutFinished(quint64, std::shared_ptr<const LayoutResult> result, bool fromCache)
{
    setOverlayVisible(false);
    m_scene->setGraph(std::move(m_pendingModel), std::move(result));
    showInitialView();
    emit layoutFinished(m_timer.nsecsElapsed() / 1e9, fromCache);
}

void GraphView::showInitialView()
{
    fitGraph();
    // A big graph fitted whole is a grey carpet: start instead at a zoom where labels are
    // legible, at the program's first input, and leave the whole view to F.
    const double readable = GraphNodeItem::kTextLod * 2;
    if (zoom() >= readable)
        return;
    zoomBy(readable / zoom());
    const QRectF bounds = m_scene->graphBounds();
    QPointF focus(bounds.center().x(), bounds.top());
    if (const GraphModel *model = m_scene->model()) {
        for (const GraphNode &node : model->nodes) {
            GraphNodeItem *item = size_t(node.id) < m_scene->nodeItems().size()
                ? m_scene->nodeItems()[size_t(node.id)]
                : nullptr;
            if (!item || node.kind != NodeKind::Data)
                continue;
            if (node.ghost && node.attachedTo >= 0 && m_scene->nodeItems()[size_t(node.attachedTo)])
                item = m_scene->nodeItems()[size_t(node.attachedTo)]; // a chip: show its consumer
            focus = QPointF(item->rect().center().x(), item->rect().top());
            break;
        }
    }
    // Keep the graph's left edge in view when the focus is near it (narrow panes).
    const QRectF visible = mapToScene(viewport()->rect()).boundingRect();
    const double x = std::max(focus.x(), bounds.left() + visible.width() / 2 - 20);
    centerOn(x, focus.y() + visible.height() / 2 - 30);
}

bool GraphView::exportPng(const QString &path)
{
    const QSize size = viewport()->size();
    QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    render(&painter, QRectF(image.rect()), viewport()->rect());
    painter.end();
    return image.save(path, "PNG");
}

bool GraphView::exportSvg(const QString &path, const QString &title)
{
    const QSize size = viewport()->size();
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(title);
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    render(&painter, QRectF(QPointF(0, 0), size), viewport()->rect());
    return painter.end();
}

void GraphView::fitGraph()
{
    const QRectF bounds = m_scene->graphBounds();
    if (bounds.isEmpty())
        return;
    fitInView(bounds.adjusted(-10, -10, 10, 10), Qt::KeepAspectRatio);
    if (zoom() > 1.5)
        zoomBy(1.5 / zoom());
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
}

void GraphView::centerOnOp(const Operation *op)
{
    if (GraphNodeItem *item = m_scene->itemForOp(op))
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
    if ((event->key() == Qt::Key_F && event->modifiers() == Qt::NoModifier)
        || (event->key() == Qt::Key_0 && event->modifiers() == Qt::ControlModifier)) {
        fitGraph();
        return;
    }
    if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal) {
        zoomBy(1.25);
        return;
    }
    if (event->key() == Qt::Key_Minus) {
        zoomBy(0.8);
        return;
    }
    QGraphicsView::keyPressEvent(event);
}

void GraphView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    placeOverlay();
}

void GraphView::setOverlayVisible(bool visible)
{
    m_overlay->setVisible(visible);
    if (visible) {
        placeOverlay();
        m_overlay->raise();
    }
}

void GraphView::placeOverlay()
{
    m_overlay->adjustSize();
    m_overlay->move((width() - m_overlay->width()) / 2, 12);
}

} // namespace ps
