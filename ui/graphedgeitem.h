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
    /// The value's label (declared or the run's), whether drawn or not; no crowd count.
    QString label() const { return m_runtimeLabel.isEmpty() ? m_declaredLabel : m_runtimeLabel; }
    /// Where the label is drawn (null when the edge has none, or hides it in a crowd).
    QRectF labelRect() const { return m_visual.labelRect; }
    /// The label's box as it would be drawn alone (GraphScene::spreadEdgeLabels).
    QRectF ownLabelRect() const;
    /// Labels of parallel edges fall on one another: one label of a crowd is drawn with a count
    /// of the `others` it stands for ("?x96x?x?xf32  +3") starting at `left`, the others are
    /// `hidden` (EdgeLabelCrowds).
    void setLabelCrowd(bool hidden, int others, qreal left);
    bool isLabelHidden() const { return m_labelHidden; }
    const QPainterPath &path() const { return m_visual.path; }
    void setHighlighted(bool on);
    bool isHighlighted() const { return m_visual.highlighted; }
    /// Shows `label` (a shape the run made) instead of the laid-out label, in the runtime
    /// colour; an empty one restores the laid-out label.
    void setRuntimeLabel(const QString &label);
    bool hasRuntimeLabel() const { return !m_runtimeLabel.isEmpty(); }
    /// The label as laid out (the value's name, else the program's type).
    QString declaredLabel() const { return m_declaredLabel; }

private:
    EdgeVisual m_visual;
    mutable QPainterPath m_shape; ///< built on the first hit test
    QRectF m_bounds;
    const GraphStyle *m_style;
    Value m_value;
    void refreshLabel();

    QString m_declaredLabel;
    QString m_runtimeLabel;
    QPointF m_labelOrigin; ///< the label's top-left; null point for edges without a label
    bool m_labelled = false;
    bool m_labelHidden = false;
    int m_labelOthers = 0;
    qreal m_labelLeft = 0;
};

} // namespace ps
