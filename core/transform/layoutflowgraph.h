#pragma once

#include "core/ir/value.h"

#include <cstddef>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ps {

class Operation;
class Program;

/// The flow network of Paddle 3.3.1's transfer_layout_pass over the top-level block of a program,
/// and its minimum cut. Nodes are the top-level ops, the values they read and write (the relevant
/// ones, core/transform/layoutrules), a source (NCHW) and a sink (NHWC). Edges: value -> op with
/// capacity 1/uses (a vector value: "infinite"), op -> value with capacity 1 (vector: infinite);
/// the source feeds with a near-infinite capacity every op without operands or with an immutable
/// layout, their relevant values, and every node that cannot change layout; every op that can
/// change layout and prefers NHWC feeds the sink likewise. A value used inside a nested block
/// links to the top-level op holding that use.
///
/// Built, cut and walked exactly as Paddle's FlowGraph does (same insertion order, single
/// precision, Dinic's blocking flows, an edge never added twice nor against an existing one),
/// so ties between equally cheap cuts fall the same way. O(V * E) per blocking-flow phase.
class LayoutFlowGraph
{
public:
    using NodeId = size_t;
    static constexpr NodeId kSource = 0;
    static constexpr NodeId kSink = 1;
    /// Every null operand of an op without the interface maps to this one node (as in Paddle).
    static constexpr NodeId kNullValue = 2;

    struct Edge
    {
        NodeId src;
        NodeId dst;
        float capacity;
        float flow;
        bool real; ///< a program edge (or control-flow link), not a source/sink edge
    };

    struct Node
    {
        Operation *op = nullptr; ///< set for an op node
        Value value; ///< set for a value node
    };

    explicit LayoutFlowGraph(Program &program);

    /// Runs the max flow and returns the source side of the minimum cut, by node.
    std::vector<bool> minCut();

    const std::vector<Edge> &edges() const { return m_edges; }
    const std::vector<NodeId> &adjacent(NodeId n) const { return m_adjacent[n]; }
    const Node &node(NodeId n) const { return m_nodes[n]; }
    size_t nodeCount() const { return m_nodes.size(); }
    NodeId opNode(Operation *op);
    NodeId valueNode(Value v);

private:
    void addEdge(NodeId src, NodeId dst, float capacity, bool real);
    void build();
    void preprocess();
    bool levelGraph();
    float blockingFlow(NodeId src, float cf);

    Program &m_program;
    std::vector<Node> m_nodes;
    std::unordered_map<const Operation *, NodeId> m_opIds;
    std::unordered_map<Value, NodeId> m_valueIds;
    std::vector<Edge> m_edges;
    std::vector<std::vector<size_t>> m_adjacent;
    std::vector<std::unordered_set<NodeId>> m_linked;
    std::vector<size_t> m_heights;
    std::vector<bool> m_hasHeight;
    std::vector<size_t> m_nextArc;
};

} // namespace ps
