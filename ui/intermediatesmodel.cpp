#include "ui/intermediatesmodel.h"

#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/intermediatesresult.h"
#include "ui/render/graphstyle.h"
#include "ui/runlogresult.h"

#include <QColor>
#include <cmath>

namespace ps {

IntermediatesModel::IntermediatesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void IntermediatesModel::setResult(std::shared_ptr<const IntermediatesResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int IntermediatesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_result ? 0 : int(m_result->count());
}

int IntermediatesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant IntermediatesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Index:
            return tr("#");
        case Op:
            return tr("Op");
        case ValueColumn:
            return tr("Value");
        case Part:
            return tr("Part");
        case Mismatches:
            return tr("Beyond tol");
        case MaxAbs:
            return tr("Max abs");
        case MaxRel:
            return tr("Max rel");
        case Error:
            return tr("Error \u00d7 tol");
        case Inherited:
            return tr("Operands differed");
        default:
            break;
        }
    } else if (role == Qt::ToolTipRole) {
        if (section == Error)
            return tr(
                "max |Paddle \u2212 PIRScope| / (atol + rtol \u00b7 |Paddle|): above 1 is beyond tolerance");
        if (section == Inherited)
            return tr(
                "An operand of the op already differed from Paddle's value: the error may be inherited");
        if (section == Mismatches)
            return tr("Elements beyond tolerance");
    }
    return {};
}

QVariant IntermediatesModel::data(const QModelIndex &index, int role) const
{
    if (!m_result || !index.isValid() || size_t(index.row()) >= m_result->count())
        return {};
    const size_t row = size_t(index.row());
    const IntermediateDifference &d = m_result->differenceAt(row);
    const Operation *op = m_result->shownOp[row];
    const bool divergent = d.mismatches > 0 || !d.problem.empty();
    if (role == OpRole)
        return opVariant(op);
    const int column = index.column();
    if (role == SortRole) {
        switch (column) {
        case Index:
            return qlonglong(row);
        case Mismatches:
            return qlonglong(d.mismatches);
        case MaxAbs:
            return d.maxAbs;
        case MaxRel:
            return d.maxRel;
        case Error:
            return std::isfinite(d.error) ? d.error : 1e300;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole
        && (column == Index || column == Mismatches || column == MaxAbs || column == MaxRel
            || column == Error))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == Op && !op)
        return QColor(0x80, 0x80, 0x80);
    if (role == Qt::DecorationRole && column == Error) {
        const QColor c = GraphStyle::accuracyColor(
            divergent ? NodeMarks::Accuracy::Divergent : RunLogResult::accuracyOf(d.error));
        return c.isValid() ? QVariant(c) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        QString tip = tr("op %1 of Paddle's %2, result %3 (%4)")
                          .arg(d.opIndex)
                          .arg(QString::fromStdString(m_result->report->program))
                          .arg(d.resultIndex)
                          .arg(QString::fromStdString(d.opName));
        if (!op)
            tip += tr("\nnot in the programs shown (a pass removed its clone, or it is a backward op)");
        if (!d.problem.empty())
            tip += QLatin1Char('\n') + QString::fromStdString(d.problem);
        else if (d.worstIndex >= 0)
            tip += tr("\nworst element at flat index %1").arg(d.worstIndex);
        return tip;
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Index:
        return qlonglong(row + 1);
    case Op:
        return QStringLiteral("%1 %2").arg(m_result->opLabel(row), QString::fromStdString(d.opName));
    case ValueColumn:
        return QString::fromStdString(d.valueId);
    case Part:
        return QString::fromStdString(d.part);
    case Mismatches:
        return d.problem.empty() ? QVariant(qlonglong(d.mismatches))
                                 : QVariant(QString::fromStdString(d.problem));
    case MaxAbs:
        return QString::number(d.maxAbs, 'g', 3);
    case MaxRel:
        return QString::number(d.maxRel, 'g', 3);
    case Error:
        return std::isfinite(d.error) ? QString::number(d.error, 'g', 3) : QStringLiteral("\u221e");
    case Inherited:
        return divergent && d.operandsAlreadyDiffered ? tr("yes") : QString();
    default:
        return {};
    }
}

} // namespace ps
