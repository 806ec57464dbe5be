#include "core/io/memorybudget.h"
#include "core/io/numbertext.h"
#include "core/session/inputshapes.h"
#include "ui/common/themecolors.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/memorylimitsetting.h"
#include "ui/diagnosticsmodel.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowpasses.h"
#include "ui/passdiffview.h"
#include "ui/passtimelinerunner.h"
#include "ui/passview.h"
#include "ui/pipelinerunner.h"
#include "ui/scenesetup.h"
#include "ui/splitview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <chrono>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>

namespace {

/// `error: message` on stderr; returns the exit status 1.
int headlessError(const std::string &message)
{
    std::cerr << "error: " << message << std::endl;
    return 1;
}

/// Calls `then` once no graph of `window` is being laid out (a selection may open layers).
void whenLaidOut(QWidget *window, const std::function<void()> &then)
{
    for (ps::GraphView *view : window->findChildren<ps::GraphView *>()) {
        if (!view->isLayoutRunning())
            continue;
        auto connection = std::make_shared<QMetaObject::Connection>();
        *connection
            = QObject::connect(view, &ps::GraphView::layoutFinished, window, [window, then, connection] {
                  QObject::disconnect(*connection);
                  whenLaidOut(window, then);
              });
        return;
    }
    then();
}

} // namespace

int main(int argc, char *argv[])
{
    // A screenshot needs no screen: default to the offscreen platform unless one was chosen.
    for (int i = 1; i < argc; ++i)
        if (std::strcmp(argv[i], "--screenshot") == 0 && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
            qputenv("QT_QPA_PLATFORM", "offscreen");

    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("PIRScope"));
    QApplication::setApplicationName(QStringLiteral("pirscope"));
    QApplication::setApplicationVersion(QStringLiteral(PIRSCOPE_VERSION));

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
                       "75% of RAM)."),
        QStringLiteral("size"));
    parser.addOptions({ screenshot, size, debugSteps, select, inspect, view, mode, shape, dark, maxMemory,
        passStep, pipeline });
    parser.process(app);
    if (parser.isSet(dark)) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(ps::ThemeColors::darkPalette());
    }
    ps::MemoryLimitSetting::restore();
    if (parser.isSet(maxMemory)) {
        std::string why;
        const std::optional<uint64_t> bytes
            = ps::MemoryBudget::parseSize(parser.value(maxMemory).toStdString(), why);
        if (!bytes)
            return headlessError("--max-memory: " + why);
        ps::MemoryBudget::setLimit(*bytes);
    }
    uint64_t steps = 0;
    if (parser.isSet(debugSteps)) {
        std::string why;
        const std::optional<uint64_t> n
            = ps::NumberText::parseUnsigned(parser.value(debugSteps).toStdString(), 1000000, why);
        if (!n)
            return headlessError("--debug-steps: " + why);
        steps = *n;
    }
    const QString shotPath = parser.value(screenshot);
    // Screenshots have a fixed size; an interactive window keeps the size it was closed with.
    QSize windowSize = shotPath.isEmpty() ? QSize() : QSize(1600, 1000);
    if (parser.isSet(size)) {
        QString why;
        const std::optional<QSize> wanted = ps::SceneSetup::parseSize(parser.value(size), why);
        if (!wanted)
            return headlessError("--size: " + why.toStdString());
        windowSize = *wanted;
    }
    const QString selectRef = parser.value(select);
    const QString inspectRef = parser.value(inspect);
    for (const QCommandLineOption *option : { &select, &inspect })
        if (parser.isSet(*option) && shotPath.isEmpty())
            return headlessError("--" + option->names().first().toStdString() + " needs --screenshot");
    if (parser.isSet(inspect) && steps == 0)
        return headlessError("--inspect: needs a debug session (--steps N)");
    const bool split = parser.value(view) == QLatin1String("split");
    bool passes = parser.value(view) == QLatin1String("passes");
    if (!split && !passes && parser.value(view) != QLatin1String("program"))
        parser.showHelp(1);
    const QStringList files = parser.positionalArguments();
    passes = passes || parser.isSet(pipeline)
        || (!files.isEmpty() && ps::MainWindowPasses::isPassLog(files.first()));
    const int wantedStep = parser.isSet(passStep) ? parser.value(passStep).toInt() - 1 : 0;
    if (passes && (parser.isSet(select) || parser.isSet(inspect)))
        return headlessError("--select and --inspect act on the Program and split tabs, not on the passes");
    if (parser.isSet(mode) && parser.value(mode) != QLatin1String("train")
        && parser.value(mode) != QLatin1String("infer"))
        parser.showHelp(1);

    ps::MainWindow window;
    if (windowSize.isValid())
        window.resize(windowSize);
    if (!shotPath.isEmpty()) {
        // The scene is set once the window shows what was asked (laid out, stepped); the shot
        // waits for the layouts that opened the selection's layers.
        auto grab = [&window, shotPath, windowSize, selectRef, inspectRef] {
            QString why;
            if (!selectRef.isEmpty() && !ps::SceneSetup::selectOp(window, selectRef, why)) {
                QApplication::exit(headlessError("--select: " + why.toStdString()));
                return;
            }
            if (!inspectRef.isEmpty() && !ps::SceneSetup::inspectValue(window, inspectRef, why)) {
                QApplication::exit(headlessError("--inspect: " + why.toStdString()));
                return;
            }
            whenLaidOut(&window, [&window, shotPath, windowSize] {
                QTimer::singleShot(100, &window, [&window, shotPath, windowSize] {
                    if (window.size() != windowSize)
                        QApplication::exit(headlessError(QStringLiteral(
                            "--size: the window cannot be made %1x%2 (it is %3x%4: its panels need that)")
                                                             .arg(windowSize.width())
                                                             .arg(windowSize.height())
                                                             .arg(window.width())
                                                             .arg(window.height())
                                                             .toStdString()));
                    else if (window.grab().save(shotPath, "PNG"))
                        QApplication::exit(0);
                    else
                        QApplication::exit(headlessError("cannot write " + shotPath.toStdString()));
                });
            });
        };
        // A headless run always ends: a failed debug session or layout exits non-zero with the
        // reason, and a watchdog ends a run that waits for something that never comes.
        ps::DebugSession *debugSession = window.debugger()->session();
        QObject::connect(debugSession, &ps::DebugSession::error, &app, [steps](const QString &message) {
            if (steps > 0)
                QApplication::exit(headlessError("debug session: " + message.toStdString()));
        });
        QObject::connect(window.graphView(), &ps::GraphView::layoutFailed, &app,
            [] { QApplication::exit(headlessError("the graph layout failed")); });
        QTimer::singleShot(std::chrono::minutes(5), &app, [] {
            QApplication::exit(headlessError(
                "--screenshot: gave up after 5 minutes (layout or debug session never finished)"));
        });
        // With --debug-steps the shot waits for the debugger: started (paused at the first op),
        // then stepped over n ops.
        auto shoot = [&window, grab, steps, started = std::make_shared<bool>(false)] {
            if (*started)
                return;
            *started = true;
            if (steps == 0) {
                grab();
                return;
            }
            ps::DebugSession *session = window.debugger()->session();
            auto left = std::make_shared<int>(int(steps));
            QObject::connect(session, &ps::DebugSession::stoppedAt, &window, [session, left, grab] {
                if (*left < 0)
                    return;
                if (session->state() == ps::DebugSession::State::Paused && *left > 0) {
                    --*left;
                    session->stepOver();
                    return;
                }
                *left = -1;
                grab();
            });
            session->stepOver();
        };
        if (passes) {
            // The shot waits for the chosen step's diff graph.
            ps::PassView *passView = window.passes()->view();
            QObject::connect(passView->graphDiff()->graphView(), &ps::GraphView::layoutFinished, &window,
                [passView, shoot, wantedStep] {
                    if (passView->shownStep() == wantedStep)
                        shoot();
                });
            QObject::connect(
                passView, &ps::PassView::stepShown, &window, [passView, grab, wantedStep](int step) {
                    if (step == wantedStep && !passView->graphDiff()->diffGraph())
                        grab(); // a step without a diff shows its message
                });
        } else if (split) {
            // The split graphs are laid out once the pipeline snapshot of the chosen mode is in.
            QObject::connect(window.splitView(), &ps::SplitView::layoutsFinished, &window, [&window, shoot] {
                if (window.snapshot() && !window.pipelineRunner()->isBusy())
                    shoot();
            });
        } else {
            QObject::connect(window.graphView(), &ps::GraphView::layoutFinished, &window, shoot);
        }
    }
    window.show();

    if (passes) {
        // PIRScope's own pipeline arrives later than the window: select the step then.
        QObject::connect(window.passes()->runner(), &ps::PassTimelineRunner::timelineReady, &window,
            [&window, wantedStep] { window.passes()->view()->setCurrentStep(wantedStep); });
    }
    if (parser.isSet(pipeline)
        && !window.passes()->runner()->setPipelineName(parser.value(pipeline).toStdString()))
        return headlessError("unknown --pipeline " + parser.value(pipeline).toStdString());
    // Without a file the window shows its start page; a screenshot shows the bundled example.
    const bool opened = !files.isEmpty() ? window.openFile(files.first())
        : !shotPath.isEmpty()            ? window.openDefaultExample()
                                         : false;
    if (opened && parser.isSet(mode))
        window.setTraining(parser.value(mode) == QLatin1String("train"));
    if (parser.isSet(shape)) {
        std::map<std::string, std::vector<int64_t>> shapes;
        for (const QString &text : parser.values(shape)) {
            std::string error;
            auto assignment = ps::InputShapes::parseAssignment(text.toStdString(), error);
            if (!assignment)
                return headlessError("--shape " + error);
            shapes[assignment->first] = assignment->second;
        }
        const QString error = window.debugger()->session()->setShapes(shapes);
        if (!error.isEmpty())
            return headlessError("--shape " + error.toStdString());
    }
    if (split)
        window.showTab(ps::MainWindow::Tab::Split);
    if (passes) {
        window.showTab(ps::MainWindow::Tab::Passes);
        window.passes()->view()->setCurrentStep(wantedStep);
    }
    if (!shotPath.isEmpty() && !opened) {
        const ps::Diagnostic *first = window.diagnosticsModel()->diagnostics().firstError();
        return headlessError("cannot open " + files.value(0).toStdString()
            + (first ? ": " + first->toString() : std::string()));
    }
    return app.exec();
}
