#include "core/io/memorybudget.h"
#include "core/runtime/allocator.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"

#include <QtTest>

using namespace ps;

/// Issue 9: the host-memory budget (MemoryBudget) that Tensor and the CPU allocator go through:
/// an allocation past the limit is an error that leaves the budget usable.
class TestMemoryBudget : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { MemoryBudget::setLimit(0); }

    void budgetTurnsOversizedAllocationIntoError()
    {
        MemoryBudget::setLimit(uint64_t(64) << 20);
        const uint64_t before = MemoryBudget::inUse();
        try {
            Tensor::empty({ 250'000'000'000 }, DataType::Float32); // 10^12 bytes
            QFAIL("allocated 1 TB");
        } catch (const OutOfMemory &e) {
            QVERIFY2(QString::fromLatin1(e.what()).startsWith(QStringLiteral("needs 1.0 TB, limit 67 MB")),
                e.what());
        }
        QCOMPARE(MemoryBudget::inUse(), before);
        // Still usable afterwards, and what a tensor held comes back when it dies.
        {
            const Tensor t = Tensor::zeros({ 1024, 1024 }, DataType::Float32);
            QCOMPARE(MemoryBudget::inUse(), before + 4 * 1024 * 1024);
            QVERIFY_THROWS_EXCEPTION(OutOfMemory, Tensor::empty({ 16, 1024, 1024 }, DataType::Float32));
        }
        QCOMPARE(MemoryBudget::inUse(), before);
    }

    void parsesSizes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qulonglong>("bytes");
        QTest::newRow("G") << "4G" << qulonglong(4'000'000'000);
        QTest::newRow("GB") << "4GB" << qulonglong(4'000'000'000);
        QTest::newRow("GiB") << "2GiB" << qulonglong(2) * 1024 * 1024 * 1024;
        QTest::newRow("fraction") << "1.5M" << qulonglong(1'500'000);
        QTest::newRow("bytes") << "123456" << qulonglong(123456);
        QTest::newRow("percent") << "100%" << qulonglong(MemoryBudget::physicalMemory());
    }
    void parsesSizes()
    {
        QFETCH(QString, text);
        QFETCH(qulonglong, bytes);
        std::string error;
        const auto parsed = MemoryBudget::parseSize(text.toStdString(), error);
        QVERIFY2(parsed, error.c_str());
        QCOMPARE(qulonglong(*parsed), bytes);
    }

    void refusesBadSizes()
    {
        for (const char *bad : { "", "-1G", "abc", "4X", "nanG", "0", "1e999", "0.1" }) {
            std::string error;
            QVERIFY2(!MemoryBudget::parseSize(bad, error), bad);
            QVERIFY2(!error.empty(), bad);
        }
    }

    void defaultIsAFractionOfAvailableMemory()
    {
        QVERIFY(MemoryBudget::physicalMemory() > 0);
        QVERIFY(MemoryBudget::availableMemory() > 0);
        QVERIFY(MemoryBudget::availableMemory() <= MemoryBudget::physicalMemory());
        // Fixed at the first call: 3/4 of what was available then, never more than 3/4 of the RAM.
        const uint64_t limit = MemoryBudget::limit();
        QCOMPARE(limit, MemoryBudget::defaultLimit());
        QVERIFY(limit <= MemoryBudget::physicalMemory() / 4 * 3);
        QVERIFY(limit > 0);
    }

    void readsMemAvailable()
    {
        const char *meminfo = "MemTotal:       131072000 kB\n"
                              "MemFree:         1000000 kB\n"
                              "MemAvailable:    2000000 kB\n"
                              "Buffers:           12 kB\n";
        QCOMPARE(MemoryBudget::parseMemAvailable(meminfo), std::optional<uint64_t>(uint64_t(2000000) * 1024));
        // A machine whose RAM is mostly taken: the budget follows what is free, not the total.
        QVERIFY(*MemoryBudget::parseMemAvailable(meminfo) < uint64_t(131072000) * 1024 / 4 * 3);
        QCOMPARE(MemoryBudget::parseMemAvailable("MemTotal: 5 kB\n"), std::nullopt);
        QCOMPARE(MemoryBudget::parseMemAvailable("XMemAvailable: 5 kB\n"), std::nullopt);
        QCOMPARE(MemoryBudget::parseMemAvailable("MemAvailable: -5 kB\n"), std::nullopt);
        QCOMPARE(MemoryBudget::parseMemAvailable("MemAvailable: 5 MB\n"), std::nullopt);
        QCOMPARE(MemoryBudget::parseMemAvailable("MemAvailable: 99999999999999999999 kB\n"), std::nullopt);
        QCOMPARE(MemoryBudget::parseMemAvailable("A: 1 kB\nMemAvailable: 7 kB"),
            std::optional<uint64_t>(7 * 1024));
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "tst_memorybudget.moc"
