#pragma once

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;

namespace ps {

/// What the window shows until a program is open: buttons to open a program or a trace bundle
/// folder, the bundled example, the recent files (click to open) and a hint that a file or
/// folder can be dropped anywhere on the window.
class StartPage : public QWidget
{
    Q_OBJECT

public:
    explicit StartPage(QWidget *parent = nullptr);

    /// Absolute paths, most recent first; missing files are listed greyed out.
    void setRecentFiles(const QStringList &paths);
    /// Hides the example button when the application bundles none.
    void setExampleAvailable(bool available);

    QPushButton *openButton() const { return m_open; }
    QPushButton *bundleButton() const { return m_bundle; }
    QPushButton *exampleButton() const { return m_example; }
    QListWidget *recentList() const { return m_recent; }

signals:
    void openRequested();
    void openBundleRequested();
    void exampleRequested();
    void fileRequested(const QString &path);

private:
    QPushButton *m_open;
    QPushButton *m_bundle;
    QPushButton *m_example;
    QLabel *m_recentTitle;
    QListWidget *m_recent;
};

} // namespace ps
