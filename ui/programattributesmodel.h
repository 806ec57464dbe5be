#pragma once

#include <QAbstractItemModel>
#include <memory>

namespace ps {

struct PipelineSnapshot;

/// program_attr as name ↔ value tables: one row per key of split_program's dict (fx fp fm fo bx
/// bp bm bo_g bx_g bp_g no_need_buffers bo, Paddle's order) with its entries as children: the
/// name run_program uses, the value in the forward (f keys, no_need_buffers) or backward
/// program (b keys), its type and its producer (or, for a backward keyword argument, its first
/// consumer). Entry rows carry ValueRole, OpRole and SideRole.
class ProgramAttributesModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { NameColumn, ValueColumn, TypeColumn, OpColumn, ColumnCount };

    explicit ProgramAttributesModel(QObject *parent = nullptr);
    ~ProgramAttributesModel() override;

    void setSnapshot(std::shared_ptr<const PipelineSnapshot> snapshot);
    /// The row of a key ("fm", "bo_g"), or -1.
    int keyRow(const QString &key) const;

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const PipelineSnapshot> m_snapshot;
};

} // namespace ps
