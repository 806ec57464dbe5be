#include "ui/passtimelinemodel.h"

#include <QColor>
#include <QFont>

namespace ps {

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

QString kindText(PassTimelineStep::Kind kind)
{
    switch (kind) {
    case PassTimelineStep::Kind::Pass:
        return PassTimelineModel::tr("pass");
    case PassTimelineStep::Kind::Lowering:
        return PassTimelineModel::tr("lowering to kernels");
    case PassTimelineStep::Kind::Split:
        return PassTimelineModel::tr("forward/backward split");
    case PassTimelineStep::Kind::Printed:
        return PassTimelineModel::tr("program printed without a pass banner");
    case PassTimelineStep::Kind::Unlogged:
        return PassTimelineModel::tr(
            "the program changed between two logged steps: passes that did not print");
    }
    return {};
}

QString secondsText(double s)
{
    if (s < 0)
        return QStringLiteral("\u2014");
    if (s < 1e-3)
        return QStringLiteral("%1 \u00b5s").arg(s * 1e6, 0, 'f', 0);
    if (s < 1)
        return QStringLiteral("%1 ms").arg(s * 1e3, 0, 'f', s < 0.01 ? 2 : 1);
    return QStringLiteral("%1 s").arg(s, 0, 'f', 2);
}

} // namespace

PassTimelineModel::PassTimelineModel(QObject *parent)
    : QAbstractTableModel(parent)
{
}

void PassTimelineModel::setTimeline(std::shared_ptr<const PassTimeline> timeline, bool checkable)
{
    beginResetModel();
    m_timeline = std::move(timeline);
    m_checkable = checkable;
    m_pendingCheck.assign(m_timeline ? m_timeline->size() : 0, -1);
    endResetModel();
}

void PassTimelineModel::refreshStep(int row)
{
    if (row >= 0 && row < rowCount())
        emit dataChanged(index(row, ChangesColumn), index(row, OpsColumn));
}

QString PassTimelineModel::changesText(const PassTimeline &timeline, size_t step)
{
    const PassTimelineStep &s = timeline.step(step);
    if (!s.enabled)
        return tr("off");
    if (!s.implemented)
        return tr("not implemented");
    if (!s.before || !s.after)
        return QStringLiteral("\u2014");
    const std::optional<PassTimeline::Counts> c = timeline.counts(step);
    if (!c)
        return QStringLiteral("\u2026");
    if (c->identical())
        return tr("no change");
    QStringList parts;
    if (c->removed)
        parts << QStringLiteral("\u2212%1").arg(c->removed);
    if (c->added)
        parts << QStringLiteral("+%1").arg(c->added);
    if (c->changed)
        parts << QStringLiteral("~%1").arg(c->changed);
    return parts.join(QLatin1Char(' '));
}

int PassTimelineModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_timeline ? 0 : int(m_timeline->size());
}

int PassTimelineModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PassTimelineModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !m_timeline)
        return {};
    const size_t row = size_t(index.row());
    const PassTimelineStep &s = m_timeline->step(row);
    const int column = index.column();
    if (role == Qt::DisplayRole) {
        switch (column) {
        case StepColumn:
            return index.row() + 1;
        case PassColumn: {
            QString name = qs(s.pass);
            if (s.kind == PassTimelineStep::Kind::Split)
                name += QStringLiteral(" \u2192 ") + qs(s.target);
            if (s.kind == PassTimelineStep::Kind::Unlogged)
                name = tr("(unlogged) %1").arg(name);
            return QString(s.depth * 3, QLatin1Char(' ')) + (s.depth ? QStringLiteral("\u21b3 ") : QString())
                + name;
        }
        case ChangesColumn:
            return changesText(*m_timeline, row);
        case OpsColumn:
            if (!s.after)
                return QStringLiteral("\u2014");
            return s.before ? QStringLiteral("%1 \u2192 %2").arg(s.before->opCount()).arg(s.after->opCount())
                            : QString::number(s.after->opCount());
        case TimeColumn:
            return secondsText(s.seconds);
        case NumericsColumn:
            if (!s.numerics)
                return QStringLiteral("\u2014");
            if (!s.numerics->checked)
                return tr("not run");
            return (s.numerics->ok ? QStringLiteral("\u2713 ") : QStringLiteral("\u2717 "))
                + QStringLiteral("%1").arg(s.numerics->maxAbs, 0, 'g', 2);
        }
        return {};
    }
    if (role == Qt::ToolTipRole) {
        QStringList lines;
        lines << QStringLiteral("<b>%1</b>").arg(qs(s.pass).toHtmlEscaped());
        lines << kindText(s.kind) + QStringLiteral(" on ") + qs(s.target).toHtmlEscaped();
        if (s.line > 0)
            lines << tr("log line %1").arg(s.line);
        if (!s.statistics.empty())
            lines << tr("Paddle: detected [%1] subgraphs").arg(qs(s.statistics).toHtmlEscaped());
        if (s.rewrites >= 0)
            lines << tr("%1 rewrites").arg(s.rewrites);
        if (s.numerics && !s.numerics->checked)
            lines << tr("numeric check not run: %1").arg(qs(s.numerics->note).toHtmlEscaped());
        else if (s.numerics)
            lines << tr("numeric check: %1, max abs %2, max rel %3 at %4%5")
                         .arg(s.numerics->ok ? tr("within tolerance") : tr("beyond tolerance"))
                         .arg(s.numerics->maxAbs, 0, 'g', 3)
                         .arg(s.numerics->maxRel, 0, 'g', 3)
                         .arg(qs(s.numerics->worstValue).toHtmlEscaped())
                         .arg(s.numerics->note.empty()
                                 ? QString()
                                 : QStringLiteral(" (") + qs(s.numerics->note) + QLatin1Char(')'));
        if (!s.enabled)
            lines << tr("switched off: the program passes through unchanged");
        if (!s.implemented)
            lines << tr("not implemented in PIRScope: listed as in Paddle's pipeline, not run");
        return lines.join(QStringLiteral("<br>"));
    }
    if (role == Qt::CheckStateRole && column == PassColumn && m_checkable
        && s.kind == PassTimelineStep::Kind::Pass && s.depth == 0) {
        const int pending = m_pendingCheck[row];
        const bool on = pending >= 0 ? pending == 1 : s.enabled;
        return on ? Qt::Checked : Qt::Unchecked;
    }
    if (role == Qt::ForegroundRole) {
        if (!s.enabled || !s.implemented || s.kind == PassTimelineStep::Kind::Unlogged
            || s.kind == PassTimelineStep::Kind::Printed)
            return QColor(0x80, 0x80, 0x80);
        if (column == ChangesColumn)
            if (auto c = m_timeline->counts(row); c && !c->identical())
                return QColor(0x1a, 0x5f, 0xb4);
        if (column == NumericsColumn && s.numerics && !s.numerics->ok)
            return QColor(0xc6, 0x28, 0x28);
        return {};
    }
    if (role == Qt::FontRole) {
        QFont f;
        if (s.kind == PassTimelineStep::Kind::Unlogged)
            f.setItalic(true);
        if (column == ChangesColumn)
            if (auto c = m_timeline->counts(row); c && !c->identical())
                f.setBold(true);
        return f;
    }
    if (role == Qt::TextAlignmentRole && column != PassColumn)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

bool PassTimelineModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (role != Qt::CheckStateRole || !(flags(index) & Qt::ItemIsUserCheckable))
        return false;
    const bool on = value.value<Qt::CheckState>() == Qt::Checked;
    m_pendingCheck[size_t(index.row())] = on ? 1 : 0;
    emit dataChanged(index.siblingAtColumn(0), index.siblingAtColumn(ColumnCount - 1));
    emit passToggled(index.row(), qs(m_timeline->step(size_t(index.row())).pass), on);
    return true;
}

Qt::ItemFlags PassTimelineModel::flags(const QModelIndex &index) const
{
    if (!index.isValid() || !m_timeline)
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    const PassTimelineStep &s = m_timeline->step(size_t(index.row()));
    if (m_checkable && index.column() == PassColumn && s.kind == PassTimelineStep::Kind::Pass && s.depth == 0)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant PassTimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StepColumn:
        return tr("#");
    case PassColumn:
        return tr("Pass");
    case ChangesColumn:
        return tr("Changes");
    case OpsColumn:
        return tr("Ops");
    case TimeColumn:
        return tr("Time");
    case NumericsColumn:
        return tr("Numerics");
    }
    return {};
}

} // namespace ps
