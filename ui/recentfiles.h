#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace ps {

/// The most recently opened paths (files and bundle folders), kept in QSettings, and an "Open
/// Recent" menu that lists them.
class RecentFiles : public QObject
{
    Q_OBJECT

public:
    static constexpr int kMaxFiles = 10;

    /// Fills `menu` now and whenever the list changes.
    explicit RecentFiles(QMenu *menu, QObject *parent = nullptr);

    QStringList files() const;
    /// Moves `path` (absolute) to the front.
    void add(const QString &path);

signals:
    void openRequested(const QString &path);
    void changed();

private:
    void rebuildMenu();

    QMenu *m_menu;
};

} // namespace ps
