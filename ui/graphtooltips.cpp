#include "ui/graphtooltips.h"

#include "core/analysis/valuenames.h"
#include "core/ir/operation.h"
#include "ui/displaytext.h"
#include "ui/graphedgeitem.h"
#include "ui/graphnodeitem.h"
#include "ui/programdocument.h"

#include <QStringList>

namespace ps {

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

int userCount(Value v)
{
    int n = 0;
    for (const OpOperand *use = v.firstUse(); use; use = use->nextUse())
        ++n;
    return n;
}

/// "%7 relu_0.tmp_0 : tensor<?x16xf32>".
QString valueLine(Value v, const ProgramDocument &document)
{
    QString line = document.valueId(v);
    QStringList names;
    for (const std::string &n : ValueNames::allNameStrings(v))
        names << QString::fromStdString(n);
    names.removeDuplicates();
    if (!names.isEmpty())
        line += QLatin1Char(' ') + names.join(QStringLiteral(", "));
    return line + QStringLiteral(" : ") + DisplayText::type(v.type());
}

void addLive(QStringList &lines, Value v, const GraphToolTips::LiveText &live, const QString &prefix = {})
{
    const QString now = live ? live(v) : QString();
    if (!now.isEmpty())
        lines << prefix + QObject::tr("now: %1").arg(now);
}

} // namespace

QString GraphToolTips::opLabel(const Operation *op, const ProgramDocument &document)
{
    if (!op)
        return {};
    const int index = document.indexOf(op);
    return qs(op->name()) + (index >= 0 ? QStringLiteral(" #%1").arg(index) : QString());
}

QString GraphToolTips::text(const QGraphicsItem *item, const ProgramDocument &document, const LiveText &live)
{
    if (!item)
        return {};
    if (item->type() == GraphEdgeItem::Type)
        return valueText(static_cast<const GraphEdgeItem *>(item)->value(), document, live);
    if (item->type() != GraphNodeItem::Type)
        return {};
    const auto *node = static_cast<const GraphNodeItem *>(item);
    QStringList lines;
    if (node->isGhost()) {
        lines << QObject::tr("Ghost: a copy of this value drawn beside each op that uses it, instead "
                             "of one long edge (it is shared widely or defined far away)");
        lines << valueText(node->value(), document, live);
    } else if (!node->op()) {
        lines << valueText(node->value(), document, live);
    } else {
        lines << opText(*node, document, live);
    }
    const QString marks = node->marksText();
    if (!marks.isEmpty())
        lines << marks;
    return lines.join(QLatin1Char('\n'));
}

QString GraphToolTips::valueText(Value v, const ProgramDocument &document, const LiveText &live)
{
    if (!v)
        return {};
    QStringList lines { valueLine(v, document) };
    if (const Operation *def = v.definingOp())
        lines << QObject::tr("result %1 of %2").arg(v.index()).arg(opLabel(def, document));
    else if (v.isKeywordArgument())
        lines << QObject::tr("keyword argument \"%1\"").arg(QString::fromStdString(v.keyword()));
    else
        lines << QObject::tr("block argument %1").arg(v.index());
    const int users = userCount(v);
    lines << (users == 1 ? QObject::tr("1 user") : QObject::tr("%1 users").arg(users));
    addLive(lines, v, live);
    return lines.join(QLatin1Char('\n'));
}

QString GraphToolTips::opText(
    const GraphNodeItem &node, const ProgramDocument &document, const LiveText &live)
{
    const Operation *op = node.op();
    QStringList lines { opLabel(op, document) };
    const std::string layer = op->stringAttribute("struct_name");
    if (!layer.empty())
        lines << QObject::tr("layer %1").arg(QString::fromStdString(layer));
    for (unsigned i = 0; i < op->numOperands() && i < 8; ++i)
        if (Value v = op->operand(i))
            lines << QObject::tr("in %1: %2").arg(i).arg(valueLine(v, document));
    if (op->numOperands() > 8)
        lines << QObject::tr("… %1 more operands").arg(op->numOperands() - 8);
    if (op->numResults() > 1 && node.lines().size() > 1 && node.lines().last().contains(QLatin1String(" +")))
        lines
            << QObject::tr("\"+%1\" on the box: %1 more results besides the first").arg(op->numResults() - 1);
    for (unsigned i = 0; i < op->numResults() && i < 8; ++i) {
        lines << QObject::tr("out %1: %2").arg(i).arg(valueLine(op->result(i), document));
        addLive(lines, op->result(i), live, QStringLiteral("    "));
    }
    if (op->numResults() > 8)
        lines << QObject::tr("… %1 more results").arg(op->numResults() - 8);
    return lines.join(QLatin1Char('\n'));
}

} // namespace ps
