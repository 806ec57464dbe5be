#include "ui/propertiesmodel.h"

#include "core/analysis/shapeinference.h"
#include "core/analysis/valuenames.h"
#include "core/graph/graphbuilder.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirtextformat.h"
#include "core/ir/shapesize.h"
#include "ui/common/itemroles.h"
#include "ui/displaytext.h"
#include "ui/programdocument.h"

namespace ps {

struct PropertiesModel::Item
{
    QString key;
    QString value;
    const Operation *op = nullptr;
    Value v;
    Item *parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Item>> children;
};

namespace {

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString typeText(Type t)
{
    return DisplayText::type(t);
}

} // namespace

PropertiesModel::PropertiesModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Item>())
{
}

PropertiesModel::~PropertiesModel() = default;

void PropertiesModel::setDocument(std::shared_ptr<const ProgramDocument> document)
{
    clear();
    m_document = std::move(document);
}

void PropertiesModel::clear()
{
    beginResetModel();
    m_root = std::make_unique<Item>();
    m_op = nullptr;
    m_value = Value();
    endResetModel();
}

PropertiesModel::Item *PropertiesModel::add(
    Item *parent, QString key, QString value, const Operation *op, Value v)
{
    auto item = std::make_unique<Item>();
    item->key = std::move(key);
    item->value = std::move(value);
    item->op = op;
    item->v = v;
    item->parent = parent;
    item->row = int(parent->children.size());
    parent->children.push_back(std::move(item));
    return parent->children.back().get();
}

QString PropertiesModel::opLabel(const Operation *op) const
{
    if (!op)
        return {};
    const int index = m_document ? m_document->indexOf(op) : -1;
    return qs(op->name()) + (index >= 0 ? QStringLiteral("  #%1").arg(index) : QString());
}

void PropertiesModel::addValueRows(Item *parent, Value v)
{
    add(parent, tr("Type"), typeText(v.type()));
    const Type type = v.type();
    if (m_shapeLookup && type && type.isTensorLike() && type.numElements() < 0)
        if (const InferredShape *s = m_shapeLookup(v)) {
            const std::optional<uint64_t> bytes = ShapeSize::bytes(s->dims, type.dtype());
            add(parent, tr("Shape"),
                s->known()
                    ? tr("%1 \u00b7 %2 (inferred from the input shapes)")
                          .arg(QString::fromStdString(ShapeSize::shapeText(s->dims)),
                              bytes ? QString::fromStdString(ShapeSize::formatBytes(*bytes)) : QString())
                    : tr("unknown: %1").arg(QString::fromStdString(s->whyUnknown)));
        }
    QStringList names;
    for (const ValueName &n : ValueNames::allNames(v))
        names << QStringLiteral("%1 (%2)").arg(QString::fromStdString(n.name), qs(nameSourceText(n.source)));
    if (!names.isEmpty())
        add(parent, tr("Names"), names.join(QStringLiteral(", ")), nullptr, v);
    std::vector<const OpOperand *> uses;
    for (const OpOperand *use = v.firstUse(); use; use = use->nextUse())
        uses.push_back(use);
    Item *users = add(parent, tr("Users"), QString::number(uses.size()));
    // The use list is most recent first; show program order.
    for (auto it = uses.rbegin(); it != uses.rend(); ++it)
        add(users, opLabel((*it)->owner()), tr("operand %1").arg((*it)->index()), (*it)->owner());
}

void PropertiesModel::showOp(const Operation *op)
{
    beginResetModel();
    m_root = std::make_unique<Item>();
    m_op = op;
    m_value = Value();
    if (op && m_document) {
        Item *ident = add(m_root.get(), tr("Operation"), qs(op->name()), op);
        add(ident, tr("Index"), QString::number(m_document->indexOf(op)), op);
        add(ident, tr("Kind"), qs(nodeKindName(GraphBuilder::kindOf(*op))));
        if (const Operation *parentOp = op->parentOp())
            add(ident, tr("Parent"), opLabel(parentOp), parentOp);
        if (op->numRegions() > 0)
            add(ident, tr("Regions"), QString::number(op->numRegions()));

        Item *attrs = add(m_root.get(), tr("Attributes"), QString::number(op->attributes().size()));
        for (const NamedAttribute &a : op->attributes())
            add(attrs, QString::fromStdString(a.name),
                QString::fromStdString(PirTextFormat::attributeText(a.value, Generation::C)));

        Item *operands = add(m_root.get(), tr("Operands"), QString::number(op->numOperands()));
        for (unsigned i = 0; i < op->numOperands(); ++i) {
            Value v = op->operand(i);
            QString name = QString::fromStdString(valueNameOrEmpty(v));
            Item *row = add(operands, QStringLiteral("%1: %2").arg(i).arg(m_document->valueId(v)),
                v ? typeText(v.type()) + (name.isEmpty() ? QString() : QStringLiteral("  ") + name)
                  : tr("null"),
                v.definingOp(), v);
            if (v && v.definingOp())
                add(row, tr("Defined by"), opLabel(v.definingOp()), v.definingOp());
        }

        Item *results = add(m_root.get(), tr("Results"), QString::number(op->numResults()));
        for (unsigned i = 0; i < op->numResults(); ++i) {
            Value v = op->result(i);
            Item *row = add(results, m_document->valueId(v), typeText(v.type()), nullptr, v);
            addValueRows(row, v);
        }
    }
    endResetModel();
}

void PropertiesModel::showValue(Value value)
{
    beginResetModel();
    m_root = std::make_unique<Item>();
    m_op = nullptr;
    m_value = value;
    if (value && m_document) {
        Item *ident = add(m_root.get(), tr("Value"), m_document->valueId(value), nullptr, value);
        if (Operation *def = value.definingOp())
            add(ident, tr("Defined by"), opLabel(def) + tr(", result %1").arg(value.index()), def);
        else if (value.isKeywordArgument())
            add(ident, tr("Defined by"),
                tr("keyword argument \"%1\"").arg(QString::fromStdString(value.keyword())));
        else
            add(ident, tr("Defined by"), tr("block argument %1").arg(value.index()));
        addValueRows(ident, value);
        if (const InplaceGroup *group = m_document->inplaceGroups().groupOf(value)) {
            Item *g = add(
                m_root.get(), tr("Inplace group"), m_document->valueId(group->root), nullptr, group->root);
            if (group->rootName)
                add(g, tr("Root name"), QString::fromStdString(*group->rootName));
            add(g, tr("Members"), QString::number(group->members.size()));
        }
    }
    endResetModel();
}

PropertiesModel::Item *PropertiesModel::itemOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Item *>(index.internalPointer()) : m_root.get();
}

QModelIndex PropertiesModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    Item *p = itemOf(parent);
    return createIndex(row, column, p->children[size_t(row)].get());
}

QModelIndex PropertiesModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    Item *p = itemOf(child)->parent;
    if (!p || p == m_root.get())
        return {};
    return createIndex(p->row, 0, p);
}

int PropertiesModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(itemOf(parent)->children.size());
}

int PropertiesModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant PropertiesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Item *item = itemOf(index);
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == KeyColumn ? item->key : item->value;
    case Qt::ToolTipRole: {
        // What the row cannot show: its whole text when long, and where it leads.
        const QString &text = index.column() == KeyColumn ? item->key : item->value;
        QString tip = text.size() > 24 ? text : QString();
        if (item->op || item->v)
            tip += (tip.isEmpty() ? QString() : QStringLiteral("\n"))
                + tr("Enter or double click: select it");
        return tip.isEmpty() ? QVariant() : QVariant(tip);
    }
    case OpRole:
        return opVariant(item->op);
    case ValueRole:
        return valueVariant(item->v);
    default:
        return {};
    }
}

QVariant PropertiesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == KeyColumn ? tr("Property") : tr("Value");
}

} // namespace ps
