#include "core/ir/program.h"
#include "core/session/pipelinesource.h"
#include "ui/fileloader.h"
#include "ui/programdocument.h"
#include "ui/programopener.h"

#include <QThread>
#include <QTimer>
#include <QtTest>
#include <atomic>

using namespace ps;

namespace {

const QString kExample = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");

OpenedFile openProgram(const QString &path)
{
    OpenedFile file;
    file.path = path;
    file.source = ProgramOpener::open(path, ProgramOpener::kindOf(path), file.diagnostics);
    return file;
}

} // namespace

/// Issue 19: a file is read and its document built off the UI thread, and the UI thread keeps
/// delivering events (paints, layouts, timers) until the file is in.
class TestFileLoader : public QObject
{
    Q_OBJECT

private slots:
    void readsOffTheUiThreadAndBuildsTheDocument()
    {
        QThread *reader = nullptr;
        const OpenedFile file = FileLoader::load([&reader] {
            reader = QThread::currentThread();
            return openProgram(kExample);
        });
        QVERIFY(reader);
        QVERIFY(reader != QCoreApplication::instance()->thread());
        QCOMPARE(file.path, kExample);
        QVERIFY(file.source);
        QVERIFY(file.document);
        QCOMPARE(file.document->path(), kExample);
        QCOMPARE(&file.document->program(), file.source->origin.get());
        QVERIFY(file.document->graph() && !file.document->graph()->nodes.empty());
        QCOMPARE(file.document->loadSeconds(), file.source->loadSeconds);
    }

    void aFailedReadHasNoDocument()
    {
        const QString missing = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/no_such_program.json");
        const OpenedFile file = FileLoader::load([missing] { return openProgram(missing); });
        QVERIFY(!file.source);
        QVERIFY(!file.document);
        QVERIFY(file.diagnostics.hasErrors());
    }

    /// A timer of the UI thread fires while the reader waits for it: the UI thread is not blocked.
    void theUiThreadRunsMeanwhile()
    {
        std::atomic<bool> fired = false;
        QTimer::singleShot(0, this, [&fired] { fired = true; });
        bool firedWhileReading = false;
        FileLoader::load([&fired, &firedWhileReading] {
            QElapsedTimer waited;
            waited.start();
            while (!fired && waited.elapsed() < 10000)
                QThread::msleep(1);
            firedWhileReading = fired;
            return OpenedFile();
        });
        QVERIFY(firedWhileReading);
    }
};

QTEST_MAIN(TestFileLoader)
#include "tst_fileloader.moc"
