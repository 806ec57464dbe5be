#include "core/io/atomicfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>
#include <atomic>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <vector>

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("(unreadable)");
}

/// Everything in `dir`, hidden files included.
QStringList entries(const QString &dir)
{
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
}

} // namespace

/// Issue 22: AtomicFile writes through a temporary file renamed over the target: never through
/// a planted symlink, never into a FIFO, never a torn file, nothing left behind on failure.
class TestAtomicFile : public QObject
{
    Q_OBJECT

private slots:
    void writesAndReplaces()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath("a.bin");
        std::string error;
        QVERIFY2(ps::AtomicFile::write(path.toStdString(), "first", error), error.c_str());
        QCOMPARE(readAll(path), QByteArray("first"));
        QVERIFY2(ps::AtomicFile::write(path.toStdString(), "second, longer", error), error.c_str());
        QCOMPARE(readAll(path), QByteArray("second, longer"));
        QVERIFY(ps::AtomicFile::write(path.toStdString(), std::string_view(), error));
        QCOMPARE(readAll(path), QByteArray());
        QCOMPARE(entries(dir.path()), QStringList { "a.bin" });
    }

    void replacesASymlinkNotItsTarget()
    {
        QTemporaryDir dir;
        const QString victim = dir.filePath("victim.txt");
        QFile f(victim);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("precious");
        f.close();
        const QString link = dir.filePath("out.npy");
        QVERIFY(QFile::link(victim, link));
        std::string error;
        QVERIFY2(ps::AtomicFile::write(link.toStdString(), "new", error), error.c_str());
        QCOMPARE(readAll(victim), QByteArray("precious"));
        QVERIFY(!QFileInfo(link).isSymLink());
        QCOMPARE(readAll(link), QByteArray("new"));
        // A dangling link too: nothing is created where it points.
        const QString dangling = dir.filePath("dangling.npy");
        QVERIFY(QFile::link(dir.filePath("nowhere.txt"), dangling));
        QVERIFY2(ps::AtomicFile::write(dangling.toStdString(), "x", error), error.c_str());
        QVERIFY(!QFileInfo::exists(dir.filePath("nowhere.txt")));
        QCOMPARE(readAll(dangling), QByteArray("x"));
    }

    void replacesAFifoWithoutOpeningIt()
    {
        QTemporaryDir dir;
        const QString fifo = dir.filePath("out.npy");
        QVERIFY(::mkfifo(fifo.toLocal8Bit().constData(), 0600) == 0);
        std::string error;
        // Opening the FIFO for writing would block this thread for good (no reader).
        QVERIFY2(ps::AtomicFile::write(fifo.toStdString(), "data", error), error.c_str());
        QVERIFY(QFileInfo(fifo).isFile());
        QCOMPARE(readAll(fifo), QByteArray("data"));
    }

    void refusesWhatIsNotAFolderOrAFile()
    {
        QTemporaryDir dir;
        std::string error;
        const QString file = dir.filePath("plain");
        QVERIFY(ps::AtomicFile::write(file.toStdString(), "x", error));
        QVERIFY(!ps::AtomicFile::write((file + "/inside.npy").toStdString(), "y", error));
        QCOMPARE(QString::fromStdString(error), file + ": not a directory");
        QVERIFY(!ps::AtomicFile::write(dir.filePath("missing/inside.npy").toStdString(), "y", error));
        QVERIFY2(
            QString::fromStdString(error).startsWith(dir.filePath("missing") + ": cannot use the folder"),
            error.c_str());
        QVERIFY(QDir(dir.path()).mkdir("sub"));
        QVERIFY(!ps::AtomicFile::write(dir.filePath("sub").toStdString(), "y", error));
        QCOMPARE(QString::fromStdString(error), dir.filePath("sub") + ": is a directory");
        QCOMPARE(entries(dir.path()), (QStringList { "plain", "sub" }));
    }

    /// A name longer than the file system takes: the rename fails, the temporary file goes.
    void failedWritesLeaveNothing()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QString(300, QLatin1Char('n')));
        std::string error;
        QVERIFY(!ps::AtomicFile::write(path.toStdString(), "x", error));
        QVERIFY2(QString::fromStdString(error).startsWith(path + ": cannot replace"), error.c_str());
        QCOMPARE(entries(dir.path()), QStringList());
    }

    /// Writers of one path and a reader at once: the reader sees only whole files.
    void concurrentWritersNeverTear()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("shared.npy").toStdString();
        std::string error;
        QVERIFY(ps::AtomicFile::write(path, std::string(1 << 20, 'a'), error));
        std::atomic<bool> stop { false };
        std::atomic<int> failures { 0 };
        std::vector<std::thread> writers;
        for (int w = 0; w < 3; ++w)
            writers.emplace_back([&, w] {
                const std::string bytes(size_t(1 << 20) + size_t(w) * 4096, char('a' + w));
                std::string why;
                for (int i = 0; i < 30; ++i)
                    if (!ps::AtomicFile::write(path, bytes, why))
                        ++failures;
            });
        int torn = 0;
        int reads = 0;
        std::thread reader([&] {
            while (!stop) {
                const QByteArray content = readAll(QString::fromStdString(path));
                ++reads;
                if (content.isEmpty() || content.count(content.front()) != content.size()
                    || content.size() != (1 << 20) + (content.front() - 'a') * 4096)
                    ++torn;
            }
        });
        for (std::thread &t : writers)
            t.join();
        stop = true;
        reader.join();
        QCOMPARE(failures.load(), 0);
        QCOMPARE(torn, 0);
        QVERIFY(reads > 0);
        QCOMPARE(entries(dir.path()), QStringList { "shared.npy" });
    }
};

QTEST_GUILESS_MAIN(TestAtomicFile)
#include "tst_atomicfile.moc"
