#pragma once

#include "ui/openedfile.h"

#include <QObject>
#include <QString>
#include <memory>

namespace ps {

class MainWindow;
class PassListModel;
class PassTimeline;
class PassTimelineRunner;
class PassView;
class PipelineRunner;
class ProgramDocument;

/// Puts the pass view into the main window: the "Passes" tab (PassView) showing the timeline of
/// PIRScope's passes on the program (PassTimelineRunner, re-run from the switched pass when a
/// pass is switched here or in the Passes dock, with the Program tab then showing the result),
/// or, for a Paddle pass log or a folder of per-pass dumps, the log's timeline (the Program tab
/// shows the log's first program).
class MainWindowPasses : public QObject
{
    Q_OBJECT

public:
    /// `pipeline` computes the split programs with the passes of `pipelinePasses` (the Passes
    /// dock): a pass switched in the timeline is switched there too, and the other way round.
    MainWindowPasses(MainWindow *window, PipelineRunner *pipeline, PassListModel *pipelinePasses);

    PassView *view() const { return m_view; }
    PassTimelineRunner *runner() const { return m_runner; }
    /// Whether `path` opens as a pass timeline (a pass log or a folder of per-pass dumps:
    /// opensAsTimeline of ProgramOpener::kindOf).
    static bool isPassLog(const QString &path);
    /// Reads a pass log or dump folder: its timeline and its first program as the source. Without
    /// a readable program the file has no source and says why. Any thread.
    static OpenedFile readLog(const QString &path);
    /// Shows a log read by readLog: its timeline in the pass view, its first program as the
    /// window's program. False, keeping what was open, when it has no readable program.
    bool showLog(const OpenedFile &log);
    /// The log shown, or null when the view shows PIRScope's own passes.
    std::shared_ptr<const PassTimeline> logTimeline() const { return m_log; }

private:
    void onDocumentChanged();
    void switchPass(int step, const QString &name, bool enabled);

    MainWindow *m_window;
    PipelineRunner *m_pipeline;
    PassView *m_view;
    PassTimelineRunner *m_runner;
    std::shared_ptr<const PassTimeline> m_log;
    bool m_openingLog = false;
};

} // namespace ps
