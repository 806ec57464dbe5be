#pragma once

#include "ui/render/graphstyle.h"

#include <QGraphicsItem>

namespace ps {

/// One layer group: collapsed, a box standing for all its ops (double-click opens it);
/// expanded, a frame behind its items with a title bar (the [-] button or a double-click on the
/// title closes it). Only the title bar of a frame takes the mouse, so dragging inside a frame
/// pans the view. Painted by the scene's GraphStyle.
class GraphGroupItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 4 };

    /// `style` must outlive the item (the scene's).
    GraphGroupItem(int groupId, const GroupVisual &visual, const QString &path, const GraphStyle *style);

    int type() const override { return Type; }
    QRectF boundingRect() const override;
    QPainterPath shape() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    int groupId() const { return m_groupId; }
    bool isExpanded() const { return m_visual.expanded; }
    QRectF rect() const { return m_visual.rect; }
    QString title() const { return m_visual.title; }

    void setHighlighted(bool on);
    bool isHighlighted() const { return m_visual.highlighted; }
    void setMatched(bool on);
    bool isMatched() const { return m_visual.matched; }
    /// The strongest debugger marks of the ops inside (collapsed boxes).
    void setMarks(const NodeMarks &marks);
    const NodeMarks &marks() const { return m_visual.marks; }

protected:
    void mousePressEvent(QGraphicsSceneMouseEvent *event) override;
    void mouseDoubleClickEvent(QGraphicsSceneMouseEvent *event) override;

private:
    QRectF titleBar() const;

    GroupVisual m_visual;
    const GraphStyle *m_style;
    int m_groupId;
};

} // namespace ps
