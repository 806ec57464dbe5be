#include "ui/inspector/tensorslicemodel.h"

#include "ui/common/themecolors.h"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <cmath>

namespace ps {

TensorSliceModel::TensorSliceModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void TensorSliceModel::setTensor(const Tensor &tensor)
{
    beginResetModel();
    m_slice = TensorSlice::canRead(tensor) ? TensorSlice(tensor) : TensorSlice();
    resetRows();
    m_changing = true;
    endResetModel();
    m_changing = false;
}

void TensorSliceModel::setAxes(int rowAxis, int columnAxis, const std::vector<int64_t> &fixed)
{
    if (!m_slice.valid())
        return;
    beginResetModel();
    m_slice.setAxes(rowAxis, columnAxis);
    for (size_t i = 0; i < fixed.size(); ++i)
        m_slice.setFixedIndex(int(i), fixed[i]);
    resetRows();
    m_changing = true;
    endResetModel();
    m_changing = false;
}

void TensorSliceModel::setFixedIndex(int axis, int64_t index)
{
    if (!m_slice.valid() || axis == m_slice.rowAxis() || axis == m_slice.columnAxis())
        return;
    m_slice.setFixedIndex(axis, index);
    // Same geometry, other elements: no reset, so the views keep their scroll position.
    if (rowCount() > 0 && columnCount() > 0)
        emit dataChanged(this->index(0, 0), this->index(rowCount() - 1, columnCount() - 1));
}

bool TensorSliceModel::truncated() const
{
    return m_slice.rows() > MaxRows || m_slice.columns() > MaxColumns;
}

int TensorSliceModel::rowLimit() const
{
    return m_slice.valid() ? int(std::min<int64_t>(m_slice.rows(), MaxRows)) : 0;
}

void TensorSliceModel::resetRows()
{
    m_loadedRows = std::min(rowLimit(), PageRows);
}

QString TensorSliceModel::valueText(const TensorSlice &slice, int64_t row, int64_t column)
{
    if (slice.isBool())
        return slice.integerValue(row, column) ? QStringLiteral("true") : QStringLiteral("false");
    if (!slice.isFloating())
        return QString::number(slice.integerValue(row, column));
    const double v = slice.value(row, column);
    if (std::isnan(v))
        return QStringLiteral("nan");
    if (std::isinf(v))
        return v > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::asprintf("%.6g", v);
}

QString TensorSliceModel::indexText(const std::vector<int64_t> &index)
{
    QStringList parts;
    for (int64_t i : index)
        parts << QString::number(i);
    return QLatin1Char('(') + parts.join(QStringLiteral(", ")) + QLatin1Char(')');
}

int TensorSliceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_loadedRows;
}

int TensorSliceModel::columnCount(const QModelIndex &parent) const
{
    if (parent.isValid() || !m_slice.valid())
        return 0;
    return int(std::min<int64_t>(m_slice.columns(), MaxColumns));
}

QVariant TensorSliceModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const int64_t r = index.row(), c = index.column();
    switch (role) {
    case Qt::DisplayRole:
        return text(r, c);
    case Qt::ToolTipRole:
        return indexText(m_slice.fullIndex(r, c)) + QStringLiteral(" = ") + text(r, c);
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::BackgroundRole: {
        if (!m_slice.isFloating())
            return {};
        const double v = m_slice.value(r, c);
        if (std::isnan(v))
            return QBrush(ThemeColors::current().errorBackground);
        if (std::isinf(v))
            return QBrush(ThemeColors::current().warningBackground);
        return {};
    }
    case ValueRole:
        return m_slice.value(r, c);
    case FlatIndexRole:
        return qint64(m_slice.flatIndex(r, c));
    case FullIndexRole: {
        QList<qint64> out;
        for (int64_t i : m_slice.fullIndex(r, c))
            out << qint64(i);
        return QVariant::fromValue(out);
    }
    default:
        return {};
    }
}

QVariant TensorSliceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    const int axis = orientation == Qt::Horizontal ? m_slice.columnAxis() : m_slice.rowAxis();
    if (role == Qt::ToolTipRole)
        return axis >= 0 ? tr("axis %1, index %2").arg(axis).arg(section) : QVariant();
    if (axis < 0)
        return orientation == Qt::Horizontal ? tr("value") : QVariant(QString());
    return QString::number(section);
}

bool TensorSliceModel::canFetchMore(const QModelIndex &parent) const
{
    // Not from a slot connected to our own reset or insertion (QAbstractItemModelTester fetches
    // there): one page per fetch, never nested.
    return !parent.isValid() && !m_changing && m_loadedRows < rowLimit();
}

void TensorSliceModel::fetchMore(const QModelIndex &parent)
{
    if (!canFetchMore(parent))
        return;
    const int more = std::min(PageRows, rowLimit() - m_loadedRows);
    beginInsertRows({}, m_loadedRows, m_loadedRows + more - 1);
    m_loadedRows += more;
    m_changing = true;
    endInsertRows();
    m_changing = false;
}

} // namespace ps
