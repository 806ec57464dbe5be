#include "ui/recentfiles.h"

#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace ps {

namespace {

const char kRecentKey[] = "recentFiles";

} // namespace

RecentFiles::RecentFiles(QMenu *menu, QObject *parent)
    : QObject(parent)
    , m_menu(menu)
{
    rebuildMenu();
}

QStringList RecentFiles::files() const
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void RecentFiles::add(const QString &path)
{
    QStringList list = files();
    list.removeAll(path);
    list.prepend(path);
    while (list.size() > kMaxFiles)
        list.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), list);
    rebuildMenu();
    emit changed();
}

void RecentFiles::rebuildMenu()
{
    m_menu->clear();
    const QStringList list = files();
    for (const QString &path : list)
        m_menu->addAction(QFileInfo(path).fileName(), this, [this, path] { emit openRequested(path); })
            ->setToolTip(path);
    m_menu->setEnabled(!list.isEmpty());
}

} // namespace ps
