#include "ui/debugger/executedopsmodel.h"

#include "core/ir/operation.h"
#include "core/runtime/oprecord.h"
#include "ui/common/itemroles.h"
#include "ui/common/themecolors.h"
#include "ui/debugger/debugsession.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

namespace ps {
namespace {

QString opName(const Operation *op)
{
    return op ? QString::fromUtf8(op->name().data(), qsizetype(op->name().size())) : QString();
}

QString milliseconds(double seconds)
{
    return QString::number(seconds * 1000.0, 'f', 3);
}

QString outputs(const OpRecord &r)
{
    QStringList parts;
    for (size_t i = 0; i < r.outputShapes.size(); ++i) {
        const DataType dtype = i < r.outputDtypes.size() ? r.outputDtypes[i] : DataType::Undefined;
        if (dtype == DataType::Undefined && r.outputShapes[i].empty()) {
            parts << QStringLiteral("-");
            continue;
        }
        const std::string_view name = phiName(dtype);
        parts << QString::fromLatin1(name.data(), qsizetype(name.size()))
                + QString::fromStdString(shapeText(r.outputShapes[i]));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

ExecutedOpsModel::ExecutedOpsModel(DebugSession *session, QObject *parent)
    : QAbstractTableModel(parent)
    , m_session(session)
    , m_count(int(session->records().size()))
{
    connect(session, &DebugSession::recordsAppended, this, &ExecutedOpsModel::onAppended);
    connect(session, &DebugSession::recordsReset, this, &ExecutedOpsModel::onReset);
    connect(session, &DebugSession::stateChanged, this, &ExecutedOpsModel::updateCurrentRow);
    connect(session, &DebugSession::stoppedAt, this, &ExecutedOpsModel::updateCurrentRow);
    connect(session, &DebugSession::breakpointsChanged, this, [this] {
        if (rowCount() > 0)
            emit dataChanged(index(0, MarksColumn), index(rowCount() - 1, MarksColumn));
    });
    updateCurrentRow();
}

int ExecutedOpsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_count + (m_current ? 1 : 0);
}

int ExecutedOpsModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void ExecutedOpsModel::onAppended(int first, int count)
{
    // The session only appends after the rows this model knows (or resets first).
    if (first != m_count || count <= 0) {
        onReset();
        return;
    }
    beginInsertRows({}, first, first + count - 1);
    m_count += count;
    endInsertRows();
}

void ExecutedOpsModel::onReset()
{
    // Rows are removed and inserted rather than reset: a model reset would also reset the view's
    // column widths.
    if (rowCount() > 0) {
        beginRemoveRows({}, 0, rowCount() - 1);
        m_count = 0;
        m_current = false;
        endRemoveRows();
    }
    const int count = int(m_session->records().size());
    if (count > 0) {
        beginInsertRows({}, 0, count - 1);
        m_count = count;
        endInsertRows();
    }
    updateCurrentRow();
}

void ExecutedOpsModel::updateCurrentRow()
{
    const DebugSession::State s = m_session->state();
    const bool current = (s == DebugSession::State::Paused || s == DebugSession::State::Error)
        && m_session->currentOp() != nullptr;
    if (current == m_current) {
        if (current)
            emit dataChanged(index(m_count, 0), index(m_count, ColumnCount - 1));
        return;
    }
    if (current) {
        beginInsertRows({}, m_count, m_count);
        m_current = true;
        endInsertRows();
    } else {
        beginRemoveRows({}, m_count, m_count);
        m_current = false;
        endRemoveRows();
    }
}

int ExecutedOpsModel::rowOf(const Operation *op) const
{
    if (!op)
        return -1;
    if (m_current && m_session->currentOp() == op)
        return m_count;
    const std::vector<OpRecord> &records = m_session->records();
    for (int row = std::min(m_count, int(records.size())) - 1; row >= 0; --row)
        if (records[size_t(row)].op == op)
            return row;
    return -1;
}

QString ExecutedOpsModel::marks(int row) const
{
    if (row < 0 || row >= rowCount())
        return {};
    QStringList out;
    if (row == m_count) {
        const std::optional<ProgramPosition> p = m_session->position();
        if (p && m_session->breakpointAt(*p) >= 0)
            out << QStringLiteral("●");
        out << (m_session->state() == DebugSession::State::Error ? QStringLiteral("✖") : QStringLiteral("▶"));
        return out.join(QLatin1Char(' '));
    }
    const OpRecord &r = m_session->records()[size_t(row)];
    if (m_session->breakpointAt(r.position) >= 0)
        out << QStringLiteral("●");
    if (r.hasNanInf)
        out << QStringLiteral("NaN");
    if (r.diverged)
        out << QStringLiteral("≠");
    return out.join(QLatin1Char(' '));
}

QVariant ExecutedOpsModel::recordData(const OpRecord &r, int column, int role) const
{
    if (role == Qt::DisplayRole) {
        switch (column) {
        case SequenceColumn:
            return qulonglong(r.sequence);
        case OpColumn:
            return opName(r.op);
        case PositionColumn:
            return QString::fromStdString(r.position.toString());
        case SegmentColumn:
            return m_session->segmentName(r.position.segment);
        case WallColumn:
            return milliseconds(r.hostSeconds);
        case DeviceColumn:
            return milliseconds(r.deviceSeconds);
        case OutputsColumn:
            return outputs(r);
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        QString tip = opName(r.op) + QStringLiteral(" at ") + QString::fromStdString(r.position.toString());
        if (r.iteration > 0)
            tip += tr("\nloop iteration %1").arg(r.iteration);
        if (r.hasNanInf)
            tip += tr("\nproduced NaN or Inf");
        if (r.compared)
            tip += tr("\nCPU comparison: max abs diff %1").arg(r.maxAbsDiff, 0, 'g', 3)
                + (r.comparison.empty() ? QString()
                                        : QStringLiteral("\n") + QString::fromStdString(r.comparison));
        return tip;
    }
    if (role == Qt::BackgroundRole) {
        if (r.hasNanInf)
            return QBrush(ThemeColors::current().warningBackground);
        if (r.diverged)
            return QBrush(ThemeColors::current().noticeBackground);
    }
    return {};
}

QVariant ExecutedOpsModel::currentData(int column, int role) const
{
    const Operation *op = m_session->currentOp();
    const bool failed = m_session->state() == DebugSession::State::Error;
    if (role == Qt::DisplayRole) {
        switch (column) {
        case SequenceColumn:
            return failed ? tr("failed") : tr("next");
        case OpColumn:
            return opName(op);
        case PositionColumn:
            return m_session->position() ? QString::fromStdString(m_session->position()->toString())
                                         : QString();
        case SegmentColumn:
            return m_session->position() ? m_session->segmentName(m_session->position()->segment) : QString();
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole)
        return failed && m_session->currentError()
            ? QString::fromStdString(m_session->currentError()->toString())
            : m_session->stopText();
    if (role == Qt::BackgroundRole)
        return QBrush(
            failed ? ThemeColors::current().errorBackground : ThemeColors::current().successBackground);
    return {};
}

QVariant ExecutedOpsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int row = index.row();
    const bool current = row == m_count;
    if (role == OpRole)
        return opVariant(current ? m_session->currentOp() : m_session->records()[size_t(row)].op);
    if (index.column() == MarksColumn && role == Qt::DisplayRole)
        return marks(row);
    if (role == Qt::TextAlignmentRole && (index.column() == WallColumn || index.column() == DeviceColumn))
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return current ? currentData(index.column(), role)
                   : recordData(m_session->records()[size_t(row)], index.column(), role);
}

QVariant ExecutedOpsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case SequenceColumn:
        return tr("#");
    case OpColumn:
        return tr("Op");
    case PositionColumn:
        return tr("Position");
    case SegmentColumn:
        return tr("Segment");
    case WallColumn:
        return tr("Wall ms");
    case DeviceColumn:
        return tr("Device ms");
    case OutputsColumn:
        return tr("Outputs");
    case MarksColumn:
        return tr("Marks");
    default:
        return {};
    }
}

} // namespace ps
