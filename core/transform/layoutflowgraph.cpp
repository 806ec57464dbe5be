#include "core/transform/layoutflowgraph.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/layoutrules.h"

#include <cmath>
#include <deque>
#include <limits>

namespace ps {

namespace {

constexpr float kInfinity = std::numeric_limits<float>::max();
// Paddle's THRESHOLD: "infinite" edges, half of the largest float so sums stay finite.
constexpr float kThreshold = kInfinity / 2.0f;

bool isVector(Value v)
{
    return v && v.type().kind() == Type::Kind::Vector;
}

/// Paddle's judge for a value the NHWC region may cross: a 4-D dense tensor (a vector by its
/// first element). `empty` is set for an empty vector, which Paddle lets through.
bool fourDimensional(Value v, bool &empty)
{
    empty = false;
    Type t = v.type();
    if (t.kind() == Type::Kind::Vector) {
        if (t.elements().empty()) {
            empty = true;
            return true;
        }
        t = t.elements().front();
    }
    return t.kind() == Type::Kind::DenseTensor && t.dims().size() == 4;
}

} // namespace

LayoutFlowGraph::LayoutFlowGraph(Program &program)
    : m_program(program)
{
    m_nodes.resize(3);
    m_adjacent.resize(3);
    m_linked.resize(3);
    build();
    preprocess();
}

LayoutFlowGraph::NodeId LayoutFlowGraph::opNode(Operation *op)
{
    auto [it, added] = m_opIds.try_emplace(op, m_nodes.size());
    if (added) {
        m_nodes.push_back({ op, Value() });
        m_adjacent.emplace_back();
        m_linked.emplace_back();
    }
    return it->second;
}

LayoutFlowGraph::NodeId LayoutFlowGraph::valueNode(Value v)
{
    if (!v)
        return kNullValue;
    auto [it, added] = m_valueIds.try_emplace(v, m_nodes.size());
    if (added) {
        m_nodes.push_back({ nullptr, v });
        m_adjacent.emplace_back();
        m_linked.emplace_back();
    }
    return it->second;
}

void LayoutFlowGraph::addEdge(NodeId src, NodeId dst, float capacity, bool real)
{
    if (src == dst || m_linked[src].contains(dst))
        return;
    m_edges.push_back({ src, dst, capacity, 0.0f, real });
    m_adjacent[src].push_back(m_edges.size() - 1);
    m_linked[src].insert(dst);
    m_edges.push_back({ dst, src, 0.0f, 0.0f, false });
    m_adjacent[dst].push_back(m_edges.size() - 1);
    m_linked[dst].insert(src);
}

void LayoutFlowGraph::build()
{
    for (Operation *op : m_program.block().ops()) {
        const NodeId opId = opNode(op);
        for (const Value v : layoutrules::relevantInputs(*op)) {
            float weight = 1.0f;
            if (v && !v.type().isNull())
                weight = isVector(v) ? kInfinity : 1.0f / float(v.useCount());
            addEdge(valueNode(v), opId, weight, true);
        }
        for (const Value v : layoutrules::relevantOutputs(*op))
            addEdge(opId, valueNode(v), isVector(v) ? kInfinity : 1.0f, true);
    }
}

void LayoutFlowGraph::preprocess()
{
    Block &block = m_program.block();
    const std::vector<Operation *> ops = block.ops();
    for (Operation *op : ops) {
        if (!layoutrules::hasImmutableLayout(op->name()) && op->numOperands() > 0)
            continue;
        addEdge(kSource, opNode(op), kThreshold, false);
        for (const Value v : layoutrules::relevantInputs(*op))
            addEdge(kSource, valueNode(v), kThreshold, false);
        for (const Value v : layoutrules::relevantOutputs(*op))
            addEdge(kSource, valueNode(v), kThreshold, false);
    }

    std::vector<bool> isMutable(m_nodes.size(), false);
    std::deque<NodeId> queue;
    for (Operation *op : ops) {
        if (!layoutrules::hasInterface(op->name()) || !layoutrules::canBeModified(*op)
            || !layoutrules::prefersNhwc(*op))
            continue;
        const NodeId id = opNode(op);
        isMutable[id] = true;
        queue.push_back(id);
        addEdge(id, kSink, kThreshold, false);
    }

    // A value used inside a nested block links to the top-level op that holds the use.
    for (Operation *op : ops) {
        for (const Value v : layoutrules::relevantOutputs(*op)) {
            for (const OpOperand *use = v.firstUse(); use; use = use->nextUse()) {
                Operation *user = use->owner();
                while (user && user->parentBlock() != &block)
                    user = user->parentOp();
                if (user && user != use->owner())
                    addEdge(valueNode(v), opNode(user), 1.0f, true);
            }
        }
    }

    // The NHWC candidates spread from the ops that prefer NHWC through every op that may change
    // layout and every 4-D value; a value that is not 4-D pins its producer and users.
    isMutable.resize(m_nodes.size(), false);
    std::vector<bool> visited(m_nodes.size(), false);
    auto unpin = [&](Operation *op) {
        if (auto it = m_opIds.find(op); it != m_opIds.end())
            isMutable[it->second] = false;
    };
    while (!queue.empty()) {
        const NodeId n = queue.front();
        queue.pop_front();
        if (visited[n])
            continue;
        visited[n] = true;
        bool interrupt = true;
        const Node &node = m_nodes[n];
        if (node.op) {
            interrupt = !layoutrules::hasInterface(node.op->name()) || !layoutrules::canBeModified(*node.op);
        } else if (node.value && !node.value.type().isNull()) {
            bool empty = false;
            const bool transformable = fourDimensional(node.value, empty);
            if (!transformable) {
                unpin(node.value.definingOp());
                for (const OpOperand *use = node.value.firstUse(); use; use = use->nextUse())
                    unpin(use->owner());
            }
            interrupt = !transformable;
        }
        if (interrupt)
            continue;
        isMutable[n] = true;
        for (const size_t e : m_adjacent[n])
            queue.push_back(m_edges[e].dst);
    }

    // Everything reachable that cannot turn NHWC is tied to the source (NCHW).
    visited.assign(m_nodes.size(), false);
    queue.push_back(kSource);
    while (!queue.empty()) {
        const NodeId n = queue.front();
        queue.pop_front();
        if (visited[n])
            continue;
        visited[n] = true;
        if (!isMutable[n])
            addEdge(kSource, n, kThreshold, false);
        for (const size_t e : m_adjacent[n])
            queue.push_back(m_edges[e].dst);
    }
}

bool LayoutFlowGraph::levelGraph()
{
    m_heights.assign(m_nodes.size(), 0);
    m_hasHeight.assign(m_nodes.size(), false);
    std::deque<std::pair<NodeId, size_t>> queue { { kSource, 0 } };
    while (!queue.empty()) {
        const auto [n, height] = queue.front();
        queue.pop_front();
        if (m_hasHeight[n])
            continue;
        m_hasHeight[n] = true;
        m_heights[n] = height;
        for (const size_t i : m_adjacent[n]) {
            const Edge &e = m_edges[i];
            if (e.capacity - e.flow > 0 && !m_hasHeight[e.dst])
                queue.emplace_back(e.dst, height + 1);
        }
    }
    return m_heights[kSink] > 0;
}

// Paddle's FindBlockingFlow: a node that passes nothing gets height 0 (a dead end), and the
// current-arc pointer advances before the edge is tried. Depth: the number of levels.
float LayoutFlowGraph::blockingFlow(NodeId src, float cf)
{
    if (src == kSink || std::abs(cf) < 1e-9)
        return cf;
    float ret = 0.0f;
    while (m_nextArc[src] < m_adjacent[src].size()) {
        const size_t index = m_adjacent[src][m_nextArc[src]++];
        const NodeId next = m_edges[index].dst;
        if (m_heights[next] != m_heights[src] + 1)
            continue;
        const float left = m_edges[index].capacity - m_edges[index].flow;
        const float f = blockingFlow(next, std::min(cf - ret, left));
        if (f > 0) {
            m_edges[index].flow += f;
            m_edges[index ^ 1].flow -= f;
            ret += f;
            if (std::abs(ret - cf) < 1e-9)
                return ret;
        }
    }
    if (ret == 0)
        m_heights[src] = 0;
    return ret;
}

std::vector<bool> LayoutFlowGraph::minCut()
{
    while (levelGraph()) {
        m_nextArc.assign(m_nodes.size(), 0);
        while (blockingFlow(kSource, kInfinity) != 0.0f) { }
    }
    std::vector<bool> inSource(m_nodes.size(), false);
    std::deque<NodeId> queue { kSource };
    while (!queue.empty()) {
        const NodeId n = queue.front();
        queue.pop_front();
        if (inSource[n])
            continue;
        inSource[n] = true;
        for (const size_t i : m_adjacent[n])
            if (m_edges[i].capacity > m_edges[i].flow)
                queue.push_back(m_edges[i].dst);
    }
    return inSource;
}

} // namespace ps
