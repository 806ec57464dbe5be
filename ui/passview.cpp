#include "ui/passview.h"

#include "core/io/passlogindex.h"
#include "core/ir/program.h"
#include "core/transform/passpipeline.h"
#include "ui/passdiffview.h"
#include "ui/passtextdiffview.h"
#include "ui/passtimelinemodel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSlider>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QThreadPool>
#include <QToolButton>
#include <QVBoxLayout>
#include <utility>

namespace ps {

/// What the worker hands the UI for one step.
struct PassView::Computed
{
    int step = -1;
    quint64 generation = 0;
    std::shared_ptr<const StepDiff> diff;
    std::shared_ptr<const DiffGraph> graph;
    std::shared_ptr<const std::vector<TextDiffLine>> lines;
};

PassView::PassView(QWidget *parent)
    : QWidget(parent)
    , m_model(new PassTimelineModel(this))
    , m_table(new QTableView(this))
    , m_slider(new QSlider(Qt::Horizontal, this))
    , m_position(new QLabel(this))
    , m_source(new QLabel(this))
    , m_pipeline(new QComboBox(this))
    , m_numerics(new QCheckBox(tr("Check numerics"), this))
    , m_prev(new QToolButton(this))
    , m_next(new QToolButton(this))
    , m_stepLabel(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_graphDiff(new PassDiffView(this))
    , m_textDiff(new PassTextDiffView(this))
    , m_pool(new QThreadPool(this))
{
    setObjectName(QStringLiteral("passesTab"));
    m_pool->setMaxThreadCount(2); // the selected step's diff, and the counting task
    m_table->setObjectName(QStringLiteral("passTimelineTable"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 4);
    QHeaderView *header = m_table->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::ResizeToContents);
    header->setSectionResizeMode(PassTimelineModel::PassColumn, QHeaderView::Stretch);
    header->setMinimumSectionSize(36);

    m_slider->setObjectName(QStringLiteral("passSlider"));
    m_slider->setTickPosition(QSlider::TicksBelow);
    m_slider->setPageStep(1);
    m_prev->setText(QStringLiteral("\u25c0"));
    m_prev->setToolTip(tr("Previous step (Alt+Left)"));
    m_prev->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Left));
    m_next->setText(QStringLiteral("\u25b6"));
    m_next->setToolTip(tr("Next step (Alt+Right)"));
    m_next->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Right));
    m_position->setObjectName(QStringLiteral("passPosition"));
    m_source->setObjectName(QStringLiteral("passSource"));
    m_source->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_pipeline->setObjectName(QStringLiteral("passPipeline"));
    m_pipeline->setToolTip(
        tr("The passes to run: PIRScope's (what dy2static runs on the split programs) or one of "
           "Paddle 3.3.1's pipelines, its unimplemented passes listed but not run"));
    m_pipeline->addItem(tr("dy2static split passes (DCE, CSE)"), QString());
    for (const PassPipeline::Info &p : PassPipeline::pipelines())
        m_pipeline->addItem(QString::fromStdString(p.name), QString::fromStdString(p.name));
    for (int i = 1; i < m_pipeline->count(); ++i)
        m_pipeline->setItemData(
            i, QString::fromStdString(PassPipeline::pipelines()[size_t(i - 1)].description), Qt::ToolTipRole);
    m_pipeline->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_numerics->setObjectName(QStringLiteral("passNumerics"));
    m_numerics->setToolTip(
        tr("Run the program before and after every pass that changes it on the CPU (random "
           "inputs and parameters, seed 0) and compare outputs and surviving values"));
    m_stepLabel->setObjectName(QStringLiteral("passStepLabel"));
    m_stepLabel->setTextFormat(Qt::RichText);
    m_stepLabel->setWordWrap(true);
    m_stepLabel->setContentsMargins(4, 2, 4, 2);
    m_tabs->setObjectName(QStringLiteral("passDiffTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_graphDiff, tr("Graph diff"));
    // F8 / Shift+F8 step through the changes from anywhere in the tab (the table has the focus).
    addAction(m_graphDiff->nextChangeAction());
    addAction(m_graphDiff->previousChangeAction());
    connect(m_graphDiff->nextChangeAction(), &QAction::triggered, this, [this] {
        if (m_tabs->currentWidget() == m_textDiff)
            m_textDiff->goToChange(1);
    });
    connect(m_graphDiff->previousChangeAction(), &QAction::triggered, this, [this] {
        if (m_tabs->currentWidget() == m_textDiff)
            m_textDiff->goToChange(-1);
    });
    m_tabs->addTab(m_textDiff, tr("Text diff"));

    auto *top = new QWidget(this);
    auto *topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->setSpacing(2);
    auto *sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_source, 1);
    sourceRow->addWidget(m_pipeline);
    sourceRow->addWidget(m_numerics);
    topLayout->addLayout(sourceRow);
    topLayout->addWidget(m_table, 1);
    auto *sliderRow = new QHBoxLayout;
    sliderRow->addWidget(m_prev);
    sliderRow->addWidget(m_slider, 1);
    sliderRow->addWidget(m_next);
    sliderRow->addWidget(m_position);
    topLayout->addLayout(sliderRow);
    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->setSpacing(0);
    bottomLayout->addWidget(m_stepLabel);
    bottomLayout->addWidget(m_tabs, 1);
    // On a small screen (960x600 at 2x, the debugger dock open) the tab gets ~200 px: each
    // half scrolls rather than pushing the window's minimum height past the screen.
    const auto scrolled = [this](QWidget *content, int minimumHeight) {
        auto *area = new QScrollArea(this);
        area->setFrameShape(QFrame::NoFrame);
        area->setWidgetResizable(true);
        area->setWidget(content);
        area->setMinimumHeight(minimumHeight);
        return area;
    };
    const int line = fontMetrics().height();
    m_splitter = new QSplitter(Qt::Vertical, this);
    m_splitter->setObjectName(QStringLiteral("passSplitter"));
    m_splitter->addWidget(scrolled(top, 4 * line));
    m_splitter->addWidget(scrolled(bottom, 6 * line));
    m_splitter->setStretchFactor(0, 0);
    m_splitter->setStretchFactor(1, 1);
    m_splitter->setChildrenCollapsible(false);
    connect(m_splitter, &QSplitter::splitterMoved, this, [this] {
        if (isTimelineShown())
            QSettings().setValue(QStringLiteral("passView/timelineHeight"), m_splitter->sizes().value(0));
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);

    connect(m_model, &PassTimelineModel::passToggled, this, &PassView::passToggled);
    connect(m_pipeline, &QComboBox::activated, this,
        [this](int i) { emit pipelineChosen(m_pipeline->itemData(i).toString()); });
    connect(m_numerics, &QCheckBox::toggled, this, &PassView::checkNumericsChanged);
    connect(m_slider, &QSlider::valueChanged, this, [this](int v) { setCurrentStep(v); });
    connect(m_prev, &QToolButton::clicked, this, [this] { setCurrentStep(qMax(0, m_current - 1)); });
    connect(m_next, &QToolButton::clicked, this,
        [this] { setCurrentStep(qMin(m_model->rowCount() - 1, m_current + 1)); });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex &current) {
            if (current.isValid())
                setCurrentStep(current.row());
        });
    m_graphDiff->showMessage(tr("No pass pipeline yet"));
}

int PassView::timelineHeight(int rows) const
{
    const int sourceRow = qMax(m_pipeline->sizeHint().height(), m_numerics->sizeHint().height());
    const int sliderRow = qMax(m_prev->sizeHint().height(), m_slider->sizeHint().height());
    const int table = m_table->horizontalHeader()->sizeHint().height()
        + rows * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth();
    return sourceRow + table + sliderRow + 2 * 2 + 4;
}

void PassView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (std::exchange(m_sized, true))
        return;
    const int total = m_splitter->height();
    const int wanted
        = QSettings().value(QStringLiteral("passView/timelineHeight"), timelineHeight(kInitialRows)).toInt();
    // The diff keeps at least half of the tab.
    const int top = qBound(m_splitter->widget(0)->minimumHeight(), wanted, qMax(total / 2, 1));
    m_splitter->setSizes({ top, qMax(1, total - top) });
}

int PassView::goToChange(int step)
{
    if (m_tabs->currentWidget() == m_textDiff)
        return m_textDiff->goToChange(step);
    return m_graphDiff->goToChange(step);
}

void PassView::setTimelineShown(bool shown)
{
    if (shown == isTimelineShown())
        return;
    if (!shown)
        m_sizesBeforeFocus = m_splitter->sizes();
    for (QWidget *w : { static_cast<QWidget *>(m_table), static_cast<QWidget *>(m_source),
             static_cast<QWidget *>(m_pipeline), static_cast<QWidget *>(m_numerics) })
        w->setVisible(shown && ((w != m_pipeline && w != m_numerics) || m_pipelineControls));
    if (shown && !m_sizesBeforeFocus.isEmpty())
        m_splitter->setSizes(m_sizesBeforeFocus);
    else if (!shown)
        m_splitter->setSizes({ 0, m_splitter->height() }); // the top half down to its minimum
}

bool PassView::isTimelineShown() const
{
    return !m_table->isHidden();
}

PassView::~PassView()
{
    stopCounting();
    m_pool->waitForDone();
}

void PassView::setTimeline(std::shared_ptr<const PassTimeline> timeline, bool checkable)
{
    stopCounting();
    const int keep = m_current;
    m_timeline = std::move(timeline);
    m_model->setTimeline(m_timeline, checkable);
    m_current = -1;
    m_shown = -1;
    m_shownDiff.reset();
    ++m_generation;
    const int n = m_timeline ? int(m_timeline->size()) : 0;
    m_slider->setRange(0, qMax(0, n - 1));
    m_slider->setEnabled(n > 1);
    m_source->setText(!m_timeline ? QString()
            : m_timeline->logIndex()
            ? tr("Paddle log %1 \u00b7 %2 steps, %3 programs, %4 MB")
                  .arg(QString::fromStdString(m_timeline->source()))
                  .arg(n)
                  .arg(m_timeline->logIndex()->programs.size())
                  .arg(double(m_timeline->logIndex()->bytes) / 1e6, 0, 'f', 1)
            : tr("PIRScope passes on the program \u00b7 %1 steps \u00b7 check a pass to switch it").arg(n));
    if (n == 0) {
        m_graphDiff->showMessage(m_timeline ? tr("The pipeline has no steps") : tr("No pass pipeline yet"));
        m_textDiff->showMessage(QString());
        updateStepLabel();
        if (m_timeline)
            emit timelineShown(0);
        return;
    }
    // Start at the kept step, else at the first step that changed something once known (the
    // first one for now).
    setCurrentStep(keep >= 0 && keep < n ? keep : 0);
    startCounting();
    emit timelineShown(n);
}

void PassView::setCurrentStep(int step)
{
    if (!m_timeline || step < 0 || step >= int(m_timeline->size()) || step == m_current)
        return;
    m_current = step;
    m_shown = -1;
    m_shownDiff.reset();
    {
        const QSignalBlocker block(m_slider);
        m_slider->setValue(step);
    }
    const QModelIndex index = m_model->index(step, PassTimelineModel::PassColumn);
    if (m_table->currentIndex().row() != step) {
        const QSignalBlocker block(m_table->selectionModel());
        m_table->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    m_table->scrollTo(index);
    m_position->setText(tr("%1 / %2").arg(step + 1).arg(m_timeline->size()));
    m_prev->setEnabled(step > 0);
    m_next->setEnabled(step + 1 < int(m_timeline->size()));
    updateStepLabel();
    compute(step);
}

void PassView::compute(int step)
{
    auto job = std::make_shared<Computed>();
    job->step = step;
    job->generation = ++m_generation;
    std::shared_ptr<const PassTimeline> timeline = m_timeline;
    const DiffGraph::Options options = m_graphOptions;
    QPointer<PassView> self(this);
    m_pool->start([job, timeline, options, self] {
        job->diff = timeline->diff(size_t(job->step));
        if (job->diff->error.empty()) {
            const Program &before = *job->diff->before->program;
            const Program &after = *job->diff->after->program;
            job->graph = DiffGraph::build(before, after, job->diff->ops, options);
            job->lines = std::make_shared<const std::vector<TextDiffLine>>(
                ProgramTextDiff::build(before, after, job->diff->ops));
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, job] {
                if (self)
                    self->showComputed(job);
            },
            Qt::QueuedConnection);
    });
}

void PassView::showComputed(const std::shared_ptr<Computed> &computed)
{
    if (computed->generation != m_generation || computed->step != m_current)
        return; // superseded
    m_shown = computed->step;
    m_shownDiff = computed->diff;
    m_model->refreshStep(computed->step);
    const StepDiff &d = *computed->diff;
    if (!d.error.empty()) {
        QString message = QString::fromStdString(d.error);
        if (const Diagnostic *e = d.diagnostics.firstError())
            message += QStringLiteral("\n") + QString::fromStdString(e->toString());
        m_graphDiff->showMessage(message);
        m_textDiff->showMessage(message);
    } else {
        m_graphDiff->setDiffGraph(computed->graph);
        m_textDiff->setLines(computed->lines);
    }
    updateStepLabel();
    emit stepShown(computed->step);
}

void PassView::updateStepLabel()
{
    if (!m_timeline || m_current < 0) {
        m_stepLabel->setText(m_busy ? tr("<i>Recomputing the passes\u2026</i>") : QString());
        return;
    }
    const PassTimelineStep &s = m_timeline->step(size_t(m_current));
    QStringList parts;
    parts << QStringLiteral("<b>%1. %2</b>")
                 .arg(m_current + 1)
                 .arg(QString::fromStdString(s.pass).toHtmlEscaped());
    if (s.kind == PassTimelineStep::Kind::Unlogged)
        parts << tr("<i>not printed by Paddle</i>");
    parts << tr("on %1").arg(QString::fromStdString(s.target).toHtmlEscaped());
    parts << PassTimelineModel::changesText(*m_timeline, size_t(m_current)).toHtmlEscaped();
    if (s.seconds >= 0)
        parts << tr("%1 ms").arg(s.seconds * 1000, 0, 'f', 2);
    if (s.rewrites >= 0)
        parts << tr("%1 rewrites").arg(s.rewrites);
    if (!s.statistics.empty())
        parts << tr("Paddle: detected [%1] subgraphs")
                     .arg(QString::fromStdString(s.statistics).toHtmlEscaped());
    if (s.numerics && !s.numerics->checked)
        parts << tr("numerics not run: %1").arg(QString::fromStdString(s.numerics->note).toHtmlEscaped());
    else if (s.numerics) {
        const NumericCheck &n = *s.numerics;
        parts << QStringLiteral("<span style='color:%1'>%2</span>")
                     .arg(n.ok ? QStringLiteral("#2e8b3e") : QStringLiteral("#c62828"))
                     .arg(tr("numerics %1 max abs %2, max rel %3 (%4)")
                              .arg(n.ok ? QStringLiteral("\u2713") : QStringLiteral("\u2717"))
                              .arg(n.maxAbs, 0, 'g', 3)
                              .arg(n.maxRel, 0, 'g', 3)
                              .arg(QString::fromStdString(n.worstValue).toHtmlEscaped()));
    }
    if (!s.enabled)
        parts << tr("<i>switched off</i>");
    if (!s.implemented)
        parts << tr("<i>not implemented in PIRScope (not run)</i>");
    if (m_busy)
        parts << tr("<i>recomputing\u2026</i>");
    else if (m_shown != m_current)
        parts << tr("<i>computing the diff\u2026</i>");
    m_stepLabel->setText(parts.join(QStringLiteral(" \u00b7 ")));
}

void PassView::setPipelineControls(bool visible, const QString &pipeline, bool checkNumerics)
{
    const QSignalBlocker blockPipeline(m_pipeline);
    const QSignalBlocker blockNumerics(m_numerics);
    m_pipelineControls = visible;
    m_pipeline->setVisible(visible && isTimelineShown());
    m_numerics->setVisible(visible && isTimelineShown());
    m_pipeline->setCurrentIndex(qMax(0, m_pipeline->findData(pipeline)));
    m_numerics->setChecked(checkNumerics);
}

void PassView::setBusy(bool busy)
{
    m_busy = busy;
    updateStepLabel();
}

void PassView::startCounting()
{
    auto stop = std::make_shared<std::atomic<bool>>(false);
    m_stopCounting = stop;
    std::shared_ptr<const PassTimeline> timeline = m_timeline;
    QPointer<PassView> self(this);
    m_pool->start([stop, timeline, self] {
        for (size_t i = 0; i < timeline->size() && !*stop; ++i) {
            if (timeline->counts(i) || !timeline->step(i).before || !timeline->step(i).after)
                continue;
            timeline->diff(i);
            QMetaObject::invokeMethod(
                self.data(),
                [self, i, timeline] {
                    if (self && self->m_timeline == timeline) {
                        self->m_model->refreshStep(int(i));
                        if (int(i) == self->m_current)
                            self->updateStepLabel();
                    }
                },
                Qt::QueuedConnection);
        }
        if (*stop)
            return;
        QMetaObject::invokeMethod(
            self.data(),
            [self, timeline] {
                if (self && self->m_timeline == timeline)
                    emit self->countsFinished();
            },
            Qt::QueuedConnection);
    });
}

void PassView::stopCounting()
{
    if (m_stopCounting)
        *m_stopCounting = true;
    m_stopCounting.reset();
}

} // namespace ps
