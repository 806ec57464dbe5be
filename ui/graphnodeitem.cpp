#include "ui/graphnodeitem.h"

#include "core/graph/graphbuilder.h"
#include "core/ir/datatype.h"
#include "core/ir/operation.h"

#include <QLocale>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <algorithm>

namespace ps {

GraphNodeItem::GraphNodeItem(
    const GraphNode &node, const QRectF &rect, qreal labelHeight, const GraphStyle *style)
    : m_style(style)
    , m_op(node.op)
    , m_value(node.value)
    , m_nodeId(node.id)
{
    m_visual.rect = rect;
    m_visual.labelHeight = labelHeight;
    m_visual.kind = node.kind;
    m_visual.ghost = node.ghost;
    for (const std::string &line : node.lines)
        m_visual.lines << QString::fromStdString(line);
    setFlag(ItemIsSelectable);
    setZValue(node.ghost ? 3 : 2);
    // The tooltip says what the box cannot: the full op name and where to find more.
    QString tip;
    if (m_op && !node.ghost) {
        tip = QString::fromUtf8(m_op->name().data(), qsizetype(m_op->name().size()));
        const std::string layer = m_op->stringAttribute("struct_name");
        if (!layer.empty())
            tip += QLatin1Char('\n') + QString::fromStdString(layer);
    } else if (node.ghost) {
        tip = QObject::tr("%1 (used here; drawn once per use)").arg(m_visual.lines.value(0));
    } else {
        tip = m_visual.lines.join(QLatin1Char('\n'));
    }
    m_toolTip = tip;
    m_declaredLines = m_visual.lines;
    setToolTip(tip);
}

QString GraphNodeItem::runtimeShapeText(ps::Type declared, const std::vector<int64_t> &dims)
{
    if (declared.isNull() || declared.kind() != Type::Kind::DenseTensor || dims.empty()
        || declared.dims().size() != dims.size())
        return {};
    QString text;
    for (int64_t d : dims)
        text += QString::number(d) + QLatin1Char('x');
    return text
        + QString::fromUtf8(irName(declared.dtype()).data(), qsizetype(irName(declared.dtype()).size()));
}

QRectF GraphNodeItem::boundingRect() const
{
    // Marks paint a time badge straddling the top edge: keep room for it.
    return m_visual.marks.empty() ? m_visual.rect.adjusted(-3, -3, 3, 3)
                                  : m_visual.rect.adjusted(-4, -9, 4, 4);
}

QPainterPath GraphNodeItem::shape() const
{
    QPainterPath p;
    p.addRect(m_visual.rect);
    return p;
}

void GraphNodeItem::setHighlighted(bool on)
{
    if (m_visual.highlighted == on)
        return;
    m_visual.highlighted = on;
    update();
}

void GraphNodeItem::setMatched(bool on)
{
    if (m_visual.matched == on)
        return;
    m_visual.matched = on;
    update();
}

void GraphNodeItem::setMarks(const NodeMarks &marks)
{
    if (m_visual.marks == marks)
        return;
    if (m_visual.marks.empty() != marks.empty())
        prepareGeometryChange();
    m_visual.marks = marks;
    // The shape line (GraphBuilder's label: the first result's type, " +N" for more results)
    // shows the run's shape where the program's type has dynamic dims.
    m_visual.lines = m_declaredLines;
    m_visual.runtimeLine = -1;
    // Before a run, the shapes inferred from the input shapes stand in for the run's.
    const std::vector<std::vector<int64_t>> &shapes
        = !marks.runtimeShapes.empty() ? marks.runtimeShapes : marks.inferredShapes;
    if (m_op && !m_visual.ghost && !shapes.empty() && m_op->numResults() > 0 && m_declaredLines.size() > 1) {
        const ps::Type type = m_op->result(0).type();
        const QString suffix
            = m_op->numResults() > 1 ? QStringLiteral(" +%1").arg(m_op->numResults() - 1) : QString();
        const QString declared = QString::fromStdString(GraphBuilder::shapeText(type)) + suffix;
        const QString runtime = runtimeShapeText(type, shapes.front());
        // Line 1 of an op, line 2 of an input (data, its name, its shape).
        const auto line = std::find(m_declaredLines.begin() + 1, m_declaredLines.end(), declared);
        if (line != m_declaredLines.end() && !runtime.isEmpty() && runtime + suffix != declared) {
            const auto index = int(line - m_declaredLines.begin());
            m_visual.lines[index] = runtime + suffix;
            m_visual.runtimeLine = index;
        }
    }
    const QString lines = marksText();
    const QString tip = lines.isEmpty() ? m_toolTip : m_toolTip + QLatin1Char('\n') + lines;
    setOpacity(marks.faded ? 0.22 : 1.0);
    setToolTip(tip);
    update();
}

QString GraphNodeItem::marksText() const
{
    const NodeMarks &marks = m_visual.marks;
    QStringList lines;
    if (marks.milliseconds >= 0) {
        QString line = QObject::tr("executed: %1 ms").arg(marks.milliseconds, 0, 'f', 3);
        if (marks.deviceMilliseconds >= 0 && marks.deviceMilliseconds != marks.milliseconds)
            line += QObject::tr(" (device %1 ms)").arg(marks.deviceMilliseconds, 0, 'f', 3);
        lines << line;
    }
    if (marks.timeShare >= 0)
        lines << QObject::tr("%1% of the run's time").arg(double(marks.timeShare) * 100, 0, 'f', 1);
    if (m_visual.runtimeLine >= 0)
        lines << (marks.runtimeShapes.empty() ? QObject::tr("inferred shape: %1 (the program's: %2)")
                                              : QObject::tr("run's shape: %1 (the program's: %2)"))
                     .arg(m_visual.lines.value(m_visual.runtimeLine),
                         m_declaredLines.value(m_visual.runtimeLine));
    else if (marks.runtimeShapes.empty() && !marks.shapeUnknown.empty())
        lines << QObject::tr("shape unknown: %1").arg(QString::fromStdString(marks.shapeUnknown));
    if (marks.current)
        lines << QObject::tr("the debugger is paused here");
    if (marks.error)
        lines << QObject::tr("this op failed");
    if (marks.nonFinite)
        lines << QObject::tr("produced NaN or Inf");
    if (marks.breakpoint)
        lines << (marks.breakpointDisabled ? QObject::tr("breakpoint (disabled)")
                                           : QObject::tr("breakpoint"));
    switch (marks.change) {
    case NodeMarks::Change::Removed:
        lines << QObject::tr("removed by the pass");
        break;
    case NodeMarks::Change::Added:
        lines << QObject::tr("added by the pass");
        break;
    case NodeMarks::Change::Changed:
        lines << QObject::tr("changed by the pass (name, attributes or types)");
        break;
    default:
        break;
    }
    switch (marks.accuracy) {
    case NodeMarks::Accuracy::NotCompared:
        lines << QObject::tr("Paddle run log: not computed by PIRScope");
        break;
    case NodeMarks::Accuracy::Agrees:
        lines << QObject::tr("Paddle run log: agrees with PIRScope");
        break;
    case NodeMarks::Accuracy::Close:
        lines << QObject::tr("Paddle run log: differs, within tolerance");
        break;
    case NodeMarks::Accuracy::Divergent:
        lines << QObject::tr("Paddle run log: diverges beyond tolerance");
        break;
    case NodeMarks::Accuracy::None:
        break;
    }
    if (marks.keptBytes > 0)
        lines << QObject::tr("kept for the backward: %1 (%2% of what the forward keeps)")
                     .arg(QLocale().formattedDataSize(marks.keptBytes, 2, QLocale::DataSizeSIFormat))
                     .arg(double(marks.keptShare) * 100, 0, 'f', 1);
    return lines.join(QLatin1Char('\n'));
}

void GraphNodeItem::paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *)
{
    NodeVisual visual = m_visual;
    visual.selected = option->state & QStyle::State_Selected;
    m_style->paintNode(painter, visual, option->levelOfDetailFromTransform(painter->worldTransform()));
}

} // namespace ps
