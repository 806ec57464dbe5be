#include "core/ir/operation.h"
#include "ui/common/itemroles.h"
#include "ui/diagnosticsmodel.h"
#include "ui/graphgroupitem.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/opfilterproxymodel.h"
#include "ui/oplistmodel.h"
#include "ui/oplistpanel.h"
#include "ui/programdocument.h"
#include "ui/propertiesmodel.h"
#include "ui/render/graphexporter.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QLineEdit>
#include <QMimeData>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest>

using namespace ps;

namespace {

const QString kFcJson = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/docs_pir_save_load_fc_example.v1.json");
const QString kFcText = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/text/genB_docs_fc_program.txt");
const QString kOcrDet = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/PP-OCRv5_mobile_det_infer.inference.json");

bool openAndLayOut(MainWindow &w, const QString &path)
{
    QSignalSpy finished(w.graphView(), &GraphView::layoutFinished);
    if (!w.openFile(path))
        return false;
    return finished.count() > 0 || finished.wait(60000);
}

Operation *firstOpNamed(const ProgramDocument &doc, std::string_view name)
{
    for (Operation *op : doc.ops())
        if (op->name() == name)
            return op;
    return nullptr;
}

} // namespace

/// MainWindow: loading, errors, selection sync, export, recent files, screenshots.
class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void opensSampleAndGrabs();
    void opensTextProgram();
    void malformedFileKeepsPreviousProgram();
    void unverifiedProgramIsRefused_data();
    void unverifiedProgramIsRefused();
    void unverifiedPassLogIsRefused();
    void selectionSync();
    void searchFindsValueId();
    void inplaceGroupHighlightsMembers();
    void dropOpensFile();
    void exportPngAndSvg();
    void recentFiles();
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("PIRScopeTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
    QSettings().clear();
    if (!QFileInfo::exists(kFcJson))
        QSKIP("samples not available");
}

void TestMainWindow::opensSampleAndGrabs()
{
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QSignalSpy changed(&w, &MainWindow::documentChanged);
    QVERIFY(openAndLayOut(w, kOcrDet));
    QCOMPARE(changed.count(), 1);
    QVERIFY(w.document());
    QCOMPARE(w.document()->ops().size(), size_t(668));
    QCOMPARE(w.opListPanel()->model()->rowCount(), 668);
    QVERIFY(w.windowTitle().contains(QStringLiteral("PP-OCRv5_mobile_det_infer")));
    QVERIFY(!w.graphView()->graphScene()->nodeItems().empty());

    const QImage image = w.grab().toImage();
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), w.size() * image.devicePixelRatio());
    // The graph area is not blank: several distinct colours (node fills) appear.
    const QImage graph = w.graphView()->grab().toImage();
    QSet<QRgb> colours;
    for (int y = 0; y < graph.height(); y += 4)
        for (int x = 0; x < graph.width(); x += 4)
            colours.insert(graph.pixel(x, y));
    QVERIFY2(colours.size() > 5, "the graph view looks empty");
}

void TestMainWindow::opensTextProgram()
{
    MainWindow w;
    QVERIFY(openAndLayOut(w, kFcText));
    QVERIFY(w.document()->format() == LoadResult::Format::PirText);
    QVERIFY(w.document()->ops().size() > 3);
}

void TestMainWindow::malformedFileKeepsPreviousProgram()
{
    MainWindow w;
    w.show();
    QVERIFY(openAndLayOut(w, kFcJson));
    const auto before = w.document();
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("broken.json"));
    QFile file(bad);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(
        "{\"base_code\": {\"magic\": \"pir\", \"version\": 1},\n \"program\": {\"regions\": [ {\"#\": ]}}\n");
    file.close();

    QSignalSpy failed(&w, &MainWindow::loadFailed);
    QVERIFY(!w.openFile(bad));
    QCOMPARE(failed.count(), 1);
    const QString message = failed.at(0).at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("broken.json")), qPrintable(message));
    QCOMPARE(w.document(), before); // the previous program stays open
    QVERIFY(w.diagnosticsModel()->rowCount() > 0);
    QCOMPARE(w.diagnosticsModel()->index(0, DiagnosticsModel::SeverityColumn).data().toString(),
        QStringLiteral("error"));
    QVERIFY(w.diagnosticsModel()
                ->index(0, DiagnosticsModel::LocationColumn)
                .data()
                .toString()
                .contains("broken.json"));
    QVERIFY(w.diagnosticsDock()->isVisible());
    QVERIFY(w.windowTitle().contains(QStringLiteral("docs_pir_save_load_fc_example")));

    // A text program error names file:line:col.
    const QString badText = dir.filePath(QStringLiteral("broken.txt"));
    QFile text(badText);
    QVERIFY(text.open(QIODevice::WriteOnly));
    text.write("{\n    (%0) = \"pd_op.data\" () {name:\"x\"} : () -> builtin.tensor<2xf32>\n    (%1) = "
               "garbage\n}\n");
    text.close();
    QVERIFY(!w.openFile(badText));
    QCOMPARE(failed.count(), 2);
    const QString textMessage = failed.at(1).at(0).toString();
    QVERIFY2(textMessage.contains(QRegularExpression(QStringLiteral("broken\\.txt:[34]:\\d+: error"))),
        qPrintable(textMessage));
    QCOMPARE(w.document(), before);
}

void TestMainWindow::unverifiedProgramIsRefused_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");
    QTest::newRow("fetch") << "fetch_without_operand.txt"
                           << "op #2 (pd_op.fetch): has 0 operands";
    QTest::newRow("slice") << "slice_without_operand.txt"
                           << "op #2 (pd_op.slice): has 0 operands";
    QTest::newRow("split") << "split_without_operand.txt"
                           << "op #3 (pd_op.split): has 0 operands";
    QTest::newRow("if") << "if_without_condition.txt"
                        << "op #2 (pd_op.if): has 0 operands";
    QTest::newRow("shadow_output") << "shadow_output_without_value.txt"
                                   << "op #2 (builtin.shadow_output): has 0 operands";
    QTest::newRow("yield type") << "if_yields_wrong_type.txt"
                                << "op #3 (pd_op.if): region #1 yields tensor<7x7xi64>";
    QTest::newRow("float condition") << "if_float_condition.txt"
                                     << "op #3 (pd_op.if): the condition %2 is tensor<f32>";
}

/// Issue 22: a program that loads but does not verify is not drawn; the Problems panel names
/// the op and the window keeps what it showed.
void TestMainWindow::unverifiedProgramIsRefused()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    MainWindow w;
    w.show();
    QVERIFY(openAndLayOut(w, kFcJson));
    const auto before = w.document();
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    QVERIFY(!w.openFile(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/malformed/") + file));
    QCOMPARE(failed.count(), 1);
    const QString message = failed.at(0).at(0).toString();
    QVERIFY2(message.contains(file + ": error: " + expected), qPrintable(message));
    QCOMPARE(w.document(), before);
    QVERIFY(w.diagnosticsDock()->isVisible());
    const DiagnosticsModel &problems = *w.diagnosticsModel();
    QVERIFY(problems.rowCount() >= 2);
    QCOMPARE(problems.index(0, DiagnosticsModel::SeverityColumn).data().toString(), QStringLiteral("error"));
    QVERIFY2(problems.index(0, DiagnosticsModel::MessageColumn).data().toString().contains(expected),
        qPrintable(problems.index(0, DiagnosticsModel::MessageColumn).data().toString()));
    const int last = problems.rowCount() - 1;
    QVERIFY(problems.index(last, DiagnosticsModel::MessageColumn)
                .data()
                .toString()
                .contains(QStringLiteral("it is not run, split, passed or drawn")));
    // The window still works on what it had.
    QVERIFY(openAndLayOut(w, kFcText));
    QVERIFY(w.document() != before);
}

/// A Paddle pass log whose program does not verify is not shown either.
void TestMainWindow::unverifiedPassLogIsRefused()
{
    const QByteArray banner = "===-------------------------------------------------------===\n";
    const QByteArray program
        = "{\n    (%0) = \"pd_op.data\" [id:1] () {dtype:float32,name:\"x\",place:Place(undefined:0),"
          "shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>\n"
          "    () = \"builtin.shadow_output\" [id:2] () {output_name:\"out\"} : () -> \n}";
    QByteArray log;
    for (const char *when : { "before", "after" })
        log += banner + "        IRPrinting on builtin.module " + when + " dead_code_elimination_pass pass\n"
            + banner + program + "\n\n";
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("passes.log"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(log);
    file.close();

    MainWindow w;
    w.show();
    QVERIFY(openAndLayOut(w, kFcJson));
    const auto before = w.document();
    QSignalSpy failed(&w, &MainWindow::loadFailed);
    QVERIFY(!w.openFile(path));
    QCOMPARE(failed.count(), 1);
    const QString message = failed.at(0).at(0).toString();
    QVERIFY2(message.contains(QStringLiteral("op #1 (builtin.shadow_output): has 0 operands")),
        qPrintable(message));
    QCOMPARE(w.document(), before);
}

void TestMainWindow::selectionSync()
{
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(openAndLayOut(w, kFcJson));
    const ProgramDocument &doc = *w.document();
    Operation *matmul = firstOpNamed(doc, "pd_op.matmul");
    Operation *relu = firstOpNamed(doc, "pd_op.relu");
    QVERIFY(matmul && relu);
    GraphScene *scene = w.graphView()->graphScene();
    QTableView *list = w.opListPanel()->view();

    // Graph → op list + properties.
    scene->itemForOp(matmul)->setSelected(true);
    QCOMPARE(opFromIndex(list->currentIndex()), matmul);
    QCOMPARE(w.propertiesModel()->currentOp(), matmul);

    // Op list → graph + properties.
    const int row = w.opListPanel()->model()->rowOf(relu);
    // The list shows the model through its filter (parameters hidden by default).
    list->selectionModel()->setCurrentIndex(
        w.opListPanel()->proxy()->mapFromSource(w.opListPanel()->model()->index(row, 0)),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QVERIFY(scene->itemForOp(relu)->isSelected());
    QVERIFY(!scene->itemForOp(matmul)->isSelected());
    QCOMPARE(w.propertiesModel()->currentOp(), relu);

    // Properties → everything: activating the "Defined by" row of relu's operand.
    const QModelIndex operands = w.propertiesModel()->index(2, 0);
    QCOMPARE(operands.data().toString(), QStringLiteral("Operands"));
    const QModelIndex operand0 = w.propertiesModel()->index(0, 0, operands);
    const QModelIndex definedBy = w.propertiesModel()->index(0, 0, operand0);
    QCOMPARE(definedBy.data().toString(), QStringLiteral("Defined by"));
    emit w.propertiesView()->activated(definedBy);
    Operation *producer = relu->operand(0).definingOp();
    QCOMPARE(w.propertiesModel()->currentOp(), producer);
    QCOMPARE(opFromIndex(list->currentIndex()), producer);
    QVERIFY(scene->itemForOp(producer)->isSelected());

    // MainWindow::selectValue highlights the value's edges and shows it.
    w.selectValue(matmul->result(0));
    QCOMPARE(w.propertiesModel()->currentValue(), matmul->result(0));
}

void TestMainWindow::searchFindsValueId()
{
    MainWindow w;
    w.show();
    QVERIFY(openAndLayOut(w, kFcJson));
    Operation *relu = firstOpNamed(*w.document(), "pd_op.relu");
    const QString id = w.document()->valueId(relu->result(0));
    QLineEdit *search = w.opListPanel()->searchField();
    search->setText(id);
    QTest::keyClick(search, Qt::Key_Return);
    QCOMPARE(w.propertiesModel()->currentOp(), relu); // the definer comes first
    QVERIFY(w.graphView()->graphScene()->itemForOp(relu)->isSelected());
}

void TestMainWindow::inplaceGroupHighlightsMembers()
{
    MainWindow w;
    w.show();
    QVERIFY(openAndLayOut(w, kOcrDet));
    QTreeView *groups = w.inplaceGroupsView();
    QVERIFY(groups->model()->rowCount() > 0);
    // The first group with a member defined by an op.
    const InplaceGroup *group = nullptr;
    int row = 0;
    for (; row < int(w.document()->inplaceGroups().groups().size()); ++row) {
        const InplaceGroup &g = w.document()->inplaceGroups().groups()[size_t(row)];
        if (g.members.size() > 1 && g.members.back().definingOp()) {
            group = &g;
            break;
        }
    }
    QVERIFY(group);
    groups->selectionModel()->setCurrentIndex(
        groups->model()->index(row, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    // The view opens the layers around the group's first op; members elsewhere may stay inside
    // a closed layer, whose box is highlighted for them.
    QTRY_VERIFY(!w.graphView()->isLayoutRunning());
    GraphScene *scene = w.graphView()->graphScene();
    auto isHighlighted = [](QGraphicsItem *item) {
        if (item && item->type() == GraphNodeItem::Type)
            return static_cast<GraphNodeItem *>(item)->isHighlighted();
        return item && item->type() == GraphGroupItem::Type
            && static_cast<GraphGroupItem *>(item)->isHighlighted();
    };
    const Operation *memberOp = group->members.back().definingOp();
    QVERIFY(isHighlighted(scene->visibleItemForNode(scene->nodeOfOp(memberOp))));
    int highlighted = 0;
    for (GraphNodeItem *item : scene->nodeItems())
        highlighted += item && item->isHighlighted() ? 1 : 0;
    for (GraphGroupItem *item : scene->groupItems())
        highlighted += item && item->isHighlighted() ? 1 : 0;
    QVERIFY(highlighted >= 1);
    QVERIFY(highlighted < int(scene->nodeItems().size()) / 4);
    // Selecting an op elsewhere clears the highlight.
    w.selectOp(w.document()->ops().back());
    QTRY_VERIFY(!w.graphView()->isLayoutRunning());
    QVERIFY(!isHighlighted(scene->visibleItemForNode(scene->nodeOfOp(memberOp))));
}

void TestMainWindow::dropOpensFile()
{
    MainWindow w;
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QMimeData mime;
    mime.setUrls({ QUrl::fromLocalFile(kFcText) });
    const QPoint at = w.rect().center();
    QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QSignalSpy changed(&w, &MainWindow::documentChanged);
    QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&w, &drop);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(w.document()->path(), kFcText);
}

void TestMainWindow::exportPngAndSvg()
{
    MainWindow w;
    w.resize(1000, 700);
    w.show();
    QVERIFY(openAndLayOut(w, kFcJson));
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("view.png"));
    const QString svg = dir.filePath(QStringLiteral("view.svg"));
    QVERIFY(w.exportPng(png));
    QVERIFY(w.exportSvg(svg));
    // The whole graph (not the view) at twice the scale, with a margin.
    QImage image(png);
    QVERIFY(!image.isNull());
    const QRectF bounds = w.graphView()->graphScene()->graphBounds();
    QVERIFY(qAbs(image.width() - 2 * (bounds.width() + 2 * GraphExporter::kMargin)) <= 2);
    QVERIFY(qAbs(image.height() - 2 * (bounds.height() + 2 * GraphExporter::kMargin)) <= 2);
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.contains("matmul"));
}

void TestMainWindow::recentFiles()
{
    QSettings().clear();
    MainWindow w;
    QVERIFY(w.openFile(kFcJson));
    QVERIFY(w.openFile(kFcText));
    const QStringList recent = w.recentFiles();
    QCOMPARE(recent.size(), 2);
    QCOMPARE(recent.at(0), QFileInfo(kFcText).absoluteFilePath());
    QCOMPARE(recent.at(1), QFileInfo(kFcJson).absoluteFilePath());
    QVERIFY(w.openFile(kFcJson));
    QCOMPARE(w.recentFiles().at(0), QFileInfo(kFcJson).absoluteFilePath());
    QCOMPARE(w.recentFiles().size(), 2);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
