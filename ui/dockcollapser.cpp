#include "ui/dockcollapser.h"

#include "ui/docktitlebar.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QTabWidget>
#include <QTimer>

namespace ps {

namespace {

bool docked(const QDockWidget *dock)
{
    return dock && !dock->isFloating() && !dock->isHidden();
}

bool sideArea(Qt::DockWidgetArea area)
{
    return area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
}

} // namespace

DockCollapser::DockCollapser(QMainWindow *window)
    : QObject(window)
    , m_window(window)
    , m_collapseAll(new QAction(tr("Co&llapse Panels"), this))
{
    m_collapseAll->setObjectName(QStringLiteral("collapsePanelsAction"));
    m_collapseAll->setCheckable(true);
    m_collapseAll->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    m_collapseAll->setToolTip(
        tr("Fold every docked panel to its title, so that the graph gets the room; "
           "again to unfold them (a panel's title button or double-click folds it alone)"));
    connect(m_collapseAll, &QAction::triggered, this, &DockCollapser::setAllCollapsed);
}

void DockCollapser::setAllCollapsed(bool collapsed)
{
    while (!m_folds.isEmpty())
        unfold(m_folds.begin().key(), true);
    if (!collapsed)
        return;
    // Every column folds to strips, so that the graph gets the width; the top and bottom fold
    // to their titles.
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>()) {
        if (!docked(dock) || isCollapsed(dock))
            continue;
        const bool side = sideArea(m_window->dockWidgetArea(dock));
        fold(dock, side ? Qt::Horizontal : Qt::Vertical, 0);
    }
    m_collapseAll->setChecked(true);
}

void DockCollapser::unfoldToShow(QDockWidget *dock)
{
    QWidget *window = dock ? dock->parentWidget() : nullptr;
    auto *collapser
        = window ? window->findChild<DockCollapser *>(QString(), Qt::FindDirectChildrenOnly) : nullptr;
    if (!collapser)
        return;
    for (auto it = collapser->m_folds.begin(); it != collapser->m_folds.end(); ++it)
        if (it.value().group.contains(dock)) {
            collapser->unfold(it.key(), false);
            return;
        }
}

void DockCollapser::installAll()
{
    for (QDockWidget *dock : m_window->findChildren<QDockWidget *>())
        if (!qobject_cast<DockTitleBar *>(dock->titleBarWidget()))
            install(dock);
}

void DockCollapser::install(QDockWidget *dock)
{
    auto *bar = new DockTitleBar(dock);
    dock->setTitleBarWidget(bar);
    connect(bar, &DockTitleBar::collapseRequested, this,
        [this, dock](bool collapse) { setCollapsed(dock, collapse); });
    // Moved or floated: the fold was for the old place.
    auto moved = [this, dock] {
        for (auto it = m_folds.begin(); it != m_folds.end(); ++it)
            if (it.value().group.contains(dock)) {
                unfold(it.key(), false);
                return;
            }
    };
    connect(dock, &QDockWidget::topLevelChanged, this, [moved](bool floating) {
        if (floating)
            moved();
    });
    connect(dock, &QDockWidget::dockLocationChanged, this, moved);
}

bool DockCollapser::isCollapsed(const QDockWidget *dock) const
{
    for (auto it = m_folds.cbegin(); it != m_folds.cend(); ++it)
        if (it.value().group.contains(dock))
            return true;
    return false;
}

Qt::Orientation DockCollapser::foldOrientation(QDockWidget *dock, const QList<QDockWidget *> &group) const
{
    const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
    if (!sideArea(area))
        return Qt::Vertical;
    for (QDockWidget *other : m_window->findChildren<QDockWidget *>())
        if (docked(other) && !group.contains(other) && m_window->dockWidgetArea(other) == area)
            return Qt::Vertical; // share the column: they take the height
    return Qt::Horizontal;
}

void DockCollapser::setCollapsed(QDockWidget *dock, bool collapsed)
{
    if (!dock || isCollapsed(dock) == collapsed)
        return;
    if (!collapsed) {
        for (auto it = m_folds.begin(); it != m_folds.end(); ++it)
            if (it.value().group.contains(dock)) {
                unfold(it.key(), true);
                break;
            }
        return;
    }
    if (!docked(dock))
        return;
    QList<QDockWidget *> group = m_window->tabifiedDockWidgets(dock);
    group.prepend(dock);
    const Qt::Orientation orientation = foldOrientation(dock, group);
    fold(dock, orientation, 0);
}

void DockCollapser::fold(QDockWidget *dock, Qt::Orientation orientation, int size)
{
    Fold f;
    f.orientation = orientation;
    f.size = size;
    QList<QDockWidget *> group = m_window->tabifiedDockWidgets(dock);
    group.prepend(dock);
    if (f.size <= 0) {
        // The tab in front holds the group's size; those behind keep a stale geometry.
        const QDockWidget *front = dock;
        for (const QDockWidget *d : group)
            if (d->isVisible() && !d->visibleRegion().isEmpty())
                front = d;
        f.size = orientation == Qt::Vertical ? front->height() : front->width();
    }
    for (QDockWidget *d : group) {
        f.group.append(d);
        if (orientation == Qt::Horizontal)
            d->setFeatures(d->features() | QDockWidget::DockWidgetVerticalTitleBar);
        // The content stays shown but gets no room: a hidden one would let the title bar's size
        // decide the dock's other side too (QDockWidgetLayout's maximum).
        if (QWidget *content = d->widget()) {
            f.contentMaximum.append(content->maximumSize());
            if (orientation == Qt::Vertical)
                content->setMaximumHeight(0);
            else
                content->setMaximumWidth(0);
        } else {
            f.contentMaximum.append(QSize());
        }
        const QSize title = d->titleBarWidget() ? d->titleBarWidget()->sizeHint() : QSize(24, 24);
        if (orientation == Qt::Vertical)
            d->setMaximumHeight(title.height() + 2);
        else
            d->setMaximumWidth(title.width() + 2);
    }
    // A tabbed group folded to a strip: its tabs stand along the window's side, else the tab
    // bar would keep the column wide.
    const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
    if (orientation == Qt::Horizontal && group.size() > 1) {
        f.tabArea = area;
        f.tabPosition = m_window->tabPosition(area);
        m_window->setTabPosition(area, area == Qt::LeftDockWidgetArea ? QTabWidget::West : QTabWidget::East);
    }
    m_folds.insert(dock, f);
    setTitleBarsCollapsed(f, true);
    const int folded = orientation == Qt::Vertical ? dock->maximumHeight() : dock->maximumWidth();
    m_window->resizeDocks({ dock }, { folded }, orientation);
    m_collapseAll->setChecked(!m_folds.isEmpty());
    emit collapsedChanged(dock, true);
}

void DockCollapser::unfold(QDockWidget *dock, bool resize)
{
    const Fold f = m_folds.take(dock);
    for (int i = 0; i < f.group.size(); ++i) {
        QDockWidget *d = f.group[i];
        if (!d)
            continue;
        d->setMaximumSize(QWIDGETSIZE_MAX, QWIDGETSIZE_MAX);
        d->setFeatures(d->features() & ~QDockWidget::DockWidgetVerticalTitleBar);
        if (d->widget() && f.contentMaximum[i].isValid())
            d->widget()->setMaximumSize(f.contentMaximum[i]);
    }
    if (f.tabArea != Qt::NoDockWidgetArea)
        m_window->setTabPosition(f.tabArea, f.tabPosition);
    setTitleBarsCollapsed(f, false);
    if (resize && docked(dock)) {
        // After the layout has taken the lifted limits in.
        QPointer<QDockWidget> guard(dock);
        QTimer::singleShot(0, this, [this, guard, f] {
            if (guard && docked(guard))
                restoreSize(guard, f);
        });
    }
    m_collapseAll->setChecked(!m_folds.isEmpty());
    emit collapsedChanged(dock, false);
}

void DockCollapser::restoreSize(QDockWidget *dock, const Fold &fold)
{
    // resizeDocks() spreads what it is given over the docks it is given: the neighbours across
    // the fold's direction (one per tabbed group, the one in front) give back the room, each in
    // proportion to what it holds now.
    QList<QDockWidget *> docks { dock };
    QList<int> sizes { fold.size };
    if (fold.orientation == Qt::Vertical) {
        const Qt::DockWidgetArea area = m_window->dockWidgetArea(dock);
        QList<QDockWidget *> neighbours;
        int total = dock->height();
        for (QDockWidget *other : m_window->findChildren<QDockWidget *>()) {
            if (other == dock || !docked(other) || other->visibleRegion().isEmpty()
                || m_window->dockWidgetArea(other) != area || isCollapsed(other))
                continue;
            neighbours.append(other);
            total += other->height();
        }
        const int rest = std::max(0, total - fold.size);
        const int held = total - dock->height();
        for (QDockWidget *other : neighbours) {
            docks.append(other);
            sizes.append(held > 0 ? int(qint64(rest) * other->height() / held) : rest);
        }
    }
    m_window->resizeDocks(docks, sizes, fold.orientation);
}

void DockCollapser::setTitleBarsCollapsed(const Fold &fold, bool collapsed)
{
    for (const QPointer<QDockWidget> &d : fold.group)
        if (d)
            if (auto *bar = qobject_cast<DockTitleBar *>(d->titleBarWidget()))
                bar->setCollapsed(collapsed);
}

QStringList DockCollapser::state() const
{
    QStringList out;
    for (auto it = m_folds.cbegin(); it != m_folds.cend(); ++it)
        out.append(QStringLiteral("%1=%2%3")
                       .arg(it.key()->objectName(), it.value().orientation == Qt::Vertical ? "V" : "H")
                       .arg(it.value().size));
    return out;
}

void DockCollapser::restoreState(const QStringList &state)
{
    for (const QString &entry : state) {
        const int eq = entry.lastIndexOf(QLatin1Char('='));
        if (eq <= 0 || eq + 2 > entry.size())
            continue;
        auto *dock = m_window->findChild<QDockWidget *>(entry.left(eq));
        bool ok = false;
        const int size = entry.mid(eq + 2).toInt(&ok);
        if (!dock || !ok || size <= 0 || !docked(dock) || isCollapsed(dock))
            continue;
        fold(dock, entry.at(eq + 1) == QLatin1Char('H') ? Qt::Horizontal : Qt::Vertical, size);
    }
}

} // namespace ps
