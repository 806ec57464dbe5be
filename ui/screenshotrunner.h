#pragma once

#include <QObject>
#include <QSize>
#include <QString>
#include <cstdint>
#include <functional>

namespace ps {

class MainWindow;
struct LaunchOptions;

/// Runs `pirscope --screenshot` on a main window: waits until the window shows what was asked
/// (the tab's graphs laid out; with `--steps` a debug session started and stepped over that many
/// ops), sets the scene (`--select`, `--inspect`, through SceneSetup), waits for the layouts that
/// opened the selection's layers, and writes the window as a PNG of exactly the options' size.
/// A run always ends: a failed debug session or layout, or a wait past 5 minutes, ends it with
/// the reason. Construct it before the file is opened (LaunchOptions::applyTo).
class ScreenshotRunner : public QObject
{
    Q_OBJECT

public:
    ScreenshotRunner(MainWindow &window, const LaunchOptions &options, QObject *parent = nullptr);
    ~ScreenshotRunner() override;

signals:
    /// The PNG was written (`error` empty), or the run failed: `error` says why (the message after
    /// "error: "). The application is meant to end at the first of these signals.
    void finished(const QString &error);

private:
    /// Once the tab shows its graphs: starts the debug session and steps, then grab().
    void shoot();
    void grab();
    /// Calls `then` once no graph view of the window lays out.
    void whenLaidOut(const std::function<void()> &then);
    /// Calls `then` once no comparison with Paddle's run (a run log, the bundle's intermediates)
    /// is being computed, so the graphs' colours are in the picture.
    void whenCompared(const std::function<void()> &then);
    /// Runs `then` once the inspector's heatmap is rendered.
    void whenRendered(const std::function<void()> &then);
    void save();

    MainWindow &m_window;
    const QString m_path;
    const QSize m_size;
    const uint64_t m_steps;
    const QString m_select;
    const QString m_inspect;
    const int m_inspectTab;
    const bool m_inspectorMaximized;
    bool m_started = false;
    /// Steps still to take; -1 once the debug session stepped them all.
    qint64 m_stepsLeft;
};

} // namespace ps
