#pragma once

#include "core/graph/graphmodel.h"
#include "core/ir/type.h"
#include "ui/common/nodemarks.h"
#include "ui/render/graphstyle.h"

#include <QGraphicsItem>
#include <QStringList>

namespace ps {

/// One laid-out graph node (an op, a block argument or a ghost chip): painted by the scene's
/// GraphStyle, by level of detail (a flat box far out, the title alone enlarged at middle
/// zoom, every label line close up).
class GraphNodeItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 1 };

    /// `style` must outlive the item (the scene's).
    GraphNodeItem(const GraphNode &node, const QRectF &rect, qreal labelHeight, const GraphStyle *style);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    int nodeId() const { return m_nodeId; }
    Operation *op() const { return m_op; }
    /// The value a ghost or argument node stands for; null for op nodes.
    Value value() const { return m_value; }
    bool isGhost() const { return m_visual.ghost; }
    NodeKind kind() const { return m_visual.kind; }
    QRectF rect() const { return m_visual.rect; }
    const QStringList &lines() const { return m_visual.lines; }
    /// The top part of the box holding the label (the chips sit below); the whole box without chips.
    qreal labelHeight() const
    {
        return m_visual.labelHeight > 0 ? m_visual.labelHeight : m_visual.rect.height();
    }

    void setHighlighted(bool on);
    bool isHighlighted() const { return m_visual.highlighted; }
    /// Marks a search match.
    void setMatched(bool on);
    bool isMatched() const { return m_visual.matched; }

    /// Debugger marks: a green frame for the current op, a red dot for a breakpoint, a red frame
    /// for a failed op, an orange frame for NaN/Inf, a time badge and tooltip line once executed;
    /// the shape line of an op's label shows its first result's runtime shape where that differs
    /// from the program's type; the time overlay fills the box in timeShareColor().
    /// Pass-diff marks: a tinted fill, a frame and a corner badge (− + ~) in changeColor(); a
    /// faded node is drawn at low opacity.
    void setMarks(const NodeMarks &marks);
    /// Red for removed, green for added, amber for changed; invalid for None and Kept
    /// (GraphStyle::changeColor).
    static QColor changeColor(NodeMarks::Change change) { return GraphStyle::changeColor(change); }
    const NodeMarks &marks() const { return m_visual.marks; }
    /// "1x96x160x160xf32": `dims` with the element type of `declared` in the graph's shape
    /// syntax (GraphBuilder::shapeText); empty when `declared` is not a dense tensor type of
    /// `dims`'s rank.
    static QString runtimeShapeText(ps::Type declared, const std::vector<int64_t> &dims);
    /// The marks as tooltip lines ("executed: 0.120 ms", "breakpoint"); empty without marks.
    QString marksText() const;

private:
    NodeVisual m_visual;
    const GraphStyle *m_style;
    Operation *m_op;
    Value m_value;
    int m_nodeId;
    QString m_toolTip; ///< the tooltip without the debugger's line
    QStringList m_declaredLines; ///< the label as laid out, before runtime shapes replaced a line
};

} // namespace ps
