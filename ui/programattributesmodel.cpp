#include "ui/programattributesmodel.h"

#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/displaytext.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programdocument.h"

#include <algorithm>

namespace ps {

namespace {

// Key rows have a null internal id; entry rows store their key's row + 1.
quintptr keyId(int keyRow)
{
    return quintptr(keyRow) + 1;
}

QString qs(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

ProgramAttributesModel::ProgramAttributesModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

ProgramAttributesModel::~ProgramAttributesModel() = default;

void ProgramAttributesModel::setSnapshot(std::shared_ptr<const PipelineSnapshot> snapshot)
{
    beginResetModel();
    m_snapshot = snapshot && snapshot->ok() ? std::move(snapshot) : nullptr;
    endResetModel();
}

int ProgramAttributesModel::keyRow(const QString &key) const
{
    const std::optional<SplitKey> k = splitKeyFromName(key.toStdString());
    return m_snapshot && k ? int(*k) : -1;
}

QModelIndex ProgramAttributesModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return parent.isValid() ? createIndex(row, column, keyId(parent.row()))
                            : createIndex(row, column, quintptr(0));
}

QModelIndex ProgramAttributesModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int ProgramAttributesModel::rowCount(const QModelIndex &parent) const
{
    if (!m_snapshot)
        return 0;
    if (!parent.isValid())
        return int(kSplitKeyCount);
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    return int(m_snapshot->result.attributeNames[allSplitKeys()[size_t(parent.row())]].size());
}

int ProgramAttributesModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant ProgramAttributesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_snapshot)
        return {};
    const PipelineResult &r = m_snapshot->result;
    if (index.internalId() == 0) {
        const SplitKey key = allSplitKeys()[size_t(index.row())];
        if (role == Qt::ToolTipRole && index.column() == ValueColumn)
            return tr("A fake entry stands for an input or parameter without a gradient (Paddle's "
                      "fake_value): it is no value of the program");
        if (role != Qt::DisplayRole)
            return {};
        if (index.column() == NameColumn)
            return qs(splitKeyName(key));
        if (index.column() == ValueColumn) {
            // Paddle keeps one entry per input or parameter in the grad keys, a fake value where
            // there is no gradient: count those apart, they are no values of the program.
            const std::vector<Value> &values = r.attributeValues[key];
            const size_t names = r.attributeNames[key].size();
            const size_t fakes
                = size_t(std::count_if(values.begin(), values.end(), [](Value v) { return !v; }))
                + (names > values.size() ? names - values.size() : 0);
            const size_t count = names - fakes;
            const QString real = count == 1 ? tr("1 value") : tr("%1 values").arg(count);
            if (fakes == 0)
                return real;
            return names == fakes ? tr("%1 fake (no gradient)").arg(fakes)
                                  : tr("%1 + %2 fake").arg(real).arg(fakes);
        }
        if (index.column() == TypeColumn)
            return isForwardKey(key) ? tr("forward program") : tr("backward program");
        return {};
    }
    const SplitKey key = allSplitKeys()[size_t(index.internalId() - 1)];
    const size_t i = size_t(index.row());
    const std::string &name = r.attributeNames[key][i];
    const Value v = i < r.attributeValues[key].size() ? r.attributeValues[key][i] : Value();
    const bool forward = isForwardKey(key);
    const ProgramDocument &doc = forward ? *m_snapshot->forward : *m_snapshot->backward;
    const Operation *op = v.definingOp();
    if (!op && v && v.hasUses())
        op = v.firstUse()->owner();
    switch (role) {
    case ValueRole:
        return valueVariant(v);
    case OpRole:
        return opVariant(op);
    case SideRole:
        return int(forward ? ProgramSide::Forward : ProgramSide::Backward);
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case NameColumn:
        return name.empty() ? tr("<unnamed>") : QString::fromStdString(name);
    case ValueColumn:
        return v ? doc.valueId(v) : tr("(fake)");
    case TypeColumn:
        return v ? DisplayText::type(v.type()) : QString();
    case OpColumn:
        if (!op)
            return QString();
        return (v.definingOp() ? QString() : tr("used by ")) + qs(op->name())
            + QStringLiteral("  #%1").arg(doc.indexOf(op));
    }
    return {};
}

QVariant ProgramAttributesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Key / name");
    case ValueColumn:
        return tr("Value");
    case TypeColumn:
        return tr("Type");
    case OpColumn:
        return tr("Op");
    }
    return {};
}

} // namespace ps
