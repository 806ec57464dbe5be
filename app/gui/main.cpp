#include "ui/graphview.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstring>

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
    parser.addPositionalArgument(
        QStringLiteral("FILE"), QStringLiteral("PIR program (.json or .txt) to open"));
    QCommandLineOption screenshot(QStringLiteral("screenshot"),
        QStringLiteral("Save the window to <png> once the graph is laid out, then exit."),
        QStringLiteral("png"));
    parser.addOption(screenshot);
    parser.process(app);

    ps::MainWindow window;
    window.resize(1600, 1000);
    const QString shotPath = parser.value(screenshot);
    if (!shotPath.isEmpty()) {
        QObject::connect(window.graphView(), &ps::GraphView::layoutFinished, &window, [&window, shotPath] {
            QTimer::singleShot(100, &window,
                [&window, shotPath] { QApplication::exit(window.grab().save(shotPath, "PNG") ? 0 : 1); });
        });
        QObject::connect(
            window.graphView(), &ps::GraphView::layoutFailed, &app, [] { QApplication::exit(1); });
    }
    window.show();

    const QStringList files = parser.positionalArguments();
    const bool opened = files.isEmpty() ? window.openDefaultExample() : window.openFile(files.first());
    if (!shotPath.isEmpty() && !opened)
        return 1;
    return app.exec();
}
