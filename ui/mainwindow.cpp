#include "ui/mainwindow.h"

#include "core/io/programloader.h"
#include "core/ir/program.h"
#include "ui/diagnosticsmodel.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/inplacegroupsmodel.h"
#include "ui/itemroles.h"
#include "ui/oplistpanel.h"
#include "ui/programdocument.h"
#include "ui/propertiesmodel.h"
#include "ui/valuenamemapmodel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDirIterator>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPainter>
#include <QSettings>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTableView>
#include <QTreeView>

namespace ps {

namespace {

constexpr int kMaxRecentFiles = 10;
const char kRecentKey[] = "recentFiles";

LoadResult loadAnyPath(const QString &path)
{
    if (!path.startsWith(QLatin1Char(':')))
        return loadProgram(path.toStdString());
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        LoadResult r;
        r.diagnostics.error(SourceLocation { path.toStdString(), 0, 0, {}, -1 }, "cannot open resource");
        return r;
    }
    const QByteArray bytes = file.readAll();
    return loadProgramFromString(
        std::string_view(bytes.constData(), size_t(bytes.size())), path.toStdString());
}

template<class View> View *makeView(QWidget *parent, const char *objectName)
{
    auto *view = new View(parent);
    view->setObjectName(QLatin1String(objectName));
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->setAlternatingRowColors(true);
    view->setWordWrap(false);
    return view;
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_graphView(new GraphView(this))
    , m_opList(new OpListPanel(this))
    , m_properties(new PropertiesModel(this))
    , m_propertiesView(makeView<QTreeView>(this, "propertiesView"))
    , m_nameMap(new ValueNameMapModel(this))
    , m_nameMapView(makeView<QTableView>(this, "valueNameMapView"))
    , m_inplace(new InplaceGroupsModel(this))
    , m_inplaceView(makeView<QTreeView>(this, "inplaceGroupsView"))
    , m_diagnostics(new DiagnosticsModel(this))
    , m_diagnosticsView(makeView<QTableView>(this, "diagnosticsView"))
    , m_loadStatus(new QLabel(this))
    , m_layoutStatus(new QLabel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("PIRScope"));
    setAcceptDrops(true);
    m_graphView->setAcceptDrops(false);
    m_graphView->viewport()->setAcceptDrops(false);
    setCentralWidget(m_graphView);
    setDockOptions(AnimatedDocks | AllowTabbedDocks);

    m_propertiesView->setModel(m_properties);
    m_propertiesView->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_propertiesView->setColumnWidth(PropertiesModel::KeyColumn, 150);
    m_nameMapView->setModel(m_nameMap);
    m_nameMapView->horizontalHeader()->setStretchLastSection(true);
    m_nameMapView->verticalHeader()->hide();
    m_nameMapView->verticalHeader()->setDefaultSectionSize(m_nameMapView->fontMetrics().height() + 4);
    m_inplaceView->setModel(m_inplace);
    m_inplaceView->setColumnWidth(InplaceGroupsModel::ValueColumn, 110);
    m_diagnosticsView->setModel(m_diagnostics);
    m_diagnosticsView->horizontalHeader()->setStretchLastSection(true);
    m_diagnosticsView->verticalHeader()->hide();
    m_diagnosticsView->verticalHeader()->setDefaultSectionSize(m_diagnosticsView->fontMetrics().height() + 4);
    m_diagnosticsView->setWordWrap(false);

    createDocks();
    createActions();
    statusBar()->addWidget(m_loadStatus, 1);
    statusBar()->addPermanentWidget(m_layoutStatus);

    GraphScene *scene = m_graphView->graphScene();
    connect(scene, &GraphScene::opSelected, this, [this](Operation *op) {
        m_opList->selectOp(op);
        m_graphView->graphScene()->clearHighlight();
        if (op)
            m_properties->showOp(op);
        else
            m_properties->clear();
    });
    connect(scene, &GraphScene::valueSelected, this, [this](Value v) {
        m_opList->selectOp(nullptr);
        m_properties->showValue(v);
        m_graphView->graphScene()->highlight({}, { v });
    });
    connect(m_opList, &OpListPanel::opSelected, this, [this](Operation *op) {
        m_graphView->graphScene()->selectOp(op);
        m_graphView->graphScene()->clearHighlight();
        m_graphView->centerOnOp(op);
        m_properties->showOp(op);
    });
    connect(m_propertiesView, &QTreeView::activated, this, &MainWindow::onNavigate);
    connect(m_nameMapView, &QTableView::activated, this, &MainWindow::onNavigate);
    connect(m_nameMapView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (Value v = valueFromIndex(current))
                selectValue(v);
        });
    connect(m_inplaceView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &MainWindow::onInplaceGroupSelected);
    connect(m_graphView, &GraphView::layoutFinished, this, &MainWindow::onLayoutFinished);
    connect(m_graphView, &GraphView::layoutFailed, this, [this](const QString &message) {
        m_layoutStatus->setText(tr("Layout failed"));
        statusBar()->showMessage(tr("Layout failed: %1").arg(message), 10000);
    });
    connect(m_graphView, &GraphView::layoutCanceled, this,
        [this] { m_layoutStatus->setText(tr("Layout canceled")); });

    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("windowState")).toByteArray());
}

MainWindow::~MainWindow() = default;

QDockWidget *MainWindow::addDock(
    const QString &title, const QString &objectName, QWidget *widget, Qt::DockWidgetArea area)
{
    auto *dock = new QDockWidget(title, this);
    dock->setObjectName(objectName);
    dock->setWidget(widget);
    addDockWidget(area, dock);
    return dock;
}

void MainWindow::createDocks()
{
    QDockWidget *ops = addDock(tr("Ops"), QStringLiteral("opsDock"), m_opList, Qt::LeftDockWidgetArea);
    QDockWidget *props = addDock(
        tr("Properties"), QStringLiteral("propertiesDock"), m_propertiesView, Qt::RightDockWidgetArea);
    QDockWidget *names = addDock(
        tr("Value names"), QStringLiteral("valueNamesDock"), m_nameMapView, Qt::RightDockWidgetArea);
    QDockWidget *inplace = addDock(
        tr("Inplace groups"), QStringLiteral("inplaceDock"), m_inplaceView, Qt::RightDockWidgetArea);
    m_diagnosticsDock = addDock(
        tr("Problems"), QStringLiteral("problemsDock"), m_diagnosticsView, Qt::BottomDockWidgetArea);
    tabifyDockWidget(names, inplace);
    names->raise();
    resizeDocks({ ops, props }, { 380, 360 }, Qt::Horizontal);
    resizeDocks({ props, names }, { 420, 260 }, Qt::Vertical);
    m_diagnosticsDock->hide();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open\u2026"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("Export View as &PNG\u2026"), this, [this] { exportDialog(false); });
    file->addAction(tr("Export View as &SVG\u2026"), this, [this] { exportDialog(true); });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *fit = view->addAction(tr("&Fit Graph"), m_graphView, &GraphView::fitGraph);
    fit->setShortcuts({ QKeySequence(Qt::Key_F), QKeySequence(Qt::CTRL | Qt::Key_0) });
    fit->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_graphView->addAction(fit);
    QAction *zoomIn = view->addAction(tr("Zoom &In"), this, [this] { m_graphView->zoomBy(1.25); });
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction *zoomOut = view->addAction(tr("Zoom &Out"), this, [this] { m_graphView->zoomBy(0.8); });
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    view->addSeparator();
    QAction *find = view->addAction(tr("&Find Op\u2026"), this, [this] {
        if (QWidget *dock = m_opList->parentWidget())
            dock->show();
        m_opList->focusSearch();
    });
    find->setShortcut(QKeySequence::Find);
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
}

bool MainWindow::openFile(const QString &path)
{
    QElapsedTimer timer;
    timer.start();
    LoadResult result = loadAnyPath(path);
    const double seconds = timer.nsecsElapsed() / 1e9;
    m_diagnostics->setDiagnostics(result.diagnostics);
    if (!result.ok()) {
        const Diagnostic *first = result.diagnostics.firstError();
        const QString message
            = first ? QString::fromStdString(first->toString()) : tr("%1: could not be read").arg(path);
        m_diagnosticsDock->show();
        m_diagnosticsDock->raise();
        statusBar()->showMessage(
            tr("Could not open %1 \u2014 %2").arg(QFileInfo(path).fileName(), message), 15000);
        emit loadFailed(message);
        return false;
    }
    m_diagnosticsDock->setVisible(!result.diagnostics.empty());
    setDocument(std::make_shared<ProgramDocument>(std::move(result.program), path, result.format, seconds));
    if (!path.startsWith(QLatin1Char(':')))
        addRecentFile(QFileInfo(path).absoluteFilePath());
    return true;
}

bool MainWindow::openDefaultExample()
{
    QStringList examples;
    QDirIterator it(
        QStringLiteral(":/"), { QStringLiteral("*.json") }, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        if (path.contains(QLatin1String("example")))
            examples << path;
    }
    examples.sort();
    return !examples.isEmpty() && openFile(examples.first());
}

void MainWindow::setDocument(std::shared_ptr<const ProgramDocument> document)
{
    m_document = std::move(document);
    m_opList->setDocument(m_document);
    m_properties->setDocument(m_document);
    m_nameMap->setDocument(m_document);
    m_inplace->setDocument(m_document);
    m_graphView->showGraph(m_document->graph());

    const ProgramDocument &d = *m_document;
    setWindowTitle(tr("%1 \u2014 PIRScope").arg(QFileInfo(d.path()).fileName()));
    const GraphModel &g = *d.graph();
    m_loadStatus->setText(
        tr("Loaded in %1 ms \u00b7 %2 ops (%3 compute, %4 parameters, %5 constants, %6 grad) "
           "\u00b7 graph %7 nodes, %8 ghosts")
            .arg(d.loadSeconds() * 1000, 0, 'f', 1)
            .arg(d.ops().size())
            .arg(d.countOps(NodeKind::Compute))
            .arg(d.countOps(NodeKind::Parameter))
            .arg(d.countOps(NodeKind::Constant))
            .arg(d.countOps(NodeKind::Grad))
            .arg(g.nodes.size())
            .arg(g.ghostCount()));
    m_layoutStatus->setText(tr("Laying out\u2026"));
    emit documentChanged();
}

void MainWindow::onLayoutFinished(double seconds, bool fromCache)
{
    m_layoutStatus->setText(fromCache ? tr("Layout %1 s (cached)").arg(seconds, 0, 'f', 2)
                                      : tr("Layout %1 s").arg(seconds, 0, 'f', 2));
}

void MainWindow::selectOp(const Operation *op)
{
    m_graphView->graphScene()->selectOp(op);
    m_graphView->graphScene()->clearHighlight();
    m_graphView->centerOnOp(op);
    m_opList->selectOp(op);
    if (op)
        m_properties->showOp(op);
    else
        m_properties->clear();
}

void MainWindow::selectValue(Value value)
{
    GraphScene *scene = m_graphView->graphScene();
    scene->selectValue(value);
    scene->highlight({}, { value });
    m_opList->selectOp(value.definingOp());
    m_properties->showValue(value);
}

void MainWindow::onNavigate(const QModelIndex &index)
{
    if (Operation *op = opFromIndex(index); op && !valueFromIndex(index))
        selectOp(op);
    else if (Value v = valueFromIndex(index))
        selectValue(v);
}

void MainWindow::onInplaceGroupSelected(const QModelIndex &index)
{
    if (!m_document || !index.isValid())
        return;
    const QModelIndex first = index.siblingAtColumn(0);
    if (first.parent().isValid()) {
        selectValue(valueFromIndex(first));
        return;
    }
    const InplaceGroup &group = m_document->inplaceGroups().groups()[size_t(first.row())];
    std::vector<const Operation *> ops;
    for (Value v : group.members)
        if (const Operation *def = v.definingOp())
            ops.push_back(def);
    for (const InplaceEdge &e : group.edges)
        ops.push_back(e.op);
    m_graphView->graphScene()->highlight(ops, group.members);
    if (!ops.empty())
        m_graphView->centerOnOp(ops.front());
}

QStringList MainWindow::recentFiles() const
{
    return QSettings().value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::addRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > kMaxRecentFiles)
        files.removeLast();
    QSettings().setValue(QLatin1String(kRecentKey), files);
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList files = recentFiles();
    for (const QString &path : files)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openFile(path); })
            ->setToolTip(path);
    m_recentMenu->setEnabled(!files.isEmpty());
}

void MainWindow::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open PIR Program"), QString(), tr("PIR programs (*.json *.txt);;All files (*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::exportDialog(bool svg)
{
    const QString path = QFileDialog::getSaveFileName(this, svg ? tr("Export SVG") : tr("Export PNG"),
        QString(), svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    const bool ok = svg ? exportSvg(path) : exportPng(path);
    statusBar()->showMessage(ok ? tr("Exported %1").arg(path) : tr("Could not write %1").arg(path), 8000);
}

bool MainWindow::exportPng(const QString &path)
{
    const QSize size = m_graphView->viewport()->size();
    QImage image(size * 2, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    m_graphView->render(&painter, QRectF(image.rect()), m_graphView->viewport()->rect());
    painter.end();
    return image.save(path, "PNG");
}

bool MainWindow::exportSvg(const QString &path)
{
    const QSize size = m_graphView->viewport()->size();
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(windowTitle());
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    m_graphView->render(&painter, QRectF(QPointF(0, 0), size), m_graphView->viewport()->rect());
    return painter.end();
}

void MainWindow::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls() && event->mimeData()->urls().first().isLocalFile())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent *event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.first().isLocalFile()) {
        event->acceptProposedAction();
        openFile(urls.first().toLocalFile());
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings settings;
    settings.setValue(QStringLiteral("geometry"), saveGeometry());
    settings.setValue(QStringLiteral("windowState"), saveState());
    QMainWindow::closeEvent(event);
}

} // namespace ps
