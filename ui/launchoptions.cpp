#include "ui/launchoptions.h"

#include "core/io/memorybudget.h"
#include "core/io/numbertext.h"
#include "core/session/inputshapes.h"
#include "ui/common/themecolors.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/memorylimitsetting.h"
#include "ui/diagnosticsmodel.h"
#include "ui/dockcollapser.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowmemory.h"
#include "ui/mainwindowpasses.h"
#include "ui/mainwindowpirtext.h"
#include "ui/mainwindowrunlog.h"
#include "ui/passtimelinerunner.h"
#include "ui/passview.h"
#include "ui/runlogresult.h"
#include "ui/scenesetup.h"

#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <cstring>
#include <map>

namespace ps {

void LaunchOptions::preferOffscreenForScreenshot(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--screenshot") == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
}

std::optional<LaunchOptions> LaunchOptions::parse(const QStringList &arguments, QString &error)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Interactive debugger for PaddlePaddle PIR programs"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("PATH"),
        QStringLiteral(
            "PIR program (.json or .txt), trace bundle (its folder or manifest.json), Paddle pass log "
            "(FLAGS_print_ir) or folder of per-pass dumps, to open"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Save the window to <png> once the graphs are laid out, then exit."),
        QStringLiteral("png"));
    QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral("Tab to show: program (the origin program), split (forward, cut, backward) or passes "
                       "(the pass timeline and a step's diff)."),
        QStringLiteral("program|split|passes"), QStringLiteral("program"));
    QCommandLineOption passStep(QStringLiteral("step"),
        QStringLiteral("With --view passes (or a pass log): the step to show, from 1."), QStringLiteral("n"));
    QCommandLineOption mode(QStringLiteral("mode"),
        QStringLiteral("Pipeline to show: train or infer (default: the bundle's mode; infer for a program)."),
        QStringLiteral("train|infer"));
    QCommandLineOption debugSteps(QStringList { QStringLiteral("steps"), QStringLiteral("debug-steps") },
        QStringLiteral("With --screenshot: debug the shown program and step over <n> ops before the shot."),
        QStringLiteral("n"));
    QCommandLineOption size(QStringLiteral("size"),
        QStringLiteral("Window size, e.g. 1280x720 (with --screenshot: the PNG's size at a device pixel "
                       "ratio of 1; default 1600x1000)."),
        QStringLiteral("WxH"));
    QCommandLineOption select(QStringLiteral("select"),
        QStringLiteral(
            "With --screenshot: select an op first, named as `pirscope-cli run --break` names one: a "
            "position (0:12, bwd:3) or a regular expression matching one op's name or result names "
            "(its layers opened, the view zoomed in until readable)."),
        QStringLiteral("op"));
    QCommandLineOption inspect(QStringLiteral("inspect"),
        QStringLiteral("With --screenshot and --steps: show a value (%12 or a value name) in the tensor "
                       "inspector first."),
        QStringLiteral("value"));
    QCommandLineOption inspectTab(QStringLiteral("inspect-tab"),
        QStringLiteral("With --inspect: the inspector's tab to show: table, heatmap (fitted), histogram or "
                       "compare; add ,max to maximise the inspector (e.g. heatmap,max)."),
        QStringLiteral("tab"));
    QCommandLineOption shape(QStringLiteral("shape"),
        QStringLiteral(
            "Shape of an input with dynamic dims, e.g. x=1x3x640x640 (repeatable); the default comes "
            "from the .yml beside the program."),
        QStringLiteral("name=dims"));
    QCommandLineOption pipeline(QStringLiteral("pipeline"),
        QStringLiteral(
            "The passes the Passes tab runs: one of Paddle's pipelines (inference-gpu, inference-cpu, "
            "dy2static, ...; implies --view passes)."),
        QStringLiteral("name"));
    QCommandLineOption dark(QStringLiteral("dark"),
        QStringLiteral("Dark colours (Fusion style with a dark palette) whatever the system's theme."));
    QCommandLineOption maxMemory(QStringLiteral("max-memory"),
        QStringLiteral("Host-memory budget for this run (4G, 512M, 50%; default: the debugger setting, else "
                       "75% of the available memory)."),
        QStringLiteral("size"));
    QCommandLineOption paddleLog(QStringLiteral("paddle-log"),
        QStringLiteral("Compare the program with a Paddle FLAGS_check_nan_inf_level=3 run log of it: the "
                       "records in the Paddle run log dock, the ops coloured by their error (implies --view "
                       "split unless --view is given)."),
        QStringLiteral("log"));
    QCommandLineOption memory(QStringLiteral("memory"),
        QStringLiteral("Show the Memory dock: the live bytes of a train step or inference run, op by op, as "
                       "Paddle's executor allocates them."));
    QCommandLineOption pirText(QStringLiteral("pir-text"),
        QStringLiteral("Show the PIR Text dock: the program shown as PIR text, synced with the graph's "
                       "selection."));
    QCommandLineOption collapse(QStringLiteral("collapse"),
        QStringLiteral("Fold panels to their titles (View > Collapse Panels): their titles, comma-separated "
                       "(Ops,Properties), or all."),
        QStringLiteral("panels"));
    parser.addOptions({ screenshot, size, debugSteps, select, inspect, inspectTab, view, mode, shape, dark,
        maxMemory, passStep, pipeline, paddleLog, memory, pirText, collapse });
    parser.process(arguments);

    LaunchOptions options;
    options.dark = parser.isSet(dark);
    if (parser.isSet(maxMemory)) {
        std::string why;
        options.maxMemory = MemoryBudget::parseSize(parser.value(maxMemory).toStdString(), why);
        if (!options.maxMemory) {
            error = QStringLiteral("--max-memory: ") + QString::fromStdString(why);
            return std::nullopt;
        }
    }
    if (parser.isSet(debugSteps)) {
        std::string why;
        const std::optional<uint64_t> n
            = NumberText::parseUnsigned(parser.value(debugSteps).toStdString(), 1000000, why);
        if (!n) {
            error = QStringLiteral("--debug-steps: ") + QString::fromStdString(why);
            return std::nullopt;
        }
        options.steps = *n;
    }
    options.screenshot = parser.value(screenshot);
    // Screenshots have a fixed size; an interactive window keeps the size it was closed with.
    options.size = options.screenshot.isEmpty() ? QSize() : QSize(1600, 1000);
    if (parser.isSet(size)) {
        QString why;
        const std::optional<QSize> wanted = SceneSetup::parseSize(parser.value(size), why);
        if (!wanted) {
            error = QStringLiteral("--size: ") + why;
            return std::nullopt;
        }
        options.size = *wanted;
    }
    options.select = parser.value(select);
    options.inspect = parser.value(inspect);
    for (const QCommandLineOption *option : { &select, &inspect })
        if (parser.isSet(*option) && options.screenshot.isEmpty()) {
            error = QStringLiteral("--") + option->names().first() + QStringLiteral(" needs --screenshot");
            return std::nullopt;
        }
    if (parser.isSet(inspectTab)) {
        QStringList parts = parser.value(inspectTab).split(QLatin1Char(','));
        options.inspectorMaximized = parts.removeAll(QStringLiteral("max")) > 0;
        const QStringList tabs = { QStringLiteral("table"), QStringLiteral("heatmap"),
            QStringLiteral("histogram"), QStringLiteral("compare") };
        const int tab = parts.size() == 1 ? int(tabs.indexOf(parts.first())) : parts.isEmpty() ? 0 : -1;
        if (tab < 0 || !parser.isSet(inspect)) {
            error = !parser.isSet(inspect)
                ? QStringLiteral("--inspect-tab: needs --inspect")
                : QStringLiteral("--inspect-tab: one of table, heatmap, histogram, "
                                 "compare, with ,max to maximise");
            return std::nullopt;
        }
        options.inspectTab = tab;
    }
    if (parser.isSet(inspect) && options.steps == 0) {
        error = QStringLiteral("--inspect: needs a debug session (--steps N)");
        return std::nullopt;
    }
    const bool split = parser.value(view) == QLatin1String("split");
    bool passes = parser.value(view) == QLatin1String("passes");
    if (!split && !passes && parser.value(view) != QLatin1String("program"))
        parser.showHelp(1);
    const QStringList files = parser.positionalArguments();
    options.file = files.value(0);
    passes = passes || parser.isSet(pipeline)
        || (!files.isEmpty() && MainWindowPasses::isPassLog(files.first()));
    options.paddleLog = parser.value(paddleLog);
    options.memory = parser.isSet(memory);
    options.pirText = parser.isSet(pirText);
    if (parser.isSet(collapse))
        options.collapse = parser.value(collapse).split(QLatin1Char(','), Qt::SkipEmptyParts);
    options.tab = passes                                                 ? MainWindow::Tab::Passes
        : split || (!options.paddleLog.isEmpty() && !parser.isSet(view)) ? MainWindow::Tab::Split
                                                                         : MainWindow::Tab::Program;
    options.passStep = 0;
    if (parser.isSet(passStep)) {
        std::string why;
        const std::optional<uint64_t> n
            = NumberText::parseUnsigned(parser.value(passStep).toStdString(), 1, 1000000, why);
        if (!n) {
            error = QStringLiteral("--step: ") + QString::fromStdString(why);
            return std::nullopt;
        }
        options.passStep = int(*n) - 1;
    }
    if (passes && (parser.isSet(select) || parser.isSet(inspect))) {
        error = QStringLiteral("--select and --inspect act on the Program and split tabs, not on the passes");
        return std::nullopt;
    }
    if (parser.isSet(mode) && parser.value(mode) != QLatin1String("train")
        && parser.value(mode) != QLatin1String("infer"))
        parser.showHelp(1);
    if (parser.isSet(mode))
        options.training = parser.value(mode) == QLatin1String("train");
    options.shapes = parser.values(shape);
    options.pipeline = parser.value(pipeline);
    return options;
}

void LaunchOptions::applyToApplication() const
{
    if (dark) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(ThemeColors::darkPalette());
    }
    MemoryLimitSetting::restore();
    if (maxMemory)
        MemoryBudget::setLimit(*maxMemory);
}

bool LaunchOptions::collapsePanels(MainWindow &window, QString &error) const
{
    const QList<QDockWidget *> docks = window.findChildren<QDockWidget *>();
    if (collapse.size() == 1
        && collapse.first().trimmed().compare(QLatin1String("all"), Qt::CaseInsensitive) == 0) {
        window.dockCollapser()->collapseAllAction()->trigger();
        return true;
    }
    for (const QString &name : collapse) {
        auto it = std::find_if(docks.begin(), docks.end(), [&](const QDockWidget *dock) {
            return dock->windowTitle().compare(name.trimmed(), Qt::CaseInsensitive) == 0;
        });
        if (it == docks.end()) {
            QStringList titles;
            for (const QDockWidget *dock : docks)
                titles.append(dock->windowTitle());
            titles.sort();
            error = QStringLiteral("--collapse: no panel named \"%1\" (panels: %2, or all)")
                        .arg(name.trimmed(), titles.join(QStringLiteral(", ")));
            return false;
        }
        window.dockCollapser()->setCollapsed(*it, true);
    }
    return true;
}

bool LaunchOptions::applyTo(MainWindow &window, QString &error) const
{
    PassView *passView = window.passes()->view();
    const int step = passStep;
    if (tab == MainWindow::Tab::Passes) {
        // PIRScope's own pipeline arrives later than the window: select the step then.
        QObject::connect(window.passes()->runner(), &PassTimelineRunner::timelineReady, &window,
            [passView, step] { passView->setCurrentStep(step); });
    }
    if (!pipeline.isEmpty() && !window.passes()->runner()->setPipelineName(pipeline.toStdString())) {
        error = QStringLiteral("unknown --pipeline ") + pipeline;
        return false;
    }
    // Without a file the window shows its start page; a screenshot shows the bundled example.
    const bool opened = !file.isEmpty() ? window.openFile(file)
        : !screenshot.isEmpty()         ? window.openDefaultExample()
                                        : false;
    if (opened && training)
        window.setTraining(*training);
    if (!shapes.isEmpty()) {
        std::map<std::string, std::vector<int64_t>> assigned;
        for (const QString &text : shapes) {
            std::string why;
            auto assignment = InputShapes::parseAssignment(text.toStdString(), why);
            if (!assignment) {
                error = QStringLiteral("--shape ") + QString::fromStdString(why);
                return false;
            }
            assigned[assignment->first] = assignment->second;
        }
        const QString why = window.debugger()->session()->setShapes(assigned);
        if (!why.isEmpty()) {
            error = QStringLiteral("--shape ") + why;
            return false;
        }
    }
    if (opened && !paddleLog.isEmpty()) {
        MainWindowRunLog *runLog = window.runLog();
        if (!runLog->openLog(paddleLog) || !runLog->waitUntilDone()) {
            error = QStringLiteral("--paddle-log ") + paddleLog + QStringLiteral(": could not be checked");
            return false;
        }
        if (!runLog->result() || !runLog->result()->ok()) {
            error = QStringLiteral("--paddle-log ")
                + (runLog->result() ? runLog->result()->error : paddleLog + QStringLiteral(": no result"));
            return false;
        }
    }
    if (memory) {
        QDockWidget *dock = window.memory()->dock();
        dock->show();
        window.resizeDocks({ dock }, { qMax(180, window.height() / 4) }, Qt::Vertical);
    }
    if (pirText)
        window.pirText()->showAction()->trigger();
    if (!collapse.isEmpty() && !collapsePanels(window, error))
        return false;
    if (tab == MainWindow::Tab::Split)
        window.showTab(MainWindow::Tab::Split);
    if (tab == MainWindow::Tab::Passes) {
        window.showTab(MainWindow::Tab::Passes);
        passView->setCurrentStep(step);
    }
    if (!screenshot.isEmpty() && !opened) {
        const Diagnostic *first = window.diagnosticsModel()->diagnostics().firstError();
        error = QStringLiteral("cannot open ") + file
            + (first ? QStringLiteral(": ") + QString::fromStdString(first->toString()) : QString());
        return false;
    }
    return true;
}

} // namespace ps
