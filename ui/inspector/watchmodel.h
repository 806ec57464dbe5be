#pragma once

#include "core/ir/datatype.h"
#include "core/runtime/tensorstats.h"

#include <QAbstractTableModel>
#include <vector>

namespace ps {

/// Pinned value names with live statistics, one row each, in the order they were added: name,
/// shape, dtype, min, max, mean, NaN/Inf count and state ("not computed yet" until the first
/// update, "live", "freed" once the run released the value; a freed row keeps its last numbers
/// greyed; "unknown name" for a name that names nothing in the programs debugged, e.g. a typo).
/// Rows holding NaN or Inf have a red background.
class WatchModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        ShapeColumn,
        DTypeColumn,
        MinColumn,
        MaxColumn,
        MeanColumn,
        NonFiniteColumn,
        StateColumn,
        ColumnCount
    };
    enum class State { NotComputed, Live, Freed, Unknown };
    enum Role {
        StateRole = Qt::UserRole + 80, ///< int(State)
        NonFiniteRole, ///< qint64 NaN + Inf count
    };

    explicit WatchModel(QObject *parent = nullptr);

    /// Appends a row in the NotComputed state; false (no change) when `name` is already watched.
    bool addWatch(const QString &name);
    bool removeWatch(const QString &name);
    /// Stores the newest summary of `name` (state Live); false when `name` is not watched.
    bool updateValue(
        const QString &name, const std::vector<int64_t> &shape, DataType dtype, const TensorStats &stats);
    bool markFreed(const QString &name);
    /// The name names no value of the programs debugged (state Unknown, numbers cleared).
    bool markUnknown(const QString &name);
    /// Back to NotComputed with the numbers cleared (a new target: the name may name something).
    bool markNotComputed(const QString &name);
    void clear();

    bool contains(const QString &name) const { return rowOf(name) >= 0; }
    int rowOf(const QString &name) const;
    QStringList names() const;
    State state(const QString &name) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Watch
    {
        QString name;
        State state = State::NotComputed;
        bool hasValue = false;
        std::vector<int64_t> shape;
        DataType dtype = DataType::Undefined;
        TensorStats stats;
    };
    void emitRowChanged(int row);

    std::vector<Watch> m_watches;
};

} // namespace ps
