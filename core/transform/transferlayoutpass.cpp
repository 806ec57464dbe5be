#include "core/transform/transferlayoutpass.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/layoutflowgraph.h"
#include "core/transform/layoutrules.h"
#include "core/transform/patternrewriter.h"
#include "core/transform/rewritehelpers.h"

#include <deque>
#include <map>
#include <set>

namespace ps {

namespace {

using NodeId = LayoutFlowGraph::NodeId;

/// Paddle's rewrite order: a depth-first post-order over the program edges from every op
/// without operands, each pushed to the front (so producers come before users); each such op
/// is pushed once more after its walk, as Paddle does.
std::deque<NodeId> topologicalOrder(LayoutFlowGraph &graph, const std::vector<Operation *> &ops)
{
    std::deque<NodeId> order;
    std::vector<bool> visited(graph.nodeCount(), false);
    struct Frame
    {
        NodeId node;
        size_t next;
    };
    auto visit = [&](NodeId root) {
        if (visited[root])
            return;
        visited[root] = true;
        std::vector<Frame> stack { { root, 0 } };
        while (!stack.empty()) {
            Frame &top = stack.back();
            const std::vector<size_t> &adjacent = graph.adjacent(top.node);
            if (top.next < adjacent.size()) {
                const LayoutFlowGraph::Edge &e = graph.edges()[adjacent[top.next++]];
                if (e.real && !visited[e.dst]) {
                    visited[e.dst] = true;
                    stack.push_back({ e.dst, 0 });
                }
                continue;
            }
            order.push_front(top.node);
            stack.pop_back();
        }
    };
    for (Operation *op : ops) {
        if (op->numOperands() > 0)
            continue;
        const NodeId id = graph.opNode(op);
        visit(id);
        order.push_front(id);
    }
    return order;
}

/// True when `owner` or one of its ancestors is in `ops`.
bool heldBy(const Operation *owner, const std::set<const Operation *> &ops)
{
    for (const Operation *op = owner; op; op = op->parentOp())
        if (ops.contains(op))
            return true;
    return false;
}

} // namespace

size_t TransferLayoutPass::run(Program &program)
{
    m_notes.clear();
    m_switched = 0;
    m_transposes = 0;
    const std::vector<Operation *> ops = program.block().ops();
    LayoutFlowGraph graph(program);
    const std::vector<bool> inSource = graph.minCut();

    // The cut: value -> ops edges are grouped per value (one transpose for all of them); an op
    // keeps its last cut result edge only, as Paddle's op_src_set does.
    std::map<NodeId, std::vector<NodeId>> valueCuts;
    std::map<NodeId, NodeId> opCuts;
    for (const LayoutFlowGraph::Edge &e : graph.edges()) {
        if (!e.real || inSource[e.src] == inSource[e.dst])
            continue;
        if (graph.node(e.src).op)
            opCuts[e.src] = e.dst;
        else
            valueCuts[e.src].push_back(e.dst);
    }

    PatternRewriter rewriter(program);
    auto insertTranspose = [&](Value value, bool toNhwc) -> Operation * {
        Operation *producer = value.definingOp();
        if (!producer) {
            m_notes.push_back("a transpose of a block argument was needed and is left out "
                              "(Paddle 3.3.1 inserts it after the defining op, which it has not)");
            return nullptr;
        }
        const std::vector<int64_t> perm
            = toNhwc ? layoutrules::permutation("NCHW", "NHWC") : layoutrules::permutation("NHWC", "NCHW");
        rewriter.setInsertionPointAfter(producer);
        ++m_transposes;
        return buildOp(rewriter, ops::kTranspose, { value },
            { layoutrules::permuted(value.type(), perm, toNhwc ? "NHWC" : "NCHW") },
            { { "perm", int32ArrayAttr(perm) }, { "source", Attribute::string("transfer_layout_pass") } });
    };
    auto replaceUses = [](Value from, Value to, const std::function<bool(const OpOperand &)> &which) {
        std::vector<OpOperand *> uses;
        for (OpOperand *use = from.firstUse(); use; use = use->nextUse())
            if (which(*use))
                uses.push_back(use);
        for (OpOperand *use : uses)
            use->set(to);
    };

    for (const NodeId n : topologicalOrder(graph, ops)) {
        const LayoutFlowGraph::Node &node = graph.node(n);
        if (!inSource[n] && node.op) {
            if (layoutrules::hasInterface(node.op->name())) {
                layoutrules::rewriteToNhwc(*node.op);
                ++m_switched;
            } else {
                m_notes.push_back(std::string(node.op->name())
                    + " fell on the NHWC side but has no layout rewrite (Paddle 3.3.1 stops with "
                      "Unimplemented); left as it is");
            }
        }
        if (auto it = opCuts.find(n); it != opCuts.end()) {
            const Value result = graph.node(it->second).value;
            if (Operation *t = insertTranspose(result, inSource[n]))
                replaceUses(result, t->result(0), [t](const OpOperand &use) { return use.owner() != t; });
        }
        if (auto it = valueCuts.find(n); it != valueCuts.end()) {
            std::set<const Operation *> users;
            for (const NodeId user : it->second)
                users.insert(graph.node(user).op);
            if (Operation *t = insertTranspose(node.value, inSource[n]))
                replaceUses(node.value, t->result(0),
                    [&](const OpOperand &use) { return use.owner() != t && heldBy(use.owner(), users); });
        }
    }
    return m_switched + m_transposes;
}

} // namespace ps
