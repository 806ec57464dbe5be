#include "core/analysis/namepattern.h"
#include "core/io/programloader.h"
#include "core/ir/operation.h"

#include <QElapsedTimer>
#include <QtTest>

using namespace ps;

/// Issue 9: regexes of breakpoints and OP=REGEX references run on RE2 (linear time: the
/// pathological pattern that made std::regex backtrack for ever answers at once).
class TestNamePattern : public QObject
{
    Q_OBJECT

private slots:
    void searches()
    {
        if (!NamePattern::available())
            QSKIP("built without RE2");
        std::string error;
        const auto p = NamePattern::compile("^out", error);
        QVERIFY2(p, error.c_str());
        QVERIFY(p->search("output_0"));
        QVERIFY(!p->search("x_output"));
        QVERIFY(!NamePattern::compile("(", error));
        QVERIFY2(QString::fromStdString(error).startsWith("invalid regular expression '('"), error.c_str());
    }

    void pathologicalPatternIsLinear()
    {
        if (!NamePattern::available())
            QSKIP("built without RE2");
        std::string error;
        const auto p = NamePattern::compile("(a+)+$", error);
        QVERIFY2(p, error.c_str());
        const std::string name = std::string(100000, 'a') + "!";
        QElapsedTimer timer;
        timer.start();
        QVERIFY(!p->search(name));
        qDebug("(a+)+$ against 100001 characters: %lld ms", timer.elapsed());
        QVERIFY(!NamePattern::compile(std::string(5000, 'a'), error));
    }

    void withoutRe2SaysSo()
    {
        if (NamePattern::available())
            QSKIP("built with RE2");
        std::string error;
        QVERIFY(!NamePattern::compile("x", error));
        QVERIFY(QString::fromStdString(error).contains("need RE2"));
    }

    void matchingOps()
    {
        if (!NamePattern::available())
            QSKIP("built without RE2");
        const LoadResult r = loadProgramFromString(R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2]} : () -> tensor<2xf32>
    (%1) = "pd_op.relu" (%0) {} : (tensor<2xf32>) -> tensor<2xf32>
    () = "builtin.shadow_output" (%1) {output_name:"out"} : (tensor<2xf32>) -> 
}
)",
            "p.txt");
        QVERIFY2(r.ok(), r.diagnostics.toString().c_str());
        std::string error;
        QCOMPARE(NamePattern::compile("^out$", error)->matchingOps(*r.program, false).size(), size_t(1));
        QCOMPARE(NamePattern::compile("relu", error)->matchingOps(*r.program, false).size(), size_t(0));
        QCOMPARE(NamePattern::compile("relu", error)->matchingOps(*r.program, true).size(), size_t(1));
        QCOMPARE(NamePattern::compile("nothing", error)->matchingOps(*r.program, true).size(), size_t(0));
    }
};

QTEST_GUILESS_MAIN(TestNamePattern)
#include "tst_namepattern.moc"
