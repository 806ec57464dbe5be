#pragma once

#include <QAbstractTableModel>
#include <memory>

namespace ps {

struct PipelineSnapshot;
class TargetShapes;

/// The forward/backward cut of a snapshot (ForwardBackwardCut): one row per value the
/// backward program reads from the forward one (inputs, parameters, middles, outputs) with its
/// name, type, size in bytes (inferred from the input shapes where the type is dynamic; "dynamic"
/// when unknown), no-need-buffer flag and producer.
/// ValueRole / OpRole give the forward value and its producer, BackwardValueRole the backward
/// keyword argument.
class CrossingValuesModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column {
        NameColumn,
        BytesColumn,
        NoNeedBufferColumn,
        RoleColumn,
        TypeColumn,
        OpColumn,
        ColumnCount
    };

    explicit CrossingValuesModel(QObject *parent = nullptr);

    void setSnapshot(std::shared_ptr<const PipelineSnapshot> snapshot);
    /// Shapes inferred for the snapshot's values from the input shapes: a value of dynamic size
    /// shows their bytes (and, when unknown, why in its tooltip). Null: declared sizes only.
    void setShapes(std::shared_ptr<const TargetShapes> shapes);
    /// "12 B", "3.5 KiB", "dynamic" for -1.
    static QString bytesText(qint64 bytes);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const PipelineSnapshot> m_snapshot;
    std::shared_ptr<const TargetShapes> m_shapes;
};

} // namespace ps
