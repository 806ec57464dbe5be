#pragma once

#include "core/ir/value.h"

#include <QAbstractItemModel>
#include <functional>
#include <memory>
#include <vector>

namespace ps {

class Operation;
class ProgramDocument;
struct InferredShape;

/// The properties of the selected op (identity, attributes, operands, results with their
/// users) or value (type, names, producer, users, inplace group) as a two-column tree. Rows
/// that mention another op or value carry it in OpRole / ValueRole for navigation.
class PropertiesModel : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Column { KeyColumn, ValueColumn, ColumnCount };

    explicit PropertiesModel(QObject *parent = nullptr);
    ~PropertiesModel() override;

    void setDocument(std::shared_ptr<const ProgramDocument> document);
    /// Where a value with dynamic dims finds its inferred shape (a "Shape" row: concrete dims
    /// and bytes, or why it is unknown); null for none. The shown op or value is not refreshed.
    using ShapeLookup = std::function<const InferredShape *(Value)>;
    void setShapeLookup(ShapeLookup lookup) { m_shapeLookup = std::move(lookup); }
    void showOp(const Operation *op);
    void showValue(Value value);
    void clear();
    const Operation *currentOp() const { return m_op; }
    Value currentValue() const { return m_value; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Item;
    Item *itemOf(const QModelIndex &index) const;
    Item *add(Item *parent, QString key, QString value, const Operation *op = nullptr, Value v = {});
    void addValueRows(Item *parent, Value v);
    QString opLabel(const Operation *op) const;

    std::shared_ptr<const ProgramDocument> m_document;
    std::unique_ptr<Item> m_root;
    const Operation *m_op = nullptr;
    Value m_value;
    ShapeLookup m_shapeLookup;
};

} // namespace ps
