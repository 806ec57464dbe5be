#include "ui/mainwindowpirtext.h"

#include "core/graph/diffgraph.h"
#include "core/ir/pirlisting.h"
#include "core/ir/program.h"
#include "ui/common/workerpool.h"
#include "ui/debugger/debugsession.h"
#include "ui/dockcollapser.h"
#include "ui/graphview.h"
#include "ui/mainwindow.h"
#include "ui/mainwindowdebugger.h"
#include "ui/mainwindowpasses.h"
#include "ui/passdiffview.h"
#include "ui/passview.h"
#include "ui/pipelinesnapshot.h"
#include "ui/pirtextview.h"
#include "ui/programdocument.h"
#include "ui/selectionmodel.h"
#include "ui/splitview.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QPlainTextEdit>
#include <QPointer>
#include <QTabWidget>
#include <QThreadPool>
#include <algorithm>

namespace ps {

namespace {

/// Listings kept: the Program tab's, the forward and backward, a pass step's.
constexpr size_t kKeptListings = 4;

} // namespace

MainWindowPirText::MainWindowPirText(MainWindow *window, QTabWidget *tabs)
    : QObject(window)
    , m_window(window)
    , m_tabs(tabs)
    , m_view(new PirTextView(window))
    , m_dock(new QDockWidget(tr("PIR Text"), window))
    , m_show(new QAction(tr("PIR &Text"), this))
{
    m_dock->setObjectName(QStringLiteral("pirTextDock"));
    m_dock->setWidget(m_view);
    window->addDockWidget(Qt::RightDockWidgetArea, m_dock);
    // A tab beside Program attributes: it takes no width or height from the other panels.
    if (auto *attributes = window->findChild<QDockWidget *>(QStringLiteral("attributesDock"))) {
        window->tabifyDockWidget(attributes, m_dock);
        attributes->raise();
    }
    m_view->programBox()->addItems({ tr("Follow the graph"), tr("Program"), tr("Forward"), tr("Backward") });
    m_view->programBox()->setToolTip(
        tr("Follow the graph: the Program tab's program, the split pane last clicked, the pass "
           "step's program after the pass"));
    connect(m_view->programBox(), &QComboBox::currentIndexChanged, this, [this] { refresh(); });

    m_show->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T));
    m_show->setToolTip(tr("Show the program as PIR text, synced with the graph"));
    connect(m_show, &QAction::triggered, this, [this] {
        DockCollapser::unfoldToShow(m_dock);
        m_dock->show();
        m_dock->raise();
        // Wide enough for an op's `(%3) = "pd_op.name" (%1, %2) {` (40 characters, 30% of the
        // window at most) and half the window tall, unless the user made it so already.
        const QFontMetrics metrics(m_view->editor()->font());
        const int width
            = std::min(m_window->width() * 3 / 10, metrics.horizontalAdvance(QLatin1Char('x')) * 40 + 24);
        if (!m_dock->isFloating() && m_dock->width() < width)
            m_window->resizeDocks({ m_dock }, { width }, Qt::Horizontal);
        if (!m_dock->isFloating() && m_dock->height() < m_window->height() / 2)
            m_window->resizeDocks({ m_dock }, { m_window->height() / 2 }, Qt::Vertical);
        refresh();
        m_view->editor()->setFocus(Qt::ShortcutFocusReason);
    });

    connect(m_dock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible)
            refresh();
    });
    connect(window, &MainWindow::documentChanged, this, [this] {
        m_listings.clear();
        m_printing.reset();
        m_view->setListing(nullptr);
        refresh();
    });
    for (auto signal : { &MainWindow::pipelineChanged, &MainWindow::programShown })
        connect(window, signal, this, &MainWindowPirText::refresh);
    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindowPirText::refresh);
    connect(window->selection(), &SelectionModel::changed, this, [this](const SelectionModel::Selection &s) {
        if (s.side != ProgramSide::Origin && s.side != m_splitSide) {
            m_splitSide = s.side;
            refresh();
        }
        showSelection();
    });
    // The split pane that takes the focus is the one followed.
    connect(qApp, &QApplication::focusChanged, this, [this](QWidget *, QWidget *now) {
        SplitView *split = m_window->splitView();
        for (ProgramSide side : { ProgramSide::Forward, ProgramSide::Backward }) {
            GraphView *pane = split->view(side);
            if (now && (now == pane || pane->isAncestorOf(now)) && side != m_splitSide) {
                m_splitSide = side;
                refresh();
            }
        }
    });
    PassView *passes = window->passes()->view();
    connect(passes, &PassView::stepShown, this, &MainWindowPirText::refresh);
    connect(passes->graphDiff(), &PassDiffView::opSelected, this, [this](const Operation *op) {
        if (m_passStep)
            m_view->showOp(afterOpOf(op));
    });
    // The op a debug session is stopped before is marked, as a debugger marks its current line.
    DebugSession *session = window->debugger()->session();
    const auto followDebugger
        = [this, session] { m_view->setCurrentOp(session->isActive() ? session->currentOp() : nullptr); };
    connect(session, &DebugSession::stateChanged, this, followDebugger);
    connect(session, &DebugSession::stoppedAt, this, followDebugger);
    connect(m_view, &PirTextView::opPicked, this, &MainWindowPirText::onOpPicked);
    connect(m_view, &PirTextView::valuePicked, this, &MainWindowPirText::onValuePicked);
}

MainWindowPirText::Source MainWindowPirText::source() const
{
    return Source(std::max(0, m_view->programBox()->currentIndex()));
}

void MainWindowPirText::setSource(Source source)
{
    m_view->programBox()->setCurrentIndex(int(source));
}

bool MainWindowPirText::isShown() const
{
    return m_dock->isVisible();
}

std::shared_ptr<const Program> MainWindowPirText::wanted(ProgramSide &side, bool &passStep) const
{
    passStep = false;
    side = ProgramSide::Origin;
    if (source() == Source::Follow) {
        if (m_window->currentTab() == MainWindow::Tab::Passes) {
            passStep = true;
            const std::shared_ptr<const StepDiff> diff = m_window->passes()->view()->shownDiff();
            return diff && diff->after ? diff->after->program : nullptr;
        }
        if (m_window->currentTab() == MainWindow::Tab::Split)
            side = m_splitSide;
    } else {
        side = ProgramSide(int(source()) - 1);
    }
    const std::shared_ptr<const ProgramDocument> doc = m_window->documentOf(side);
    return doc ? doc->sharedProgram() : nullptr;
}

std::shared_ptr<const PirListing> MainWindowPirText::keptListing(
    const std::shared_ptr<const Program> &program)
{
    auto it = std::find_if(m_listings.begin(), m_listings.end(),
        [&](const std::shared_ptr<const PirListing> &l) { return l->sharedProgram() == program; });
    if (it == m_listings.end())
        return nullptr;
    std::shared_ptr<const PirListing> listing = *it;
    m_listings.erase(it);
    m_listings.insert(m_listings.begin(), listing);
    return listing;
}

void MainWindowPirText::keep(std::shared_ptr<const PirListing> listing)
{
    m_listings.insert(m_listings.begin(), std::move(listing));
    if (m_listings.size() > kKeptListings)
        m_listings.pop_back();
}

void MainWindowPirText::printInBackground(std::shared_ptr<const Program> program)
{
    if (m_printing == program)
        return;
    m_printing = program;
    // One worker with a deep stack (the printer recurses into regions).
    static QThreadPool *pool = makeWorkerPool(QStringLiteral("PIR text"), 1);
    QPointer<MainWindowPirText> self(this);
    pool->start([self, program] {
        auto listing = std::make_shared<const PirListing>(program);
        QMetaObject::invokeMethod(
            qApp,
            [self, listing] {
                // Dropped when another program (or document) is wanted since.
                if (!self || self->m_printing != listing->sharedProgram())
                    return;
                self->m_printing.reset();
                self->keep(listing);
                self->refresh();
            },
            Qt::QueuedConnection);
    });
}

void MainWindowPirText::refresh()
{
    if (!isShown())
        return;
    ProgramSide side = ProgramSide::Origin;
    bool passStep = false;
    std::shared_ptr<const Program> program = wanted(side, passStep);
    m_side = side;
    m_passStep = passStep;
    m_stepDiff = passStep ? m_window->passes()->view()->shownDiff() : nullptr;
    // The title says which program the text is, whatever the chooser says.
    const int step = m_window->passes()->view()->shownStep();
    m_dock->setWindowTitle(passStep         ? tr("PIR Text \u00b7 after step %1").arg(step + 1)
            : side == ProgramSide::Forward  ? tr("PIR Text \u00b7 forward")
            : side == ProgramSide::Backward ? tr("PIR Text \u00b7 backward")
                                            : tr("PIR Text"));
    if (!program) {
        m_view->showMessage(passStep          ? tr("No pass step is shown.")
                : side == ProgramSide::Origin ? tr("No program is open.")
                                              : tr("The pipeline has not made this program (yet)."));
        return;
    }
    // An empty backward (infer mode, nothing needs a gradient): the snapshot says why.
    if (const auto snapshot = m_window->snapshot(); side == ProgramSide::Backward
        && program->numOpsTotal() == 0 && snapshot && !snapshot->notice.isEmpty()) {
        m_view->showMessage(snapshot->notice);
        return;
    }
    std::shared_ptr<const PirListing> listing = keptListing(program);
    if (!listing && program->numOpsTotal() > m_backgroundPrintOps) {
        m_view->showMessage(tr("Printing %1 ops\u2026").arg(program->numOpsTotal()));
        printInBackground(std::move(program));
        return;
    }
    if (!listing) {
        listing = std::make_shared<const PirListing>(std::move(program));
        keep(listing);
    }
    m_view->setListing(listing);
    showSelection();
}

void MainWindowPirText::showSelection()
{
    if (!isShown() || m_passStep)
        return;
    const SelectionModel::Selection &s = m_window->selection()->current();
    if (s.empty() || s.side != m_side)
        m_view->clearMarks();
    else if (s.value)
        m_view->showValue(s.value, s.op);
    else
        m_view->showOp(s.op);
}

void MainWindowPirText::onOpPicked(const Operation *op)
{
    if (!m_passStep) {
        m_window->selection()->selectOp(m_side, op);
        return;
    }
    m_view->showOp(op);
    if (const Operation *diffOp = diffOpOf(op))
        m_window->passes()->view()->graphDiff()->selectOp(diffOp);
}

void MainWindowPirText::onValuePicked(Value value, const Operation *at)
{
    if (m_passStep)
        onOpPicked(at);
    else
        m_window->selection()->selectValue(m_side, value, at);
}

const Operation *MainWindowPirText::diffOpOf(const Operation *afterOp) const
{
    const std::shared_ptr<const DiffGraph> graph = m_window->passes()->view()->graphDiff()->diffGraph();
    if (!m_stepDiff || !graph || !afterOp)
        return nullptr;
    const std::vector<const Operation *> &after = m_stepDiff->ops.after;
    const auto it = std::find(after.begin(), after.end(), afterOp);
    if (it == after.end())
        return nullptr;
    const int32_t index = int32_t(it - after.begin());
    for (const auto &[op, i] : graph->afterIndex)
        if (i == index)
            return op;
    return nullptr;
}

const Operation *MainWindowPirText::afterOpOf(const Operation *diffOp) const
{
    const std::shared_ptr<const DiffGraph> graph = m_window->passes()->view()->graphDiff()->diffGraph();
    if (!m_stepDiff || !graph || !diffOp)
        return nullptr;
    const auto it = graph->afterIndex.find(diffOp);
    if (it == graph->afterIndex.end() || it->second < 0 || size_t(it->second) >= m_stepDiff->ops.after.size())
        return nullptr;
    return m_stepDiff->ops.after[size_t(it->second)];
}

} // namespace ps
