#include "ui/mainwindowpasses.h"

#include "core/analysis/verifier.h"
#include "core/ir/program.h"
#include "core/session/passlogopener.h"
#include "core/session/pipelinesource.h"
#include "ui/mainwindow.h"
#include "ui/passlistmodel.h"
#include "ui/passtimelinerunner.h"
#include "ui/passview.h"
#include "ui/pipelinerunner.h"
#include "ui/programdocument.h"
#include "ui/programopener.h"

#include <QElapsedTimer>

namespace ps {

MainWindowPasses::MainWindowPasses(
    MainWindow *window, PipelineRunner *pipeline, PassListModel *pipelinePasses)
    : QObject(window)
    , m_window(window)
    , m_pipeline(pipeline)
    , m_view(new PassView(window))
    , m_runner(new PassTimelineRunner(this))
{
    connect(m_runner, &PassTimelineRunner::busyChanged, m_view, &PassView::setBusy);
    connect(m_runner, &PassTimelineRunner::timelineReady, this,
        [this](std::shared_ptr<const PassTimeline> timeline, std::shared_ptr<const ProgramDocument> result) {
            if (m_log)
                return;
            m_view->setTimeline(timeline, true);
            m_view->setPipelineControls(
                true, QString::fromStdString(m_runner->pipelineName()), m_runner->checkNumerics());
            // Once the user switches passes the Program tab follows them.
            m_window->showProgramResult(m_runner->switchedByUser() ? result : nullptr);
        });
    connect(m_view, &PassView::passToggled, this, &MainWindowPasses::switchPass);
    connect(m_view, &PassView::pipelineChosen, this,
        [this](const QString &name) { m_runner->setPipelineName(name.toStdString()); });
    connect(m_view, &PassView::checkNumericsChanged, m_runner, &PassTimelineRunner::setCheckNumerics);
    connect(pipelinePasses, &PassListModel::passToggled, this,
        [this](const QString &name, bool on) { m_runner->setPassEnabled(name.toStdString(), on); });
    connect(m_window, &MainWindow::documentChanged, this, &MainWindowPasses::onDocumentChanged);
}

bool MainWindowPasses::isPassLog(const QString &path)
{
    return opensAsTimeline(ProgramOpener::kindOf(path));
}

void MainWindowPasses::switchPass(int step, const QString &name, bool enabled)
{
    // The split programs' pipeline (the Passes panel) lists each pass once and follows by name;
    // the timeline switches the one instance.
    m_pipeline->setPassEnabled(name.toStdString(), enabled);
    m_runner->setPassEnabledAt(size_t(step), enabled);
}

void MainWindowPasses::onDocumentChanged()
{
    if (m_openingLog)
        return;
    m_log.reset();
    const std::shared_ptr<const ProgramDocument> doc = m_window->document();
    m_runner->setInput(doc ? doc->sharedProgram() : nullptr, doc ? doc->path() : QString());
}

OpenedFile MainWindowPasses::readLog(const QString &path)
{
    QElapsedTimer timer;
    timer.start();
    OpenedFile file;
    file.path = path;
    DiagnosticList &diagnostics = file.diagnostics;
    const std::string p = path.toStdString();
    std::shared_ptr<const PassLogIndex> index = PassLogOpener::index(p, diagnostics);
    std::shared_ptr<PassTimeline> timeline = index ? PassTimeline::fromLog(index) : nullptr;
    std::shared_ptr<const ProgramSnapshot> input = timeline ? timeline->input() : nullptr;
    std::shared_ptr<const LoadedProgram> loaded = input ? input->load() : nullptr;
    if (loaded)
        diagnostics.append(loaded->diagnostics);
    if (!loaded || !loaded->program) {
        if (index && !diagnostics.hasErrors())
            diagnostics.error(SourceLocation { p, 0, 0, {}, -1 }, "the log holds no PIR program");
        return file;
    }
    if (!verifyBeforeUse(*loaded->program, p, diagnostics))
        return file;
    file.source = PipelineSource::fromProgram(
        loaded->program->clone(), p, LoadResult::Format::PirText, timer.nsecsElapsed() / 1e9);
    file.passLog = timeline;
    return file;
}

bool MainWindowPasses::showLog(const OpenedFile &log)
{
    m_openingLog = true;
    const bool ok = m_window->adoptFile(log);
    m_openingLog = false;
    if (!ok)
        return false;
    m_log = log.passLog;
    m_runner->setInput(nullptr, QString());
    m_view->setTimeline(m_log, false);
    m_view->setPipelineControls(false, QString(), false);
    m_window->showTab(MainWindow::Tab::Passes);
    return true;
}

} // namespace ps
