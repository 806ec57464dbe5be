#include "ui/graphscene.h"

#include "core/graph/ghostchiplayout.h"
#include "ui/graphclusteritem.h"
#include "ui/graphedgeitem.h"
#include "ui/graphnodeitem.h"

#include <QApplication>
#include <unordered_set>

namespace ps {

GraphScene::GraphScene(QObject *parent)
    : QGraphicsScene(parent)
{
    m_nodeFont = QApplication::font();
    m_nodeFont.setPixelSize(11);
    m_ghostFont = m_nodeFont;
    m_ghostFont.setPixelSize(9);
    m_edgeFont = m_nodeFont;
    m_edgeFont.setPixelSize(8);
    setBackgroundBrush(QColor(0xfb, 0xfb, 0xfc));
    connect(this, &QGraphicsScene::selectionChanged, this, &GraphScene::onSelectionChanged);
}

GraphScene::~GraphScene()
{
    blockSignals(true);
    clear();
}

std::vector<NodeSize> GraphScene::measureNodes(const GraphModel &model) const
{
    std::vector<NodeSize> sizes;
    sizes.reserve(model.nodes.size());
    for (const GraphNode &node : model.nodes) {
        const QSizeF s = GraphNodeItem::preferredSize(node, node.ghost ? m_ghostFont : m_nodeFont);
        sizes.push_back({ s.width(), s.height() });
    }
    return sizes;
}

void GraphScene::clearGraph()
{
    m_silent = true;
    clear();
    m_silent = false;
    m_nodeItems.clear();
    m_edgeItems.clear();
    m_edgesOfValue.clear();
    m_highlighted.clear();
    m_marked.clear();
    m_model.reset();
    m_layout.reset();
    setSceneRect(QRectF());
}

void GraphScene::setGraph(std::shared_ptr<const GraphModel> model, std::shared_ptr<const LayoutResult> layout)
{
    clearGraph();
    m_model = std::move(model);
    m_layout = std::move(layout);
    if (!m_model || !m_layout)
        return;
    const GraphModel &m = *m_model;
    const LayoutResult &l = *m_layout;

    for (const GraphCluster &c : m.clusters) {
        if (size_t(c.id) < l.clusters.size() && !l.clusters[c.id].isNull())
            addItem(new GraphClusterItem(
                c.id, c.op, l.clusters[c.id], QString::fromStdString(c.label), m_nodeFont));
        if (size_t(c.id) < l.clusterEdges.size() && l.clusterEdges[c.id].valid)
            addItem(new GraphEdgeItem(l.clusterEdges[c.id], Value(), QString(), m_edgeFont, true));
    }
    // Ghosts that Graphviz did not place are chips inside their consumer (GhostChipLayout).
    const std::vector<NodeSize> sizes = measureNodes(m);
    const std::vector<std::vector<int>> ghosts = m.ghostsByConsumer();
    auto laidOut = [&l](int id) { return size_t(id) < l.nodes.size() && !l.nodes[size_t(id)].isNull(); };
    m_nodeItems.assign(m.nodes.size(), nullptr);
    for (const GraphNode &n : m.nodes) {
        if (!laidOut(n.id))
            continue;
        const QRectF rect = l.nodes[size_t(n.id)];
        auto *item = new GraphNodeItem(n, rect, n.ghost ? m_ghostFont : m_nodeFont);
        m_nodeItems[size_t(n.id)] = item;
        addItem(item);
        std::vector<int> chips;
        for (int g : ghosts[size_t(n.id)])
            if (!laidOut(g))
                chips.push_back(g);
        if (chips.empty())
            continue;
        std::vector<NodeSize> chipSizes;
        for (int g : chips)
            chipSizes.push_back(sizes[size_t(g)]);
        const GhostChipLayout chipLayout = GhostChipLayout::compute(sizes[size_t(n.id)], chipSizes);
        item->setLabelHeight(chipLayout.labelHeight);
        const QPointF origin = rect.topLeft() + QPointF((rect.width() - chipLayout.box.width) / 2, 0);
        for (size_t i = 0; i < chips.size(); ++i) {
            const GraphNode &ghost = m.nodes[size_t(chips[i])];
            const QRectF chipRect(origin + QPointF(chipLayout.chipOffsets[i].x, chipLayout.chipOffsets[i].y),
                QSizeF(chipSizes[i].width, chipSizes[i].height));
            auto *chip = new GraphNodeItem(ghost, chipRect, m_ghostFont);
            chip->setZValue(item->zValue() + 1);
            m_nodeItems[size_t(ghost.id)] = chip;
            addItem(chip);
        }
    }
    m_edgeItems.assign(m.edges.size(), nullptr);
    for (const GraphEdge &e : m.edges) {
        if (size_t(e.id) >= l.edges.size() || !l.edges[size_t(e.id)].valid)
            continue; // attached ghosts have no edge
        auto *item = new GraphEdgeItem(l.edges[size_t(e.id)], e.value, QString::fromStdString(e.label),
            m_edgeFont, m.nodes[size_t(e.from)].ghost);
        m_edgeItems[size_t(e.id)] = item;
        m_edgesOfValue[e.value].push_back(item);
        addItem(item);
    }
    setSceneRect(l.bounds.adjusted(-40, -40, 40, 40));
    applyOpMarks();
}

GraphNodeItem *GraphScene::itemForOp(const Operation *op) const
{
    if (!m_model || !op)
        return nullptr;
    int id = m_model->nodeOf(op);
    if (id < 0) {
        auto it = m_model->ghostsOfOp.find(op);
        if (it == m_model->ghostsOfOp.end())
            return nullptr;
        id = it->second;
    }
    return size_t(id) < m_nodeItems.size() ? m_nodeItems[id] : nullptr;
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

void GraphScene::selectOp(const Operation *op)
{
    m_silent = true;
    clearSelection();
    if (GraphNodeItem *item = itemForOp(op))
        item->setSelected(true);
    m_silent = false;
}

void GraphScene::selectValue(Value value)
{
    m_silent = true;
    clearSelection();
    if (GraphNodeItem *item = itemForValue(value))
        item->setSelected(true);
    m_silent = false;
}

void GraphScene::clearHighlight()
{
    for (QGraphicsItem *item : m_highlighted) {
        if (item->type() == GraphNodeItem::Type)
            static_cast<GraphNodeItem *>(item)->setHighlighted(false);
        else if (item->type() == GraphEdgeItem::Type)
            static_cast<GraphEdgeItem *>(item)->setHighlighted(false);
    }
    m_highlighted.clear();
}

void GraphScene::highlight(const std::vector<const Operation *> &ops, const std::vector<Value> &values)
{
    clearHighlight();
    if (!m_model)
        return;
    auto mark = [this](GraphNodeItem *item) {
        if (item && !item->isHighlighted()) {
            item->setHighlighted(true);
            m_highlighted.push_back(item);
        }
    };
    for (const Operation *op : ops) {
        int id = m_model->nodeOf(op);
        if (id >= 0)
            mark(m_nodeItems[id]);
        auto [begin, end] = m_model->ghostsOfOp.equal_range(op);
        for (auto it = begin; it != end; ++it)
            mark(m_nodeItems[it->second]);
    }
    std::unordered_set<Value> valueSet(values.begin(), values.end());
    for (Value v : values) {
        auto it = m_edgesOfValue.find(v);
        if (it == m_edgesOfValue.end())
            continue;
        for (GraphEdgeItem *edge : it->second) {
            edge->setHighlighted(true);
            m_highlighted.push_back(edge);
        }
    }
    for (GraphNodeItem *item : m_nodeItems)
        if (item && item->value() && valueSet.count(item->value()))
            mark(item);
}

void GraphScene::setOpMarks(const OpMarks &marks)
{
    m_opMarks = marks;
    applyOpMarks();
}

void GraphScene::applyOpMarks()
{
    for (GraphNodeItem *item : m_marked)
        item->setMarks(NodeMarks {});
    m_marked.clear();
    if (!m_model)
        return;
    for (const auto &[op, marks] : m_opMarks) {
        GraphNodeItem *item = itemForOp(op);
        if (!item)
            continue;
        NodeMarks shown = marks;
        if (item->isGhost()) // a chip is too small for a time badge
            shown.milliseconds = shown.deviceMilliseconds = -1;
        if (shown.empty())
            continue;
        item->setMarks(shown);
        m_marked.push_back(item);
    }
}

void GraphScene::onSelectionChanged()
{
    if (m_silent)
        return;
    const QList<QGraphicsItem *> items = selectedItems();
    for (QGraphicsItem *item : items) {
        if (item->type() != GraphNodeItem::Type)
            continue;
        auto *node = static_cast<GraphNodeItem *>(item);
        if (node->op())
            emit opSelected(node->op());
        else
            emit valueSelected(node->value());
        return;
    }
    emit opSelected(nullptr);
}

} // namespace ps
