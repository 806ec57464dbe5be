#include "interpretertestprograms.h"

#include <QtTest>
#include <cmath>

/// The Interpreter's bounds and memory: the op limit and cancelling inside loops, the records
/// against the budget, eager deletion and what the scope keeps of a freed variable.
class TestInterpreterLimits : public QObject
{
    Q_OBJECT

    testbackend::TestBackend m_backend;

    std::unique_ptr<InterpreterFixture> make(
        const char *text, double x = 1.0, Interpreter::Options options = {})
    {
        return makeFixture(m_backend, text, x, options);
    }

private slots:
    /// Issue 22: a pd_op.while whose condition stays true ends at the op limit, the op named.
    void opLimitEndsAnEndlessLoop()
    {
        Interpreter::Options options;
        options.maxOps = 100;
        const std::string text = endlessLoop();
        auto f = make(text.c_str(), 1.0, options);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        QCOMPARE(in.state(), Interpreter::State::Error);
        QVERIFY(in.error()->bounded);
        const QString message = QString::fromStdString(in.error()->toString());
        QVERIFY2(message.contains(QStringLiteral("stopped before op 101: the limit of 100 executed ops")),
            qPrintable(message));
        QCOMPARE(in.position()->depth(), size_t(1)); // inside the loop's body
        QVERIFY(in.frames().back().iteration > 10);
        // Bounded again after a restart, not before its first op; a failed op is no way past it.
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        in.restart();
        QCOMPARE(in.step().reason, StopReason::Step);
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        QVERIFY(in.error()->message.find("op 101") != std::string::npos);
        // The process-wide limit (--max-ops) applies where a run sets none.
        Interpreter::setDefaultMaxOps(40);
        auto g = make(text.c_str());
        const StopReason bounded = g->interpreter->continueRun().reason;
        Interpreter::setDefaultMaxOps(0);
        QCOMPARE(bounded, StopReason::Error);
        QVERIFY2(g->interpreter->error()->message.find("the limit of 40 executed ops") != std::string::npos,
            g->interpreter->error()->message.c_str());
        // A program that ends within the limit is not touched by it.
        options.maxOps = 1000;
        auto h = make(kControlFlowProgram, 1.0, options);
        QCOMPARE(h->interpreter->continueRun().reason, StopReason::Finished);
    }

    /// A background run nobody waits for (a closed window's numeric check) ends inside the loop.
    void cancelEndsARunInsideALoop()
    {
        auto asked = std::make_shared<std::atomic<int>>(0);
        Interpreter::Options options;
        options.canceled = [asked] { return ++*asked > 500; };
        const std::string text = endlessLoop();
        auto f = make(text.c_str(), 1.0, options);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        QCOMPARE(in.continueRun().reason, StopReason::Error);
        QVERIFY(in.error()->bounded);
        QCOMPARE(in.error()->message, std::string("canceled after 500 executed ops"));
        QCOMPARE(in.position()->depth(), size_t(1));
    }

    /// Records count against the host-memory budget: an endless loop stops when they pass it and
    /// gives the budget back when the interpreter goes.
    void recordsCountAgainstTheBudget()
    {
        const uint64_t before = MemoryBudget::inUse();
        MemoryBudget::setLimit(before + (uint64_t(256) << 10));
        {
            const std::string text = endlessLoop();
            auto f = make(text.c_str());
            QVERIFY(f);
            Interpreter &in = *f->interpreter;
            QCOMPARE(in.continueRun().reason, StopReason::Error);
            QVERIFY(in.error()->bounded);
            QVERIFY2(in.error()->message.find("recording the executed ops needs") != std::string::npos,
                in.error()->message.c_str());
            QVERIFY(in.records().size() > 100);
            QVERIFY(MemoryBudget::inUse() > before + (uint64_t(200) << 10));
            in.restart(); // gives the records' budget back
            QVERIFY(MemoryBudget::inUse() < before + (uint64_t(64) << 10));
            QCOMPARE(in.continueRun().reason, StopReason::Error);
        }
        MemoryBudget::setLimit(0);
        QCOMPARE(MemoryBudget::inUse(), before);
    }

    void recordLimitKeepsTheLatest()
    {
        Interpreter::Options options;
        options.recordLimit = 10;
        auto f = make(kControlFlowProgram, 1.0, options);
        QVERIFY(f);
        Interpreter &in = *f->interpreter;
        std::string error;
        in.breakpoints().addNameRegex("^y$", error);
        const StopInfo s = in.continueRun();
        QCOMPARE(s.reason, StopReason::NameMatch);
        QVERIFY(in.records().size() <= 10);
        QCOMPARE(in.records().back().sequence, size_t(25)); // the while, after 25 records
        QCOMPARE(in.records()[*s.record].op->name(), std::string_view("pd_op.while"));
    }
    /// Eager deletion: each value goes after its last read (a loop's values when the loop ends),
    /// a freeAfter variable at its last read instead of the segment's end (a no_need_buffer one
    /// keeps an unbacked meta), and the allocator's bytes follow: 24 bytes per 2x3 float value.
    void eagerDeletionFreesAfterTheLastRead()
    {
        auto program = parse(kLogProgram);
        QVERIFY(program);
        Scope scope;
        scope.set("x", RuntimeValue(filled({ 2, 3 }, -2.0)));
        Interpreter::Options options;
        options.eagerDeletion = true;
        Interpreter in(
            { { "program", program, { { "x", FreeReason::NoNeedBuffer } }, {} } }, m_backend, scope, options);
        QCOMPARE(in.startLiveBytes(), int64_t(24));
        QCOMPARE(in.runToCursor(at("0:4")).reason, StopReason::Cursor);
        const Operation *scale = in.opAt(at("0:2"));
        QVERIFY(!in.valueOf(scale->result(0))); // read by the log only
        QVERIFY(in.valueOf(in.opAt(at("0:3"))->result(0)));
        QVERIFY(!scope.isFreed("x")); // the add still reads it
        // data 24, full 4, scale 24 (with the full gone after it), log 24 (the scale gone after it).
        QCOMPARE(in.records()[1].liveBytes, int64_t(28));
        QCOMPARE(in.records()[2].liveBytes, int64_t(52));
        QCOMPARE(in.records()[3].liveBytes, int64_t(72));
        QCOMPARE(in.step().reason, StopReason::Step);
        QVERIFY(scope.isFreed("x"));
        const RuntimeValue *meta = scope.find("x");
        QVERIFY(meta && meta->isTensor());
        QCOMPARE(meta->tensor().shape(), std::vector<int64_t>({ 2, 3 }));
        QCOMPARE(&meta->tensor().storage()->allocator(), &unbackedAllocator());
        QCOMPARE(in.continueRun().reason, StopReason::Finished);
        QCOMPARE(float(firstOf(scope.find("out"))), float(std::log(2.0) - 2.0)); // x read before it went
        // The output and x: what the scope held at the start counts to the end (see liveBytes()).
        QCOMPARE(in.liveBytes(), int64_t(48));
        QVERIFY(in.peakLiveBytes() >= int64_t(72));

        // Loops and branches: the values inside go when their op ends, the results are right.
        auto f = make(kControlFlowProgram, 1.0, options);
        QVERIFY(f);
        QCOMPARE(f->interpreter->continueRun().reason, StopReason::Finished);
        QCOMPARE(firstOf(f->scope.find("y")), 16.0);
        QCOMPARE(firstOf(f->scope.find("i")), 3.0);
        QVERIFY(!f->interpreter->valueOf(f->interpreter->opAt(at("0:4"))->result(0)));
    }

    void scopeFreesAndPoisons()
    {
        Scope scope;
        scope.set("a", RuntimeValue(filled({ 2 }, 1.0)));
        scope.set("b", RuntimeValue(filled({ 3 }, 1.0)));
        scope.set("c", RuntimeValue(filled({ 3 }, 1.0)));
        QCOMPARE(scope.bytes(), size_t(32));
        QVERIFY(scope.free("a", FreeReason::NotNeededLater));
        QVERIFY(!scope.contains("a"));
        QVERIFY(scope.isFreed("a"));
        QVERIFY(scope.free("b", FreeReason::NoNeedBuffer, FreedMeta::Poisoned));
        QVERIFY(scope.contains("b"));
        QCOMPARE(scope.find("b")->tensor().shape(), std::vector<int64_t>({ 3 }));
        QVERIFY(std::isnan(firstOf(scope.find("b"))));
        QVERIFY(scope.free("c", FreeReason::NoNeedBuffer, FreedMeta::Same));
        QCOMPARE(firstOf(scope.find("c")), 1.0);
        QCOMPARE(scope.freed().size(), size_t(3));
        QCOMPARE(scope.freedInfo("b")->description, std::string("float32[3]"));
        QVERIFY(!scope.free("zzz", FreeReason::Explicit));
        scope.set("a", RuntimeValue(filled({ 2 }, 1.0)));
        QVERIFY(!scope.isFreed("a"));
        QCOMPARE(scope.names(), std::vector<std::string>({ "a", "b", "c" }));
    }
};

QTEST_GUILESS_MAIN(TestInterpreterLimits)
#include "tst_interpreterlimits.moc"
