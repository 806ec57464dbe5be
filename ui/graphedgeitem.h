#pragma once

#include "core/ir/value.h"
#include "ui/render/graphstyle.h"
#include "ui/render/layoutresult.h"

#include <QGraphicsItem>

namespace ps {

/// One drawn piece of an edge: the routed bezier path from Graphviz, an arrow head where it
/// reaches an op or a collapsed layer, and the value label at the middle of the path (drawn
/// only when zoomed in far enough to read it).
class GraphEdgeItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 2 };

    /// `dashed`: op → region edges. `style` must outlive the item (the scene's).
    GraphEdgeItem(const LayoutResult::Edge &geometry, Value value, const QString &label, bool dashed,
        const GraphStyle *style);

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_bounds; }
    /// The path widened to 6 points, the label and the head: hovering or clicking near the line hits it.
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    Value value() const { return m_value; }
    QString label() const { return m_visual.label; }
    const QPainterPath &path() const { return m_visual.path; }
    void setHighlighted(bool on);
    bool isHighlighted() const { return m_visual.highlighted; }
    /// Shows `label` (a shape the run made) instead of the laid-out label, in the runtime
    /// colour; an empty one restores the laid-out label.
    void setRuntimeLabel(const QString &label);
    bool hasRuntimeLabel() const { return m_visual.runtime; }
    /// The label as laid out (the value's name, else the program's type).
    QString declaredLabel() const { return m_declaredLabel; }

private:
    EdgeVisual m_visual;
    mutable QPainterPath m_shape; ///< built on the first hit test
    QRectF m_bounds;
    const GraphStyle *m_style;
    Value m_value;
    QString m_declaredLabel;
};

} // namespace ps
