#include "ui/splitview.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/session/memorymodel.h"
#include "core/session/targetshapes.h"
#include "ui/columnwidths.h"
#include "ui/common/themecolors.h"
#include "ui/crossingvaluesmodel.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"
#include "ui/pipelinesnapshot.h"
#include "ui/programdocument.h"

#include <QFrame>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace ps {

namespace {

QLabel *titleLabel(QWidget *parent, const char *objectName)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QLatin1String(objectName));
    label->setTextFormat(Qt::RichText);
    label->setContentsMargins(6, 3, 6, 3);
    // Wraps rather than widening its pane: a narrow pane stays narrow.
    label->setWordWrap(true);
    return label;
}

QWidget *pane(QWidget *parent, QLabel *title, QWidget *body)
{
    auto *w = new QWidget(parent);
    auto *layout = new QVBoxLayout(w);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(title);
    layout->addWidget(body, 1);
    return w;
}

} // namespace

SplitView::SplitView(QWidget *parent)
    : QWidget(parent)
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_forward(new GraphView(this))
    , m_backward(new GraphView(this))
    , m_forwardTitle(titleLabel(this, "forwardTitle"))
    , m_backwardTitle(titleLabel(this, "backwardTitle"))
    , m_notice(new QLabel(this))
    , m_cutPane(new QFrame(this))
    , m_cutSummary(titleLabel(this, "cutSummary"))
    , m_cutView(new QTableView(this))
    , m_cutModel(new CrossingValuesModel(this))
{
    m_forward->setObjectName(QStringLiteral("forwardGraph"));
    m_backward->setObjectName(QStringLiteral("backwardGraph"));
    m_notice->setObjectName(QStringLiteral("pipelineNotice"));
    m_notice->setWordWrap(true);
    m_notice->setContentsMargins(8, 6, 8, 6);
    const ThemeColors &colors = ThemeColors::current();
    m_notice->setStyleSheet(
        QStringLiteral("QLabel { background: %1; color: %2; }")
            .arg(ThemeColors::css(colors.noticeBackground), ThemeColors::css(colors.text)));
    m_notice->hide();

    m_cutView->setObjectName(QStringLiteral("cutView"));
    m_cutView->setModel(m_cutModel);
    m_cutView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_cutView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_cutView->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_cutView->setAlternatingRowColors(true);
    m_cutView->setWordWrap(false);
    m_cutView->verticalHeader()->hide();
    m_cutView->verticalHeader()->setDefaultSectionSize(m_cutView->fontMetrics().height() + 4);
    m_cutView->horizontalHeader()->setStretchLastSection(true);
    QHeaderView *header = m_cutView->horizontalHeader();
    header->setSectionResizeMode(QHeaderView::Interactive);
    ColumnWidths::keepFitted(m_cutView, 32);

    // The cut: a pane between the two graphs with dashed edges, like a line cut through the
    // whole program.
    m_cutPane->setObjectName(QStringLiteral("cutPane"));
    m_cutPane->setStyleSheet(QStringLiteral("QFrame#cutPane { border-left: 2px dashed %1; "
                                            "border-right: 2px dashed %1; }")
                                 .arg(ThemeColors::css(colors.error)));
    auto *cutLayout = new QVBoxLayout(m_cutPane);
    cutLayout->setContentsMargins(2, 0, 2, 0);
    cutLayout->setSpacing(0);
    m_cutSummary->setWordWrap(true);
    cutLayout->addWidget(m_cutSummary);
    cutLayout->addWidget(m_cutView, 1);

    m_splitter->setObjectName(QStringLiteral("splitSplitter"));
    m_forwardPane = pane(this, m_forwardTitle, m_forward);
    m_backwardPane = pane(this, m_backwardTitle, m_backward);
    m_splitter->addWidget(m_forwardPane);
    m_splitter->addWidget(m_cutPane);
    m_splitter->addWidget(m_backwardPane);
    m_splitter->setStretchFactor(0, 5);
    m_splitter->setStretchFactor(1, 3);
    m_splitter->setStretchFactor(2, 5);
    m_splitter->setSizes({ 500, 300, 500 });
    m_splitter->setChildrenCollapsible(false);
    for (QWidget *w : { static_cast<QWidget *>(m_forward), static_cast<QWidget *>(m_backward),
             static_cast<QWidget *>(m_cutView) })
        w->setMinimumWidth(fontMetrics().averageCharWidth() * 12);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    // The notice (why there is no backward) spans the view: in infer mode it is all the
    // backward side has to say.
    layout->addWidget(m_notice);
    layout->addWidget(m_splitter, 1);

    for (GraphView *v : { m_forward, m_backward }) {
        connect(v, &GraphView::layoutFinished, this, &SplitView::onLayoutEnded);
        connect(v, &GraphView::layoutFailed, this, &SplitView::onLayoutEnded);
        connect(v, &GraphView::layoutCanceled, this, &SplitView::onLayoutEnded);
    }
    connect(m_forward->graphScene(), &GraphScene::opSelected, this,
        [this](Operation *op) { onOpSelected(ProgramSide::Forward, op); });
    connect(m_backward->graphScene(), &GraphScene::opSelected, this,
        [this](Operation *op) { onOpSelected(ProgramSide::Backward, op); });
    connect(m_forward->graphScene(), &GraphScene::valueSelected, this, [this](Value v) {
        selectValue(ProgramSide::Forward, v);
        emit valueSelected(ProgramSide::Forward, v);
    });
    connect(m_backward->graphScene(), &GraphScene::valueSelected, this, [this](Value v) {
        selectValue(ProgramSide::Backward, v);
        emit valueSelected(ProgramSide::Backward, v);
    });
    connect(m_cutView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        &SplitView::onCutRowChanged);
    updateHeaders();
}

SplitView::~SplitView() = default;

GraphView *SplitView::view(ProgramSide side) const
{
    return side == ProgramSide::Forward ? m_forward : side == ProgramSide::Backward ? m_backward : nullptr;
}

void SplitView::setSnapshot(std::shared_ptr<const PipelineSnapshot> snapshot)
{
    m_snapshot = std::move(snapshot);
    m_cutModel->setSnapshot(m_snapshot);
    setShapes(m_shapes);
    m_layoutWanted = true;
    if (isVisible())
        startLayouts();
}

void SplitView::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_layoutWanted)
        startLayouts();
}

void SplitView::startLayouts()
{
    m_layoutWanted = false;
    if (!m_snapshot || !m_snapshot->ok()) {
        m_forward->clearGraph();
        m_backward->clearGraph();
        m_layoutsRunning = 0;
        fitPanes();
        emit layoutsFinished();
        return;
    }
    m_layoutsRunning = 2;
    m_forward->showGraph(m_snapshot->forward->graph());
    m_backward->showGraph(m_snapshot->backward->graph());
}

void SplitView::onLayoutEnded()
{
    if (m_layoutsRunning > 0 && --m_layoutsRunning == 0) {
        fitPanes();
        emit layoutsFinished();
    }
}

void SplitView::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // Share out again when the width changed by a lot (a dock opened or closed, a maximise), not
    // at every pixel of a drag.
    if (m_fittedWidth > 0 && std::abs(width() - m_fittedWidth) > width() / 5 && !isLayoutPending())
        fitPanes();
}

void SplitView::fitPanes()
{
    // The notice says why a snapshot has no backward worth showing (infer mode, nothing to
    // differentiate, a failure).
    const bool backward = m_snapshot && m_snapshot->ok() && m_snapshot->notice.isEmpty();
    m_cutPane->setVisible(backward);
    m_backwardPane->setVisible(backward);
    m_fittedWidth = width();
    const int total = m_splitter->width() - 2 * m_splitter->handleWidth();
    if (!backward || total <= 0) {
        m_forward->showInitialView();
        m_fittedWidth = width();
        return;
    }
    // The cut: its columns' widths (what the table needs), at most a third.
    int cut = 2 * m_cutView->frameWidth() + 4;
    for (int c = 0; c < m_cutModel->columnCount(); ++c)
        cut += m_cutView->horizontalHeader()->sectionSize(c);
    cut = std::clamp(cut, m_cutView->minimumWidth(), total / 3);
    // The graphs: in proportion to their widths at the zoom their labels are legible at, each at
    // least a third of the room (a tall, narrow backward is still read at a legible zoom).
    const double f = std::max(1.0, m_forward->graphScene()->graphBounds().width());
    const double b = std::max(1.0, m_backward->graphScene()->graphBounds().width());
    const int graphs = total - cut;
    const int minimum = std::max(m_forward->minimumWidth(), graphs / 3);
    int forward = std::clamp(int(graphs * f / (f + b)), minimum, std::max(minimum, graphs - minimum));
    m_splitter->setSizes({ forward, cut, graphs - forward });
    for (GraphView *view : { m_forward, m_backward }) {
        view->showInitialView();
        // A graph wider than its pane at a legible zoom starts at its left edge: clipped on one
        // side (the scroll bar says so), never on both.
        const QRectF graph = view->graphScene()->graphBounds();
        const QRectF visible = view->mapToScene(view->viewport()->rect()).boundingRect();
        if (!graph.isEmpty() && visible.left() > graph.left() && visible.width() < graph.width() + 20)
            view->centerOn(visible.center() - QPointF(visible.left() - graph.left() + 10, 0));
    }
}

void SplitView::setShapes(std::shared_ptr<const TargetShapes> shapes)
{
    m_shapes = std::move(shapes);
    m_cutModel->setShapes(m_shapes);
    m_inferredMemory.reset();
    const PipelineSnapshot *s = m_snapshot.get();
    // Shapes of another pipeline (the session's target not yet this snapshot's) do not apply.
    auto covers = [this](const Program &program) {
        for (const Operation *op : program.block().ops())
            if (op->numResults() > 0 && op->result(0).type().isTensorLike())
                return m_shapes->shape(op->result(0)) != nullptr;
        return false;
    };
    if (m_shapes && s && s->ok() && s->training && s->memory && !s->memory->unknown.empty()
        && covers(*s->result.forward)) {
        const MemoryModel::Measured sizes = m_shapes->knownBytes();
        m_inferredMemory
            = std::make_shared<const MemoryReport>(MemoryModel::train(s->result, MemoryModel::kCpu, &sizes));
    }
    updateHeaders();
}

void SplitView::updateHeaders()
{
    const PipelineSnapshot *s = m_snapshot.get();
    if (!s || !s->ok()) {
        m_forwardTitle->setText(tr("<b>Forward program</b>"));
        m_backwardTitle->setText(tr("<b>Backward program</b>"));
        m_cutSummary->setText(tr("<b>\u2702 Cut</b>"));
    } else {
        const Program &f = *s->result.forward;
        const Program &b = *s->result.backward;
        m_forwardTitle->setText(tr("<b>Forward program</b> (%1) \u00b7 %2 ops")
                                    .arg(s->training ? tr("train") : tr("infer"))
                                    .arg(f.numOpsTotal()));
        m_backwardTitle->setText(tr("<b>Backward program</b> \u00b7 %1 ops \u00b7 %2 keyword arguments")
                                     .arg(b.numOpsTotal())
                                     .arg(b.block().numKwargs()));
        const auto noBuffer = std::count_if(
            s->cut.begin(), s->cut.end(), [](const CrossingValue &c) { return c.noNeedBuffer; });
        QString summary = tr("<b>\u2702 Cut</b> \u00b7 %1 values cross").arg(s->cut.size());
        // What the forward leaves allocated for the backward, as Paddle's executor keeps it (no
        // no-need-buffer values, shared buffers once, above the parameters and inputs).
        if (s->memory && s->training) {
            const MemoryReport &memory = m_inferredMemory ? *m_inferredMemory : *s->memory;
            summary
                += tr(" \u00b7 %1 kept").arg(CrossingValuesModel::bytesText(memory.keptAfterForwardBytes));
            if (!memory.unknown.empty())
                summary += tr(" + %n of unknown size", nullptr, int(memory.unknown.size()));
            if (m_inferredMemory)
                summary += tr(" (sizes inferred from the input shapes)");
        } else {
            summary += tr(" \u00b7 %1 kept").arg(CrossingValuesModel::bytesText(s->keptBytes));
            if (s->dynamicValues)
                summary += tr(" + %1 of dynamic size").arg(s->dynamicValues);
        }
        if (noBuffer)
            summary += tr(" \u00b7 %1 no-need-buffer").arg(noBuffer);
        m_cutSummary->setText(summary);
    }
    m_notice->setText(s ? s->notice : QString());
    m_notice->setVisible(s && !s->notice.isEmpty());
}

std::vector<const Operation *> SplitView::linkedOps(ProgramSide side, const Operation *op) const
{
    if (!m_snapshot || !op)
        return {};
    if (side == ProgramSide::Forward) {
        auto it = m_snapshot->gradOpsOf.find(op);
        return it == m_snapshot->gradOpsOf.end() ? std::vector<const Operation *>() : it->second;
    }
    auto it = m_snapshot->forwardOpOf.find(op);
    return it == m_snapshot->forwardOpOf.end() ? std::vector<const Operation *>()
                                               : std::vector<const Operation *> { it->second };
}

void SplitView::onOpSelected(ProgramSide side, Operation *op)
{
    selectOp(side, op, Reveal::Keep);
    emit opSelected(side, op);
}

void SplitView::selectOp(ProgramSide side, const Operation *op, Reveal reveal)
{
    GraphView *own = view(side);
    GraphView *other = side == ProgramSide::Forward ? m_backward : m_forward;
    if (!own)
        return;
    own->graphScene()->selectOp(op);
    own->graphScene()->clearHighlight();
    if (reveal == Reveal::Keep)
        own->reveal(own->graphScene()->itemForOp(op));
    else if (op)
        own->bringOpsIntoView({ op });
    const std::vector<const Operation *> linked = linkedOps(side, op);
    other->graphScene()->highlight(linked, {});
    other->bringOpsIntoView(linked);
}

void SplitView::selectValue(ProgramSide side, Value value, const Operation *at, Reveal reveal)
{
    GraphView *own = view(side);
    if (!own)
        return;
    GraphScene *scene = own->graphScene();
    const bool atOp = at && value.definingOp() && scene->nodeOfOp(at) >= 0;
    if (atOp)
        scene->selectOp(at);
    else
        scene->selectValue(value);
    scene->highlight({}, { value });
    if (reveal == Reveal::Keep)
        own->reveal(atOp ? scene->itemForOp(at) : scene->itemForValue(value));
    else if (atOp)
        own->bringOpsIntoView({ at });
    else
        own->bringValueIntoView(value);
}

void SplitView::onCutRowChanged(const QModelIndex &current)
{
    if (!current.isValid())
        return;
    const Value forward = valueFromIndex(current);
    const Value backward = valueFromIndex(current, BackwardValueRole);
    selectValue(ProgramSide::Forward, forward);
    m_backward->graphScene()->selectOp(nullptr);
    m_backward->graphScene()->highlight({}, { backward });
    m_backward->bringValueIntoView(backward);
    emit valueSelected(ProgramSide::Forward, forward);
}

} // namespace ps
