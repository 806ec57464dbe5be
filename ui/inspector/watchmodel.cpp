#include "ui/inspector/watchmodel.h"

#include "core/runtime/tensor.h"
#include "ui/common/themecolors.h"

#include <QBrush>
#include <QColor>

namespace ps {

namespace {

QString number(double v)
{
    return QString::asprintf("%.6g", v);
}

} // namespace

WatchModel::WatchModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

int WatchModel::rowOf(const QString &name) const
{
    for (size_t i = 0; i < m_watches.size(); ++i)
        if (m_watches[i].name == name)
            return int(i);
    return -1;
}

QStringList WatchModel::names() const
{
    QStringList out;
    for (const Watch &w : m_watches)
        out << w.name;
    return out;
}

WatchModel::State WatchModel::state(const QString &name) const
{
    const int row = rowOf(name);
    return row >= 0 ? m_watches[size_t(row)].state : State::NotComputed;
}

bool WatchModel::addWatch(const QString &name)
{
    if (name.isEmpty() || contains(name))
        return false;
    const int row = int(m_watches.size());
    beginInsertRows({}, row, row);
    Watch w;
    w.name = name;
    m_watches.push_back(std::move(w));
    endInsertRows();
    return true;
}

bool WatchModel::removeWatch(const QString &name)
{
    const int row = rowOf(name);
    if (row < 0)
        return false;
    beginRemoveRows({}, row, row);
    m_watches.erase(m_watches.begin() + row);
    endRemoveRows();
    return true;
}

bool WatchModel::updateValue(
    const QString &name, const std::vector<int64_t> &shape, DataType dtype, const TensorStats &stats)
{
    const int row = rowOf(name);
    if (row < 0)
        return false;
    Watch &w = m_watches[size_t(row)];
    w.state = State::Live;
    w.hasValue = true;
    w.shape = shape;
    w.dtype = dtype;
    w.stats = stats;
    emitRowChanged(row);
    return true;
}

bool WatchModel::markFreed(const QString &name)
{
    const int row = rowOf(name);
    if (row < 0)
        return false;
    m_watches[size_t(row)].state = State::Freed;
    emitRowChanged(row);
    return true;
}

bool WatchModel::markUnknown(const QString &name)
{
    const int row = rowOf(name);
    if (row < 0)
        return false;
    Watch &w = m_watches[size_t(row)];
    w = Watch { w.name, State::Unknown };
    emitRowChanged(row);
    return true;
}

bool WatchModel::markNotComputed(const QString &name)
{
    const int row = rowOf(name);
    if (row < 0)
        return false;
    Watch &w = m_watches[size_t(row)];
    w = Watch { w.name, State::NotComputed };
    emitRowChanged(row);
    return true;
}

void WatchModel::clear()
{
    beginResetModel();
    m_watches.clear();
    endResetModel();
}

void WatchModel::emitRowChanged(int row)
{
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int WatchModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_watches.size());
}

int WatchModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant WatchModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Watch &w = m_watches[size_t(index.row())];
    const int64_t nonFinite = w.stats.nanCount + w.stats.posInfCount + w.stats.negInfCount;
    switch (role) {
    case StateRole:
        return int(w.state);
    case NonFiniteRole:
        return qint64(w.hasValue ? nonFinite : 0);
    case Qt::BackgroundRole:
        return w.hasValue && nonFinite > 0 ? QVariant(QBrush(ThemeColors::current().errorBackground))
                                           : QVariant();
    case Qt::ForegroundRole:
        if (w.state == State::Unknown && index.column() == StateColumn)
            return QBrush(ThemeColors::current().error);
        return w.state == State::Freed ? QVariant(QBrush(ThemeColors::current().mutedText)) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() >= MinColumn && index.column() <= NonFiniteColumn
            ? QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter))
            : QVariant();
    case Qt::ToolTipRole:
        if (w.state == State::Unknown)
            return tr("%1 is no value id (%5), scope variable or value name of the programs debugged")
                .arg(w.name);
        if (w.hasValue && nonFinite > 0)
            return tr("%1 NaN, %2 +Inf, %3 -Inf")
                .arg(w.stats.nanCount)
                .arg(w.stats.posInfCount)
                .arg(w.stats.negInfCount);
        break;
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    if (index.column() == NameColumn)
        return w.name;
    if (index.column() == StateColumn) {
        switch (w.state) {
        case State::NotComputed:
            return tr("not computed yet");
        case State::Live:
            return tr("live");
        case State::Freed:
            return tr("freed");
        case State::Unknown:
            return tr("unknown name");
        }
        return {};
    }
    if (!w.hasValue)
        return QString();
    switch (index.column()) {
    case ShapeColumn:
        return QString::fromStdString(shapeText(w.shape));
    case DTypeColumn:
        return QString::fromUtf8(phiName(w.dtype));
    case MinColumn:
        return number(w.stats.min);
    case MaxColumn:
        return number(w.stats.max);
    case MeanColumn:
        return number(w.stats.mean);
    case NonFiniteColumn:
        return QString::number(nonFinite);
    }
    return {};
}

QVariant WatchModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn:
        return tr("Name");
    case ShapeColumn:
        return tr("Shape");
    case DTypeColumn:
        return tr("DType");
    case MinColumn:
        return tr("Min");
    case MaxColumn:
        return tr("Max");
    case MeanColumn:
        return tr("Mean");
    case NonFiniteColumn:
        return tr("NaN/Inf");
    case StateColumn:
        return tr("State");
    }
    return {};
}

} // namespace ps
