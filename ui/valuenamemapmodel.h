#pragma once

#include <QAbstractTableModel>
#include <memory>

namespace ps {

class ProgramDocument;

/// The seed's value-name map (`_get_value_name_map_from_program`) in dict order: value id,
/// name, where the name came from and the op that gave it. ValueRole / OpRole per row.
class ValueNameMapModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { ValueColumn, NameColumn, SourceColumn, OpColumn, ColumnCount };

    explicit ValueNameMapModel(QObject *parent = nullptr);

    void setDocument(std::shared_ptr<const ProgramDocument> document);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ProgramDocument> m_document;
};

} // namespace ps
