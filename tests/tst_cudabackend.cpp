// The CUDA backend: without a device createCudaBackend() must fail with a reason; with one,
// every kernel fixture case with a CUDA kernel must match its expected arrays, and copies,
// statistics and the allocator must behave.

#include "core/runtime/allocator.h"
#include "core/runtime/backend.h"
#include "core/runtime/runtimeerror.h"
#include "core/runtime/tensor.h"
#include "core/runtime/tensorstats.h"
#include "kernelcase.h"

#ifdef PIRSCOPE_HAVE_CUDA
#    include "core/runtime/cuda/cudacachingallocator.h"
#endif

#include <QtTest>
#include <cmath>
#include <cstring>
#include <limits>

class TestCudaBackend : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ps::Backend> m_cuda;
    std::string m_reason;

    ps::Backend &cuda() { return *m_cuda; }

private slots:
    void initTestCase() { m_cuda = ps::createCudaBackend(0, m_reason); }

    void reasonWithoutDevice()
    {
        if (m_cuda)
            QSKIP("a CUDA device is present");
        QVERIFY2(!m_reason.empty(), "createCudaBackend returned nullptr without a reason");
#ifndef PIRSCOPE_HAVE_CUDA
        QVERIFY(m_reason.find("no CUDA backend") != std::string::npos);
#endif
        std::string again;
        QVERIFY(ps::createCudaBackend(0, again) == nullptr);
        QCOMPARE(again, m_reason);
    }

    void sizeClasses()
    {
#ifdef PIRSCOPE_HAVE_CUDA
        using A = ps::CudaCachingAllocator;
        QCOMPARE(A::sizeClass(0), size_t(512));
        QCOMPARE(A::sizeClass(512), size_t(512));
        QCOMPARE(A::sizeClass(513), size_t(640));
        QCOMPARE(A::sizeClass(1024), size_t(1024));
        QCOMPARE(A::sizeClass(1025), size_t(1280));
        QCOMPARE(A::sizeClass(size_t(1) << 30), size_t(1) << 30);
        QCOMPARE(A::sizeClass((size_t(1) << 30) + 1), (size_t(1) << 30) + (size_t(1) << 28));
        for (size_t bytes : { size_t(700), size_t(99999), size_t(123456789) }) {
            const size_t c = A::sizeClass(bytes);
            QVERIFY(c >= bytes);
            QVERIFY(c <= bytes + bytes / 4 + 1);
            QCOMPARE(A::sizeClass(c), c);
        }
#else
        QSKIP("built without CUDA");
#endif
    }

    void copiesRoundTrip_data()
    {
        QTest::addColumn<qint64>("elements");
        QTest::newRow("empty") << qint64(0);
        QTest::newRow("one") << qint64(1);
        QTest::newRow("small ring") << qint64(1000);
        QTest::newRow("one chunk") << qint64(3 << 20);
        QTest::newRow("several chunks") << qint64(9 << 20);
    }
    void copiesRoundTrip()
    {
        if (!m_cuda)
            QSKIP(("no CUDA device: " + m_reason).c_str());
        QFETCH(qint64, elements);
        ps::Tensor host = ps::Tensor::empty({ elements }, ps::DataType::Int32);
        for (qint64 i = 0; i < elements; ++i)
            host.data<int32_t>()[i] = int32_t(i * 2654435761u);
        const ps::Tensor dev = cuda().toDevice(host);
        QVERIFY(dev.device().isCuda());
        QVERIFY(cuda().toDevice(dev).storage() == dev.storage());
        const ps::Tensor back = cuda().toHost(dev);
        QVERIFY(back.device().isCpu());
        QCOMPARE(back.shape(), host.shape());
        QVERIFY(std::memcmp(back.rawData(), host.rawData(), host.byteSize()) == 0);
    }

    void statisticsMatchHost()
    {
        if (!m_cuda)
            QSKIP(("no CUDA device: " + m_reason).c_str());
        const int64_t n = 100003;
        ps::Tensor host = ps::Tensor::empty({ n }, ps::DataType::Float32);
        float *p = host.data<float>();
        for (int64_t i = 0; i < n; ++i)
            p[i] = float(std::sin(double(i) * 0.37) * 5.0 + 100.0);
        p[5] = std::numeric_limits<float>::quiet_NaN();
        p[7] = std::numeric_limits<float>::infinity();
        p[9] = -std::numeric_limits<float>::infinity();
        p[11] = 0.0f;
        // An offset view exercises the unaligned head of the vector loop.
        const ps::Tensor dev = cuda().toDevice(host);
        const ps::Tensor view(dev.storage(), { n - 3 }, ps::DataType::Float32, 3 * sizeof(float));
        const ps::Tensor hostView(host.storage(), { n - 3 }, ps::DataType::Float32, 3 * sizeof(float));
        for (const auto &[d, h] : { std::pair { dev, host }, std::pair { view, hostView } }) {
            const ps::TensorStats g = cuda().stats(d, 64), w = ps::computeStatsHost(h, 64);
            QCOMPARE(g.count, w.count);
            QCOMPARE(g.nanCount, w.nanCount);
            QCOMPARE(g.posInfCount, w.posInfCount);
            QCOMPARE(g.negInfCount, w.negInfCount);
            QCOMPARE(g.zeroCount, w.zeroCount);
            QCOMPARE(g.min, w.min);
            QCOMPARE(g.max, w.max);
            QVERIFY(std::abs(g.mean - w.mean) < 1e-9 * std::abs(w.mean));
            QVERIFY(std::abs(g.std - w.std) < 1e-9 * w.std);
            QCOMPARE(g.histogram, w.histogram);
        }
    }

    void outOfMemoryNamesTheRequest()
    {
        if (!m_cuda)
            QSKIP(("no CUDA device: " + m_reason).c_str());
        const size_t huge = size_t(1) << 52;
        try {
            cuda().allocator().allocate(huge);
            QFAIL("a 4 PiB allocation succeeded");
        } catch (const ps::OutOfMemory &e) {
            QCOMPARE(e.bytes(), huge);
            QVERIFY(std::string(e.what()).find("free of") != std::string::npos);
        }
    }

    void kernelFixtures_data()
    {
        QTest::addColumn<QString>("dir");
        for (const char *family : { "elementwise", "shape", "nn", "grad" })
            for (const QString &c : kernelcase::cases(QString::fromLatin1(family)))
                QTest::newRow(qPrintable(QStringLiteral("%1/%2").arg(QLatin1String(family), c)))
                    << kernelcase::root() + "/" + QLatin1String(family) + "/" + c;
    }
    void kernelFixtures()
    {
        if (!m_cuda)
            QSKIP(("no CUDA device: " + m_reason).c_str());
        QFETCH(QString, dir);
        const kernelcase::Outcome outcome = kernelcase::run(dir, cuda());
        if (outcome.error.startsWith(QStringLiteral("no "))
            && outcome.error.contains(QStringLiteral("kernel for")))
            QSKIP(qPrintable(outcome.error));
        QVERIFY2(outcome.error.isEmpty(), qPrintable(outcome.error));
    }
};

QTEST_GUILESS_MAIN(TestCudaBackend)
#include "tst_cudabackend.moc"
