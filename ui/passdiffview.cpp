#include "ui/passdiffview.h"

#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "ui/graphedgeitem.h"
#include "ui/graphnodeitem.h"
#include "ui/graphscene.h"
#include "ui/graphview.h"

#include <QAction>
#include <QButtonGroup>
#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>
#include <QVBoxLayout>
#include <unordered_set>
#include <utility>

namespace ps {

namespace {

NodeMarks::Change markOf(OpChange c)
{
    switch (c) {
    case OpChange::Kept:
        return NodeMarks::Change::Kept;
    case OpChange::Changed:
        return NodeMarks::Change::Changed;
    case OpChange::Removed:
        return NodeMarks::Change::Removed;
    case OpChange::Added:
        return NodeMarks::Change::Added;
    }
    return NodeMarks::Change::None;
}

QString opName(const Operation *op)
{
    return QString::fromUtf8(op->name().data(), qsizetype(op->name().size()));
}

QLabel *legendChip(const QString &text, NodeMarks::Change change, QWidget *parent)
{
    const QColor c = GraphNodeItem::changeColor(change);
    auto *label
        = new QLabel(QStringLiteral("<span style='color:%1'>\u25a0</span> %2").arg(c.name(), text), parent);
    label->setTextFormat(Qt::RichText);
    return label;
}

} // namespace

PassDiffView::PassDiffView(QWidget *parent)
    : QWidget(parent)
    , m_view(new GraphView(this))
    , m_summary(new QLabel(this))
    , m_selection(new QLabel(this))
    , m_message(new QLabel(this))
    , m_nextChange(new QAction(tr("Next Change"), this))
    , m_previousChange(new QAction(tr("Previous Change"), this))
{
    setObjectName(QStringLiteral("passDiffView"));
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 2);
    auto *group = new QButtonGroup(this);
    const char *names[3] = { QT_TR_NOOP("Before"), QT_TR_NOOP("Diff"), QT_TR_NOOP("After") };
    const char *tips[3] = { QT_TR_NOOP("The program before the pass (the ops it adds are faint)"),
        QT_TR_NOOP("Both: removed ops red, added green, changed amber"),
        QT_TR_NOOP("The program after the pass (the ops it removed are faint)") };
    for (int i = 0; i < 3; ++i) {
        auto *b = new QToolButton(this);
        b->setText(tr(names[i]));
        b->setToolTip(tr(tips[i]));
        b->setCheckable(true);
        b->setAutoRaise(false);
        b->setObjectName(QStringLiteral("diffMode%1").arg(i));
        group->addButton(b, i);
        bar->addWidget(b);
        m_modeButtons[i] = b;
    }
    m_modeButtons[1]->setChecked(true);
    connect(group, &QButtonGroup::idClicked, this, [this](int id) { setMode(Mode(id)); });
    bar->addSpacing(8);
    bar->addWidget(legendChip(tr("removed"), NodeMarks::Change::Removed, this));
    bar->addWidget(legendChip(tr("added"), NodeMarks::Change::Added, this));
    bar->addWidget(legendChip(tr("changed"), NodeMarks::Change::Changed, this));
    bar->addSpacing(8);
    m_previousChange->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F8));
    m_nextChange->setShortcut(QKeySequence(Qt::Key_F8));
    for (QAction *a : { m_previousChange, m_nextChange }) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setToolTip(
            QStringLiteral("%1 (%2)").arg(a->text(), a->shortcut().toString(QKeySequence::NativeText)));
        addAction(a);
    }
    m_previousChange->setObjectName(QStringLiteral("previousChange"));
    m_nextChange->setObjectName(QStringLiteral("nextChange"));
    m_previousChange->setText(QStringLiteral("\u25b2"));
    m_nextChange->setText(QStringLiteral("\u25bc"));
    // The keys act on the tab shown: the pass view moves the text diff when that is in front.
    connect(m_nextChange, &QAction::triggered, this, [this] {
        if (isVisible())
            goToChange(1);
    });
    connect(m_previousChange, &QAction::triggered, this, [this] {
        if (isVisible())
            goToChange(-1);
    });
    for (QAction *a : { m_previousChange, m_nextChange }) {
        auto *b = new QToolButton(this);
        b->setDefaultAction(a);
        bar->addWidget(b);
    }
    bar->addSpacing(8);
    m_summary->setObjectName(QStringLiteral("diffSummary"));
    // Elided by the width it gets (the whole line in the tooltip), never widening the tab.
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    bar->addWidget(m_summary, 1);

    m_selection->setObjectName(QStringLiteral("diffSelection"));
    m_selection->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_selection->setContentsMargins(6, 2, 6, 2);
    m_selection->setWordWrap(true);
    m_message->setObjectName(QStringLiteral("diffMessage"));
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(bar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_message, 1);
    layout->addWidget(m_selection);

    connect(m_view->graphScene(), &GraphScene::opSelected, this, [this](Operation *op) { onOpSelected(op); });
    connect(m_view, &GraphView::layoutFinished, this, [this] {
        fadeEdges();
        if (std::exchange(m_firstView, false) && !m_changeNodes.empty())
            if (QGraphicsItem *item = m_view->graphScene()->visibleItemForNode(m_changeNodes.front()))
                m_view->centerOn(item);
    });
}

int PassDiffView::goToChange(int step)
{
    if (m_changeNodes.empty())
        return m_changeCursor = -1;
    const int n = int(m_changeNodes.size());
    m_changeCursor = m_changeCursor < 0 ? (step > 0 ? 0 : n - 1) : ((m_changeCursor + step) % n + n) % n;
    m_view->revealNode(m_changeNodes[size_t(m_changeCursor)], true, true);
    return m_changeCursor;
}

void PassDiffView::showMessage(const QString &message)
{
    m_graph.reset();
    m_changeNodes.clear();
    m_changeCursor = -1;
    m_marks.clear();
    m_view->clearGraph();
    m_view->hide();
    m_message->setText(message);
    m_message->show();
    m_summary->clear();
    m_selection->clear();
}

void PassDiffView::setDiffGraph(std::shared_ptr<const DiffGraph> graph)
{
    m_graph = std::move(graph);
    m_selection->clear();
    if (!m_graph) {
        showMessage(QString());
        return;
    }
    m_message->hide();
    m_view->show();
    size_t counts[4] = {};
    for (const auto &[op, change] : m_graph->change)
        if (!op->parentOp())
            ++counts[int(change)];
    QString summary = tr("%1 kept, %2 changed, %3 removed, %4 added")
                          .arg(counts[int(OpChange::Kept)])
                          .arg(counts[int(OpChange::Changed)])
                          .arg(counts[int(OpChange::Removed)])
                          .arg(counts[int(OpChange::Added)]);
    if (m_graph->cropped)
        summary += tr(" \u00b7 showing %1 of %2 ops: the changes and their neighbours")
                       .arg(m_graph->shownOps)
                       .arg(m_graph->totalOps);
    m_summary->setText(summary);
    m_summary->setToolTip(summary);
    m_changeNodes.clear();
    m_changeCursor = -1;
    std::unordered_set<const Operation *> chipOps;
    for (const GraphNode &n : m_graph->graph.nodes) {
        // An op drawn only as chips (a parameter) counts once, at its first chip.
        if (!n.op || (n.ghost && (m_graph->graph.nodeOf(n.op) >= 0 || !chipOps.insert(n.op).second)))
            continue;
        auto it = m_graph->change.find(n.op);
        if (it != m_graph->change.end() && it->second != OpChange::Kept)
            m_changeNodes.push_back(n.id);
    }
    m_firstView = true;
    applyMarks();
    m_view->showGraph(std::shared_ptr<const GraphModel>(m_graph, &m_graph->graph), m_changeNodes);
}

void PassDiffView::setMode(Mode mode)
{
    m_mode = mode;
    m_modeButtons[int(mode)]->setChecked(true);
    applyMarks();
    fadeEdges();
}

void PassDiffView::applyMarks()
{
    m_marks.clear();
    if (m_graph) {
        for (const auto &[op, change] : m_graph->change) {
            NodeMarks m;
            m.change = m_mode == Mode::Diff ? markOf(change) : NodeMarks::Change::None;
            m.faded = (m_mode == Mode::Before && change == OpChange::Added)
                || (m_mode == Mode::After && change == OpChange::Removed);
            if (!m.empty())
                m_marks.emplace(op, m);
        }
    }
    m_view->graphScene()->setOpMarks(m_marks);
}

void PassDiffView::fadeEdges()
{
    GraphScene *scene = m_view->graphScene();
    const GraphModel *model = scene->model();
    if (!m_graph || !model || model != &m_graph->graph)
        return;
    auto faded = [this, model](int node) {
        const Operation *op = size_t(node) < model->nodes.size() ? model->nodes[size_t(node)].op : nullptr;
        auto it = m_marks.find(op);
        return it != m_marks.end() && it->second.faded;
    };
    const std::vector<GraphEdgeItem *> &edges = scene->edgeItems();
    for (size_t k = 0; k < edges.size() && k < model->edges.size(); ++k)
        if (edges[k])
            edges[k]->setOpacity(faded(model->edges[k].from) || faded(model->edges[k].to) ? 0.2 : 1.0);
}

void PassDiffView::selectOp(const Operation *op)
{
    m_view->graphScene()->selectOp(op);
    m_view->centerOnOp(op);
    onOpSelected(op);
}

QString PassDiffView::selectionText() const
{
    return m_selection->text();
}

void PassDiffView::onOpSelected(const Operation *op)
{
    GraphScene *scene = m_view->graphScene();
    scene->clearHighlight();
    if (!op || !m_graph) {
        m_selection->clear();
        emit opSelected(op);
        return;
    }
    auto changeIt = m_graph->change.find(op);
    const OpChange change = changeIt == m_graph->change.end() ? OpChange::Kept : changeIt->second;
    QString text = QStringLiteral("%1 (%2)").arg(opName(op), QString::fromLatin1(opChangeName(change)));
    std::vector<const Operation *> related;
    if (auto it = m_graph->fusedFrom.find(op); it != m_graph->fusedFrom.end() && !it->second.empty()) {
        related = it->second;
        QStringList names;
        for (const Operation *r : related)
            names << opName(r);
        text += tr(" \u21d0 made from %1").arg(names.join(QStringLiteral(", ")));
    } else if (auto rb = m_graph->replacedBy.find(op);
               rb != m_graph->replacedBy.end() && !rb->second.empty()) {
        related = rb->second;
        QStringList names;
        for (const Operation *r : related)
            names << opName(r);
        text += tr(" \u21d2 its users now read %1").arg(names.join(QStringLiteral(", ")));
    }
    m_selection->setText(text);
    if (!related.empty())
        scene->highlight(related, {});
    emit opSelected(op);
}

} // namespace ps
