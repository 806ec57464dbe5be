#include "ui/crossingvaluesmodel.h"

#include "core/ir/operation.h"
#include "core/ir/shapesize.h"
#include "core/session/targetshapes.h"
#include "ui/common/itemroles.h"
#include "ui/common/themecolors.h"
#include "ui/displaytext.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programdocument.h"

#include <QColor>

namespace ps {

CrossingValuesModel::CrossingValuesModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void CrossingValuesModel::setSnapshot(std::shared_ptr<const PipelineSnapshot> snapshot)
{
    beginResetModel();
    m_snapshot = snapshot && snapshot->ok() ? std::move(snapshot) : nullptr;
    endResetModel();
}

void CrossingValuesModel::setShapes(std::shared_ptr<const TargetShapes> shapes)
{
    if (m_shapes == shapes)
        return;
    m_shapes = std::move(shapes);
    if (rowCount() > 0)
        emit dataChanged(index(0, BytesColumn), index(rowCount() - 1, BytesColumn));
}

QString CrossingValuesModel::bytesText(qint64 bytes)
{
    if (bytes < 0)
        return tr("dynamic");
    if (bytes < 1024)
        return tr("%1 B").arg(bytes);
    if (bytes < 1024 * 1024)
        return tr("%1 KiB").arg(bytes / 1024.0, 0, 'f', 1);
    return tr("%1 MiB").arg(bytes / (1024.0 * 1024.0), 0, 'f', 1);
}

int CrossingValuesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_snapshot ? 0 : int(m_snapshot->cut.size());
}

int CrossingValuesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant CrossingValuesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const CrossingValue &c = m_snapshot->cut[size_t(index.row())];
    const Operation *op = c.forward.definingOp();
    switch (role) {
    case ValueRole:
        return valueVariant(c.forward);
    case BackwardValueRole:
        return valueVariant(c.backward);
    case OpRole:
        return opVariant(op);
    case SideRole:
        return int(ProgramSide::Forward);
    case Qt::TextAlignmentRole:
        return index.column() == BytesColumn ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    case Qt::ForegroundRole:
        return c.noNeedBuffer ? QVariant(ThemeColors::current().mutedText) : QVariant();
    case Qt::ToolTipRole:
        if (index.column() == BytesColumn && c.bytes < 0 && m_shapes && c.forward)
            if (const InferredShape *shape = m_shapes->shape(c.forward))
                return shape->known()
                    ? tr("%1: %2, inferred from the input shapes")
                          .arg(QString::fromStdString(c.name),
                              QString::fromStdString(ShapeSize::shapeText(shape->dims)))
                    : tr("%1: size unknown \u2014 %2")
                          .arg(QString::fromStdString(c.name), QString::fromStdString(shape->whyUnknown));
        if (c.noNeedBuffer)
            return tr("%1: no-need-buffer \u2014 the backward reads only its shape, the buffer is freed")
                .arg(QString::fromStdString(c.name));
        return tr("%1 (%2 #%3)")
            .arg(QString::fromStdString(c.name),
                QString::fromUtf8(ForwardBackwardCut::roleName(c.role).data()))
            .arg(c.index);
    case Qt::DisplayRole:
        break;
    default:
        return {};
    }
    switch (index.column()) {
    case RoleColumn: {
        const std::string_view r = ForwardBackwardCut::roleName(c.role);
        return QString::fromUtf8(r.data(), qsizetype(r.size()));
    }
    case NameColumn:
        return QString::fromStdString(c.name);
    case TypeColumn:
        return c.forward ? DisplayText::type(c.forward.type()) : QString();
    case BytesColumn:
        if (c.bytes < 0 && m_shapes && c.forward)
            return bytesText(m_shapes->bytes(c.forward).value_or(-1));
        return bytesText(c.bytes);
    case NoNeedBufferColumn:
        return c.noNeedBuffer ? tr("yes") : QString();
    case OpColumn:
        return op ? QString::fromUtf8(op->name().data(), qsizetype(op->name().size()))
                + QStringLiteral("  #%1").arg(m_snapshot->forward->indexOf(op))
                  : QString();
    }
    return {};
}

QVariant CrossingValuesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == NoNeedBufferColumn)
        return tr("No-need-buffer: the backward reads only the shape, so the buffer need not stay alive");
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case RoleColumn:
        return tr("Role");
    case NameColumn:
        return tr("Name");
    case TypeColumn:
        return tr("Type");
    case BytesColumn:
        return tr("Bytes");
    case NoNeedBufferColumn:
        return tr("NNB");
    case OpColumn:
        return tr("Produced by");
    }
    return {};
}

} // namespace ps
