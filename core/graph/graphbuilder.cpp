#include "core/graph/graphbuilder.h"

#include "core/analysis/valuenames.h"
#include "core/dialect/onednnplacement.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/ir/valuenumbering.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <unordered_map>

namespace ps {

namespace {

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string truncated(std::string s, size_t maxLength)
{
    if (maxLength < 2 || s.size() <= maxLength)
        return s;
    size_t cut = maxLength - 1;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80)
        --cut; // never split a UTF-8 sequence
    s.resize(cut);
    return s + "\u2026";
}

std::string numberText(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

/// A short, one-line rendering of an attribute for labels (not the printer's syntax).
std::string shortAttributeText(const Attribute &a)
{
    using K = Attribute::Kind;
    switch (a.kind()) {
    case K::Bool:
        return a.asBool() ? "true" : "false";
    case K::Int32:
    case K::Int64:
    case K::Index:
        return std::to_string(a.asInt());
    case K::Float:
    case K::Double:
    case K::Scalar:
        return numberText(a.asDouble());
    case K::String:
    case K::TensorName:
    case K::DataLayout:
        return a.asString();
    case K::DataTypeAttr:
        return std::string(phiName(a.asDataType()));
    case K::IntArray: {
        std::string s = "[";
        for (size_t i = 0; i < a.asIntArray().size(); ++i)
            s += (i ? "," : "") + std::to_string(a.asIntArray()[i]);
        return s + "]";
    }
    case K::Array: {
        std::string s = "[";
        for (size_t i = 0; i < a.asArray().size(); ++i)
            s += (i ? "," : "") + shortAttributeText(a.asArray()[i]);
        return s + "]";
    }
    default:
        return "\u2026";
    }
}

/// The Paddle op a kernel-dialect op (after pd_op_to_kernel_pass) was lowered from ("pd_op.conv2d"
/// for `conv2d(phi_kernel)` or `onednn_kernel.phi_kernel`), or empty for other ops.
std::string_view loweredFrom(const Operation &op)
{
    const Attribute *kernel = op.attribute("kernel_name");
    const Attribute *name = op.attribute("op_name");
    if (!kernel || !name || name->kind() != Attribute::Kind::String)
        return {};
    return name->asString();
}

/// Display title of an op: dialect dropped for the standard dialects; a kernel-dialect op is
/// titled by its kernel and the kind of kernel ("conv2d [phi]", "fused_conv2d [onednn_kernel]").
std::string opTitle(const Operation &op)
{
    if (!loweredFrom(op).empty()) {
        const std::string_view n = op.name();
        const size_t paren = n.find('(');
        std::string kind(
            paren != std::string_view::npos ? n.substr(paren + 1, n.size() - paren - 2) : op.dialect());
        if (kind.ends_with("_kernel") && paren != std::string_view::npos)
            kind.resize(kind.size() - 7);
        return op.stringAttribute("kernel_name") + " [" + kind + "]";
    }
    std::string_view d = op.dialect();
    if (d == "pd_op" || d == "builtin" || d == "cf")
        return std::string(op.shortName());
    // A pd_op that onednn_placement_pass moved to oneDNN: its name, marked as lowered ones are.
    if (!OneDnnPlacement::paddleEquivalent(op.name()).empty())
        return std::string(op.shortName()) + " [onednn]";
    return std::string(op.name());
}

std::string regionLabel(const Operation &op, unsigned region)
{
    std::string title = opTitle(op);
    if (ops::isIf(op))
        return title + (region == 0 ? ": true" : ": false");
    if (ops::isWhile(op))
        return title + ": body";
    if (op.numRegions() == 1)
        return title;
    return title + ": region " + std::to_string(region);
}

/// Kinds of ops drawn as ghost chips inside their consumers. Program inputs (data, feed) are
/// not among them: they get a node of their own so that a reader sees where the program starts.
bool isSourceKind(NodeKind k)
{
    return k == NodeKind::Parameter || k == NodeKind::Constant;
}

class ModelBuilder
{
public:
    ModelBuilder(const GraphBuilderOptions &options, const Program &program)
        : m_options(options)
        , m_numbering(program)
    {
    }

    GraphModel run(const Block &block)
    {
        addNodes(block, -1);
        addEdges(m_model.nodes.size()); // appends the ghosts
        LayerGrouper::group(m_model, m_options.grouping);
        return std::move(m_model);
    }

private:
    int newNode(Operation *op, NodeKind kind, int cluster)
    {
        GraphNode n;
        n.id = int(m_model.nodes.size());
        n.op = op;
        n.kind = kind;
        n.cluster = cluster;
        m_model.nodes.push_back(std::move(n));
        return m_model.nodes.back().id;
    }

    void addArgumentNode(Value v, int cluster)
    {
        if (isGhosted(v) && v.hasUses())
            return;
        int id = newNode(nullptr, NodeKind::Data, cluster);
        GraphNode &n = m_model.nodes[id];
        n.value = v;
        n.lines = { label(valueName(v)), label(GraphBuilder::shapeText(v.type())) };
        m_sourceNode[v] = id;
    }

    void addNodes(const Block &block, int cluster)
    {
        for (size_t i = 0; i < block.numArguments(); ++i)
            addArgumentNode(block.argument(i), cluster);
        for (size_t i = 0; i < block.numKwargs(); ++i)
            addArgumentNode(block.kwargAt(i), cluster);
        for (Operation *op : block.ops()) {
            NodeKind kind = GraphBuilder::kindOf(*op);
            if (drawnOnlyAsGhosts(*op, kind))
                continue;
            int id = newNode(op, kind, cluster);
            m_model.nodes[id].lines = opLines(*op, kind);
            m_model.nodeOfOp[op] = id;
            for (unsigned r = 0; r < op->numResults(); ++r)
                m_sourceNode[op->result(r)] = id;
            for (unsigned r = 0; r < op->numRegions(); ++r) {
                GraphCluster c;
                c.id = int(m_model.clusters.size());
                c.parent = cluster;
                c.op = op;
                c.regionIndex = r;
                c.label = label(regionLabel(*op, r));
                m_model.clusters.push_back(c);
                const Region &region = op->region(r);
                for (size_t b = 0; b < region.numBlocks(); ++b)
                    addNodes(region.block(b), c.id);
            }
        }
    }

    /// Source ops without operands whose every used result is ghosted get no node of their own.
    bool drawnOnlyAsGhosts(const Operation &op, NodeKind kind)
    {
        if (!m_options.ghostSourceValues || !isSourceKind(kind) || op.numRegions() != 0)
            return false;
        for (unsigned i = 0; i < op.numOperands(); ++i)
            if (op.operand(i))
                return false;
        bool anyUse = false;
        for (unsigned r = 0; r < op.numResults(); ++r)
            anyUse = anyUse || op.result(r).hasUses();
        return anyUse;
    }

    size_t useCount(Value v)
    {
        auto it = m_useCounts.find(v);
        if (it != m_useCounts.end())
            return it->second;
        size_t n = v.useCount();
        m_useCounts.emplace(v, n);
        return n;
    }

    bool isGhosted(Value v)
    {
        const Operation *def = v.definingOp();
        return isGhosted(v, def, def ? GraphBuilder::kindOf(*def) : NodeKind::Data);
    }

    /// isGhosted(v) where the kind of v's defining op `def` is known.
    bool isGhosted(Value v, const Operation *def, NodeKind defKind)
    {
        if (m_options.ghostUseThreshold > 0 && useCount(v) > m_options.ghostUseThreshold)
            return true;
        if (!m_options.ghostSourceValues)
            return false;
        if (v.isBlockArgument() || v.isKeywordArgument())
            return true;
        return def && isSourceKind(defKind);
    }

    /// One operand use by a drawn op: `source` is the producing node, or -1 for a ghost.
    struct Use
    {
        int consumer;
        unsigned operand;
        int source;
    };

    /// Edges and ghosts for every use. An edge that would span more than ghostRankSpan ranks
    /// becomes a ghost too: `dot` turns long edges into chains of virtual nodes, and those
    /// dominate its positioning time. Ranks are estimated the way `dot` tends to place nodes:
    /// ops downstream of the program inputs ("anchored") at their longest-path rank, and
    /// constant subgraphs (weights reshaped, shapes built from constants) right above their
    /// first consumer. Node order is topological (SSA walk order), so a forward and a
    /// backward sweep suffice. O(uses).
    void addEdges(size_t opNodes)
    {
        std::vector<Use> uses;
        std::vector<bool> anchored(opNodes, false);
        for (size_t c = 0; c < opNodes; ++c) {
            const GraphNode &node = m_model.nodes[c];
            anchored[c] = !node.op || node.kind == NodeKind::Data; // block arguments, data ops
            if (!node.op)
                continue;
            for (unsigned i = 0; i < node.op->numOperands(); ++i) {
                Value v = node.op->operand(i);
                if (!v)
                    continue;
                auto it = m_sourceNode.find(v);
                const int producer = it == m_sourceNode.end() ? -1 : it->second;
                const Operation *def = v.definingOp();
                // The kind of an op drawn as a node is its node's.
                const NodeKind defKind = !def ? NodeKind::Data
                    : producer >= 0 && m_model.nodes[size_t(producer)].op == def
                    ? m_model.nodes[size_t(producer)].kind
                    : GraphBuilder::kindOf(*def);
                if (!def || defKind == NodeKind::Data || (producer >= 0 && anchored[size_t(producer)]))
                    anchored[c] = true;
                if (isGhosted(v, def, defKind))
                    uses.push_back({ int(c), i, -1 });
                else if (producer >= 0) // else: defined outside the drawn block
                    uses.push_back({ int(c), i, producer });
            }
        }
        constexpr int kUnset = std::numeric_limits<int>::max();
        std::vector<int> rank(opNodes, 0);
        for (size_t c = 0; c < opNodes; ++c)
            rank[c] = anchored[c] ? 0 : kUnset;
        for (const Use &u : uses)
            if (u.source >= 0 && anchored[size_t(u.consumer)] && anchored[size_t(u.source)])
                rank[size_t(u.consumer)] = std::max(rank[size_t(u.consumer)], rank[size_t(u.source)] + 1);
        for (auto it = uses.rbegin(); it != uses.rend(); ++it)
            if (it->source >= 0 && !anchored[size_t(it->source)] && rank[size_t(it->consumer)] != kUnset)
                rank[size_t(it->source)] = std::min(rank[size_t(it->source)], rank[size_t(it->consumer)] - 1);
        for (int &r : rank)
            r = r == kUnset ? 0 : r;

        for (const Use &u : uses) {
            const GraphNode &consumer = m_model.nodes[size_t(u.consumer)];
            const Value v = consumer.op->operand(u.operand);
            GraphEdge e;
            e.id = int(m_model.edges.size());
            e.to = u.consumer;
            e.value = v;
            e.operandIndex = int(u.operand);
            const bool tooLong = m_options.ghostRankSpan > 0 && u.source >= 0
                && rank[size_t(u.consumer)] - rank[size_t(u.source)] > int(m_options.ghostRankSpan);
            if (u.source < 0 || tooLong) {
                e.from = addGhost(v, consumer.cluster, u.consumer);
            } else {
                e.from = u.source;
                std::string name = valueName(v);
                e.label = label(name.empty() ? GraphBuilder::shapeText(v.type()) : name);
            }
            m_model.edges.push_back(std::move(e));
        }
    }

    int addGhost(Value v, int cluster, int consumer)
    {
        Operation *producer = v.definingOp();
        NodeKind kind = producer ? GraphBuilder::kindOf(*producer) : NodeKind::Data;
        int id = newNode(producer, kind, cluster);
        GraphNode &n = m_model.nodes[id];
        n.ghost = true;
        n.attachedTo = consumer;
        n.value = v;
        n.lines = { ghostTitle(v, producer, kind) };
        if (producer)
            m_model.ghostsOfOp.emplace(producer, id);
        return id;
    }

    /// The label of a ghost of `v`; kept for values with many uses, which have as many ghosts.
    std::string ghostTitle(Value v, Operation *producer, NodeKind kind)
    {
        if (useCount(v) <= kUsesScannedEachTime)
            return makeGhostTitle(v, producer, kind);
        auto [it, inserted] = m_ghostTitles.try_emplace(v);
        if (inserted)
            it->second = makeGhostTitle(v, producer, kind);
        return it->second;
    }

    std::string makeGhostTitle(Value v, Operation *producer, NodeKind kind)
    {
        if (producer && kind == NodeKind::Constant) {
            if (const Attribute *a = producer->attribute("value"))
                return label(opTitle(*producer) + " " + shortAttributeText(*a));
            return label(opTitle(*producer));
        }
        std::string name = valueName(v);
        return label(name.empty() ? m_numbering.name(v) : name);
    }

    /// valueNameOrEmpty(v), which scans v's uses for a shadow_output: kept for values with many
    /// uses, so that naming each of their edges or ghosts does not scan them all again.
    std::string valueName(Value v)
    {
        if (useCount(v) <= kUsesScannedEachTime)
            return valueNameOrEmpty(v);
        auto [it, inserted] = m_names.try_emplace(v);
        if (inserted)
            it->second = valueNameOrEmpty(v);
        return it->second;
    }

    std::vector<std::string> opLines(const Operation &op, NodeKind kind)
    {
        std::vector<std::string> lines { label(opTitle(op)) };
        std::string_view n = op.name();
        std::string detail;
        if (n == ops::kParameter || n == ops::kSetParameter)
            detail = op.stringAttribute("parameter_name");
        else if (n == ops::kData || n == ops::kFeed) {
            lines.push_back(label(op.stringAttribute("name")));
            if (op.numResults() > 0)
                detail = GraphBuilder::shapeText(op.result(0).type());
        } else if (n == ops::kFetch)
            detail = op.stringAttribute("name");
        else if (n == ops::kShadowOutput)
            detail = op.stringAttribute("output_name");
        else if (const Attribute *a = kind == NodeKind::Constant ? op.attribute("value") : nullptr)
            detail = shortAttributeText(*a);
        else if (op.numResults() > 0) {
            detail = GraphBuilder::shapeText(op.result(0).type());
            if (op.numResults() > 1)
                detail += " +" + std::to_string(op.numResults() - 1);
        }
        if (!detail.empty())
            lines.push_back(label(detail));
        return lines;
    }

    /// Values with more uses than this have their names and ghost labels made once.
    static constexpr size_t kUsesScannedEachTime = 8;

    std::string label(std::string s) const { return truncated(std::move(s), m_options.maxLabelLength); }

    const GraphBuilderOptions &m_options;
    ValueNumbering m_numbering;
    GraphModel m_model;
    std::unordered_map<Value, int> m_sourceNode;
    std::unordered_map<Value, size_t> m_useCounts;
    std::unordered_map<Value, std::string> m_names; ///< valueName() of values with many uses
    std::unordered_map<Value, std::string> m_ghostTitles;
};

} // namespace

GraphModel GraphBuilder::build(const Program &program) const
{
    return ModelBuilder(m_options, program).run(program.block());
}

GraphModel GraphBuilder::build(const Block &block) const
{
    return ModelBuilder(m_options, *block.program()).run(block);
}

NodeKind GraphBuilder::kindOf(const Operation &op)
{
    std::string_view n = loweredFrom(op);
    if (n.empty())
        n = op.name();
    if (const std::string_view equivalent = OneDnnPlacement::paddleEquivalent(n); !equivalent.empty())
        n = equivalent;
    if (endsWith(n, "_grad") || endsWith(n, "_grad_"))
        return NodeKind::Grad;
    if (n == ops::kParameter || n == "builtin.get_parameter")
        return NodeKind::Parameter;
    if (n == ops::kData || n == ops::kFeed)
        return NodeKind::Data;
    if (n == ops::kShadowOutput || n == ops::kFetch || n == ops::kSetParameter)
        return NodeKind::Output;
    if (n == ops::kFull || n == ops::kFullIntArray || n == ops::kAssignValue || n == "pd_op.assign_value_"
        || n == ops::kConstant)
        return NodeKind::Constant;
    if (n == ops::kIf || n == ops::kWhile || n == ops::kPyLayer || op.dialect() == "cf"
        || op.numRegions() > 0)
        return NodeKind::ControlFlow;
    return NodeKind::Compute;
}

std::string GraphBuilder::shapeText(Type type)
{
    if (type.isNull())
        return "null";
    switch (type.kind()) {
    case Type::Kind::Element:
        return std::string(irName(type.dtype()));
    case Type::Kind::DenseTensor:
    case Type::Kind::SelectedRows:
    case Type::Kind::SparseCoo:
    case Type::Kind::SparseCsr: {
        std::string s;
        for (int64_t d : type.dims())
            s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
        return s + std::string(irName(type.dtype()));
    }
    case Type::Kind::DenseTensorArray:
        return "array<" + std::string(irName(type.dtype())) + ">";
    case Type::Kind::Vector:
        return "vec[" + std::to_string(type.elements().size()) + "]";
    default: {
        // The kernel dialect's allocated tensors: "cpu_tensor<2x3xf32>" → "2x3xf32 cpu".
        const std::string &text = type.text();
        const size_t open = text.find("_tensor<");
        if (open != std::string::npos && text.back() == '>' && text.find('<') == open + 7)
            return text.substr(open + 8, text.size() - open - 9) + " " + text.substr(0, open);
        return text;
    }
    }
}

} // namespace ps
