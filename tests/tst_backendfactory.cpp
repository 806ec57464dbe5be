// parseDevice (the spellings of --device) and createBackend, the one way a Device becomes a
// backend for the debugger and the CLI.

#include "core/runtime/backend.h"
#include "core/runtime/backendfactory.h"

#include <QtTest>

using namespace ps;

Q_DECLARE_METATYPE(ps::Device)

class TestBackendFactory : public QObject
{
    Q_OBJECT

private slots:
    void parsesDevices_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Device>("device");
        QTest::newRow("cpu") << "cpu" << Device::cpu();
        QTest::newRow("cpu-plain") << "cpu-plain" << Device::cpuPlain();
        QTest::newRow("cuda") << "cuda" << Device::cuda(0);
        QTest::newRow("cuda: is device 0") << "cuda:" << Device::cuda(0);
        QTest::newRow("cuda:0") << "cuda:0" << Device::cuda(0);
        QTest::newRow("cuda:3") << "cuda:3" << Device::cuda(3);
        QTest::newRow("cuda:1023") << "cuda:1023" << Device::cuda(1023);
        QTest::newRow("cuda-sim") << "cuda-sim" << Device::cudaSim();
    }

    void parsesDevices()
    {
        QFETCH(QString, text);
        QFETCH(Device, device);
        std::string error;
        const std::optional<Device> parsed = parseDevice(text.toStdString(), error);
        QVERIFY2(parsed, error.c_str());
        QCOMPARE(parsed->name(), device.name());
        QVERIFY(*parsed == device);
        QVERIFY(error.empty());
    }

    void refusesOthers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        const QString unknown = QStringLiteral("' (cpu, cpu-plain, cuda, cuda:N, cuda-sim)");
        QTest::newRow("tpu") << "tpu"
                             << "unknown device 'tpu" + unknown;
        QTest::newRow("empty") << ""
                               << "unknown device '" + unknown;
        QTest::newRow("upper case") << "CPU"
                                    << "unknown device 'CPU" + unknown;
        QTest::newRow("cuda-sim with an index") << "cuda-sim:0"
                                                << "unknown device 'cuda-sim:0" + unknown;
        QTest::newRow("cpu with an index") << "cpu:0"
                                           << "unknown device 'cpu:0" + unknown;
        // A bad index: the message goes on with NumberText's reason.
        QTest::newRow("not a number") << "cuda:x"
                                      << "the CUDA device index: ...";
        QTest::newRow("negative") << "cuda:-1"
                                  << "the CUDA device index: ...";
        QTest::newRow("too large") << "cuda:1024"
                                   << "the CUDA device index: ...";
        QTest::newRow("trailing text") << "cuda:1x"
                                       << "the CUDA device index: ...";
    }

    void refusesOthers()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        std::string error;
        QVERIFY(!parseDevice(text.toStdString(), error));
        const QString got = QString::fromStdString(error);
        if (message.endsWith(QLatin1String("..."))) {
            const QString prefix = message.chopped(3);
            QVERIFY2(got.startsWith(prefix) && got.size() > prefix.size(), error.c_str());
        } else {
            QCOMPARE(got, message);
        }
    }

    void createsBackends()
    {
        std::string reason;
        std::unique_ptr<Backend> cpu = createBackend(Device::cpu(), reason);
        QVERIFY(cpu);
        QVERIFY(cpu->device().isCpu());
        QCOMPARE(cpu->device(), Device::cpu());
        QVERIFY(reason.empty());

        // The oracle: host memory, its own device, the plain kernels (a name that says so).
        std::unique_ptr<Backend> plain = createBackend(Device::cpuPlain(), reason);
        QVERIFY(plain);
        QCOMPARE(plain->device(), Device::cpuPlain());
        QVERIFY(plain->device().isCpu());
        QVERIFY2(plain->name().starts_with("CPU plain"), plain->name().c_str());
        QVERIFY(plain->name() != cpu->name());
        QVERIFY(reason.empty());

        // A device the machine or build lacks gives the same reason as its own factory.
        std::string cudaReason;
        std::unique_ptr<Backend> cuda = createBackend(Device::cuda(0), reason);
        std::unique_ptr<Backend> direct = createCudaBackend(0, cudaReason);
        QCOMPARE(bool(cuda), bool(direct));
        if (!cuda)
            QCOMPARE(reason, cudaReason);
        else
            QCOMPARE(cuda->device(), Device::cuda(0));

        std::string simReason;
        reason.clear();
        std::unique_ptr<Backend> sim = createBackend(Device::cudaSim(), reason);
        std::unique_ptr<Backend> simDirect = createCudaSimBackend(simReason);
        QCOMPARE(bool(sim), bool(simDirect));
        if (!sim)
            QCOMPARE(reason, simReason);
        else
            QVERIFY(sim->device().isSimulated());
    }
};

QTEST_GUILESS_MAIN(TestBackendFactory)
#include "tst_backendfactory.moc"
