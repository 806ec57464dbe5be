#pragma once

#include "ui/mainwindow.h"
#include "ui/pipelinerunner.h"
#include "ui/pipelinesnapshot.h"

#include <QElapsedTimer>
#include <QTest>

/// Opens `path` in `window` and processes events until its pipeline snapshot is in (the forward
/// and backward graphs can be shown); false when it does not open or no snapshot comes in a
/// minute.
inline bool openAndWaitForPipeline(ps::MainWindow &window, const QString &path)
{
    if (!window.openFile(path))
        return false;
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000
        && !(window.snapshot() && window.snapshot()->ok() && !window.pipelineRunner()->isBusy()))
        QTest::qWait(10);
    return window.snapshot() && window.snapshot()->ok();
}
