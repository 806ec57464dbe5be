#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <memory>

namespace ps {

class Operation;
class ProgramDocument;

/// Every op of a program (nested ones included) in walk order: index, name, result ids,
/// result names and layer path (`struct_name`). OpRole gives the op.
class OpListModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column { IndexColumn, NameColumn, ResultsColumn, NamesColumn, LayerColumn, ColumnCount };

    explicit OpListModel(QObject *parent = nullptr);

    void setDocument(std::shared_ptr<const ProgramDocument> document);
    const ProgramDocument *document() const { return m_document.get(); }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    /// The tooltip of a row: what the columns cannot show (operands and results with their types
    /// and names, the whole layer path). Built on demand.
    QString toolTip(int row) const;

    /// Row of `op`, or -1.
    int rowOf(const Operation *op) const;
    /// Search semantics of the op list: a query starting with `%` matches ops whose results
    /// or operands have exactly that id (`%12`, `%arg_0`); any other text matches op names,
    /// value names and ids case-insensitively as a substring. An empty query matches all.
    bool matches(int row, const QString &query) const;
    /// The op of `row` is a builtin.parameter.
    bool isParameter(int row) const;
    /// Number of builtin.parameter rows.
    int parameterCount() const { return m_parameters; }

private:
    struct Row
    {
        QString name;
        QString results;
        QString names;
        QString layer;
        QStringList ids; ///< result and operand ids
        bool parameter = false;
    };

    std::shared_ptr<const ProgramDocument> m_document;
    std::vector<Row> m_rows;
    int m_parameters = 0;
};

} // namespace ps
