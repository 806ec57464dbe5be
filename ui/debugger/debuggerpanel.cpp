#include "ui/debugger/debuggerpanel.h"

#include "core/analysis/valuenames.h"
#include "core/ir/operation.h"
#include "ui/common/dialogdirectory.h"
#include "ui/common/itemroles.h"
#include "ui/common/themecolors.h"
#include "ui/debugger/breakpointsmodel.h"
#include "ui/debugger/debugsession.h"
#include "ui/debugger/executedopsmodel.h"
#include "ui/debugger/framesmodel.h"
#include "ui/debugger/opvaluesmodel.h"
#include "ui/inspector/tensorinspector.h"
#include "ui/inspector/watchmodel.h"

#include <QFileDialog>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

namespace ps {
namespace {

QString opName(const Operation *op)
{
    return op ? QString::fromUtf8(op->name().data(), qsizetype(op->name().size())) : QString();
}

/// The file name Export suggests for a value: its Paddle name, else its op and position
/// ("conv2d_0.14_out0"), else its keyword.
QString exportNameOf(Value value, const DebugSession &session)
{
    if (const std::optional<std::string> name = ValueNames::firstName(value))
        return QString::fromStdString(*name);
    if (const Operation *op = value.definingOp()) {
        const std::string_view full = op->name();
        const std::string_view shortName
            = full.substr(full.find('.') == std::string_view::npos ? 0 : full.find('.') + 1);
        const std::optional<ProgramPosition> position = session.positionOf(op);
        return QStringLiteral("%1_%2_out%3")
            .arg(QString::fromUtf8(shortName.data(), qsizetype(shortName.size())),
                position ? QString::fromStdString(position->toString()) : QStringLiteral("op"))
            .arg(value.index());
    }
    return value.isKeywordArgument() ? QString::fromStdString(value.keyword()) : QString();
}

QTableView *makeTable(QAbstractItemModel *model, QWidget *parent)
{
    auto *view = new QTableView(parent);
    view->setModel(model);
    view->setSelectionBehavior(QAbstractItemView::SelectRows);
    view->setSelectionMode(QAbstractItemView::SingleSelection);
    view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    view->verticalHeader()->hide();
    view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
    view->horizontalHeader()->setStretchLastSection(true);
    view->setWordWrap(false);
    return view;
}

} // namespace

DebuggerPanel::DebuggerPanel(DebugSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_executed(new ExecutedOpsModel(session, this))
    , m_frames(new FramesModel(session, this))
    , m_breakpoints(new BreakpointsModel(session, this))
    , m_watches(new WatchModel(this))
    , m_values(new OpValuesModel(session, this))
{
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(buildLeft());
    splitter->addWidget(buildRight());
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(splitter);
    // Maximised, the inspector is all the panel shows (and the window gives the panel its room).
    connect(m_inspector, &TensorInspector::maximizeToggled, this, [this, splitter](bool on) {
        splitter->widget(0)->setVisible(!on);
        m_valuesSplitter->widget(0)->setVisible(!on);
        emit inspectorMaximized(on);
    });

    connect(session, &DebugSession::stoppedAt, this, &DebuggerPanel::onStopped);
    connect(session, &DebugSession::stateChanged, this, [this] {
        updateStatus();
        updateErrorBox();
        updateCompareButtons();
        if (!m_session->isActive())
            m_inspector->clear();
    });
    connect(session, &DebugSession::recordsAppended, this, [this] {
        if (m_session->isRunning())
            updateStatus();
    });
    connect(session, &DebugSession::watchesUpdated, this, &DebuggerPanel::updateWatches);
    connect(session, &DebugSession::targetChanged, this, [this] {
        // The inspected value may belong to a program that is about to go.
        m_inspected = Value();
        m_pinned = false;
        m_inspector->clear();
        showOp(nullptr);
        updateStatus();
    });
    connect(session, &DebugSession::devicesChanged, this, &DebuggerPanel::updateCompareButtons);
    connect(session, &DebugSession::sourcesChanged, this, &DebuggerPanel::updateStatus);
    connect(session, &DebugSession::shapesNeeded, this, &DebuggerPanel::updateStatus);
    updateStatus();
    updateErrorBox();
    updateCompareButtons();
}

QWidget *DebuggerPanel::buildLeft()
{
    auto *left = new QWidget(this);
    auto *layout = new QVBoxLayout(left);
    layout->setContentsMargins(0, 0, 0, 0);
    m_status = new QLabel(left);
    m_status->setObjectName(QStringLiteral("debugStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    m_errorBox = new QFrame(left);
    m_errorBox->setObjectName(QStringLiteral("debugErrorBox"));
    m_errorBox->setFrameShape(QFrame::StyledPanel);
    auto *errorLayout = new QHBoxLayout(m_errorBox);
    m_errorLabel = new QLabel(m_errorBox);
    m_errorLabel->setWordWrap(true);
    m_errorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_provide = new QPushButton(tr("Provide outputs from .npy…"), m_errorBox);
    m_provide->setToolTip(
        tr("Use tensors from .npy files (one per result) as this op's results and step past it"));
    errorLayout->addWidget(m_errorLabel, 1);
    errorLayout->addWidget(m_provide, 0, Qt::AlignTop);
    layout->addWidget(m_errorBox);
    connect(m_provide, &QPushButton::clicked, this, &DebuggerPanel::provideOutputsInteractive);

    m_tabs = new QTabWidget(left);
    m_executedView = makeTable(m_executed, m_tabs);
    m_executedView->setObjectName(QStringLiteral("executedOpsView"));
    const int digit = m_executedView->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    const std::pair<int, int> widths[] = { { ExecutedOpsModel::SequenceColumn, 6 },
        { ExecutedOpsModel::MarksColumn, 6 }, { ExecutedOpsModel::OpColumn, 24 },
        { ExecutedOpsModel::PositionColumn, 8 }, { ExecutedOpsModel::SegmentColumn, 10 },
        { ExecutedOpsModel::WallColumn, 9 }, { ExecutedOpsModel::DeviceColumn, 9 } };
    for (const auto &[column, digits] : widths)
        m_executedView->setColumnWidth(column, digits * digit);
    m_framesView = makeTable(m_frames, m_tabs);
    m_framesView->setColumnWidth(FramesModel::FrameColumn, 40 * digit);
    m_tabs->addTab(m_executedView, tr("Executed ops"));
    m_tabs->addTab(m_framesView, tr("Call stack"));
    m_tabs->addTab(buildBreakpointsTab(), tr("Breakpoints"));
    m_tabs->addTab(buildWatchesTab(), tr("Watches"));
    layout->addWidget(m_tabs, 1);

    // Keep the newest op in sight while the run appends rows, unless the user scrolled away.
    connect(m_executed, &QAbstractItemModel::rowsInserted, this, [this] {
        QScrollBar *bar = m_executedView->verticalScrollBar();
        if (bar->value() >= bar->maximum() - 2 * m_executedView->verticalHeader()->defaultSectionSize())
            m_executedView->scrollToBottom();
    });
    auto activate = [this](const QModelIndex &index) {
        const Operation *op = opFromIndex(index);
        if (!op || m_following)
            return;
        showOp(op);
        emit opActivated(op);
    };
    // Arrow keys move the current row; a click on the current row picks it again (the selection
    // may have moved elsewhere meanwhile).
    for (QTableView *view : { m_executedView, m_framesView, m_breakpointsView }) {
        connect(view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, activate);
        connect(view, &QTableView::clicked, this, activate);
    }
    return left;
}

QWidget *DebuggerPanel::buildBreakpointsTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    m_breakpointsView = makeTable(m_breakpoints, tab);
    m_breakpointsView->setObjectName(QStringLiteral("breakpointsView"));
    m_breakpointsView->horizontalHeader()->setSectionResizeMode(
        BreakpointsModel::BreakpointColumn, QHeaderView::Stretch);
    m_breakpointsView->horizontalHeader()->setStretchLastSection(false);
    layout->addWidget(m_breakpointsView, 1);
    auto *row = new QHBoxLayout;
    m_breakpointPattern = new QLineEdit(tab);
    m_breakpointPattern->setPlaceholderText(tr("value name regex, e.g. grad|tmp_3"));
    auto *addName = new QPushButton(tr("Break on name"), tab);
    auto *remove = new QPushButton(tr("Remove"), tab);
    row->addWidget(m_breakpointPattern, 1);
    row->addWidget(addName);
    row->addWidget(remove);
    layout->addLayout(row);
    connect(addName, &QPushButton::clicked, this, &DebuggerPanel::addNameBreakpoint);
    connect(m_breakpointPattern, &QLineEdit::returnPressed, this, &DebuggerPanel::addNameBreakpoint);
    connect(remove, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_breakpointsView->currentIndex();
        if (current.isValid())
            m_session->removeBreakpoint(m_breakpoints->idAt(current.row()));
    });
    return tab;
}

QWidget *DebuggerPanel::buildWatchesTab()
{
    auto *tab = new QWidget(this);
    auto *layout = new QVBoxLayout(tab);
    layout->setContentsMargins(0, 0, 0, 0);
    m_watchesView = makeTable(m_watches, tab);
    m_watchesView->setObjectName(QStringLiteral("watchesView"));
    layout->addWidget(m_watchesView, 1);
    auto *row = new QHBoxLayout;
    m_watchName = new QLineEdit(tab);
    m_watchName->setPlaceholderText(tr("value id (%5), scope variable or value name"));
    auto *add = new QPushButton(tr("Watch"), tab);
    auto *remove = new QPushButton(tr("Remove"), tab);
    row->addWidget(m_watchName, 1);
    row->addWidget(add);
    row->addWidget(remove);
    layout->addLayout(row);
    connect(add, &QPushButton::clicked, this, &DebuggerPanel::addWatch);
    connect(m_watchName, &QLineEdit::returnPressed, this, &DebuggerPanel::addWatch);
    connect(remove, &QPushButton::clicked, this, [this] {
        const QModelIndex current = m_watchesView->currentIndex();
        if (!current.isValid())
            return;
        m_watches->removeWatch(m_watches->names().value(current.row()));
        m_session->setWatches(m_watches->names());
    });
    // Enter or a double click opens the watched value in the inspector, as the Values do.
    connect(m_watchesView, &QTableView::activated, this,
        [this](const QModelIndex &index) { inspectWatch(m_watches->names().value(index.row())); });
    return tab;
}

QWidget *DebuggerPanel::buildRight()
{
    // The values of the op over the inspector, in a splitter: the inspector gets the height.
    auto *right = new QSplitter(Qt::Vertical, this);
    m_valuesSplitter = right;
    right->setObjectName(QStringLiteral("valuesSplitter"));
    right->setChildrenCollapsible(false);
    auto *top = new QWidget(right);
    auto *layout = new QVBoxLayout(top);
    layout->setContentsMargins(0, 0, 0, 0);
    m_valuesTitle = new QLabel(tr("Values"), top);
    m_valuesTitle->setWordWrap(true);
    layout->addWidget(m_valuesTitle);
    m_valuesView = makeTable(m_values, top);
    m_valuesView->setObjectName(QStringLiteral("opValuesView"));
    // At least one operand/result in view (the splitter gives five at first); more scroll.
    const int rowHeight = m_valuesView->verticalHeader()->defaultSectionSize();
    const int headerHeight
        = m_valuesView->horizontalHeader()->sizeHint().height() + 2 * m_valuesView->frameWidth();
    m_valuesView->setMinimumHeight(headerHeight + rowHeight);
    m_valuesView->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    // Fixed widths: contents-sized sections would be measured while the dock is still hidden.
    QHeaderView *header = m_valuesView->horizontalHeader();
    header->setStretchLastSection(false);
    const int digit = m_valuesView->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    m_valuesView->setColumnWidth(OpValuesModel::RoleColumn, 11 * digit);
    m_valuesView->setColumnWidth(OpValuesModel::ValueColumn, 24 * digit);
    m_valuesView->setColumnWidth(OpValuesModel::ReferenceColumn, 8 * digit);
    header->setSectionResizeMode(OpValuesModel::RuntimeColumn, QHeaderView::Stretch);
    layout->addWidget(m_valuesView, 1);
    m_compareReference = new QPushButton(tr("Compare with Paddle"), top);
    m_compareReference->setToolTip(tr("Compare with Paddle's tensor of this value in the trace bundle"));
    m_compareCpu = new QPushButton(tr("Compare with CPU"), top);
    m_compareCpu->setToolTip(
        tr("Recompute this op on the CPU from the current values of its operands and compare"));
    // The comparisons act on the inspected tensor: beside its Export button.
    m_inspector = new TensorInspector(right);
    m_inspector->addHeaderWidget(m_compareReference);
    m_inspector->addHeaderWidget(m_compareCpu);
    right->addWidget(top);
    right->addWidget(m_inspector);
    right->setStretchFactor(0, 1);
    right->setStretchFactor(1, 3);
    connect(m_compareReference, &QPushButton::clicked, this, &DebuggerPanel::compareWithReference);
    connect(m_compareCpu, &QPushButton::clicked, this, &DebuggerPanel::compareWithCpu);
    auto pick = [this](const QModelIndex &index) {
        if (m_following || !index.isValid())
            return;
        const Value value = m_values->valueAt(index.row());
        inspectValue(value);
        emit valueActivated(value, m_values->op());
    };
    connect(m_valuesView->selectionModel(), &QItemSelectionModel::currentRowChanged, this, pick);
    connect(m_valuesView, &QTableView::clicked, this, pick);
    return right;
}

void DebuggerPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_sized || m_valuesSplitter->height() <= 0)
        return;
    // Five operand/result rows, the inspector the rest (set once: the user's split is kept).
    m_sized = true;
    const int rows = m_valuesView->horizontalHeader()->sizeHint().height() + 2 * m_valuesView->frameWidth()
        + 5 * m_valuesView->verticalHeader()->defaultSectionSize();
    const int top = m_valuesTitle->sizeHint().height() + rows + 8;
    const int total = m_valuesSplitter->height();
    m_valuesSplitter->setSizes({ std::min(top, total / 2), total - std::min(top, total / 2) });
}

void DebuggerPanel::showOp(const Operation *op)
{
    m_values->setOp(op);
    const std::optional<ProgramPosition> position = m_session->positionOf(op);
    m_valuesTitle->setText(!op ? tr("Values")
            : position
            ? tr("Values of %1 at %2").arg(opName(op), QString::fromStdString(position->toString()))
            : tr("Values of %1").arg(opName(op)));
    if (!op)
        return;
    const int row = m_values->rowOf(m_inspected);
    if (row >= 0)
        selectRowQuietly(m_valuesView, row);
}

void DebuggerPanel::selectRowQuietly(QTableView *view, int row)
{
    const bool following = m_following;
    m_following = true;
    if (row < 0) {
        view->selectionModel()->clear();
    } else {
        view->selectRow(row);
        view->scrollTo(view->model()->index(row, 0));
    }
    m_following = following;
}

void DebuggerPanel::showSelection(const Operation *op, Value value, bool chosen)
{
    if (op != m_values->op())
        showOp(op);
    const int executed = m_executed->rowOf(op);
    if (executed >= 0 || !op)
        selectRowQuietly(m_executedView, executed);
    if (value) {
        if (chosen)
            inspectValue(value);
        else if (!m_pinned)
            inspect(value);
        return;
    }
    if (!chosen || !op)
        return;
    // An op alone: its first computed result, else its first computed operand (what a failed or
    // output op read), else its first result (the inspector says it is not computed).
    m_pinned = false;
    for (unsigned i = 0; i < op->numResults(); ++i)
        if (inspect(op->result(i), true))
            return;
    for (unsigned i = 0; i < op->numOperands(); ++i)
        if (inspect(op->operand(i), true))
            return;
    inspect(op->numResults() > 0 ? op->result(0) : Value());
}

bool DebuggerPanel::inspectValue(Value value)
{
    m_pinned = value != Value();
    return inspect(value);
}

bool DebuggerPanel::inspect(Value value, bool onlyTensors)
{
    const Tensor host = value ? m_session->hostValue(value) : Tensor();
    if (onlyTensors && !host.defined())
        return false;
    m_inspected = value;
    if (value && value.definingOp() && m_values->rowOf(value) < 0)
        showOp(value.definingOp());
    const int row = m_values->rowOf(value);
    if (row >= 0)
        selectRowQuietly(m_valuesView, row);
    updateCompareButtons();
    if (!host.defined()) {
        m_inspector->clear();
        return false;
    }
    m_inspector->setTensor(host, m_session->valueLabel(value), exportNameOf(value, *m_session));
    return true;
}

bool DebuggerPanel::compareWithReference()
{
    const QString file = m_session->referenceFile(m_inspected);
    if (file.isEmpty() || !m_inspector->tensor().defined())
        return false;
    QString error;
    if (!m_inspector->compareWithFile(file, &error)) {
        QMessageBox::warning(this, tr("Compare with Paddle"), error);
        return false;
    }
    m_inspector->setCurrentTab(TensorInspector::Tab::Compare);
    return true;
}

bool DebuggerPanel::compareWithCpu()
{
    if (!m_inspected || !m_inspector->tensor().defined())
        return false;
    QString error;
    const Tensor cpu = m_session->cpuValue(m_inspected, &error);
    if (!cpu.defined()) {
        QMessageBox::warning(this, tr("Compare with CPU"), error);
        return false;
    }
    m_inspector->compareWith(cpu, tr("CPU"));
    m_inspector->setCurrentTab(TensorInspector::Tab::Compare);
    return true;
}

void DebuggerPanel::provideOutputsInteractive()
{
    const Operation *op = m_session->currentOp();
    if (!op)
        return;
    const QStringList files = QFileDialog::getOpenFileNames(this,
        tr("Outputs of %1 (%2 result(s), in order)").arg(opName(op)).arg(op->numResults()),
        DialogDirectory::get(QStringLiteral("arrays")), tr("NumPy arrays (*.npy)"));
    if (files.isEmpty())
        return;
    DialogDirectory::remember(QStringLiteral("arrays"), files.first());
    QString error;
    if (!m_session->provideOutputs(files, &error))
        QMessageBox::warning(this, tr("Provide outputs"), error);
}

void DebuggerPanel::onStopped()
{
    updateStatus();
    updateErrorBox();
    const std::vector<OpRecord> &records = m_session->records();
    const StopInfo &stop = m_session->lastStop();
    const Operation *op = nullptr;
    if (m_session->state() == DebugSession::State::Error)
        op = m_session->currentOp();
    else if (stop.record && *stop.record < records.size())
        op = records[*stop.record].op;
    else if (!records.empty())
        op = records.back().op;
    if (!op) {
        showOp(nullptr);
        if (m_inspected && !m_session->hostValue(m_inspected).defined())
            m_inspector->clear();
        return;
    }
    showOp(op);
    // Follow the run (the first result of the op that just ran holding a tensor, else its first
    // such operand: what an output op stored, what a failed op read) unless the user chose a
    // value; nothing of the kind leaves the inspector as it is.
    if (m_pinned && m_inspected) {
        inspect(m_inspected);
        return;
    }
    for (unsigned i = 0; i < op->numResults(); ++i)
        if (inspect(op->result(i), true))
            return;
    for (unsigned i = 0; i < op->numOperands(); ++i)
        if (inspect(op->operand(i), true))
            return;
}

void DebuggerPanel::updateStatus()
{
    using State = DebugSession::State;
    const Operation *op = m_session->currentOp();
    const QString at
        = m_session->position() ? QString::fromStdString(m_session->position()->toString()) : QString();
    QString text;
    switch (m_session->state()) {
    case State::NotStarted:
        text = !m_session->hasTarget()           ? tr("Open a program to debug it.")
            : !m_session->startError().isEmpty() ? tr("Could not start: %1").arg(m_session->startError())
                                                 : tr("Not started: F5 runs, F10 stops at the first op.");
        break;
    case State::Running:
        text = tr("Running… %1 ops executed").arg(m_session->records().size());
        break;
    case State::Paused:
        text = tr("Paused before %1 at %2 (%3) on %4")
                   .arg(opName(op), at, m_session->stopText().section(QLatin1Char(';'), 0, 0),
                       m_session->backendName());
        break;
    case State::Finished:
        text = tr("Finished: %1 ops in %2 ms on %3")
                   .arg(m_session->records().size())
                   .arg(m_session->opSeconds() * 1000.0, 0, 'f', 3)
                   .arg(m_session->backendName());
        break;
    case State::Error:
        text = tr("Failed at %1 (%2)").arg(opName(op), at);
        break;
    }
    m_status->setText(text);
}

void DebuggerPanel::updateErrorBox()
{
    const DebugSession::State state = m_session->state();
    const std::optional<OpError> &error = m_session->currentError();
    const bool failed = state == DebugSession::State::Error && error;
    const bool nan
        = state == DebugSession::State::Paused && m_session->lastStop().reason == StopReason::NanInf;
    m_errorBox->setVisible(failed || nan);
    m_provide->setVisible(failed && error->missingKernel);
    if (failed) {
        m_errorBox->setStyleSheet(QStringLiteral("#debugErrorBox { background: %1; }")
                                      .arg(ThemeColors::css(ThemeColors::current().errorBackground)));
        m_errorLabel->setText(QString::fromStdString(error->toString()));
    } else if (nan) {
        m_errorBox->setStyleSheet(QStringLiteral("#debugErrorBox { background: %1; }")
                                      .arg(ThemeColors::css(ThemeColors::current().warningBackground)));
        m_errorLabel->setText(m_session->stopText());
    }
}

void DebuggerPanel::updateCompareButtons()
{
    const bool paused = m_session->isActive() && !m_session->isRunning();
    m_compareReference->setEnabled(paused && !m_session->referenceFile(m_inspected).isEmpty());
    const std::vector<DeviceOption> &devices = m_session->devices();
    const int device = m_session->deviceIndex();
    const bool cuda
        = device >= 0 && size_t(device) < devices.size() && devices[size_t(device)].device.isCuda();
    m_compareCpu->setVisible(cuda);
    m_compareCpu->setEnabled(paused && m_inspected && m_inspected.definingOp());
}

void DebuggerPanel::updateWatches()
{
    using WatchState = DebugEngine::WatchValue::State;
    for (const DebugEngine::WatchValue &w : m_session->watchValues()) {
        const QString name = QString::fromStdString(w.name);
        if (w.state == WatchState::Live)
            m_watches->updateValue(name, w.shape, w.dtype, w.stats);
        else if (w.state == WatchState::Freed)
            m_watches->markFreed(name);
        else if (w.state == WatchState::Unknown)
            m_watches->markUnknown(name);
        else if (m_watches->state(name) == WatchModel::State::Unknown)
            m_watches->markNotComputed(name); // another target may know the name
    }
}

bool DebuggerPanel::inspectWatch(const QString &name)
{
    for (const DebugEngine::WatchValue &w : m_session->watchValues()) {
        if (QString::fromStdString(w.name) != name || !w.value)
            continue;
        inspectValue(w.value);
        emit valueActivated(w.value, w.value.definingOp());
        return true;
    }
    return false;
}

void DebuggerPanel::addWatch()
{
    const QString name = m_watchName->text().trimmed();
    if (name.isEmpty() || !m_watches->addWatch(name))
        return;
    m_watchName->clear();
    m_session->setWatches(m_watches->names());
}

void DebuggerPanel::addNameBreakpoint()
{
    const QString pattern = m_breakpointPattern->text().trimmed();
    if (pattern.isEmpty())
        return;
    QString error;
    if (m_session->addNameBreakpoint(pattern, &error) < 0) {
        QMessageBox::warning(this, tr("Breakpoint"), error);
        return;
    }
    m_breakpointPattern->clear();
}

} // namespace ps
