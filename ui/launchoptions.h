#pragma once

#include "ui/mainwindow.h"

#include <QSize>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <optional>

namespace ps {

/// What `pirscope`'s command line asks for (QCommandLineParser; see `pirscope --help`), and how
/// the application and a main window are set up from it. `--screenshot` itself is run by
/// ScreenshotRunner.
struct LaunchOptions
{
    /// The program, bundle, pass log or dump folder to open; empty: none.
    QString file;
    /// The PNG of `--screenshot`; empty: an interactive window.
    QString screenshot;
    /// The window's size: `--size`, else 1600x1000 for a screenshot; invalid: the size saved at
    /// the last close.
    QSize size;
    /// `--steps`: ops to step over in a debug session before the screenshot; 0: no session.
    uint64_t steps = 0;
    QString select; ///< `--select`: an op reference (SceneSetup::selectOp)
    QString inspect; ///< `--inspect`: a value reference (SceneSetup::inspectValue)
    int inspectTab = 0; ///< `--inspect-tab`: TensorInspector::Tab's value
    bool inspectorMaximized = false; ///< `--inspect-tab ...,max`
    /// `--view`; a pass log, a dump folder or `--pipeline` show the passes.
    MainWindow::Tab tab = MainWindow::Tab::Program;
    /// `--step`, from 0: the pass step the Passes tab shows.
    int passStep = 0;
    /// `--mode`: train (true) or infer; nullopt: the bundle's mode.
    std::optional<bool> training;
    QStringList shapes; ///< `--shape` assignments, as given
    QString pipeline; ///< `--pipeline`; empty: the default pipeline
    /// `--paddle-log`: a Paddle run log to compare the program with (MainWindowRunLog).
    QString paddleLog;
    /// `--memory`: show the Memory dock (MainWindowMemory).
    bool memory = false;
    /// `--pir-text`: show the PIR Text dock (MainWindowPirText).
    bool pirText = false;
    /// `--collapse`: the panels to fold to their titles (their titles, or "all").
    QStringList collapse;
    bool dark = false;
    /// `--max-memory` in bytes; nullopt: the debugger's setting.
    std::optional<uint64_t> maxMemory;

    /// A screenshot needs no screen: selects the offscreen platform when `--screenshot` is among
    /// the arguments and QT_QPA_PLATFORM names none. Call before the QApplication exists.
    static void preferOffscreenForScreenshot(int argc, char *argv[]);
    /// Parses `arguments` (the program name first). `--help`, `--version`, an unknown option, and
    /// an unknown `--view` or `--mode` end the process the way QCommandLineParser does; nullopt
    /// with `error` (the message after "error: ") for an option value that is refused.
    static std::optional<LaunchOptions> parse(const QStringList &arguments, QString &error);

    /// `--dark`, then the memory budget: the debugger's setting, overridden by `--max-memory`.
    void applyToApplication() const;
    /// Opens the file in `window` (for a screenshot without one, the bundled example) and shows
    /// what the options ask for: the `--pipeline`, `--mode`, `--shape`s, the tab, the pass step
    /// and the `--paddle-log` (checked before it returns). False with `error` when a value is refused or a
    /// screenshot's file does not open.
    bool applyTo(MainWindow &window, QString &error) const;

private:
    /// Folds the `--collapse` panels; false with `error` naming the panels for an unknown title.
    bool collapsePanels(MainWindow &window, QString &error) const;
};

} // namespace ps
