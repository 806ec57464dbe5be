#include "app/allocatortuning.h"
#include "ui/launchoptions.h"
#include "ui/mainwindow.h"
#include "ui/screenshotrunner.h"

#include <QApplication>
#include <iostream>
#include <memory>
#include <optional>

namespace {

/// `error: message` on stderr; returns the exit status 1.
int fail(const QString &message)
{
    std::cerr << "error: " << message.toStdString() << std::endl;
    return 1;
}

} // namespace

int main(int argc, char *argv[])
{
    tuneAllocator();
    ps::LaunchOptions::preferOffscreenForScreenshot(argc, argv);
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("PIRScope"));
    QApplication::setApplicationName(QStringLiteral("pirscope"));
    QApplication::setApplicationVersion(QStringLiteral(PIRSCOPE_VERSION));

    QString error;
    const std::optional<ps::LaunchOptions> options
        = ps::LaunchOptions::parse(QApplication::arguments(), error);
    if (!options)
        return fail(error);
    options->applyToApplication();

    ps::MainWindow window;
    if (options->size.isValid())
        window.resize(options->size);
    std::unique_ptr<ps::ScreenshotRunner> screenshot;
    std::optional<int> screenshotStatus; // set when the screenshot ends before the event loop runs
    if (!options->screenshot.isEmpty()) {
        screenshot = std::make_unique<ps::ScreenshotRunner>(window, *options);
        QObject::connect(
            screenshot.get(), &ps::ScreenshotRunner::finished, &app, [&](const QString &message) {
                screenshotStatus = message.isEmpty() ? 0 : fail(message);
                QApplication::exit(*screenshotStatus);
            });
    }
    window.show();
    if (!options->applyTo(window, error))
        return fail(error);
    return screenshotStatus ? *screenshotStatus : app.exec();
}
