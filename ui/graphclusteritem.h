#pragma once

#include "ui/render/graphstyle.h"

#include <QGraphicsItem>

namespace ps {

class Operation;

/// The frame around one region of a control-flow op: a dashed rounded rect with a caption.
class GraphClusterItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 3 };

    /// `style` must outlive the item (the scene's).
    GraphClusterItem(
        int clusterId, Operation *op, const QRectF &rect, const QString &label, const GraphStyle *style);

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_rect.adjusted(-2, -2, 2, 2); }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    int clusterId() const { return m_clusterId; }
    Operation *op() const { return m_op; }
    QString label() const { return m_label; }

private:
    QRectF m_rect;
    QString m_label;
    const GraphStyle *m_style;
    Operation *m_op;
    int m_clusterId;
};

} // namespace ps
