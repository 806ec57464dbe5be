#include "ui/render/grouplayoutengine.h"

#include "core/graph/ghostchiplayout.h"
#include "core/graph/groupdotwriter.h"
#include "core/io/memorybudget.h"
#include "ui/render/graphvizthread.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace ps {

namespace {

LayoutResult::Edge translated(const LayoutResult::Edge &edge, const QPointF &offset)
{
    LayoutResult::Edge out = edge;
    out.path = edge.path.translated(offset);
    out.arrowBase += offset;
    out.arrowTip += offset;
    return out;
}

LayoutResult::Edge line(const QPointF &from, const QPointF &to)
{
    LayoutResult::Edge out;
    out.path.moveTo(from);
    out.path.lineTo(to);
    out.valid = true;
    return out;
}

int indexOf(const std::vector<Value> &values, Value v)
{
    auto it = std::find(values.begin(), values.end(), v);
    return it == values.end() ? -1 : int(it - values.begin());
}

template<class T> T at(const std::vector<T> &v, int i)
{
    return i >= 0 && size_t(i) < v.size() ? v[size_t(i)] : T();
}

} // namespace

/// One group's layout and the graph it was made from; `offset` maps it into the scene.
struct GroupLayoutEngine::Local
{
    std::shared_ptr<const LayoutResult> result;
    GroupDotWriter::Graph graph;
    QPointF offset;
};

/// Nests the group layouts into one GraphLayout, top-down.
class GroupLayoutEngine::Composer
{
public:
    Composer(const GroupLayoutEngine &engine, const Request &request, std::unordered_map<int, Local> &locals,
        GraphLayout &out)
        : m_engine(engine)
        , m_model(*engine.m_model)
        , m_request(request)
        , m_locals(locals)
        , m_out(out)
    {
    }

    void compose(int root)
    {
        m_out.nodes.assign(m_model.nodes.size(), QRectF());
        m_out.labelHeights.assign(m_model.nodes.size(), 0);
        m_out.groups.assign(m_model.groups.size(), GraphLayout::Group());
        m_out.clusters.assign(m_model.clusters.size(), QRectF());
        m_out.clusterLabels.assign(m_model.clusters.size(), QString());
        Local &top = m_locals.at(root);
        top.offset = -top.result->bounds.topLeft();
        place(root, 0);
        m_out.bounds = top.result->bounds.translated(top.offset);
    }

private:
    void place(int group, int depth)
    {
        Local &local = m_locals.at(group);
        const LayoutResult &r = *local.result;
        for (const GroupItem &item : local.graph.items) {
            if (!item.isGroup) {
                placeNode(item.id, r, local.offset);
                continue;
            }
            const QRectF rect = r.groups.at(item.id).translated(local.offset);
            const bool expanded = m_request.expansion.isExpanded(item.id);
            m_out.groups[size_t(item.id)] = { rect,
                expanded ? GraphLayout::GroupState::Expanded : GraphLayout::GroupState::Collapsed, depth };
            if (!expanded)
                continue;
            Local &child = m_locals.at(item.id);
            child.offset
                = rect.topLeft() + m_request.style.frameContentOffset() - child.result->bounds.topLeft();
            place(item.id, depth + 1);
        }
        for (int node : m_engine.m_nodesOfGroup[size_t(group + 1)]) // ops inside regions
            if (!m_model.nodes[size_t(node)].ghost && m_model.nodes[size_t(node)].cluster >= 0)
                placeNode(node, r, local.offset);
        for (int cluster : local.graph.clusters) {
            m_out.clusters[size_t(cluster)] = at(r.clusters, cluster).translated(local.offset);
            m_out.clusterLabels[size_t(cluster)]
                = QString::fromStdString(m_model.clusters[size_t(cluster)].label);
            const LayoutResult::Edge edge = at(r.clusterEdges, cluster);
            if (edge.valid)
                m_out.segments.push_back({ translated(edge, local.offset), Value(), -1, false, true });
        }
        for (size_t k = 0; k < local.graph.edges.size(); ++k)
            placeEdge(local, local.graph.edges[k], at(r.edges, int(k)));
    }

    void placeEdge(const Local &local, const GroupDotWriter::Edge &e, const LayoutResult::Edge &geometry)
    {
        if (!geometry.valid)
            return;
        const LayoutResult::Edge edge = translated(geometry, local.offset);
        const bool intoFrame = e.toPort < 0 && e.to.isGroup && m_request.expansion.isExpanded(e.to.id);
        m_out.segments.push_back({ edge, e.value, e.modelEdge, e.toPort < 0 && !intoFrame, false });
        // Join the pieces inside expanded children through their ports.
        if (intoFrame) {
            const Local &child = m_locals.at(e.to.id);
            const int port = indexOf(child.graph.entries, e.value);
            if (port >= 0 && size_t(port) < child.result->entryPorts.size())
                m_out.segments.push_back({ line(edge.path.currentPosition(),
                                               child.result->entryPorts[size_t(port)] + child.offset),
                    e.value, e.modelEdge, false, false });
        }
        if (e.fromPort < 0 && e.from.isGroup && m_request.expansion.isExpanded(e.from.id)) {
            const Local &child = m_locals.at(e.from.id);
            const int port = indexOf(child.graph.exits, e.value);
            if (port >= 0 && size_t(port) < child.result->exitPorts.size())
                m_out.segments.push_back(
                    { line(child.result->exitPorts[size_t(port)] + child.offset, edge.path.elementAt(0)),
                        e.value, e.modelEdge, false, false });
        }
    }

    void placeNode(int node, const LayoutResult &r, const QPointF &offset)
    {
        const QRectF rect = r.nodes.at(node).translated(offset);
        if (rect.isNull())
            return;
        m_out.nodes[size_t(node)] = rect;
        const std::vector<int> &ghosts = m_engine.m_ghosts[size_t(node)];
        if (ghosts.empty())
            return;
        std::vector<NodeSize> chipSizes;
        for (int g : ghosts)
            chipSizes.push_back(m_engine.m_ownSizes[size_t(g)]);
        const GhostChipLayout chips = GhostChipLayout::compute(m_engine.m_ownSizes[size_t(node)], chipSizes);
        m_out.labelHeights[size_t(node)] = chips.labelHeight;
        const QPointF origin = rect.topLeft() + QPointF((rect.width() - chips.box.width) / 2, 0);
        for (size_t i = 0; i < ghosts.size(); ++i)
            m_out.nodes[size_t(ghosts[i])]
                = QRectF(origin + QPointF(chips.chipOffsets[i].x, chips.chipOffsets[i].y),
                    QSizeF(chipSizes[i].width, chipSizes[i].height));
    }

    const GroupLayoutEngine &m_engine;
    const GraphModel &m_model;
    const Request &m_request;
    std::unordered_map<int, Local> &m_locals;
    GraphLayout &m_out;
};

GroupLayoutEngine::GroupLayoutEngine(int cacheCapacity)
    : m_cacheCapacity(std::max(1, cacheCapacity))
{
}

GroupLayoutEngine::~GroupLayoutEngine() = default;

void GroupLayoutEngine::clearCache()
{
    m_cache.clear();
    m_cacheOrder.clear();
}

void GroupLayoutEngine::prepare(const Request &request)
{
    const QString fontKey
        = request.style.nodeFont().key() + QLatin1Char('|') + request.style.ghostFont().key();
    if (request.model == m_model && fontKey == m_fontKey)
        return;
    m_model = request.model;
    m_fontKey = fontKey;
    const GraphModel &m = *m_model;
    m_writer = std::make_unique<GroupDotWriter>(m);
    m_nodesOfGroup.assign(m.groups.size() + 1, {});
    for (const GraphNode &n : m.nodes)
        m_nodesOfGroup[size_t(n.group + 1)].push_back(n.id);
    m_ghosts = m.ghostsByConsumer();
    m_measuredGroup.assign(m.groups.size() + 1, 0);
    m_ownSizes.assign(m.nodes.size(), NodeSize());
    m_boxSizes.assign(m.nodes.size(), NodeSize());
}

void GroupLayoutEngine::measureGroup(int group, const GraphStyle &style)
{
    if (m_measuredGroup[size_t(group + 1)])
        return;
    m_measuredGroup[size_t(group + 1)] = 1;
    const GraphModel &m = *m_model;
    for (int n : m_nodesOfGroup[size_t(group + 1)]) {
        const QSizeF s = style.nodeSize(m.nodes[size_t(n)]);
        m_ownSizes[size_t(n)] = { s.width(), s.height() };
    }
    for (int n : m_nodesOfGroup[size_t(group + 1)]) {
        const std::vector<int> &ghosts = m_ghosts[size_t(n)];
        if (ghosts.empty() || m.nodes[size_t(n)].ghost) {
            m_boxSizes[size_t(n)] = m_ownSizes[size_t(n)];
            continue;
        }
        std::vector<NodeSize> chips;
        for (int g : ghosts)
            chips.push_back(m_ownSizes[size_t(g)]);
        m_boxSizes[size_t(n)] = GhostChipLayout::compute(m_ownSizes[size_t(n)], chips).box;
    }
}

std::shared_ptr<GraphLayout> GroupLayoutEngine::layout(void *gvc, const Request &request,
    const std::function<bool()> &canceled, const std::function<void(int, int)> &progress, QString *error)
{
    QElapsedTimer timer;
    timer.start();
    prepare(request);
    const GraphModel &m = *m_model;
    auto out = std::make_shared<GraphLayout>();
    out->expansion = request.expansion;
    out->rootGroup = request.rootGroup;

    // Innermost expanded groups first: a frame's size is its content's layout.
    std::vector<int> order;
    std::vector<std::pair<int, bool>> stack { { request.rootGroup, false } };
    while (!stack.empty()) {
        auto [group, visited] = stack.back();
        stack.pop_back();
        if (visited) {
            order.push_back(group);
            continue;
        }
        stack.push_back({ group, true });
        const std::vector<int> &children = group >= 0 ? m.groups[size_t(group)].groups : m.topGroups;
        for (auto it = children.rbegin(); it != children.rend(); ++it)
            if (request.expansion.isExpanded(*it))
                stack.push_back({ *it, false });
    }

    std::unordered_map<int, Local> locals;
    std::vector<NodeSize> groupSizes(m.groups.size());
    DotWriterOptions dot = request.dot;
    dot.nodeLabels = false; // fixed sizes: Graphviz need not measure any text
    for (size_t i = 0; i < order.size(); ++i) {
        if (canceled && canceled())
            return nullptr;
        if (progress)
            progress(int(i), int(order.size()));
        const int group = order[i];
        measureGroup(group, request.style);
        const std::vector<int> &children = group >= 0 ? m.groups[size_t(group)].groups : m.topGroups;
        for (int c : children) {
            const QSizeF s = request.expansion.isExpanded(c)
                ? request.style.frameSize(locals.at(c).result->bounds.size(), m.groups[size_t(c)])
                : request.style.collapsedGroupSize(m.groups[size_t(c)]);
            groupSizes[size_t(c)] = { s.width(), s.height() };
        }
        Local local;
        local.graph = m_writer->write(group, m_boxSizes, groupSizes, request.expansion, dot);
        if (local.graph.edges.empty() && local.graph.clusters.empty())
            local.result = gridLayout(local.graph.items, m_boxSizes, groupSizes);
        else if (!local.graph.clusters.empty()
            || !(local.result = chainLayout(local.graph, m_boxSizes, groupSizes, request.expansion))) {
            local.result = cachedOrRun(gvc, QByteArray::fromStdString(local.graph.dot),
                local.graph.items.size() + local.graph.edges.size(), *out, error);
            if (!local.result)
                return nullptr;
        }
        locals.emplace(group, std::move(local));
    }
    Composer(*this, request, locals, *out).compose(request.rootGroup);
    out->seconds = timer.nsecsElapsed() / 1e9;
    return out;
}

std::shared_ptr<const LayoutResult> GroupLayoutEngine::cachedOrRun(
    void *gvc, const QByteArray &dot, size_t elements, GraphLayout &stats, QString *error)
{
    const QByteArray hash = QCryptographicHash::hash(dot, QCryptographicHash::Sha1);
    if (auto it = m_cache.constFind(hash); it != m_cache.constEnd()) {
        ++stats.cachedRuns;
        m_cacheOrder.removeOne(hash);
        m_cacheOrder.append(hash);
        return *it;
    }
    const uint64_t bytes = std::max<uint64_t>(uint64_t(elements), 1) * kBytesPerElement;
    if (std::string why; !MemoryBudget::reserve(bytes, why)) {
        if (error)
            *error = QStringLiteral("laying out %1 boxes and edges in one graph %2 (the host-memory budget)")
                         .arg(elements)
                         .arg(QString::fromStdString(why));
        return nullptr;
    }
    QString message;
    std::shared_ptr<const LayoutResult> result = GraphvizThread::layout(gvc, dot, &message);
    MemoryBudget::release(bytes);
    if (!result) {
        if (error)
            *error = message;
        return nullptr;
    }
    ++stats.graphvizRuns;
    stats.graphvizSeconds += result->seconds;
    m_cache.insert(hash, result);
    m_cacheOrder.append(hash);
    while (m_cacheOrder.size() > m_cacheCapacity)
        m_cache.remove(m_cacheOrder.takeFirst());
    return result;
}

std::shared_ptr<const LayoutResult> GroupLayoutEngine::chainLayout(const GroupDotWriter::Graph &graph,
    const std::vector<NodeSize> &nodeSizes, const std::vector<NodeSize> &groupSizes,
    const GroupExpansion &expansion)
{
    // Graphviz costs milliseconds even for two boxes; most groups are a chain (a Linear's
    // matmul → add, a ConvBNAct). Spacing as DOT's ranksep and arrowsize.
    constexpr double kRankGap = 25;
    constexpr double kArrow = 7;
    constexpr double kPortGap = 10;
    const std::vector<GroupItem> &items = graph.items;
    if (items.empty() || items.size() > 12)
        return nullptr;
    auto indexOf = [&items](const GroupItem &item) {
        return int(std::find(items.begin(), items.end(), item) - items.begin());
    };
    std::vector<int> parallel(items.size(), 0); // edges from item k to item k + 1
    int entries = 0, exits = 0;
    for (const GroupDotWriter::Edge &e : graph.edges) {
        if (e.fromPort >= 0) {
            if (indexOf(e.to) != 0)
                return nullptr;
            ++entries;
        } else if (e.toPort >= 0) {
            if (indexOf(e.from) != int(items.size()) - 1)
                return nullptr;
            ++exits;
        } else {
            const int from = indexOf(e.from);
            if (indexOf(e.to) != from + 1)
                return nullptr;
            ++parallel[size_t(from)];
        }
    }
    for (size_t k = 0; k + 1 < items.size(); ++k)
        if (parallel[k] == 0)
            return nullptr;

    auto result = std::make_shared<LayoutResult>();
    auto sizeOf = [&](const GroupItem &item) {
        return item.isGroup ? groupSizes[size_t(item.id)] : nodeSizes[size_t(item.id)];
    };
    double width = 0;
    for (const GroupItem &item : items)
        width = std::max(width, sizeOf(item).width);
    width = std::max(width, std::max(entries, exits) * kPortGap);
    const double centre = width / 2;
    double y = entries > 0 ? kRankGap : 0;
    std::vector<QRectF> rects;
    for (const GroupItem &item : items) {
        const NodeSize s = sizeOf(item);
        const QRectF rect(centre - s.width / 2, y, s.width, s.height);
        rects.push_back(rect);
        (item.isGroup ? result->groups : result->nodes)[item.id] = rect;
        y = rect.bottom() + kRankGap;
    }
    const double bottom = rects.back().bottom();
    auto spread = [centre](int k, int n) { return centre + (k - (n - 1) / 2.0) * kPortGap; };
    for (int k = 0; k < entries; ++k)
        result->entryPorts.push_back(QPointF(spread(k, entries), 0));
    for (int k = 0; k < exits; ++k)
        result->exitPorts.push_back(QPointF(spread(k, exits), bottom + kRankGap));
    std::vector<int> drawn(items.size(), 0);
    for (const GroupDotWriter::Edge &e : graph.edges) {
        LayoutResult::Edge edge;
        QPointF from, to;
        if (e.fromPort >= 0) {
            from = result->entryPorts[size_t(e.fromPort)];
            to = QPointF(from.x(), rects.front().top());
        } else if (e.toPort >= 0) {
            to = result->exitPorts[size_t(e.toPort)];
            from = QPointF(to.x(), rects.back().bottom());
        } else {
            const int k = indexOf(e.from);
            const double x = spread(drawn[size_t(k)]++, parallel[size_t(k)]);
            from = QPointF(x, rects[size_t(k)].bottom());
            to = QPointF(x, rects[size_t(k) + 1].top());
        }
        const bool arrow = e.toPort < 0 && !(e.to.isGroup && expansion.isExpanded(e.to.id));
        edge.path.moveTo(from);
        edge.path.lineTo(arrow ? to - QPointF(0, kArrow) : to);
        if (arrow) {
            edge.hasArrow = true;
            edge.arrowBase = to - QPointF(0, kArrow);
            edge.arrowTip = to;
        }
        edge.valid = true;
        result->edges.push_back(edge);
    }
    result->bounds = QRectF(0, 0, width, exits > 0 ? bottom + kRankGap : bottom);
    return result;
}

std::shared_ptr<const LayoutResult> GroupLayoutEngine::gridLayout(const std::vector<GroupItem> &items,
    const std::vector<NodeSize> &nodeSizes, const std::vector<NodeSize> &groupSizes)
{
    // Items without edges between them (the unused parameters, a group of separate ops): rows
    // of a roughly square block instead of one very wide Graphviz rank.
    constexpr double kGap = 14;
    auto result = std::make_shared<LayoutResult>();
    double area = 0, widest = 0;
    for (const GroupItem &item : items) {
        const NodeSize s = item.isGroup ? groupSizes[size_t(item.id)] : nodeSizes[size_t(item.id)];
        area += (s.width + kGap) * (s.height + kGap);
        widest = std::max(widest, s.width);
    }
    const double rowWidth = std::max(widest, std::sqrt(area) * 1.6);
    double x = 0, y = 0, rowHeight = 0, right = 0;
    for (const GroupItem &item : items) {
        const NodeSize s = item.isGroup ? groupSizes[size_t(item.id)] : nodeSizes[size_t(item.id)];
        if (x > 0 && x + s.width > rowWidth) {
            x = 0;
            y += rowHeight + kGap;
            rowHeight = 0;
        }
        const QRectF rect(x, y, s.width, s.height);
        (item.isGroup ? result->groups : result->nodes)[item.id] = rect;
        x += s.width + kGap;
        right = std::max(right, rect.right());
        rowHeight = std::max(rowHeight, s.height);
    }
    result->bounds = QRectF(0, 0, right, y + rowHeight);
    return result;
}

} // namespace ps
