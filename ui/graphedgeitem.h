#pragma once

#include "core/ir/value.h"
#include "ui/layoutresult.h"

#include <QFont>
#include <QGraphicsItem>
#include <QPolygonF>

namespace ps {

/// One routed edge: the bezier path from Graphviz, an arrow head and the value label at the
/// middle of the path (drawn only when zoomed in far enough to read it).
class GraphEdgeItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 2 };

    /// `dashed`: ghost edges and op → region edges.
    GraphEdgeItem(const LayoutResult::Edge &geometry, Value value, const QString &label, const QFont &font,
        bool dashed);

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    Value value() const { return m_value; }
    QString label() const { return m_label; }
    const QPainterPath &path() const { return m_path; }
    void setHighlighted(bool on);
    bool isHighlighted() const { return m_highlighted; }

    static constexpr qreal kArrowLod = 0.25;
    static constexpr qreal kLabelLod = 0.7;

private:
    QPainterPath m_path;
    QPolygonF m_arrow;
    QString m_label;
    QRectF m_labelRect;
    QRectF m_bounds;
    QFont m_font;
    Value m_value;
    bool m_dashed;
    bool m_highlighted = false;
};

} // namespace ps
