#include "ui/mainwindow.h"

#include "core/ir/program.h"
#include "ui/diagnosticsmodel.h"
#include "ui/graphfinder.h"
#include "ui/graphminimap.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/inplacegroupsmodel.h"
#include "ui/mainwindowdebugger.h"
#include "ui/oplistpanel.h"
#include "ui/passlistmodel.h"
#include "ui/passpanel.h"
#include "ui/pipelinerunner.h"
#include "ui/programattributesmodel.h"
#include "ui/programdocument.h"
#include "ui/programopener.h"
#include "ui/programpickerpanel.h"
#include "ui/propertiesmodel.h"
#include "ui/recentfiles.h"
#include "ui/splitview.h"
#include "ui/valuenamemapmodel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDirIterator>
#include <QDockWidget>
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
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>

namespace ps {

namespace {

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

void compactRows(QTableView *view)
{
    view->horizontalHeader()->setStretchLastSection(true);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 4);
}

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
    , m_tabs(new QTabWidget(this))
    , m_graphView(new GraphView(this))
    , m_splitView(new SplitView(this))
    , m_runner(new PipelineRunner(this))
    , m_opList(new OpListPanel(this))
    , m_properties(new PropertiesModel(this))
    , m_propertiesView(makeView<QTreeView>(this, "propertiesView"))
    , m_nameMap(new ValueNameMapModel(this))
    , m_nameMapView(makeView<QTableView>(this, "valueNameMapView"))
    , m_namesPicker(new ProgramPickerPanel(m_nameMapView, this))
    , m_inplace(new InplaceGroupsModel(this))
    , m_inplaceView(makeView<QTreeView>(this, "inplaceGroupsView"))
    , m_inplacePicker(new ProgramPickerPanel(m_inplaceView, this))
    , m_passPanel(new PassPanel(this))
    , m_attributes(new ProgramAttributesModel(this))
    , m_attributesView(makeView<QTreeView>(this, "attributesView"))
    , m_diagnostics(new DiagnosticsModel(this))
    , m_diagnosticsView(makeView<QTableView>(this, "diagnosticsView"))
    , m_pipelineStatus(new QLabel(this))
    , m_loadStatus(new QLabel(this))
    , m_layoutStatus(new QLabel(this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("PIRScope"));
    setAcceptDrops(true);
    for (GraphView *v : { m_graphView, m_splitView->forwardView(), m_splitView->backwardView() }) {
        v->setAcceptDrops(false);
        v->viewport()->setAcceptDrops(false);
    }
    m_tabs->setObjectName(QStringLiteral("centralTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_graphView, tr("Program"));
    m_tabs->addTab(m_splitView, tr("Forward \u2702 Backward"));
    setCentralWidget(m_tabs);
    setDockOptions(AnimatedDocks | AllowTabbedDocks);

    m_propertiesView->setModel(m_properties);
    m_propertiesView->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_propertiesView->setColumnWidth(PropertiesModel::KeyColumn, 150);
    m_nameMapView->setModel(m_nameMap);
    compactRows(m_nameMapView);
    m_inplaceView->setModel(m_inplace);
    m_inplaceView->setColumnWidth(InplaceGroupsModel::ValueColumn, 110);
    m_attributesView->setModel(m_attributes);
    m_attributesView->setUniformRowHeights(true);
    m_attributesView->setColumnWidth(ProgramAttributesModel::NameColumn, 150);
    m_attributesView->setColumnWidth(ProgramAttributesModel::ValueColumn, 90);
    m_attributesView->setColumnWidth(ProgramAttributesModel::TypeColumn, 120);
    m_diagnosticsView->setModel(m_diagnostics);
    compactRows(m_diagnosticsView);
    m_pipelineStatus->setObjectName(QStringLiteral("pipelineStatus"));
    m_pipelineStatus->setContentsMargins(8, 0, 8, 0);

    createDocks();
    createActions();
    statusBar()->addWidget(m_loadStatus, 1);
    statusBar()->addPermanentWidget(m_layoutStatus);
    connectSelection();

    connect(m_runner, &PipelineRunner::snapshotReady, this, &MainWindow::onSnapshot);
    connect(m_runner, &PipelineRunner::busyChanged, this, [this](bool busy) {
        m_passPanel->setBusy(busy);
        updatePipelineStatus();
    });
    connect(m_passPanel->model(), &PassListModel::passToggled, this,
        [this](const QString &name, bool on) { m_runner->setPassEnabled(name.toStdString(), on); });
    connect(m_graphView, &GraphView::layoutFinished, this, &MainWindow::onLayoutFinished);
    connect(m_graphView, &GraphView::layoutFailed, this, [this](const QString &message) {
        m_layoutStatus->setText(tr("Layout failed"));
        statusBar()->showMessage(tr("Layout failed: %1").arg(message), 10000);
    });
    connect(m_graphView, &GraphView::layoutCanceled, this,
        [this] { m_layoutStatus->setText(tr("Layout canceled")); });

    m_debugger = new MainWindowDebugger(this);

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
    QDockWidget *passes
        = addDock(tr("Passes"), QStringLiteral("passesDock"), m_passPanel, Qt::LeftDockWidgetArea);
    QDockWidget *props = addDock(
        tr("Properties"), QStringLiteral("propertiesDock"), m_propertiesView, Qt::RightDockWidgetArea);
    QDockWidget *attributes = addDock(tr("Program attributes"), QStringLiteral("attributesDock"),
        m_attributesView, Qt::RightDockWidgetArea);
    QDockWidget *names = addDock(
        tr("Value names"), QStringLiteral("valueNamesDock"), m_namesPicker, Qt::RightDockWidgetArea);
    QDockWidget *inplace = addDock(
        tr("Inplace groups"), QStringLiteral("inplaceDock"), m_inplacePicker, Qt::RightDockWidgetArea);
    m_diagnosticsDock = addDock(
        tr("Problems"), QStringLiteral("problemsDock"), m_diagnosticsView, Qt::BottomDockWidgetArea);
    tabifyDockWidget(attributes, names);
    tabifyDockWidget(names, inplace);
    attributes->raise();
    resizeDocks({ ops, props }, { 330, 340 }, Qt::Horizontal);
    resizeDocks({ ops, passes }, { 600, 220 }, Qt::Vertical);
    resizeDocks({ props, attributes }, { 380, 320 }, Qt::Vertical);
    m_diagnosticsDock->hide();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *open = file->addAction(tr("&Open\u2026"), this, &MainWindow::openDialog);
    open->setShortcut(QKeySequence::Open);
    file->addAction(tr("Open Trace &Bundle Folder\u2026"), this, &MainWindow::openBundleDialog);
    m_recent = new RecentFiles(file->addMenu(tr("Open &Recent")), this);
    connect(m_recent, &RecentFiles::openRequested, this, [this](const QString &path) { openFile(path); });
    file->addSeparator();
    file->addAction(tr("Export Graph as &PNG\u2026"), this, [this] { exportDialog(false); });
    file->addAction(tr("Export Graph as &SVG\u2026"), this, [this] { exportDialog(true); });
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QToolBar *bar = addToolBar(tr("Pipeline"));
    bar->setObjectName(QStringLiteral("pipelineToolBar"));
    bar->setMovable(false);
    auto *modes = new QActionGroup(this);
    m_trainAction = bar->addAction(tr("Train"));
    m_trainAction->setToolTip(tr("The train pipeline: the backward appended to the program, split into the "
                                 "forward and backward programs run_program receives"));
    m_inferAction = bar->addAction(tr("Infer"));
    m_inferAction->setToolTip(tr("The infer pipeline: the forward program only"));
    for (QAction *a : { m_trainAction, m_inferAction }) {
        a->setCheckable(true);
        modes->addAction(a);
    }
    m_inferAction->setChecked(true);
    connect(m_trainAction, &QAction::triggered, this, [this] { setTraining(true); });
    connect(m_inferAction, &QAction::triggered, this, [this] { setTraining(false); });
    bar->addSeparator();
    bar->addWidget(m_pipelineStatus);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *fit = view->addAction(tr("&Fit Graph"), m_graphView, &GraphView::fitGraph);
    fit->setShortcuts({ QKeySequence(Qt::Key_F), QKeySequence(Qt::CTRL | Qt::Key_0) });
    fit->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_graphView->addAction(fit);
    QAction *zoomIn = view->addAction(tr("Zoom &In"), this, [this] { m_graphView->zoomBy(1.25); });
    zoomIn->setShortcut(QKeySequence::ZoomIn);
    QAction *zoomOut = view->addAction(tr("Zoom &Out"), this, [this] { m_graphView->zoomBy(0.8); });
    zoomOut->setShortcut(QKeySequence::ZoomOut);
    view->addAction(tr("Open All &Layers"), this, [this] { focusedGraphView()->expandAll(); });
    view->addAction(tr("Close All La&yers"), this, [this] { focusedGraphView()->collapseAll(); });
    QAction *minimap = view->addAction(tr("&Minimap"));
    minimap->setCheckable(true);
    minimap->setChecked(true);
    connect(minimap, &QAction::toggled, this, [this](bool on) {
        for (GraphView *v : { m_graphView, m_splitView->forwardView(), m_splitView->backwardView() }) {
            v->minimap()->setEnabled(on);
            v->minimap()->updateFrame();
        }
    });
    view->addSeparator();
    view->addAction(tr("&Program"), this, [this] { showTab(Tab::Program); })
        ->setShortcut(Qt::CTRL | Qt::Key_1);
    view->addAction(tr("Forward / &Backward"), this, [this] { showTab(Tab::Split); })
        ->setShortcut(Qt::CTRL | Qt::Key_2);
    view->addAction(m_trainAction);
    view->addAction(m_inferAction);
    view->addSeparator();
    QAction *find
        = view->addAction(tr("&Find in Graph\u2026"), this, [this] { focusedGraphView()->finder()->open(); });
    find->setShortcut(QKeySequence::Find);
    QAction *filter = view->addAction(tr("Filter &Ops\u2026"), this, [this] {
        if (QWidget *dock = m_opList->parentWidget())
            dock->show();
        m_opList->focusSearch();
    });
    filter->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_F);
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
}

void MainWindow::connectSelection()
{
    GraphScene *scene = m_graphView->graphScene();
    connect(scene, &GraphScene::opSelected, this, [this](Operation *op) {
        setActiveSide(ProgramSide::Origin);
        m_opList->selectOp(op);
        m_graphView->graphScene()->clearHighlight();
        if (op)
            m_properties->showOp(op);
        else
            m_properties->clear();
    });
    connect(scene, &GraphScene::valueSelected, this, [this](Value v) {
        setActiveSide(ProgramSide::Origin);
        m_opList->selectOp(nullptr);
        m_properties->showValue(v);
        m_graphView->graphScene()->highlight({}, { v });
    });
    connect(m_splitView, &SplitView::opSelected, this, [this](ProgramSide side, Operation *op) {
        setActiveSide(side);
        m_opList->selectOp(op);
        if (op)
            m_properties->showOp(op);
        else
            m_properties->clear();
    });
    connect(m_splitView, &SplitView::valueSelected, this, [this](ProgramSide side, Value v) {
        setActiveSide(side);
        m_opList->selectOp(v.definingOp());
        m_properties->showValue(v);
    });
    connect(m_opList, &OpListPanel::opSelected, this, [this](Operation *op) {
        if (m_activeSide == ProgramSide::Origin) {
            m_graphView->graphScene()->selectOp(op);
            m_graphView->graphScene()->clearHighlight();
            m_graphView->centerOnOp(op);
        } else {
            m_splitView->selectOp(m_activeSide, op);
        }
        m_properties->showOp(op);
    });
    connect(m_propertiesView, &QTreeView::activated, this,
        [this](const QModelIndex &index) { onNavigate(index, m_activeSide); });
    connect(m_nameMapView, &QTableView::activated, this,
        [this](const QModelIndex &index) { onNavigate(index, m_namesPicker->side()); });
    connect(m_nameMapView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (Value v = valueFromIndex(current))
                selectValueIn(m_namesPicker->side(), v);
        });
    connect(m_inplaceView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &MainWindow::onInplaceGroupSelected);
    connect(m_attributesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &MainWindow::onAttributeSelected);
    connect(m_attributesView, &QTreeView::activated, this, &MainWindow::onAttributeSelected);
    connect(m_namesPicker, &ProgramPickerPanel::sideChanged, this,
        [this](ProgramSide side) { m_nameMap->setDocument(documentOf(side)); });
    connect(m_inplacePicker, &ProgramPickerPanel::sideChanged, this,
        [this](ProgramSide side) { m_inplace->setDocument(documentOf(side)); });
}

bool MainWindow::openFile(const QString &path)
{
    DiagnosticList diagnostics;
    std::shared_ptr<const PipelineSource> source = ProgramOpener::open(path, diagnostics);
    m_diagnostics->setDiagnostics(diagnostics);
    if (!source) {
        failLoad(path, diagnostics);
        return false;
    }
    m_loadDiagnostics = diagnostics;
    m_diagnosticsDock->setVisible(!diagnostics.empty());
    setDocument(
        std::make_shared<ProgramDocument>(source->origin, path, source->format, source->loadSeconds), source);
    if (!path.startsWith(QLatin1Char(':')))
        m_recent->add(QFileInfo(path).absoluteFilePath());
    return true;
}

void MainWindow::failLoad(const QString &path, const DiagnosticList &diagnostics)
{
    const Diagnostic *first = diagnostics.firstError();
    const QString message
        = first ? QString::fromStdString(first->toString()) : tr("%1: could not be read").arg(path);
    m_diagnosticsDock->show();
    m_diagnosticsDock->raise();
    statusBar()->showMessage(
        tr("Could not open %1 \u2014 %2").arg(QFileInfo(path).fileName(), message), 15000);
    emit loadFailed(message);
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

void MainWindow::setDocument(
    std::shared_ptr<const ProgramDocument> document, std::shared_ptr<const PipelineSource> source)
{
    m_document = std::move(document);
    m_source = std::move(source);
    m_snapshot.reset();
    m_activeSide = ProgramSide::Origin;
    m_opList->setDocument(m_document);
    m_properties->setDocument(m_document);
    m_namesPicker->setSplitAvailable(false);
    m_inplacePicker->setSplitAvailable(false);
    m_nameMap->setDocument(m_document);
    m_inplace->setDocument(m_document);
    m_graphView->showGraph(m_document->graph());
    m_splitView->setSnapshot(nullptr);
    m_attributes->setSnapshot(nullptr);
    m_passPanel->model()->clear();
    (m_source->training ? m_trainAction : m_inferAction)->setChecked(true);
    m_runner->setSource(m_source, m_source->training);

    const ProgramDocument &d = *m_document;
    setWindowTitle(tr("%1 \u2014 PIRScope").arg(QString::fromStdString(m_source->title)));
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
    updatePipelineStatus();
    emit documentChanged();
}

void MainWindow::onSnapshot(std::shared_ptr<const PipelineSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    m_splitView->setSnapshot(m_snapshot);
    m_attributes->setSnapshot(m_snapshot);
    m_passPanel->model()->setPasses(m_snapshot->passes, m_snapshot->result.passLog);
    const bool split = m_snapshot->ok();
    const ProgramSide names = m_namesPicker->side();
    const ProgramSide inplace = m_inplacePicker->side();
    m_namesPicker->setSplitAvailable(split);
    m_inplacePicker->setSplitAvailable(split);
    // The panels showing a split program switch to the new snapshot's documents.
    const ProgramSide active = split ? m_activeSide : ProgramSide::Origin;
    m_activeSide = active;
    m_opList->setDocument(documentOf(active));
    m_properties->setDocument(documentOf(active));
    m_nameMap->setDocument(documentOf(split ? names : ProgramSide::Origin));
    m_inplace->setDocument(documentOf(split ? inplace : ProgramSide::Origin));
    (m_snapshot->training ? m_trainAction : m_inferAction)->setChecked(true);
    if (!m_snapshot->diagnostics.isEmpty()) {
        DiagnosticList all = m_loadDiagnostics;
        for (const QString &d : m_snapshot->diagnostics)
            all.warning(SourceLocation { m_source->path, 0, 0, {}, -1 }, d.toStdString());
        m_diagnostics->setDiagnostics(all);
        if (!split)
            m_diagnosticsDock->show();
    }
    updatePipelineStatus();
    emit pipelineChanged();
}

void MainWindow::updatePipelineStatus()
{
    const QString mode = isTraining() ? tr("train") : tr("infer");
    if (!m_source) {
        m_pipelineStatus->setText(tr("No program"));
    } else if (m_runner->isBusy()) {
        m_pipelineStatus->setText(tr("Computing the %1 pipeline\u2026").arg(mode));
    } else if (!m_snapshot || !m_snapshot->ok()) {
        m_pipelineStatus->setText(m_snapshot ? m_snapshot->notice : QString());
    } else {
        const PipelineSnapshot &s = *m_snapshot;
        m_pipelineStatus->setText(
            tr("%1 pipeline \u00b7 forward %2 ops \u00b7 backward %3 ops \u00b7 %4 values "
               "cross \u00b7 %5 ms")
                .arg(s.training ? tr("Train") : tr("Infer"))
                .arg(s.result.forward->numOpsTotal())
                .arg(s.result.backward->numOpsTotal())
                .arg(s.cut.size())
                .arg(s.seconds * 1000, 0, 'f', 0));
    }
}

void MainWindow::setTraining(bool training)
{
    (training ? m_trainAction : m_inferAction)->setChecked(true);
    m_runner->setTraining(training);
    updatePipelineStatus();
}

bool MainWindow::isTraining() const
{
    return m_runner->isTraining();
}

void MainWindow::showTab(Tab tab)
{
    m_tabs->setCurrentIndex(tab == Tab::Program ? 0 : 1);
}

MainWindow::Tab MainWindow::currentTab() const
{
    return m_tabs->currentIndex() == 0 ? Tab::Program : Tab::Split;
}

std::shared_ptr<const ProgramDocument> MainWindow::documentOf(ProgramSide side) const
{
    if (side == ProgramSide::Origin || !m_snapshot)
        return side == ProgramSide::Origin ? m_document : nullptr;
    return side == ProgramSide::Forward ? m_snapshot->forward : m_snapshot->backward;
}

GraphView *MainWindow::focusedGraphView() const
{
    for (QWidget *w = QApplication::focusWidget(); w; w = w->parentWidget())
        if (auto *view = qobject_cast<GraphView *>(w))
            return view;
    return currentTab() == Tab::Program ? m_graphView : m_splitView->forwardView();
}

GraphView *MainWindow::viewOf(ProgramSide side) const
{
    return side == ProgramSide::Origin ? m_graphView : m_splitView->view(side);
}

ProgramSide MainWindow::sideOf(const Operation *op) const
{
    for (ProgramSide side : { ProgramSide::Forward, ProgramSide::Backward })
        if (auto doc = documentOf(side); doc && doc->indexOf(op) >= 0)
            return side;
    return ProgramSide::Origin;
}

ProgramSide MainWindow::sideOf(Value value) const
{
    if (Operation *op = value.definingOp())
        return sideOf(op);
    const Block *block = value.parentBlock();
    for (ProgramSide side : { ProgramSide::Forward, ProgramSide::Backward })
        if (auto doc = documentOf(side); doc && block == &doc->program().block())
            return side;
    return ProgramSide::Origin;
}

void MainWindow::setActiveSide(ProgramSide side)
{
    if (side == m_activeSide || !documentOf(side))
        return;
    m_activeSide = side;
    m_opList->setDocument(documentOf(side));
    m_properties->setDocument(documentOf(side));
    m_namesPicker->setSide(side);
    m_inplacePicker->setSide(side);
}

void MainWindow::selectOp(const Operation *op)
{
    selectOpIn(op ? sideOf(op) : m_activeSide, op);
}

void MainWindow::selectValue(Value value)
{
    selectValueIn(sideOf(value), value);
}

void MainWindow::selectOpIn(ProgramSide side, const Operation *op)
{
    setActiveSide(side);
    if (side == ProgramSide::Origin) {
        m_graphView->graphScene()->selectOp(op);
        m_graphView->graphScene()->clearHighlight();
        m_graphView->centerOnOp(op);
    } else {
        showTab(Tab::Split);
        m_splitView->selectOp(side, op);
    }
    m_opList->selectOp(op);
    if (op)
        m_properties->showOp(op);
    else
        m_properties->clear();
}

void MainWindow::selectValueIn(ProgramSide side, Value value)
{
    setActiveSide(side);
    if (side == ProgramSide::Origin) {
        GraphScene *scene = m_graphView->graphScene();
        scene->selectValue(value);
        scene->highlight({}, { value });
    } else {
        showTab(Tab::Split);
        m_splitView->selectValue(side, value);
    }
    m_opList->selectOp(value.definingOp());
    m_properties->showValue(value);
}

void MainWindow::onLayoutFinished(double seconds, bool fromCache)
{
    m_layoutStatus->setText(fromCache ? tr("Layout %1 s (cached)").arg(seconds, 0, 'f', 2)
                                      : tr("Layout %1 s").arg(seconds, 0, 'f', 2));
}

void MainWindow::onNavigate(const QModelIndex &index, ProgramSide side)
{
    if (Operation *op = opFromIndex(index); op && !valueFromIndex(index))
        selectOpIn(side, op);
    else if (Value v = valueFromIndex(index))
        selectValueIn(side, v);
}

void MainWindow::onInplaceGroupSelected(const QModelIndex &index)
{
    const ProgramSide side = m_inplacePicker->side();
    const std::shared_ptr<const ProgramDocument> doc = documentOf(side);
    if (!doc || !index.isValid())
        return;
    const QModelIndex first = index.siblingAtColumn(0);
    if (first.parent().isValid()) {
        selectValueIn(side, valueFromIndex(first));
        return;
    }
    const InplaceGroup &group = doc->inplaceGroups().groups()[size_t(first.row())];
    std::vector<const Operation *> ops;
    for (Value v : group.members)
        if (const Operation *def = v.definingOp())
            ops.push_back(def);
    for (const InplaceEdge &e : group.edges)
        ops.push_back(e.op);
    if (side != ProgramSide::Origin)
        showTab(Tab::Split);
    GraphView *view = viewOf(side);
    view->graphScene()->highlight(ops, group.members);
    if (!ops.empty())
        view->centerOnOp(ops.front());
}

void MainWindow::onAttributeSelected(const QModelIndex &index)
{
    const Value v = valueFromIndex(index);
    const Operation *op = opFromIndex(index);
    if (!index.isValid() || (!v && !op))
        return; // a key row, or the fake value
    const ProgramSide side = sideFromIndex(index);
    showTab(Tab::Split);
    setActiveSide(side);
    m_splitView->selectValue(side, v);
    if (!m_splitView->view(side)->graphScene()->itemForValue(v) && op)
        m_splitView->selectOp(side, op);
    m_opList->selectOp(op);
    m_properties->showValue(v);
}

QStringList MainWindow::recentFiles() const
{
    return m_recent->files();
}

void MainWindow::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open PIR Program or Trace Bundle"), QString(),
        tr("PIR programs and trace bundles (*.json *.txt);;Trace bundle manifests (manifest.json);;All files "
           "(*)"));
    if (!path.isEmpty())
        openFile(path);
}

void MainWindow::openBundleDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open Trace Bundle Folder"));
    if (!dir.isEmpty())
        openFile(dir);
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
    return currentTab() == Tab::Split ? m_splitView->grab().save(path, "PNG") : m_graphView->exportPng(path);
}

bool MainWindow::exportSvg(const QString &path)
{
    if (currentTab() == Tab::Program)
        return m_graphView->exportSvg(path);
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(m_splitView->size());
    generator.setViewBox(m_splitView->rect());
    generator.setTitle(windowTitle());
    QPainter painter;
    if (!painter.begin(&generator))
        return false;
    m_splitView->render(&painter);
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
