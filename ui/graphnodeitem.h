#pragma once

#include "core/graph/graphmodel.h"
#include "ui/nodemarks.h"

#include <QFont>
#include <QGraphicsItem>
#include <QStringList>

namespace ps {

/// One laid-out graph node: a rounded box coloured by kind, with its label lines. Paints by
/// level of detail: a flat box when zoomed far out, text only when it would be legible.
class GraphNodeItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 1 };

    GraphNodeItem(const GraphNode &node, const QRectF &rect, const QFont &font);

    /// Box size for `node` drawn with `font` (a ghost's font is passed smaller by the scene).
    static QSizeF preferredSize(const GraphNode &node, const QFont &font);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    int nodeId() const { return m_nodeId; }
    Operation *op() const { return m_op; }
    /// The value a ghost or argument node stands for; null for op nodes.
    Value value() const { return m_value; }
    bool isGhost() const { return m_ghost; }
    NodeKind kind() const { return m_kind; }
    QRectF rect() const { return m_rect; }
    const QStringList &lines() const { return m_lines; }

    /// The label is centred in the top `height` points of the box (the rest holds the
    /// attached ghost chips); by default the whole box.
    void setLabelHeight(qreal height) { m_labelHeight = height; }

    void setHighlighted(bool on);
    bool isHighlighted() const { return m_highlighted; }

    /// Debugger marks: a green frame for the current op, a red dot for a breakpoint, a red frame
    /// for a failed op, an orange frame for NaN/Inf, a time badge and tooltip line once executed.
    void setMarks(const NodeMarks &marks);
    const NodeMarks &marks() const { return m_marks; }

    /// Below this on-screen scale the label is not drawn.
    static constexpr qreal kTextLod = 0.4;
    /// Below this the node is one fillRect.
    static constexpr qreal kFlatLod = 0.15;

private:
    void paintMarks(QPainter *painter, qreal lod) const;

    QRectF m_rect;
    qreal m_labelHeight;
    QStringList m_lines;
    QFont m_font;
    QColor m_fill;
    Operation *m_op;
    Value m_value;
    int m_nodeId;
    NodeKind m_kind;
    bool m_ghost;
    bool m_highlighted = false;
    NodeMarks m_marks;
    QString m_toolTip; ///< the tooltip without the debugger's line
};

} // namespace ps
