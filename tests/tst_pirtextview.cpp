#include "core/graph/diffgraph.h"
#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirlisting.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/transform/syntheticprogram.h"
#include "debugwait.h"
#include "ui/common/themecolors.h"
#include "ui/debugger/debugsession.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowpasses.h"
#include "ui/mainwindowpirtext.h"
#include "ui/opfilterproxymodel.h"
#include "ui/oplistmodel.h"
#include "ui/oplistpanel.h"
#include "ui/passdiffview.h"
#include "ui/passview.h"
#include "ui/pipelinerunner.h"
#include "ui/pipelinesnapshot.h"
#include "ui/pirtexthighlighter.h"
#include "ui/pirtextview.h"
#include "ui/programdocument.h"
#include "ui/splitview.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableView>
#include <QTextBlock>
#include <QtTest>

using namespace ps;

namespace {

const QString kLenet = QStringLiteral(PIRSCOPE_SOURCE_DIR "/resources/examples/lenet_bn.json");
const QString kControlFlow = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/control_flow/infer_program.txt");

/// The `n`th op named `name` of `program`, nested ones included (walk order).
const Operation *nthOp(const Program &program, std::string_view name, int n = 0)
{
    const Operation *found = nullptr;
    program.block().walk([&](Operation *op) {
        if (!found && op->name() == name && n-- == 0)
            found = op;
    });
    return found;
}

/// A window at 1280x720 with `path` open and the PIR Text dock shown (View ▸ PIR Text).
struct Window
{
    MainWindow w;
    PirTextView *text = nullptr;

    bool open(const QString &path)
    {
        w.resize(1280, 720);
        w.show();
        if (!QTest::qWaitForWindowExposed(&w) || !w.openFile(path))
            return false;
        w.pirText()->showAction()->trigger();
        text = w.pirText()->view();
        return text->listing() != nullptr;
    }
};

/// Clicks `line` of the text at the first character of `token` on it (the line's start when
/// empty), scrolling it into view first, as a user would.
void clickLine(PirTextView *view, int line, const QString &token = {})
{
    QPlainTextEdit *editor = view->editor();
    editor->verticalScrollBar()->setValue(std::max(0, line - 2));
    const QTextBlock block = editor->document()->findBlockByNumber(line);
    QTextCursor cursor(block);
    const int column = token.isEmpty() ? 0 : int(block.text().indexOf(token));
    QVERIFY2(column >= 0, qPrintable(token + QStringLiteral(" not on line: ") + block.text()));
    cursor.setPosition(block.position() + column + (token.isEmpty() ? 0 : 1));
    const QRect rect = editor->cursorRect(cursor);
    QTest::mouseClick(editor->viewport(), Qt::LeftButton, {}, QPoint(rect.left() + 1, rect.center().y()));
}

void selectRow(QTableView *list, int row)
{
    list->selectionModel()->setCurrentIndex(
        list->model()->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

int opsRowOf(MainWindow &w, const Operation *op)
{
    OpListPanel *ops = w.opListPanel();
    return ops->proxy()->mapFromSource(ops->model()->index(ops->model()->rowOf(op), 0)).row();
}

} // namespace

/// The PIR Text dock (issue 23, item 6): the program as the printer writes it, synced with the
/// one selection both ways, as Compiler Explorer and IGV sync their IR text with the graph.
class TestPirTextView : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    /// The text is the printer's; clicking a line selects its op everywhere (the graph
    /// selects it), and the keys move from op to op.
    void lineSelectsTheOp()
    {
        Window win;
        QVERIFY(win.open(kLenet));
        QVERIFY(win.w.pirText()->dock()->isVisible());
        const PirListing &listing = *win.text->listing();
        QCOMPARE(&listing.program(), &win.w.document()->program());
        QCOMPARE(win.text->editor()->toPlainText().toStdString(), listing.text());
        const Operation *conv = nthOp(listing.program(), "pd_op.conv2d", 1);
        QVERIFY(conv);
        const int line = listing.linesOf(conv).first;
        clickLine(win.text, line);
        QCOMPARE(win.w.selection()->currentOp(), conv);
        QCOMPARE(win.w.graphView()->graphScene()->selectedOp(), conv);
        QCOMPARE(win.text->currentLine(), line);
        QCOMPARE(win.text->markedLines().front(), line);

        win.text->editor()->setFocus();
        QTest::keyClick(win.text->editor(), Qt::Key_Down);
        QCOMPARE(win.w.selection()->currentOp(), listing.opAt(line + 1));
        QCOMPARE(win.w.graphView()->graphScene()->selectedOp(), listing.opAt(line + 1));
        QTest::keyClick(win.text->editor(), Qt::Key_Up);
        QCOMPARE(win.w.selection()->currentOp(), conv);
        // The program's own braces name no op: the selection stays.
        clickLine(win.text, 0);
        QCOMPARE(win.w.selection()->currentOp(), conv);
    }

    /// An op selected in the Ops list or the graph: the text's current line is its line,
    /// marked and in view.
    void opElsewhereScrollsTheText()
    {
        Window win;
        QVERIFY(win.open(kLenet));
        const PirListing &listing = *win.text->listing();
        const Operation *last = nthOp(listing.program(), "pd_op.softmax");
        QVERIFY(last);
        const int line = listing.linesOf(last).first;
        QVERIFY(!win.text->isLineVisible(line));
        selectRow(win.w.opListPanel()->view(), opsRowOf(win.w, last));
        QCOMPARE(win.w.selection()->currentOp(), last);
        QCOMPARE(win.text->currentLine(), line);
        QCOMPARE(win.text->markedLines(), std::vector<int> { line });
        QVERIFY(win.text->isLineVisible(line));

        // A pick in the graph.
        GraphView *graph = win.w.graphView();
        QVERIFY(
            QTest::qWaitFor([&] { return !graph->isLayoutRunning() && graph->graphScene()->graphLayout(); }));
        const Operation *first = nthOp(listing.program(), "pd_op.conv2d");
        GraphNodeItem *item = graph->graphScene()->itemForOp(first);
        QVERIFY(item);
        item->setSelected(true);
        QCOMPARE(win.w.selection()->currentOp(), first);
        QCOMPARE(win.text->currentLine(), listing.linesOf(first).first);
        QVERIFY(win.text->isLineVisible(win.text->currentLine()));
    }

    /// A value selected elsewhere marks its defining line and the lines using it; clicking a
    /// value id in the text selects that value, at the op of its line.
    void valueSelection()
    {
        Window win;
        QVERIFY(win.open(kLenet));
        const PirListing &listing = *win.text->listing();
        const Operation *conv = nthOp(listing.program(), "pd_op.conv2d");
        const Value weight = conv->operand(1); // a parameter used by the conv only
        const Value out = conv->result(0);
        win.w.selectValue(out);
        std::vector<int> expected { listing.linesOf(conv).first };
        for (int use : listing.useLines(out))
            expected.push_back(use);
        QCOMPARE(win.text->markedLines(), expected);
        QVERIFY(expected.size() >= 2);

        const Operation *user = listing.opAt(expected[1]);
        const QString weightId = QString::fromStdString(listing.numbering().name(weight));
        clickLine(win.text, listing.linesOf(conv).first, weightId + QLatin1Char(')'));
        QCOMPARE(win.w.selection()->currentValue(), weight);
        QCOMPARE(win.w.selection()->currentOp(), conv);
        QCOMPARE(win.text->markedLines().front(), listing.definitionLine(weight));
        QVERIFY(user);
    }

    /// A program with an if and a while: nested ops are indented, a line inside a region
    /// selects the nested op, a brace line its if; selecting a nested op scrolls to its line.
    void programWithRegions()
    {
        Window win;
        QVERIFY(win.open(kControlFlow));
        const PirListing &listing = *win.text->listing();
        const Operation *ifOp = nthOp(listing.program(), "pd_op.if");
        QVERIFY(ifOp);
        const Operation *inner = ifOp->region(1).block(0).ops().front();
        const int innerLine = listing.linesOf(inner).first;
        QVERIFY(win.text->editor()->document()->findBlockByNumber(innerLine).text().startsWith("        ("));
        clickLine(win.text, innerLine);
        QCOMPARE(win.w.selection()->currentOp(), inner);

        clickLine(win.text, listing.linesOf(ifOp).last); // its closing brace
        QCOMPARE(win.w.selection()->currentOp(), ifOp);
        QCOMPARE(win.w.graphView()->graphScene()->selectedOp(), ifOp);
        // The if's first line strong, its regions' lines marked too.
        const PirListing::Lines ifLines = listing.linesOf(ifOp);
        QCOMPARE(int(win.text->markedLines().size()), ifLines.last - ifLines.first + 1);

        const Operation *body = nthOp(listing.program(), "pd_op.while");
        const Operation *nested = body->region(0).block(0).ops().back();
        win.w.selectOp(nested);
        QCOMPARE(win.text->currentLine(), listing.linesOf(nested).first);
        QCOMPARE(win.text->markedLines().front(), listing.linesOf(nested).first);
    }

    /// The split view: the text follows the pane of the selection (the backward program for a
    /// grad op) and selects in it; the chooser pins one program.
    void splitFollowsThePane()
    {
        Window win;
        QVERIFY(win.open(kLenet));
        win.w.setTraining(true);
        win.w.showTab(MainWindow::Tab::Split);
        QVERIFY(QTest::qWaitFor(
            [&] { return win.w.snapshot() && win.w.snapshot()->ok() && !win.w.pipelineRunner()->isBusy(); },
            60000));
        const auto snapshot = win.w.snapshot();
        QCOMPARE(win.w.pirText()->shownSide(), ProgramSide::Forward);
        QCOMPARE(&win.text->listing()->program(), &snapshot->forward->program());
        const Operation *grad = nthOp(snapshot->backward->program(), "pd_op.conv2d_grad");
        QVERIFY(grad);
        win.w.selectOp(grad);
        QCOMPARE(win.w.pirText()->shownSide(), ProgramSide::Backward);
        QCOMPARE(&win.text->listing()->program(), &snapshot->backward->program());
        QCOMPARE(win.w.pirText()->dock()->windowTitle(), QStringLiteral("PIR Text \u00b7 backward"));
        const int line = win.text->listing()->linesOf(grad).first;
        QCOMPARE(win.text->currentLine(), line);

        clickLine(win.text, line + 1);
        QCOMPARE(win.w.selection()->currentSide(), ProgramSide::Backward);
        QCOMPARE(win.w.selection()->currentOp(), win.text->listing()->opAt(line + 1));
        QCOMPARE(win.w.splitView()->backwardView()->graphScene()->selectedOp(),
            win.text->listing()->opAt(line + 1));

        win.w.pirText()->setSource(MainWindowPirText::Source::Forward);
        QCOMPARE(&win.text->listing()->program(), &snapshot->forward->program());
        QVERIFY(win.text->markedLines().empty()); // the selection is in the backward
        win.w.pirText()->setSource(MainWindowPirText::Source::Follow);
        QCOMPARE(&win.text->listing()->program(), &snapshot->backward->program());

        // Infer mode has no backward to show, and says why.
        win.w.setTraining(false);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return win.w.snapshot() && !win.w.snapshot()->training && !win.w.pipelineRunner()->isBusy();
            },
            60000));
        win.w.pirText()->setSource(MainWindowPirText::Source::Backward);
        QVERIFY(!win.text->listing());
        QVERIFY(win.text->editor()->toPlainText().startsWith(
            QStringLiteral("Infer mode: the forward program alone")));
    }

    /// The Passes tab: the selected step's program after the pass; a line picked selects the
    /// op in the diff graph and a diff-graph pick scrolls the text.
    void passStepProgram()
    {
        Window win;
        QVERIFY(win.open(kLenet));
        win.w.showTab(MainWindow::Tab::Passes);
        PassView *passes = win.w.passes()->view();
        QVERIFY(QTest::qWaitFor([&] { return passes->timeline() && passes->timeline()->size() > 0; }, 60000));
        passes->setCurrentStep(0);
        QVERIFY(QTest::qWaitFor([&] { return passes->shownDiff() != nullptr; }, 60000));
        QVERIFY(win.w.pirText()->showsPassStep());
        QCOMPARE(win.w.pirText()->dock()->windowTitle(), QStringLiteral("PIR Text \u00b7 after step 1"));
        QCOMPARE(win.text->listing()->sharedProgram(), passes->shownDiff()->after->program);
        const PirListing &listing = *win.text->listing();
        const Operation *conv = nthOp(listing.program(), "pd_op.conv2d");
        QVERIFY(conv);
        clickLine(win.text, listing.linesOf(conv).first);
        const std::shared_ptr<const DiffGraph> graph = passes->graphDiff()->diffGraph();
        QVERIFY(graph);
        const Operation *selected = passes->graphDiff()->graphView()->graphScene()->selectedOp();
        QVERIFY(selected);
        QCOMPARE(selected->name(), conv->name());
        QCOMPARE(passes->shownDiff()->ops.after[size_t(graph->afterIndex.at(selected))], conv);

        const Operation *relu = nthOp(*graph->program, "pd_op.relu");
        QVERIFY(relu);
        passes->graphDiff()->selectOp(relu);
        const Operation *afterRelu = passes->shownDiff()->ops.after[size_t(graph->afterIndex.at(relu))];
        QCOMPARE(win.text->currentLine(), listing.linesOf(afterRelu).first);
    }

    /// Ctrl+F in the text opens its find bar (in the graph, the graph's finder): Enter finds the
    /// next match, Shift+Enter the previous, wrapping around, and selects the op of its line.
    void findInTheText()
    {
        Window win;
        QVERIFY(win.open(kLenet));
        win.w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&win.w));
        const PirListing &listing = *win.text->listing();
        QLineEdit *bar = win.text->findBar();
        QVERIFY(!bar->isVisible());
        win.text->editor()->setFocus();
        QTest::keyClick(win.text->editor(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(bar->isVisible());
        QVERIFY(bar->hasFocus());

        QTest::keyClicks(bar, QStringLiteral("\"pd_op.conv2d\""));
        const Operation *first = nthOp(listing.program(), "pd_op.conv2d", 0);
        const Operation *second = nthOp(listing.program(), "pd_op.conv2d", 1);
        QTest::keyClick(bar, Qt::Key_Return);
        QCOMPARE(win.w.selection()->currentOp(), first);
        QCOMPARE(win.text->currentLine(), listing.linesOf(first).first);
        QCOMPARE(win.text->editor()->textCursor().selectedText(), QStringLiteral("\"pd_op.conv2d\""));
        QTest::keyClick(bar, Qt::Key_Return);
        QCOMPARE(win.w.selection()->currentOp(), second);
        QCOMPARE(win.w.graphView()->graphScene()->selectedOp(), second);
        QTest::keyClick(bar, Qt::Key_Return); // wraps around
        QCOMPARE(win.w.selection()->currentOp(), first);
        QTest::keyClick(bar, Qt::Key_Return, Qt::ShiftModifier); // and back
        QCOMPARE(win.w.selection()->currentOp(), second);
        QVERIFY(win.text->findStatus()->text().isEmpty());

        bar->clear();
        QTest::keyClicks(bar, QStringLiteral("no_such_op"));
        QTest::keyClick(bar, Qt::Key_Return);
        QCOMPARE(win.text->findStatus()->text(), QStringLiteral("No match"));
        QCOMPARE(win.w.selection()->currentOp(), second);
        QTest::keyClick(bar, Qt::Key_Escape);
        QVERIFY(!bar->isVisible());
        QVERIFY(win.text->editor()->hasFocus());

        // In the graph Ctrl+F is the graph's.
        win.w.graphView()->setFocus();
        QTest::keyClick(win.w.graphView(), Qt::Key_F, Qt::ControlModifier);
        QVERIFY(!bar->isVisible());
    }

    /// The op a debug session is stopped before is marked, apart from the selection, and
    /// follows the steps.
    void debuggerCurrentOpIsMarked()
    {
        Window win;
        QVERIFY(win.open(kLenet));
        QCOMPARE(win.text->currentOpLine(), -1);
        DebugSession *session = win.w.debugger()->session();
        session->stepOver();
        QVERIFY(waitUntilIdle(*session));
        session->stepOver();
        QVERIFY(waitUntilIdle(*session));
        QCOMPARE(session->state(), DebugSession::State::Paused);
        const Operation *at = session->currentOp();
        QVERIFY(at);
        QCOMPARE(win.text->currentOp(), at);
        QTRY_VERIFY(win.text->currentOpLine() >= 0);
        QCOMPARE(win.text->currentOpLine(), win.text->listing()->linesOf(at).first);
        session->stepOver();
        QVERIFY(waitUntilIdle(*session));
        QCOMPARE(win.text->currentOp(), session->currentOp());
        QCOMPARE(win.text->currentOpLine(), win.text->listing()->linesOf(session->currentOp()).first);
        session->stop();
        QVERIFY(waitUntilIdle(*session));
        QCOMPARE(win.text->currentOpLine(), -1);
    }

    /// Colours: op names, value ids, types and attribute names each have their colour, lighter
    /// on a dark palette than on a light one; a line is coloured once it is on screen.
    void coloursFollowThePalette()
    {
        Window win;
        QVERIFY(win.open(kLenet));
        const PirListing &listing = *win.text->listing();
        const Operation *conv = nthOp(listing.program(), "pd_op.conv2d");
        const int line = listing.linesOf(conv).first;
        const int last = listing.lineCount() - 1;
        win.w.selectOp(conv);
        QVERIFY(QTest::qWaitFor([&] { return win.text->isLineColoured(line); }));
        QVERIFY(!win.text->isLineColoured(last)); // not on screen yet
        const QTextBlock block = win.text->editor()->document()->findBlockByNumber(line);
        const auto colourAt = [&](const QString &token) {
            const int at = int(block.text().indexOf(token)) + 1;
            QColor colour;
            for (const QTextLayout::FormatRange &r : block.layout()->formats())
                if (at >= r.start && at < r.start + r.length)
                    colour = r.format.foreground().color(); // the last range wins
            return colour;
        };
        PirTextHighlighter *h = win.text->highlighter();
        QCOMPARE(colourAt(QStringLiteral("\"pd_op.conv2d\"")), h->opNameFormat().foreground().color());
        QCOMPARE(colourAt(QStringLiteral("%")), h->valueFormat().foreground().color());
        QCOMPARE(colourAt(QStringLiteral("tensor<")), h->typeFormat().foreground().color());
        QCOMPARE(colourAt(QStringLiteral("data_format")), h->attributeFormat().foreground().color());
        const QColor light = h->opNameFormat().foreground().color();
        win.text->setPalette(ThemeColors::darkPalette());
        QVERIFY(h->opNameFormat().foreground().color().lightness() > light.lightness());
        QVERIFY(QTest::qWaitFor([&] { return win.text->isLineColoured(line); }));
        QCOMPARE(colourAt(QStringLiteral("\"pd_op.conv2d\"")), h->opNameFormat().foreground().color());
    }

    /// The dock's place is saved with the other docks: shown (and raised) or closed, it opens so
    /// again; View lists it with Ctrl+Shift+T.
    void stateIsSavedWithTheDocks()
    {
        {
            MainWindow a;
            a.show();
            QVERIFY(QTest::qWaitForWindowExposed(&a));
            QCOMPARE(a.pirText()->showAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
            a.pirText()->showAction()->trigger();
            QVERIFY(a.pirText()->dock()->isVisible());
            a.close();
        }
        {
            MainWindow b;
            b.show();
            QVERIFY(QTest::qWaitForWindowExposed(&b));
            QVERIFY(b.pirText()->dock()->isVisible());
            b.pirText()->dock()->close();
            b.close();
        }
        MainWindow c;
        c.show();
        QVERIFY(QTest::qWaitForWindowExposed(&c));
        QVERIFY(c.pirText()->dock()->isHidden());
        QVERIFY(!c.pirText()->dock()->toggleViewAction()->isChecked());
    }

    /// A program over the threshold is printed on the worker thread: "Printing…" meanwhile, then
    /// the text with the selection marked.
    void bigProgramPrintsInTheBackground()
    {
        MainWindow w;
        w.resize(1280, 720);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        MainWindowPirText *pirText = w.pirText();
        pirText->dock()->hide(); // as an earlier test's window may have saved it shown
        pirText->setBackgroundPrintOps(10);
        QVERIFY(w.openFile(kLenet));
        const Operation *conv = nthOp(w.document()->program(), "pd_op.conv2d");
        w.selectOp(conv);
        pirText->showAction()->trigger();
        PirTextView *text = pirText->view();
        QVERIFY(pirText->isPrinting());
        QVERIFY(!text->listing());
        QVERIFY(text->editor()->toPlainText().startsWith(QStringLiteral("Printing 41 ops")));
        QTRY_VERIFY(text->listing());
        QVERIFY(!pirText->isPrinting());
        QCOMPARE(text->currentLine(), text->listing()->linesOf(conv).first);
        QCOMPARE(text->markedLines().front(), text->currentLine());
        // Printed once: showing it again takes the kept listing at once.
        const auto listing = text->listing();
        w.showTab(MainWindow::Tab::Passes);
        w.showTab(MainWindow::Tab::Program);
        QCOMPARE(text->listing(), listing);
    }

    /// The largest sample and a generated program of about 20k ops: printed once, shown and
    /// coloured, an op selected (figures printed, not asserted).
    void timings()
    {
        const QString path = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/PP-DocLayout_plus-L.inference.json");
        if (QFile::exists(path)) {
            LoadResult loaded = loadProgram(path.toStdString());
            QVERIFY(loaded.ok());
            timeListing(QStringLiteral("PP-DocLayout_plus-L"),
                std::shared_ptr<const Program>(std::move(loaded.program)));
        }
        SyntheticProgram::Model model = SyntheticProgram::ofSize(SyntheticProgram::Kind::Transformer, 20000);
        timeListing(QStringLiteral("generated transformer"),
            std::shared_ptr<const Program>(std::move(model.program)));
    }

private:
    static void timeListing(const QString &name, const std::shared_ptr<const Program> &program)
    {
        QElapsedTimer timer;
        timer.start();
        auto listing = std::make_shared<const PirListing>(program);
        const qint64 printed = timer.restart();
        PirTextView view;
        view.resize(400, 600);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        timer.restart();
        view.setListing(listing);
        QCoreApplication::processEvents();
        const qint64 shown = timer.restart();
        const Operation *op = program->block().ops()[program->block().ops().size() * 3 / 4];
        view.showOp(op);
        QCoreApplication::processEvents();
        QCOMPARE(view.currentLine(), listing->linesOf(op).first);
        qDebug("%s: %zu ops, %zu bytes of text: printed in %lld ms, shown and coloured in %lld ms, an op "
               "selected in %lld ms",
            qPrintable(name), listing->opCount(), listing->text().size(), printed, shown, timer.elapsed());
    }
};

QTEST_MAIN(TestPirTextView)
#include "tst_pirtextview.moc"
