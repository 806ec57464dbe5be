#include "core/io/inputfile.h"
#include "core/io/memorybudget.h"
#include "core/io/pirjsonreader.h"
#include "core/io/programloader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <fstream>
#include <sys/stat.h>

using namespace ps;

/// Issue 9: the one file-opening helper. Regular files only, said clearly otherwise (directory,
/// FIFO, device, symlink loop, missing), symlinks named with their target, sizes bounded before
/// the first byte is read; a FIFO never hangs and /dev/zero never fills memory.
class TestInputFile : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { MemoryBudget::setLimit(0); }

    void readsRegularFiles()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/a.txt").toStdString();
        std::ofstream(path) << "hello";
        std::string error;
        const auto content = InputFile::readAll(path, 100, error);
        QVERIFY2(content, error.c_str());
        QCOMPARE(*content, std::string("hello"));
        // Room for simdjson's padding, so PIR JSON is parsed where it lies (loadProgramFromBuffer).
        QVERIFY(content->capacity() >= content->size() + PirJsonReader::paddingBytes());
        QVERIFY(!InputFile::readAll(path, 4, error));
        QVERIFY2(QString::fromStdString(error).contains("5 bytes, more than the 4 bytes"), error.c_str());
    }

    void refusesWhatIsNotARegularFile_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("expected");
        QTest::newRow("directory") << "dir"
                                   << "is a directory";
        QTest::newRow("fifo") << "fifo"
                              << "is a FIFO (named pipe)";
        QTest::newRow("device through a symlink") << "zero"
                                                  << "(-> /dev/zero): is a character device";
        QTest::newRow("symlink loop") << "loop"
                                      << "is a symlink loop";
        QTest::newRow("missing") << "missing"
                                 << "does not exist";
    }
    void refusesWhatIsNotARegularFile()
    {
        QFETCH(QString, kind);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString path = dir.path() + "/" + kind;
        if (kind == "dir")
            QVERIFY(QDir(dir.path()).mkdir(kind));
        else if (kind == "fifo")
            QVERIFY(::mkfifo(path.toLocal8Bit().constData(), 0600) == 0);
        else if (kind == "zero")
            QVERIFY(QFile::link(QStringLiteral("/dev/zero"), path));
        else if (kind == "loop")
            QVERIFY(QFile::link(path, path));
        QElapsedTimer timer;
        timer.start();
        std::string error;
        QVERIFY(!InputFile::readAll(path.toStdString(), InputFile::kNoLimit, error));
        QVERIFY2(QString::fromStdString(error).startsWith(path), error.c_str());
        QVERIFY2(QString::fromStdString(error).contains(expected), error.c_str());
        qDebug("%s: refused in %lld ms", qPrintable(kind), timer.elapsed());
        // The program loader says the same (a diagnostic at the file).
        const LoadResult r = loadProgram(path.toStdString());
        QVERIFY(!r.ok());
        // The diagnostic holds the file part in its location: "PATH (-> TARGET): error: is a ...".
        const QString diagnostics
            = QString::fromStdString(r.diagnostics.toString()).replace(": error: ", ": ");
        QVERIFY2(diagnostics.contains(kind == "dir" ? "is a directory without a manifest.json" : expected),
            r.diagnostics.toString().c_str());
    }

    void budgetLimitsWholeFileReads()
    {
        QTemporaryDir dir;
        const std::string path = (dir.path() + "/big.txt").toStdString();
        std::ofstream(path) << std::string(100000, 'x');
        MemoryBudget::setLimit(50000);
        std::string error;
        QVERIFY(!InputFile::readAll(path, InputFile::kNoLimit, error));
        QVERIFY2(
            QString::fromStdString(error).contains("reading it needs 100 kB, limit 50 kB"), error.c_str());
    }

    void splitsErrorsForDiagnostics()
    {
        std::string file;
        QCOMPARE(InputFile::splitError("a/b.npy (-> /x: y): is a directory, not a file", file),
            std::string("is a directory, not a file"));
        QCOMPARE(file, std::string("a/b.npy (-> /x: y)"));
    }
};

QTEST_GUILESS_MAIN(TestInputFile)
#include "tst_inputfile.moc"
