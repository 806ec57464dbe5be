#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "debugwait.h"
#include "dynamicinputs.h"
#include "ui/debugger/debuggertoolbar.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/debugsourcesdialog.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>
#include <functional>

using namespace ps;

namespace {

using State = DebugSession::State;
using Dims = std::vector<int64_t>;

const char *const kYml
    = "trt_dynamic_shapes:\n  x:\n  - [1, 3, 8, 8]\n  - [1, 3, 16, 16]\n  - [4, 3, 64, 64]\n"
      "  ids: [[1, 1], [1, 4], [1, 8]]\n";

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    return writeTestFile(dir, name, content);
}

bool waitIdle(DebugSession &s)
{
    return waitUntilIdle(s);
}

/// The shape the input `name` had in the last run (its data op's result).
Dims inputShape(DebugSession &s, const char *name)
{
    const Program *program = s.segmentPrograms().front();
    for (const Operation *op : program->block().ops())
        if (op->name() == "pd_op.data" && op->stringAttribute("name") == name)
            return s.hostValue(op->result(0)).shape();
    return {};
}

/// Runs `handle` on the first modal dialog that opens (within `timeout` ms).
void onModalDialog(std::function<void(DebugSourcesDialog *)> handle, int timeout = 10000)
{
    auto *timer = new QTimer;
    auto elapsed = std::make_shared<QElapsedTimer>();
    elapsed->start();
    QObject::connect(timer, &QTimer::timeout, [timer, handle, elapsed, timeout] {
        auto *dialog = qobject_cast<DebugSourcesDialog *>(QApplication::activeModalWidget());
        if (!dialog && elapsed->elapsed() < timeout)
            return;
        timer->stop();
        timer->deleteLater();
        if (!dialog)
            return;
        handle(dialog);
        if (dialog->isVisible()) // a failed check must not leave the test waiting on the dialog
            dialog->reject();
    });
    timer->start(10);
}

} // namespace

/// Input shapes in the GUI: the sources dialog's shape field per dynamic input (with the `.yml`
/// default beside the program), the status bar, the dialog that asks when a start lacks a shape,
/// and `pirscope --shape` (DebugSession::setShapes).
class TestShapesDialog : public QObject
{
    Q_OBJECT

private slots:
    void ymlDefaultsInTheDialogAndTheStatusBar()
    {
        QTemporaryDir dir;
        const QString program = write(dir, "dyn.txt", kDynamicInputs);
        write(dir, "dyn.yml", kYml);
        MainWindow w;
        w.resize(1280, 720);
        QVERIFY(w.openFile(program));
        DebugSession *s = w.debugger()->session();
        QLabel *status = w.debugger()->shapesStatus();
        QVERIFY(!status->isHidden());
        QCOMPARE(status->text(),
            QStringLiteral("Input shapes: x 1\u00d73\u00d716\u00d716 (.yml) \u00b7 ids 1\u00d74 (.yml) "
                           "\u00b7 s 1\u00d72 "
                           "(batch 1)"));
        QVERIFY2(status->toolTip().contains("dyn.yml: trt_dynamic_shapes.x (opt of min/opt/max)"),
            qPrintable(status->toolTip()));

        DebugSourcesDialog d(s);
        QVERIFY(d.shapeEdit("x") && d.shapeEdit("ids") && d.shapeEdit("s"));
        QVERIFY(!d.shapeEdit("y")); // static: no field
        QCOMPARE(d.shapeEdit("x")->text(), QStringLiteral("1x3x16x16"));
        auto *note = d.findChild<QLabel *>(QStringLiteral("shapeNote_x"));
        QVERIFY(note);
        QVERIFY2(note->text().startsWith(".yml: dyn.yml: trt_dynamic_shapes.x"), qPrintable(note->text()));
        // The memory limit's default fits its field; the why wraps in a note under it (a long
        // placeholder was cut off).
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        auto *limit = d.findChild<QLineEdit *>(QStringLiteral("memoryLimit"));
        auto *limitNote = d.findChild<QLabel *>(QStringLiteral("memoryLimitNote"));
        QVERIFY(limit && limitNote);
        QVERIFY(limit->placeholderText().startsWith(QStringLiteral("default: ")));
        QVERIFY(limit->fontMetrics().horizontalAdvance(limit->placeholderText()) < limit->width() - 8);
        QVERIFY(limitNote->wordWrap());
        QVERIFY(limitNote->text().contains(QStringLiteral("75% of the memory available at start")));
        QVERIFY(
            limitNote->isVisible() && limitNote->height() >= limitNote->heightForWidth(limitNote->width()));
        // Keeping the default chooses nothing; editing a field chooses that shape.
        QVERIFY(d.sources().shapes.empty());
        d.shapeEdit("x")->setText(QStringLiteral("1x3x4x6"));
        QCOMPARE(d.sources().shapes.at("x"), (Dims { 1, 3, 4, 6 }));
        // A shape of the wrong rank or with a bad dim is refused with the reason.
        d.shapeEdit("ids")->setText(QStringLiteral("1x2x3"));
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Rejected));
        QVERIFY2(d.errorLabel()->text().contains("ids=1x2x3: rank 3, the input has rank 2"),
            qPrintable(d.errorLabel()->text()));
        d.shapeEdit("ids")->setText(QStringLiteral("1xq"));
        QCOMPARE(d.validate(),
            QStringLiteral("Shape of ids: '1xq' is not a shape: expected positive dims such as "
                           "1x3x640x640"));
        d.shapeEdit("ids")->setText(QString());
        d.accept();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        s->setSources(d.sources());
        QVERIFY2(
            status->text().startsWith(QStringLiteral("Input shapes: x 1\u00d73\u00d74\u00d76 (--shape)")),
            qPrintable(status->text()));

        // The run has those shapes.
        s->continueRun();
        QVERIFY(waitIdle(*s));
        QCOMPARE(s->state(), State::Finished);
        QCOMPARE(inputShape(*s, "x"), (Dims { 1, 3, 4, 6 }));
        QCOMPARE(inputShape(*s, "ids"), (Dims { 1, 4 }));
        QCOMPARE(inputShape(*s, "s"), (Dims { 1, 2 }));
    }

    void theDialogAsksWhenNoDefaultExists()
    {
        QTemporaryDir dir;
        const QString program = write(dir, "dyn.txt", kDynamicInputs);
        MainWindow w;
        QVERIFY(w.openFile(program));
        DebugSession *s = w.debugger()->session();
        QLabel *status = w.debugger()->shapesStatus();
        QCOMPARE(status->text(),
            QStringLiteral(
                "Input shapes: x ?\u00d73\u00d7?\u00d7? needs a shape \u00b7 ids ?\u00d7? needs a shape "
                "\u00b7 s 1\u00d72 (batch 1)"));
        QSignalSpy needed(s, &DebugSession::shapesNeeded);
        bool asked = false;
        onModalDialog([&asked](DebugSourcesDialog *d) {
            asked = true;
            QVERIFY(d->errorLabel()->isVisible());
            QCOMPARE(d->errorLabel()->text(),
                QStringLiteral("Choose the shape of x, ids: its dynamic dims have no default."));
            QVERIFY(d->shapeEdit("x")->text().isEmpty());
            QCOMPARE(d->shapeEdit("x")->placeholderText(), QStringLiteral("e.g. 1x3x640x640"));
            // OK refuses while an input still lacks a shape.
            d->shapeEdit("x")->setText(QStringLiteral("1x3x8x8"));
            d->accept();
            QCOMPARE(d->result(), int(QDialog::Rejected));
            QVERIFY2(d->errorLabel()->text().startsWith("Shape of ids: this input has dynamic dims (?x?) and "
                                                        "no default; enter its shape, e.g. 1xN."),
                qPrintable(d->errorLabel()->text()));
            d->shapeEdit("ids")->setText(QStringLiteral("1x5"));
            d->accept();
        });
        s->continueRun(); // F5: refused, the dialog asks
        QCOMPARE(s->state(), State::NotStarted);
        QCOMPARE(needed.count(), 1);
        QCOMPARE(needed.first().first().toStringList(), QStringList({ "x", "ids" }));
        QVERIFY2(s->startError().startsWith("inputs with dynamic dims need a shape: x (?x3x?x?), ids (?x?)"),
            qPrintable(s->startError()));
        QTRY_VERIFY_WITH_TIMEOUT(asked, 10000);
        QTRY_COMPARE(s->sources().shapes.size(), size_t(2));
        QVERIFY(s->startError().isEmpty());
        QVERIFY2(
            status->text().startsWith(QStringLiteral("Input shapes: x 1\u00d73\u00d78\u00d78 (--shape)")),
            qPrintable(status->text()));
        s->continueRun();
        QVERIFY(waitIdle(*s));
        QCOMPARE(s->state(), State::Finished);
        QCOMPARE(inputShape(*s, "x"), (Dims { 1, 3, 8, 8 }));
        QCOMPARE(inputShape(*s, "ids"), (Dims { 1, 5 }));
    }

    void commandLineShapes()
    {
        QTemporaryDir dir;
        const QString program = write(dir, "dyn.txt", kDynamicInputs);
        MainWindow w;
        QVERIFY(w.openFile(program));
        DebugSession *s = w.debugger()->session();
        // What `pirscope --shape x=1x3x2x2 --shape ids=1x1` does after opening the file.
        QCOMPARE(s->setShapes({ { "x", { 1, 3, 2, 2 } }, { "ids", { 1, 1 } } }), QString());
        QVERIFY(w.debugger()->shapesStatus()->text().contains(
            QStringLiteral("x 1\u00d73\u00d72\u00d72 (--shape)")));
        s->continueRun();
        QVERIFY(waitIdle(*s));
        QCOMPARE(s->state(), State::Finished);
        QCOMPARE(inputShape(*s, "x"), (Dims { 1, 3, 2, 2 }));
        // A name the program lacks or a shape that does not fit: said at once; the start refuses.
        const QString error = s->setShapes({ { "q", { 1 } }, { "x", { 1, 3 } } });
        QVERIFY2(error.contains("q: the program has no input of that name (inputs: x, ids, s, y)"),
            qPrintable(error));
        QVERIFY2(error.contains("x=1x3: rank 2, the input has rank 4 (?x3x?x?)"), qPrintable(error));
        QVERIFY(waitIdle(*s));
        QCOMPARE(s->state(), State::NotStarted); // the finished session ended with the change
        s->setShapes({ { "q", { 1 } }, { "ids", { 1, 1 } }, { "x", { 1, 3, 2, 2 } } });
        s->continueRun();
        QCOMPARE(s->state(), State::NotStarted);
        QVERIFY2(
            s->startError().startsWith("shape q: the program has no input"), qPrintable(s->startError()));
    }
};

QTEST_MAIN(TestShapesDialog)
#include "tst_shapesdialog.moc"
