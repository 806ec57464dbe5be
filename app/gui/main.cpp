#include "core/session/inputshapes.h"
#include "ui/debugger/debugsession.h"
#include "ui/graphview.h"
#include "ui/inspector/themecolors.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/pipelinerunner.h"
#include "ui/splitview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

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
            "PIR program (.json or .txt), or trace bundle (its folder or manifest.json), to open"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Save the window to <png> once the graphs are laid out, then exit."),
        QStringLiteral("png"));
    QCommandLineOption view(QStringLiteral("view"),
        QStringLiteral("Tab to show: program (the origin program) or split (forward, cut, backward)."),
        QStringLiteral("program|split"), QStringLiteral("program"));
    QCommandLineOption mode(QStringLiteral("mode"),
        QStringLiteral("Pipeline to show: train or infer (default: the bundle's mode; infer for a program)."),
        QStringLiteral("train|infer"));
    QCommandLineOption debugSteps(QStringLiteral("debug-steps"),
        QStringLiteral("With --screenshot: debug the shown program and step over <n> ops before the shot."),
        QStringLiteral("n"));
    QCommandLineOption shape(QStringLiteral("shape"),
        QStringLiteral(
            "Shape of an input with dynamic dims, e.g. x=1x3x640x640 (repeatable); the default comes "
            "from the .yml beside the program."),
        QStringLiteral("name=dims"));
    QCommandLineOption dark(QStringLiteral("dark"),
        QStringLiteral("Dark colours (Fusion style with a dark palette) whatever the system's theme."));
    parser.addOptions({ screenshot, view, mode, debugSteps, shape, dark });
    parser.process(app);
    if (parser.isSet(dark)) {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(ps::ThemeColors::darkPalette());
    }
    const bool split = parser.value(view) == QLatin1String("split");
    if (!split && parser.value(view) != QLatin1String("program"))
        parser.showHelp(1);
    if (parser.isSet(mode) && parser.value(mode) != QLatin1String("train")
        && parser.value(mode) != QLatin1String("infer"))
        parser.showHelp(1);

    ps::MainWindow window;
    const QString shotPath = parser.value(screenshot);
    // Screenshots have a fixed size; an interactive window keeps the size it was closed with.
    if (!shotPath.isEmpty())
        window.resize(1600, 1000);
    if (!shotPath.isEmpty()) {
        auto grab = [&window, shotPath] {
            QTimer::singleShot(100, &window,
                [&window, shotPath] { QApplication::exit(window.grab().save(shotPath, "PNG") ? 0 : 1); });
        };
        // With --debug-steps the shot waits for the debugger: started (paused at the first op),
        // then stepped over n ops.
        const int steps = parser.value(debugSteps).toInt();
        auto shoot = [&window, grab, steps, started = std::make_shared<bool>(false)] {
            if (*started)
                return;
            *started = true;
            if (steps <= 0) {
                grab();
                return;
            }
            ps::DebugSession *session = window.debugger()->session();
            auto left = std::make_shared<int>(steps);
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
        if (split) {
            // The split graphs are laid out once the pipeline snapshot of the chosen mode is in.
            QObject::connect(window.splitView(), &ps::SplitView::layoutsFinished, &window, [&window, shoot] {
                if (window.snapshot() && !window.pipelineRunner()->isBusy())
                    shoot();
            });
        } else {
            QObject::connect(window.graphView(), &ps::GraphView::layoutFinished, &window, shoot);
            QObject::connect(
                window.graphView(), &ps::GraphView::layoutFailed, &app, [] { QApplication::exit(1); });
        }
    }
    window.show();

    // Without a file the window shows its start page; a screenshot shows the bundled example.
    const QStringList files = parser.positionalArguments();
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
            if (!assignment) {
                std::fprintf(stderr, "pirscope: --shape %s\n", error.c_str());
                return 1;
            }
            shapes[assignment->first] = assignment->second;
        }
        const QString error = window.debugger()->session()->setShapes(shapes);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "pirscope: --shape %s\n", qPrintable(error));
            return 1;
        }
    }
    if (split)
        window.showTab(ps::MainWindow::Tab::Split);
    if (!shotPath.isEmpty() && !opened)
        return 1;
    return app.exec();
}
