#include "ui/mainwindow.h"

#include "core/ir/program.h"
#include "ui/columnwidths.h"
#include "ui/common/dialogdirectory.h"
#include "ui/common/elidedlabel.h"
#include "ui/debugger/graphmarks.h"
#include "ui/diagnosticsmodel.h"
#include "ui/dockcollapser.h"
#include "ui/fileloader.h"
#include "ui/focusmode.h"
#include "ui/graphfinder.h"
#include "ui/graphminimap.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/helpmenu.h"
#include "ui/inplacegroupsmodel.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowmemory.h"
#include "ui/mainwindowpasses.h"
#include "ui/mainwindowpirtext.h"
#include "ui/mainwindowrunlog.h"
#include "ui/oplistpanel.h"
#include "ui/passlistmodel.h"
#include "ui/passpanel.h"
#include "ui/passview.h"
#include "ui/pipelinerunner.h"
#include "ui/pirtextview.h"
#include "ui/programattributesmodel.h"
#include "ui/programdocument.h"
#include "ui/programopener.h"
#include "ui/programpickerpanel.h"
#include "ui/propertiesmodel.h"
#include "ui/recentfiles.h"
#include "ui/splitview.h"
#include "ui/startpage.h"
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
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QTreeView>
#include <algorithm>

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
    , m_selection(new SelectionModel(this))
    , m_central(new QStackedWidget(this))
    , m_startPage(new StartPage(this))
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
    , m_pipelineStatus(new ElidedLabel(this))
    , m_loadStatus(new ElidedLabel(this))
    , m_layoutStatus(new ElidedLabel(this))
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
    m_central->setObjectName(QStringLiteral("centralStack"));
    // The start page scrolls in a small window rather than setting its minimum size.
    auto *start = new QScrollArea(this);
    start->setFrameShape(QFrame::NoFrame);
    start->setWidgetResizable(true);
    start->setWidget(m_startPage);
    m_central->addWidget(start);
    m_central->addWidget(m_tabs);
    setCentralWidget(m_central);
    setDockOptions(AnimatedDocks | AllowTabbedDocks);

    m_propertiesView->setModel(m_properties);
    m_propertiesView->header()->setSectionResizeMode(QHeaderView::Interactive);
    m_nameMapView->setModel(m_nameMap);
    compactRows(m_nameMapView);
    m_inplaceView->setModel(m_inplace);
    m_attributesView->setModel(m_attributes);
    m_attributesView->setUniformRowHeights(true);
    // Groups open expanded (a key of program_attr with hundreds of names stays closed).
    connect(
        m_properties, &QAbstractItemModel::modelReset, this, [this] { m_propertiesView->expandToDepth(1); });
    for (QTreeView *tree : { m_attributesView, m_inplaceView })
        connect(tree->model(), &QAbstractItemModel::modelReset, tree, [tree] {
            for (int row = 0; row < tree->model()->rowCount(); ++row) {
                const QModelIndex group = tree->model()->index(row, 0);
                tree->setExpanded(group, tree->model()->rowCount(group) <= 64);
            }
        });
    ColumnWidths::keepFitted(m_propertiesView, 28, Qt::ElideRight);
    ColumnWidths::keepFitted(m_nameMapView, 36);
    ColumnWidths::keepFitted(m_inplaceView, 30);
    ColumnWidths::keepFitted(m_attributesView, 30);
    m_diagnosticsView->setModel(m_diagnostics);
    compactRows(m_diagnosticsView);
    m_pipelineStatus->setObjectName(QStringLiteral("pipelineStatus"));
    m_pipelineStatus->setContentsMargins(2, 0, 8, 0);
    m_loadStatus->setObjectName(QStringLiteral("loadStatus"));
    m_loadStatus->setDescription(
        tr("Ghosts: values used by many ops (parameters, constants, inputs) or defined far away are "
           "drawn as a small copy beside each user (a dashed box, or a chip inside the user's box) "
           "instead of one long edge. Help \u25b8 Keyboard Shortcuts and Legend explains the graph."));
    m_layoutStatus->setObjectName(QStringLiteral("layoutStatus"));

    createDocks();
    m_focusMode = new FocusMode(this); // before the menus and the debugger (its inspector maximises)
    m_dockCollapser = new DockCollapser(this);
    createActions();
    // The pipeline's summary in the status bar, not the toolbar: a text that grows there would
    // push the debugger's controls into the toolbar's overflow menu on a small screen.
    statusBar()->addWidget(m_pipelineStatus, 3);
    statusBar()->addWidget(m_loadStatus, 2);
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

    m_debugger = new MainWindowDebugger(this,
        { m_selection, m_diagnostics, m_diagnosticsDock, m_tabs,
            { m_graphView, m_splitView->forwardView(), m_splitView->backwardView() } });
    m_properties->setShapeLookup([this](Value v) { return m_debugger->inferredShape(v); });
    connect(m_debugger->marks(), &GraphMarks::shapesChanged, this, [this] {
        m_splitView->setShapes(m_debugger->marks()->shapes());
        if (m_memory)
            m_memory->setShapes(m_debugger->marks()->shapes());
        if (m_properties->currentOp())
            m_properties->showOp(m_properties->currentOp());
        else if (m_properties->currentValue())
            m_properties->showValue(m_properties->currentValue());
    });
    m_help = new HelpMenu(this);
    connectStartPage();
    m_passes = new MainWindowPasses(this, m_runner, m_passPanel->model());
    m_tabs->addTab(m_passes->view(), tr("Passes"));
    m_runLog = new MainWindowRunLog(this, m_fileMenu, m_debugger,
        { m_graphView, m_splitView->forwardView(), m_splitView->backwardView() });
    m_memory = new MainWindowMemory(this, m_debugger->session());
    m_pirText = new MainWindowPirText(this, m_tabs);
    m_memory->setShapes(m_debugger->marks()->shapes());
    // The View menu lists the docks made before it; these came later.
    for (QAction *a : menuBar()->actions())
        if (a->menu() && a->menu()->objectName() == QLatin1String("viewMenu")) {
            a->menu()->insertAction(m_filterOpsAction, m_pirText->showAction());
            a->menu()->addAction(m_pirText->dock()->toggleViewAction());
            a->menu()->addAction(m_runLog->dock()->toggleViewAction());
            a->menu()->addAction(m_memory->dock()->toggleViewAction());
            a->menu()->addAction(m_debugger->timeOverlayAction());
        }

    m_dockCollapser->installAll(); // every dock made by now, the debugger's and the others'

    QSettings settings;
    if (!restoreGeometry(settings.value(QStringLiteral("geometry")).toByteArray()))
        resize(defaultSize());
    if (restoreState(settings.value(QStringLiteral("windowState")).toByteArray(), kStateVersion))
        m_dockCollapser->restoreState(settings.value(QStringLiteral("collapsedDocks")).toStringList());
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
    // A short screen (1280x720, 2x scaling) cannot stack Ops over Passes beside the debugger.
    const QScreen *screenNow = screen();
    const bool shortScreen = screenNow && screenNow->availableGeometry().height() < 900;
    if (shortScreen) {
        tabifyDockWidget(ops, passes);
        ops->raise();
    }
    tabifyDockWidget(attributes, names);
    tabifyDockWidget(names, inplace);
    attributes->raise();
    // The side docks take about a fifth of the screen's width each: the graph keeps the middle.
    const int screenWidth = screenNow ? screenNow->availableGeometry().width() : 1600;
    resizeDocks({ ops, props },
        { std::clamp(screenWidth / 5, 200, 330), std::clamp(screenWidth * 2 / 9, 220, 340) }, Qt::Horizontal);
    if (!shortScreen)
        resizeDocks({ ops, passes }, { 600, 220 }, Qt::Vertical);
    resizeDocks({ props, attributes }, { 380, 320 }, Qt::Vertical);
    m_diagnosticsDock->hide();
}

void MainWindow::createActions()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_fileMenu = file;
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

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
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
    // The keys belong to the pass view (they act where it has the focus); the menu names them
    // after a tab, which QMenu shows as the shortcut, and brings the Passes tab to the front.
    auto *changes = view->addMenu(tr("Pass &Changes"));
    changes->setObjectName(QStringLiteral("passChangesMenu"));
    for (auto [text, step] :
        { std::pair { tr("&Next Change\tF8"), 1 }, { tr("&Previous Change\tShift+F8"), -1 } })
        changes->addAction(text, this, [this, step = step] {
            showTab(Tab::Passes);
            m_passes->view()->goToChange(step);
        });
    m_focusMode->setOnToggled([this](bool on) { m_passes->view()->setTimelineShown(!on); });
    view->addAction(m_focusMode->action());
    view->addAction(m_dockCollapser->collapseAllAction());
    view->addSeparator();
    view->addAction(tr("&Program"), this, [this] { showTab(Tab::Program); })
        ->setShortcut(Qt::CTRL | Qt::Key_1);
    view->addAction(tr("Forward / &Backward"), this, [this] { showTab(Tab::Split); })
        ->setShortcut(Qt::CTRL | Qt::Key_2);
    view->addAction(tr("P&asses"), this, [this] { showTab(Tab::Passes); })->setShortcut(Qt::CTRL | Qt::Key_3);
    view->addAction(m_trainAction);
    view->addAction(m_inferAction);
    view->addSeparator();
    // In the PIR Text dock Ctrl+F finds in the text.
    QAction *find = view->addAction(tr("&Find in Graph\u2026"), this, [this] {
        if (PirTextView *text = m_pirText ? m_pirText->view() : nullptr;
            text && text->isAncestorOf(QApplication::focusWidget()))
            text->openFind();
        else
            focusedGraphView()->finder()->open();
    });
    find->setShortcut(QKeySequence::Find);
    QAction *filter = view->addAction(tr("Filter &Ops\u2026"), this, [this] {
        if (QWidget *dock = m_opList->parentWidget())
            dock->show();
        m_opList->focusSearch();
    });
    filter->setShortcut(Qt::CTRL | Qt::SHIFT | Qt::Key_F);
    m_filterOpsAction = filter;
    view->addSeparator();
    for (QDockWidget *dock : findChildren<QDockWidget *>())
        view->addAction(dock->toggleViewAction());
}

bool MainWindow::openFile(const QString &path)
{
    statusBar()->showMessage(tr("Opening %1\u2026").arg(QFileInfo(path).fileName()));
    const OpenedFile file = FileLoader::load([path] {
        const PathKind kind = ProgramOpener::kindOf(path);
        if (opensAsTimeline(kind))
            return MainWindowPasses::readLog(path);
        if (kind == PathKind::RunLog) {
            OpenedFile log;
            log.path = path;
            log.runLog = true;
            return log;
        }
        OpenedFile program;
        program.path = path;
        program.source = ProgramOpener::open(path, kind, program.diagnostics);
        return program;
    });
    statusBar()->clearMessage();
    if (file.runLog)
        return m_runLog->openLog(path);
    return file.passLog ? m_passes->showLog(file) : adoptFile(file);
}

bool MainWindow::adoptFile(const OpenedFile &file)
{
    m_diagnostics->setDiagnostics(file.diagnostics);
    if (!file.source) {
        failLoad(file.path, file.diagnostics);
        return false;
    }
    m_loadDiagnostics = file.diagnostics;
    m_diagnosticsDock->setVisible(!file.diagnostics.empty());
    setDocument(file.document, file.source);
    if (!file.path.startsWith(QLatin1Char(':')))
        m_recent->add(QFileInfo(file.path).absoluteFilePath());
    return true;
}

void MainWindow::failLoad(const QString &path, const DiagnosticList &diagnostics)
{
    const Diagnostic *first = diagnostics.firstError();
    const QString message
        = first ? QString::fromStdString(first->toString()) : tr("%1: could not be read").arg(path);
    DockCollapser::unfoldToShow(m_diagnosticsDock);
    m_diagnosticsDock->show();
    m_diagnosticsDock->raise();
    statusBar()->showMessage(
        tr("Could not open %1 \u2014 %2").arg(QFileInfo(path).fileName(), message), 15000);
    emit loadFailed(message);
}

QString MainWindow::defaultExample()
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
    return examples.value(0);
}

bool MainWindow::openDefaultExample()
{
    const QString example = defaultExample();
    return !example.isEmpty() && openFile(example);
}

void MainWindow::setDocument(
    std::shared_ptr<const ProgramDocument> document, std::shared_ptr<const PipelineSource> source)
{
    // The selection points into the programs about to go.
    m_selection->clear();
    m_document = std::move(document);
    m_source = std::move(source);
    m_programResult.reset();
    m_tabs->setTabText(0, tr("Program"));
    m_snapshot.reset();
    m_central->setCurrentWidget(m_tabs);
    m_activeSide = ProgramSide::Origin;
    m_opList->clearSearch();
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
    // A selection in the split programs points into the snapshot about to go.
    if (m_selection->currentSide() != ProgramSide::Origin)
        m_selection->clear();
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
            DockCollapser::unfoldToShow(m_diagnosticsDock);
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
        // Infer mode has no backward to count; a train snapshot without one says why (notice).
        if (!s.training)
            m_pipelineStatus->setText(tr("Infer pipeline \u00b7 forward %1 ops \u00b7 %2 ms")
                                          .arg(s.result.forward->numOpsTotal())
                                          .arg(s.seconds * 1000, 0, 'f', 0));
        else if (!s.notice.isEmpty())
            m_pipelineStatus->setText(tr("Train pipeline \u00b7 forward %1 ops \u00b7 no backward: %2")
                                          .arg(s.result.forward->numOpsTotal())
                                          .arg(s.notice));
        else
            m_pipelineStatus->setText(
                tr("Train pipeline \u00b7 forward %1 ops \u00b7 backward %2 ops \u00b7 %3 values "
                   "cross \u00b7 %4 ms")
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
    m_tabs->setCurrentIndex(int(tab));
}

MainWindow::Tab MainWindow::currentTab() const
{
    return Tab(qBound(0, m_tabs->currentIndex(), 2));
}

void MainWindow::showProgramResult(std::shared_ptr<const ProgramDocument> result)
{
    if (result == m_programResult || !m_document)
        return;
    m_programResult = std::move(result);
    const std::shared_ptr<const ProgramDocument> shown = documentOf(ProgramSide::Origin);
    m_tabs->setTabText(0, m_programResult ? tr("Program (after passes)") : tr("Program"));
    m_graphView->showGraph(shown->graph());
    if (m_activeSide == ProgramSide::Origin) {
        m_opList->setDocument(shown);
        m_properties->setDocument(shown);
    }
    if (m_namesPicker->side() == ProgramSide::Origin)
        m_nameMap->setDocument(shown);
    if (m_inplacePicker->side() == ProgramSide::Origin)
        m_inplace->setDocument(shown);
    emit programShown();
}

std::shared_ptr<const ProgramDocument> MainWindow::documentOf(ProgramSide side) const
{
    if (side == ProgramSide::Origin || !m_snapshot)
        return side != ProgramSide::Origin ? nullptr : m_programResult ? m_programResult : m_document;
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

void MainWindow::onLayoutFinished(double seconds, bool fromCache)
{
    m_layoutStatus->setText(fromCache ? tr("Layout %1 s (cached)").arg(seconds, 0, 'f', 2)
                                      : tr("Layout %1 s").arg(seconds, 0, 'f', 2));
}

QSize MainWindow::defaultSize() const
{
    const QSize preferred(1600, 1000);
    const QScreen *s = screen();
    return s ? preferred.boundedTo(s->availableGeometry().size() * 0.9) : preferred;
}

bool MainWindow::isStartPageShown() const
{
    return m_central->currentIndex() == 0;
}

void MainWindow::connectStartPage()
{
    m_startPage->setRecentFiles(m_recent->files());
    connect(
        m_recent, &RecentFiles::changed, this, [this] { m_startPage->setRecentFiles(m_recent->files()); });
    connect(m_startPage, &StartPage::openRequested, this, &MainWindow::openDialog);
    connect(m_startPage, &StartPage::openBundleRequested, this, &MainWindow::openBundleDialog);
    connect(m_startPage, &StartPage::exampleRequested, this, &MainWindow::openDefaultExample);
    connect(m_startPage, &StartPage::fileRequested, this, &MainWindow::openFile);
    m_startPage->setExampleAvailable(!defaultExample().isEmpty());
}

QStringList MainWindow::recentFiles() const
{
    return m_recent->files();
}

void MainWindow::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open PIR Program or Trace Bundle"),
        DialogDirectory::get(QStringLiteral("programs")),
        tr("PIR programs, trace bundles and Paddle pass logs (*.json *.txt *.log);;Trace bundle manifests "
           "(manifest.json);;All files (*)"));
    if (path.isEmpty())
        return;
    DialogDirectory::remember(QStringLiteral("programs"), path);
    openFile(path);
}

void MainWindow::openBundleDialog()
{
    const QString dir = QFileDialog::getExistingDirectory(
        this, tr("Open Trace Bundle Folder"), DialogDirectory::get(QStringLiteral("programs")));
    if (dir.isEmpty())
        return;
    // The next dialog starts beside this bundle, where its siblings are.
    DialogDirectory::remember(QStringLiteral("programs"), QFileInfo(dir).absolutePath());
    openFile(dir);
}

void MainWindow::exportDialog(bool svg)
{
    const QString stem = m_source ? QFileInfo(QString::fromStdString(m_source->path)).completeBaseName()
                                  : QStringLiteral("graph");
    const QString name = stem + (currentTab() == Tab::Split ? QStringLiteral("_split") : QString())
        + (svg ? QStringLiteral(".svg") : QStringLiteral(".png"));
    const QString path = QFileDialog::getSaveFileName(this, svg ? tr("Export SVG") : tr("Export PNG"),
        DialogDirectory::suggest(QStringLiteral("images"), name),
        svg ? tr("SVG images (*.svg)") : tr("PNG images (*.png)"));
    if (path.isEmpty())
        return;
    DialogDirectory::remember(QStringLiteral("images"), path);
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
    settings.setValue(QStringLiteral("windowState"), saveState(kStateVersion));
    settings.setValue(QStringLiteral("collapsedDocks"), m_dockCollapser->state());
    QMainWindow::closeEvent(event);
}

} // namespace ps
