#include "core/io/numbertext.h"

#include <QtTest>

using namespace ps;

/// Issue 9: the strict number parser behind every numeric option (--seed, --runs, --rtol,
/// positions, sizes): the whole text is the number, in range, finite.
class TestNumberText : public QObject
{
    Q_OBJECT

private slots:
    void strictNumbers_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("negative") << "-1"
                                  << "expected a non-negative integer, got '-1'";
        QTest::newRow("garbage") << "12abc"
                                 << "expected a non-negative integer, got '12abc'";
        QTest::newRow("overflow") << "99999999999999999999999"
                                  << "is out of range";
        QTest::newRow("empty") << ""
                               << "got an empty value";
        QTest::newRow("float") << "1.5"
                               << "got '1.5'";
    }
    void strictNumbers()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        std::string error;
        QVERIFY(!NumberText::parseUnsigned(text.toStdString(), UINT64_MAX, error));
        QVERIFY2(QString::fromStdString(error).contains(expected), error.c_str());
    }

    void strictFiniteNumbers()
    {
        std::string error;
        QCOMPARE(NumberText::parseFinite("1e-5", 0, 1, error).value(), 1e-5);
        for (const char *bad : { "nan", "inf", "-inf", "1e999", "0.5x", "", "0x1p3", "2" }) {
            QVERIFY2(!NumberText::parseFinite(bad, 0, 1, error), bad);
            QVERIFY2(!error.empty(), bad);
        }
        QCOMPARE(NumberText::parseUnsigned("7", 1, 10, error).value(), uint64_t(7));
        QVERIFY(!NumberText::parseUnsigned("0", 1, 10, error));
        QVERIFY(NumberText::quote(std::string(100000, 'x')).size() < 80);
    }
};

QTEST_GUILESS_MAIN(TestNumberText)
#include "tst_numbertext.moc"
