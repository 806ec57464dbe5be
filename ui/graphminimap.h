#pragma once

#include <QPixmap>
#include <QWidget>

class QGraphicsView;

namespace ps {

/// A small picture of a whole graph in the bottom-right corner of its view (a quarter of the
/// view at most, re-rendered when the view is resized or the palette changes), with the visible
/// part framed; clicking or dragging in it moves the view there. The picture is rendered once
/// per layout (far out every node is one filled rectangle, so this is cheap even for tens of
/// thousands of items); scrolling and zooming only move the frame.
class GraphMinimap : public QWidget
{
    Q_OBJECT

public:
    explicit GraphMinimap(QGraphicsView *view);

    /// Re-renders the picture of the scene (after a new layout) and places the minimap.
    void refresh();
    /// Moves the frame to what the view shows now.
    void updateFrame();
    /// The visible part of the scene, in the minimap's coordinates.
    QRectF frameRect() const { return m_frame; }
    /// Places itself in the view's corner (after a resize).
    void place();

    /// The picture's size at most: kPaneShare of the view each way, within [kMinSide, kMaxSide].
    QSize maxSize() const;

    static constexpr int kMaxSide = 180;
    static constexpr int kMinSide = 40;
    static constexpr double kPaneShare = 0.25;

protected:
    void paintEvent(QPaintEvent *event) override;
    void changeEvent(QEvent *event) override;
    void mousePressEvent(QMouseEvent *event) override;
    void mouseMoveEvent(QMouseEvent *event) override;

private:
    QPointF toScene(const QPointF &point) const;
    void centerViewAt(const QPointF &point);

    QGraphicsView *m_view;
    QPixmap m_picture;
    QRectF m_sceneRect; ///< the part of the scene the picture shows
    double m_scale = 1; ///< minimap pixels per scene unit
    QRectF m_frame;
};

} // namespace ps
