#include "ui/debugger/framesmodel.h"

#include "core/dialect/ops.h"
#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/debugger/debugsession.h"

#include <algorithm>

namespace ps {

FramesModel::FramesModel(DebugSession *session, QObject *parent)
    : QAbstractTableModel(parent)
    , m_session(session)
{
    connect(session, &DebugSession::stateChanged, this, &FramesModel::refresh);
    connect(session, &DebugSession::stoppedAt, this, &FramesModel::refresh);
    connect(session, &DebugSession::targetChanged, this, &FramesModel::refresh);
    refresh();
}

void FramesModel::refresh()
{
    std::vector<Row> rows;
    const std::optional<ProgramPosition> position = m_session->position();
    const DebugSession::State state = m_session->state();
    if (position && (state == DebugSession::State::Paused || state == DebugSession::State::Error)) {
        const std::vector<Interpreter::Frame> &frames = m_session->frames();
        for (size_t i = 0; i < frames.size() && 2 * i < position->path.size(); ++i) {
            const Interpreter::Frame &f = frames[i];
            Row row;
            if (!f.owner) {
                row.frame = tr("%1 — top block").arg(m_session->segmentName(position->segment));
            } else {
                const QString name
                    = QString::fromUtf8(f.owner->name().data(), qsizetype(f.owner->name().size()));
                if (ops::isWhile(*f.owner))
                    row.frame = tr("%1 — iteration %2").arg(name).arg(f.iteration);
                else if (ops::isIf(*f.owner))
                    row.frame = tr("%1 — %2 branch").arg(name, f.region == 0 ? tr("true") : tr("false"));
                else
                    row.frame = tr("%1 — region %2").arg(name).arg(f.region);
            }
            ProgramPosition at = *position;
            at.path.resize(2 * i + 1);
            row.position = QString::fromStdString(at.toString());
            row.op = m_session->opAt(at);
            rows.push_back(row);
        }
    }
    std::reverse(rows.begin(), rows.end());
    beginResetModel();
    m_rows = std::move(rows);
    endResetModel();
}

int FramesModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int FramesModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant FramesModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &row = m_rows[size_t(index.row())];
    if (role == OpRole)
        return opVariant(row.op);
    if (role == Qt::DisplayRole || role == Qt::ToolTipRole)
        return index.column() == FrameColumn ? row.frame : row.position;
    return {};
}

QVariant FramesModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == FrameColumn ? tr("Frame") : section == PositionColumn ? tr("At") : QVariant();
}

} // namespace ps
