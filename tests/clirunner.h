#pragma once

#include <QByteArray>
#include <QProcess>
#include <QStringList>

/// pirscope-cli's exit code (-1 when it crashed or did not finish) and output.
struct CliResult
{
    int exitCode = -1;
    QByteArray out;
    QByteArray err;
};

/// Runs pirscope-cli (PIRSCOPE_CLI_PATH) with `args`, waiting up to `timeoutMs`.
inline CliResult runPirscopeCli(const QStringList &args, int timeoutMs = 240000)
{
    QProcess p;
    p.start(QStringLiteral(PIRSCOPE_CLI_PATH), args);
    CliResult r;
    if (!p.waitForFinished(timeoutMs))
        return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}
