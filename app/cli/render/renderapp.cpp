#include "renderapp.h"

#include <QDir>
#include <QGuiApplication>
#include <unistd.h>

void RenderApp::ensure()
{
    if (QGuiApplication::instance())
        return;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) { // what Qt would pick, without its warning
        const QString dir = QDir::tempPath() + QStringLiteral("/runtime-") + QString::number(getuid());
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        qputenv("XDG_RUNTIME_DIR", dir.toLocal8Bit());
    }
    static int argc = 1;
    static char name[] = "pirscope-cli";
    static char *argv[] = { name, nullptr };
    // Never destroyed: a QGuiApplication torn down among the static destructors at exit crashes,
    // and the process ends right after the command anyway.
    new QGuiApplication(argc, argv);
}
