#include <QDir>
#include <QElapsedTimer>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

/// Issue 11: tools/make_tour.sh regenerates the README's tour pictures with
/// `pirscope --screenshot`. CI runs it into a temporary folder: every picture must render (a
/// 1600x1000 PNG with a window's worth of colours in it), not match bytes. The graph shot needs
/// ../shared/samples and is not expected without them.
class TestTour : public QObject
{
    Q_OBJECT

private slots:
    void tourRenders()
    {
        QTemporaryDir dir;
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        QElapsedTimer timer;
        timer.start();
        p.start(QStringLiteral("bash"),
            { QStringLiteral(PIRSCOPE_SOURCE_DIR "/tools/make_tour.sh"), QStringLiteral(PIRSCOPE_BINARY_DIR),
                dir.path() });
        QVERIFY2(p.waitForFinished(240000), "make_tour.sh did not finish within 4 minutes");
        const QString output = QString::fromUtf8(p.readAll());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(output));
        qDebug("make_tour.sh: %lld ms\n%s", timer.elapsed(), qPrintable(output.trimmed()));

        QStringList shots { QStringLiteral("split"), QStringLiteral("passes"), QStringLiteral("debugger") };
        if (QDir(QStringLiteral(PIRSCOPE_SAMPLES_DIR)).exists())
            shots << QStringLiteral("graph");
        for (const QString &name : shots) {
            const QString path = dir.path() + QLatin1Char('/') + name + QStringLiteral(".png");
            const QImage image(path);
            QVERIFY2(!image.isNull(), qPrintable(path + QStringLiteral(" does not load")));
            QCOMPARE(image.size(), QSize(1600, 1000));
            // A blank or one-colour window has a handful of colours; a drawn one hundreds.
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 10)
                for (int x = 0; x < image.width(); x += 10)
                    colours.insert(image.pixel(x, y));
            QVERIFY2(colours.size() > 100,
                qPrintable(QStringLiteral("%1: only %2 colours").arg(path).arg(colours.size())));
        }
    }
};

QTEST_GUILESS_MAIN(TestTour)
#include "tst_tour.moc"
