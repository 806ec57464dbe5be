#pragma once

#include <QFont>
#include <QGraphicsItem>

namespace ps {

class Operation;

/// The frame around one region of a control-flow op: a dashed rounded rect with a caption.
class GraphClusterItem : public QGraphicsItem
{
public:
    enum { Type = UserType + 3 };

    GraphClusterItem(
        int clusterId, Operation *op, const QRectF &rect, const QString &label, const QFont &font);

    int type() const override { return Type; }
    QRectF boundingRect() const override { return m_rect.adjusted(-2, -2, 2, 2); }
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

    int clusterId() const { return m_clusterId; }
    Operation *op() const { return m_op; }
    QString label() const { return m_label; }

private:
    QRectF m_rect;
    QString m_label;
    QFont m_font;
    Operation *m_op;
    int m_clusterId;
};

} // namespace ps
