#pragma once

#include "ui/debugger/debugsession.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>

/// Processes events until `session` is not running (true) or `timeoutMs` passed (false).
inline bool waitUntilIdle(ps::DebugSession &session, int timeoutMs = 60000)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (session.state() != ps::DebugSession::State::Running)
            return true;
        QTest::qWait(5);
    }
    return false;
}
