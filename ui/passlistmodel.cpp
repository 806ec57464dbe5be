#include "ui/passlistmodel.h"

#include "ui/common/themecolors.h"

#include <QColor>
#include <QFont>
#include <algorithm>

namespace ps {

struct PassListModel::Node
{
    QString text[ColumnCount];
    QString toolTip; ///< pass rows: what the Changes column abbreviates
    QString name; ///< pass rows: the Paddle name
    QString alias;
    bool checkable = false;
    bool checked = false;
    bool removed = false; ///< op rows: a removed op (else an added one)
    Node *parent = nullptr;
    int row = 0;
    std::vector<std::unique_ptr<Node>> children;

    Node *add()
    {
        auto node = std::make_unique<Node>();
        node->parent = this;
        node->row = int(children.size());
        children.push_back(std::move(node));
        return children.back().get();
    }
};

namespace {

QString qs(const std::string &s)
{
    return QString::fromStdString(s);
}

/// "fwd −3 +1, bwd =": per program the ops removed and added (= unchanged), short enough for a
/// narrow dock; the tooltip and the child rows spell it out.
QString summary(const std::vector<const PassTimelineStep *> &steps)
{
    if (steps.empty())
        return PassListModel::tr("not run");
    QStringList parts;
    for (const PassTimelineStep *r : steps) {
        QString target = qs(r->target);
        if (target == QLatin1String("forward"))
            target = PassListModel::tr("fwd");
        else if (target == QLatin1String("backward"))
            target = PassListModel::tr("bwd");
        QStringList change;
        if (!r->removedOps.empty())
            change << QStringLiteral("\u2212%1").arg(r->removedOps.size());
        if (!r->addedOps.empty())
            change << QStringLiteral("+%1").arg(r->addedOps.size());
        if (change.isEmpty())
            change << (r->changed() ? QStringLiteral("~") : QStringLiteral("="));
        parts << target + QLatin1Char(' ') + change.join(QLatin1Char(' '));
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace

PassListModel::PassListModel(QObject *parent)
    : QAbstractItemModel(parent)
    , m_root(std::make_unique<Node>())
{
}

PassListModel::~PassListModel() = default;

void PassListModel::clear()
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    endResetModel();
}

void PassListModel::setPasses(const std::vector<PassInfo> &passes, const std::vector<PassTimelineStep> &log)
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    for (const PassInfo &p : passes) {
        Node *pass = m_root->add();
        pass->name = qs(p.name);
        pass->alias = qs(p.alias);
        pass->checkable = true;
        pass->checked = p.enabled;
        pass->text[PassColumn] = qs(p.alias);
        pass->text[DescriptionColumn] = qs(p.name) + QStringLiteral(": ") + qs(p.description);
        std::vector<const PassTimelineStep *> steps;
        for (const PassTimelineStep &step : log)
            if (step.pass == p.name)
                steps.push_back(&step);
        pass->text[ChangeColumn] = p.enabled ? summary(steps) : tr("off");
        QStringList details;
        for (const PassTimelineStep *step : steps)
            details << tr("%1: %2 \u2192 %3 ops, %4 removed, %5 added")
                           .arg(qs(step->target))
                           .arg(step->opsBefore())
                           .arg(step->opsAfter())
                           .arg(step->removedOps.size())
                           .arg(step->addedOps.size());
        pass->toolTip = details.join(QLatin1Char('\n'));
        for (const PassTimelineStep *step : steps) {
            Node *run = pass->add();
            run->text[PassColumn] = qs(step->target);
            run->text[ChangeColumn] = tr("%1 \u2192 %2 ops").arg(step->opsBefore()).arg(step->opsAfter());
            run->text[DescriptionColumn] = tr("%1 removed, %2 added, %3 rewrites")
                                               .arg(step->removedOps.size())
                                               .arg(step->addedOps.size())
                                               .arg(std::max(step->rewrites, 0L));
            for (const std::string &op : step->removedOpTexts()) {
                Node *line = run->add();
                line->removed = true;
                line->text[PassColumn] = QStringLiteral("\u2212 ") + qs(op).trimmed();
            }
            for (const std::string &op : step->addedOpTexts()) {
                Node *line = run->add();
                line->text[PassColumn] = QStringLiteral("+ ") + qs(op).trimmed();
            }
        }
    }
    endResetModel();
}

int PassListModel::passRow(const QString &nameOrAlias) const
{
    for (const auto &pass : m_root->children)
        if (pass->name == nameOrAlias || pass->alias == nameOrAlias)
            return pass->row;
    return -1;
}

PassListModel::Node *PassListModel::nodeOf(const QModelIndex &index) const
{
    return index.isValid() ? static_cast<Node *>(index.internalPointer()) : m_root.get();
}

QModelIndex PassListModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    return createIndex(row, column, nodeOf(parent)->children[size_t(row)].get());
}

QModelIndex PassListModel::parent(const QModelIndex &child) const
{
    if (!child.isValid())
        return {};
    Node *p = nodeOf(child)->parent;
    return !p || p == m_root.get() ? QModelIndex() : createIndex(p->row, 0, p);
}

int PassListModel::rowCount(const QModelIndex &parent) const
{
    if (parent.isValid() && parent.column() != 0)
        return 0;
    return int(nodeOf(parent)->children.size());
}

int PassListModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant PassListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const Node *n = nodeOf(index);
    switch (role) {
    case Qt::DisplayRole:
        return n->text[index.column()];
    case Qt::ToolTipRole:
        return n->toolTip.isEmpty() || index.column() != ChangeColumn ? n->text[index.column()] : n->toolTip;
    case Qt::CheckStateRole:
        if (n->checkable && index.column() == PassColumn)
            return n->checked ? Qt::Checked : Qt::Unchecked;
        return {};
    case Qt::ForegroundRole:
        if (n->parent && n->parent->parent && n->parent->parent->parent) // an op line
            return n->removed ? ThemeColors::current().error : ThemeColors::current().success;
        return {};
    case Qt::FontRole:
        if (n->checkable) {
            QFont f;
            f.setBold(n->checked);
            return f;
        }
        return {};
    }
    return {};
}

bool PassListModel::setData(const QModelIndex &index, const QVariant &value, int role)
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::CheckStateRole)
        return false;
    Node *n = nodeOf(index);
    if (!n->checkable || index.column() != PassColumn)
        return false;
    const bool on = value.value<Qt::CheckState>() == Qt::Checked;
    if (on == n->checked)
        return true;
    n->checked = on;
    n->text[ChangeColumn] = tr("recomputing\u2026");
    emit dataChanged(index, index.siblingAtColumn(DescriptionColumn));
    emit passToggled(n->name, on);
    return true;
}

Qt::ItemFlags PassListModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (nodeOf(index)->checkable && index.column() == PassColumn)
        f |= Qt::ItemIsUserCheckable;
    return f;
}

QVariant PassListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case PassColumn:
        return tr("Pass");
    case ChangeColumn:
        return tr("Changes");
    case DescriptionColumn:
        return tr("Details");
    }
    return {};
}

} // namespace ps
