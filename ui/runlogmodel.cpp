#include "ui/runlogmodel.h"

#include "core/io/paddlerunlog.h"
#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/render/graphstyle.h"
#include "ui/runlogresult.h"

#include <QColor>

namespace ps {

namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

RunLogModel::RunLogModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void RunLogModel::setResult(std::shared_ptr<const RunLogResult> result)
{
    beginResetModel();
    m_result = std::move(result);
    endResetModel();
}

int RunLogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_result || !m_result->ok() ? 0 : int(m_result->recordCount());
}

int RunLogModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunLogModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Line:
            return tr("Line");
        case Kernel:
            return tr("Kernel");
        case Tensor:
            return tr("Tensor");
        case Op:
            return tr("Op");
        case ValueColumn:
            return tr("Value");
        case Stat:
            return tr("Worst stat");
        case Paddle:
            return tr("Paddle");
        case Pirscope:
            return tr("PIRScope");
        case Error:
            return tr("Error \u00d7 tol");
        default:
            break;
        }
    } else if (role == Qt::ToolTipRole && section == Error) {
        return tr("|Paddle \u2212 PIRScope| / (atol + rtol \u00b7 scale): above 1 is beyond tolerance");
    }
    return {};
}

QVariant RunLogModel::data(const QModelIndex &index, int role) const
{
    if (!m_result || !index.isValid() || size_t(index.row()) >= m_result->recordCount())
        return {};
    const size_t row = size_t(index.row());
    const PaddleRunLogRecord &record = m_result->log->records[row];
    const Operation *op = m_result->opOf(row);
    const RunLogDifference *d = m_result->differenceAt(row);
    if (role == OpRole)
        return opVariant(op);
    const int column = index.column();
    if (role == SortRole) {
        switch (column) {
        case Line:
            return qlonglong(row); // log order, across the files of a folder
        case Paddle:
            return d ? d->paddle : -1e300;
        case Pirscope:
            return d ? d->other : -1e300;
        case Error:
            return d ? d->error : op ? -1.0 : -2.0;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole
        && (column == Line || column == Paddle || column == Pirscope || column == Error))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && column == Op && !op)
        return QColor(0x80, 0x80, 0x80);
    if (role == Qt::DecorationRole && column == Error) {
        const NodeMarks::Accuracy a = d ? RunLogResult::accuracyOf(d->error)
            : op                        ? NodeMarks::Accuracy::NotCompared
                                        : NodeMarks::Accuracy::None;
        const QColor c = GraphStyle::accuracyColor(a);
        return c.isValid() ? QVariant(c) : QVariant();
    }
    if (role == Qt::ToolTipRole) {
        if (!op)
            return tr("Unmatched: %1").arg(QString::fromStdString(m_result->check->report.match.reason(row)));
        QString tip = tr("%1 %2 (%3) \u2014 %4 of %5")
                          .arg(m_result->opLabel(row), text(op->name()), m_result->valueLabel(row))
                          .arg(text(record.op), QString::fromStdString(m_result->log->where(record)));
        if (!d)
            tip += tr("\nnot computed by PIRScope's run");
        return tip;
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (column) {
    case Line:
        return record.line;
    case Kernel:
        return text(record.op);
    case Tensor:
        return text(record.tensor);
    case Op:
        if (!op)
            return tr("unmatched: %1").arg(QString::fromStdString(m_result->check->report.match.reason(row)));
        return QStringLiteral("%1 %2").arg(m_result->opLabel(row), text(op->name()));
    case ValueColumn:
        return m_result->valueLabel(row);
    case Stat:
        return d ? (d->stat.empty() ? tr("equal") : QString::fromStdString(d->stat))
            : op ? tr("not computed")
                 : QString();
    case Paddle:
        return d && !d->stat.empty() ? QString::number(d->paddle, 'g', 7) : QString();
    case Pirscope:
        return d && !d->stat.empty() ? QString::number(d->other, 'g', 7) : QString();
    case Error:
        return d ? QString::number(d->error, 'g', 3) : QString();
    default:
        return {};
    }
}

} // namespace ps
