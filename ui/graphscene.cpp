#include "ui/graphscene.h"

#include "core/graph/graphbuilder.h"
#include "ui/graphclusteritem.h"
#include "ui/graphedgeitem.h"
#include "ui/graphgroupitem.h"
#include "ui/graphnodeitem.h"
#include "ui/render/edgelabelcrowds.h"

#include <QApplication>
#include <QGraphicsSceneHelpEvent>
#include <QGraphicsSceneMouseEvent>
#include <QToolTip>
#include <algorithm>
#include <unordered_set>

namespace ps {

GraphScene::GraphScene(QObject *parent)
    : QGraphicsScene(parent)
{
    setBackgroundBrush(m_style.background());
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

GraphScene::~GraphScene()
{
    blockSignals(true);
    clear();
}

void GraphScene::setStyle(const GraphStyle &style)
{
    m_style = style;
    setBackgroundBrush(m_style.background());
    update();
}

void GraphScene::clearGraph()
{
    m_silent = true;
    clear();
    m_silent = false;
    m_nodeItems.clear();
    m_edgeItems.clear();
    m_groupItems.clear();
    m_edgesOfValue.clear();
    m_lastSelected = nullptr;
    m_decorated.clear();
    m_marked.clear();
    m_model.reset();
    m_layout.reset();
    m_selectedOp = nullptr;
    m_selectedValue = Value();
    m_highlightOps.clear();
    m_highlightValues.clear();
    m_matches.clear();
    setSceneRect(QRectF());
}

void GraphScene::setGraph(std::shared_ptr<const GraphModel> model, std::shared_ptr<const GraphLayout> layout)
{
    const bool sameModel = model && model == m_model;
    const Operation *selectedOp = m_selectedOp;
    const Value selectedValue = m_selectedValue;
    auto highlightOps = std::move(m_highlightOps);
    auto highlightValues = std::move(m_highlightValues);
    auto matches = std::move(m_matches);
    clearGraph();
    m_model = std::move(model);
    m_layout = std::move(layout);
    if (!m_model || !m_layout)
        return;
    if (sameModel) {
        m_selectedOp = selectedOp;
        m_selectedValue = selectedValue;
        m_highlightOps = std::move(highlightOps);
        m_highlightValues = std::move(highlightValues);
        m_matches = std::move(matches);
    }
    const GraphModel &m = *m_model;
    const GraphLayout &l = *m_layout;

    m_groupItems.assign(m.groups.size(), nullptr);
    for (const LayerGroup &g : m.groups) {
        const GraphLayout::Group &placed = l.groups[size_t(g.id)];
        if (placed.state == GraphLayout::GroupState::Hidden)
            continue;
        GroupVisual visual;
        visual.rect = placed.rect;
        visual.title = QString::fromStdString(g.label);
        visual.detail = GraphStyle::groupDetail(g);
        visual.kind = g.kind;
        visual.expanded = placed.state == GraphLayout::GroupState::Expanded;
        visual.depth = placed.depth;
        auto *item = new GraphGroupItem(g.id, visual, QString::fromStdString(g.path), &m_style);
        m_groupItems[size_t(g.id)] = item;
        addItem(item);
    }
    for (const GraphCluster &c : m.clusters)
        if (size_t(c.id) < l.clusters.size() && !l.clusters[size_t(c.id)].isNull())
            addItem(new GraphClusterItem(
                c.id, c.op, l.clusters[size_t(c.id)], l.clusterLabels[size_t(c.id)], &m_style));
    m_edgeItems.reserve(l.segments.size());
    for (const GraphLayout::Segment &s : l.segments) {
        const QString label = s.labelled && s.modelEdge >= 0
            ? QString::fromStdString(m.edges[size_t(s.modelEdge)].label)
            : QString();
        auto *item = new GraphEdgeItem(s.geometry, s.value, label, s.dashed, &m_style);
        m_edgeItems.push_back(item);
        if (s.value)
            m_edgesOfValue[s.value].push_back(item);
        addItem(item);
    }
    m_nodeItems.assign(m.nodes.size(), nullptr);
    for (const GraphNode &n : m.nodes) {
        if (!l.shows(n.id))
            continue;
        auto *item = new GraphNodeItem(n, l.nodes[size_t(n.id)], l.labelHeights[size_t(n.id)], &m_style);
        m_nodeItems[size_t(n.id)] = item;
        addItem(item);
    }
    setSceneRect(l.bounds.adjusted(-40, -40, 40, 40));
    applySelection();
    applyHighlight();
    applyOpMarks();
}

int GraphScene::nodeOfOp(const Operation *op) const
{
    if (!m_model || !op)
        return -1;
    const int id = m_model->nodeOf(op);
    if (id >= 0)
        return id;
    auto it = m_model->ghostsOfOp.find(op);
    return it == m_model->ghostsOfOp.end() ? -1 : it->second;
}

GraphNodeItem *GraphScene::itemForOp(const Operation *op) const
{
    const int id = nodeOfOp(op);
    return id >= 0 && size_t(id) < m_nodeItems.size() ? m_nodeItems[size_t(id)] : nullptr;
}

GraphNodeItem *GraphScene::itemForValue(Value value) const
{
    if (!value)
        return nullptr;
    if (Operation *op = value.definingOp())
        return itemForOp(op);
    for (GraphNodeItem *item : m_nodeItems)
        if (item && item->value() == value)
            return item;
    return nullptr;
}

GraphGroupItem *GraphScene::collapsedGroupOf(int node) const
{
    if (!m_model || node < 0 || !m_layout)
        return nullptr;
    GraphGroupItem *outermost = nullptr;
    for (int g = m_model->nodes[size_t(node)].group; g >= 0; g = m_model->groups[size_t(g)].parent)
        if (m_layout->stateOf(g) == GraphLayout::GroupState::Collapsed)
            outermost = m_groupItems[size_t(g)];
    return outermost;
}

QGraphicsItem *GraphScene::visibleItemForNode(int node) const
{
    if (!m_model || node < 0 || size_t(node) >= m_nodeItems.size())
        return nullptr;
    if (m_nodeItems[size_t(node)])
        return m_nodeItems[size_t(node)];
    return collapsedGroupOf(node);
}

void GraphScene::selectOp(const Operation *op)
{
    m_selectedOp = op;
    m_selectedValue = Value();
    applySelection();
}

void GraphScene::selectNode(int node)
{
    QGraphicsItem *item = visibleItemForNode(node);
    m_silent = true;
    clearSelection();
    m_silent = false;
    if (item)
        item->setSelected(true);
}

void GraphScene::selectValue(Value value)
{
    m_selectedOp = nullptr;
    m_selectedValue = value;
    applySelection();
}

void GraphScene::applySelection()
{
    m_silent = true;
    clearSelection();
    QGraphicsItem *item = nullptr;
    if (m_selectedOp)
        item = visibleItemForNode(nodeOfOp(m_selectedOp));
    else if (m_selectedValue)
        item = itemForValue(m_selectedValue);
    if (item)
        item->setSelected(true);
    m_silent = false;
}

void GraphScene::clearHighlight()
{
    m_highlightOps.clear();
    m_highlightValues.clear();
    applyHighlight();
}

void GraphScene::highlight(const std::vector<const Operation *> &ops, const std::vector<Value> &values)
{
    m_highlightOps = ops;
    m_highlightValues = values;
    applyHighlight();
}

void GraphScene::setMatches(const std::vector<int> &nodes)
{
    m_matches = nodes;
    applyHighlight();
}

void GraphScene::applyHighlight()
{
    for (QGraphicsItem *item : m_decorated) {
        if (item->type() == GraphNodeItem::Type) {
            static_cast<GraphNodeItem *>(item)->setHighlighted(false);
            static_cast<GraphNodeItem *>(item)->setMatched(false);
        } else if (item->type() == GraphEdgeItem::Type) {
            static_cast<GraphEdgeItem *>(item)->setHighlighted(false);
        } else if (item->type() == GraphGroupItem::Type) {
            static_cast<GraphGroupItem *>(item)->setHighlighted(false);
            static_cast<GraphGroupItem *>(item)->setMatched(false);
        }
    }
    m_decorated.clear();
    if (!m_model)
        return;
    auto mark = [this](QGraphicsItem *item, bool match) {
        if (!item)
            return;
        if (item->type() == GraphNodeItem::Type) {
            auto *node = static_cast<GraphNodeItem *>(item);
            match ? node->setMatched(true) : node->setHighlighted(true);
        } else if (item->type() == GraphGroupItem::Type) {
            auto *group = static_cast<GraphGroupItem *>(item);
            match ? group->setMatched(true) : group->setHighlighted(true);
        }
        m_decorated.push_back(item);
    };
    for (const Operation *op : m_highlightOps) {
        mark(visibleItemForNode(m_model->nodeOf(op)), false);
        auto [begin, end] = m_model->ghostsOfOp.equal_range(op);
        for (auto it = begin; it != end; ++it)
            mark(visibleItemForNode(it->second), false);
    }
    std::unordered_set<Value> valueSet(m_highlightValues.begin(), m_highlightValues.end());
    for (Value v : m_highlightValues) {
        auto it = m_edgesOfValue.find(v);
        if (it == m_edgesOfValue.end())
            continue;
        for (GraphEdgeItem *edge : it->second) {
            edge->setHighlighted(true);
            m_decorated.push_back(edge);
        }
    }
    if (!valueSet.empty())
        for (GraphNodeItem *item : m_nodeItems)
            if (item && item->value() && valueSet.count(item->value()))
                mark(item, false);
    for (int node : m_matches)
        mark(visibleItemForNode(node), true);
}

void GraphScene::setOpMarks(const OpMarks &marks)
{
    m_opMarks = marks;
    applyOpMarks();
}

void GraphScene::setOpAccuracy(const OpAccuracy &accuracy)
{
    m_opAccuracy = accuracy;
    applyOpMarks();
}

void GraphScene::setOpKeptBytes(const OpKeptBytes &kept)
{
    m_opKept = kept;
    applyOpMarks();
}

void GraphScene::applyOpMarks()
{
    for (QGraphicsItem *item : m_marked) {
        if (item->type() == GraphNodeItem::Type)
            static_cast<GraphNodeItem *>(item)->setMarks(NodeMarks {});
        else
            static_cast<GraphGroupItem *>(item)->setMarks(NodeMarks {});
    }
    m_marked.clear();
    if (!m_model)
        return;
    std::unordered_map<GraphGroupItem *, NodeMarks> inside;
    OpMarks all = m_opMarks;
    for (const auto &[op, accuracy] : m_opAccuracy)
        all[op].accuracy = accuracy;
    int64_t keptTotal = 0;
    for (const auto &[op, bytes] : m_opKept)
        keptTotal += bytes;
    for (const auto &[op, bytes] : m_opKept) {
        all[op].keptBytes = bytes;
        all[op].keptShare = keptTotal > 0 ? float(double(bytes) / double(keptTotal)) : 0.f;
    }
    for (const auto &[op, marks] : all) {
        const int node = nodeOfOp(op);
        if (GraphNodeItem *item = node >= 0 ? m_nodeItems[size_t(node)] : nullptr) {
            NodeMarks shown = marks;
            if (item->isGhost()) // a chip is too small for a time badge
                shown.milliseconds = shown.deviceMilliseconds = -1;
            if (shown.empty() && !shown.hasInferredShapes())
                continue;
            item->setMarks(shown);
            m_marked.push_back(item);
            if (marks.change == NodeMarks::Change::None && !marks.faded
                && marks.accuracy == NodeMarks::Accuracy::None)
                continue;
            // What a pass did to a shared value's producer shows on every ghost of it.
            const auto [from, to] = m_model->ghostsOfOp.equal_range(op);
            for (auto it = from; it != to; ++it) {
                GraphNodeItem *ghost
                    = size_t(it->second) < m_nodeItems.size() ? m_nodeItems[size_t(it->second)] : nullptr;
                if (!ghost || ghost == item)
                    continue;
                NodeMarks chip;
                chip.change = marks.change;
                chip.faded = marks.faded;
                chip.accuracy = marks.accuracy;
                ghost->setMarks(chip);
                m_marked.push_back(ghost);
            }
        } else if (GraphGroupItem *group = collapsedGroupOf(node)) {
            NodeMarks &m = inside[group];
            m.current = m.current || marks.current;
            m.error = m.error || marks.error;
            m.nonFinite = m.nonFinite || marks.nonFinite;
            m.breakpoint = m.breakpoint || (marks.breakpoint && !marks.breakpointDisabled);
            m.accuracy = std::max(m.accuracy, marks.accuracy);
            m.keptBytes += marks.keptBytes;
            m.keptShare += marks.keptShare;
            m.removedInside += marks.change == NodeMarks::Change::Removed ? 1 : 0;
            m.addedInside += marks.change == NodeMarks::Change::Added ? 1 : 0;
            m.changedInside += marks.change == NodeMarks::Change::Changed ? 1 : 0;
            if (marks.timeShare >= 0)
                m.timeShare = std::max(m.timeShare, 0.f) + marks.timeShare;
        }
    }
    // Edges labelled with their value's type show the run's shape where it differs.
    for (GraphEdgeItem *edge : m_edgeItems) {
        const Value v = edge->value();
        const Operation *producer = v ? v.definingOp() : nullptr;
        const auto it = producer ? all.find(producer) : all.end();
        QString runtime;
        const std::vector<std::vector<int64_t>> *shapes = nullptr;
        if (it != all.end())
            shapes
                = !it->second.runtimeShapes.empty() ? &it->second.runtimeShapes : &it->second.inferredShapes;
        if (shapes && v.index() < shapes->size()
            && edge->declaredLabel() == QString::fromStdString(GraphBuilder::shapeText(v.type()))) {
            runtime = GraphNodeItem::runtimeShapeText(v.type(), (*shapes)[v.index()]);
            if (runtime == edge->declaredLabel())
                runtime.clear();
        }
        if (!runtime.isEmpty() || edge->hasRuntimeLabel())
            edge->setRuntimeLabel(runtime);
    }
    for (auto &[group, marks] : inside) {
        if (marks.empty())
            continue;
        group->setMarks(marks);
        m_marked.push_back(group);
    }
    spreadEdgeLabels();
}

void GraphScene::spreadEdgeLabels()
{
    std::vector<QRectF> rects;
    rects.reserve(m_edgeItems.size());
    for (GraphEdgeItem *edge : m_edgeItems)
        rects.push_back(edge->ownLabelRect());
    const std::vector<EdgeLabelCrowds::Placement> placed = EdgeLabelCrowds::place(rects);
    for (size_t i = 0; i < m_edgeItems.size(); ++i)
        m_edgeItems[i]->setLabelCrowd(placed[i].hidden, placed[i].others, placed[i].left);
}

void GraphScene::onSelectionChanged()
{
    const QList<QGraphicsItem *> items = selectedItems();
    if (m_silent) {
        m_lastSelected = items.value(0);
        return;
    }
    // One node is selected at a time: the one just added (setSelected() adds to the selection),
    // else the first. A layer group selects nothing for the panels.
    QGraphicsItem *chosen = nullptr;
    for (QGraphicsItem *item : items) {
        if (item->type() == GraphGroupItem::Type)
            return;
        if (item->type() == GraphNodeItem::Type && (!chosen || chosen == m_lastSelected))
            chosen = item;
    }
    m_lastSelected = chosen;
    if (!chosen) {
        m_selectedOp = nullptr;
        m_selectedValue = Value();
        emit opSelected(nullptr);
        return;
    }
    if (items.size() > 1) {
        m_silent = true;
        for (QGraphicsItem *item : items)
            if (item != chosen)
                item->setSelected(false);
        m_silent = false;
    }
    auto *node = static_cast<GraphNodeItem *>(chosen);
    if (node->op()) {
        m_selectedOp = node->op();
        m_selectedValue = Value();
        emit opSelected(node->op());
    } else {
        m_selectedOp = nullptr;
        m_selectedValue = node->value();
        emit valueSelected(node->value());
    }
}

QGraphicsItem *GraphScene::itemAtPoint(const QPointF &scenePos) const
{
    QGraphicsItem *edge = nullptr;
    for (QGraphicsItem *item : items(scenePos, Qt::IntersectsItemShape, Qt::DescendingOrder)) {
        if (item->type() == GraphNodeItem::Type)
            return item;
        if (!edge && item->type() == GraphEdgeItem::Type && static_cast<GraphEdgeItem *>(item)->value())
            edge = item;
    }
    return edge;
}

void GraphScene::helpEvent(QGraphicsSceneHelpEvent *event)
{
    QGraphicsItem *item = itemAtPoint(event->scenePos());
    if (!item) {
        QGraphicsScene::helpEvent(event); // groups and other items keep their own tooltips
        return;
    }
    QString text = m_toolTipProvider ? m_toolTipProvider(item) : QString();
    if (text.isEmpty())
        text = item->toolTip();
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
        return;
    }
    QToolTip::showText(event->screenPos(), text, event->widget());
    event->accept();
}

void GraphScene::mouseReleaseEvent(QGraphicsSceneMouseEvent *event)
{
    QGraphicsScene::mouseReleaseEvent(event);
    // A click (no drag) on an edge selects its value; nodes select themselves.
    if (event->button() != Qt::LeftButton || mouseGrabberItem()
        || (event->screenPos() - event->buttonDownScreenPos(Qt::LeftButton)).manhattanLength()
            > QApplication::startDragDistance())
        return;
    QGraphicsItem *item = itemAtPoint(event->scenePos());
    if (item && item->type() == GraphEdgeItem::Type)
        emit valueSelected(static_cast<GraphEdgeItem *>(item)->value());
}

} // namespace ps
