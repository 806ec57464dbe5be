#include "core/graph/layergrouper.h"

#include "core/graph/graphbuilder.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"

#include <algorithm>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

namespace {

constexpr std::string_view kBackwardLabel = "backward";
constexpr std::string_view kNoLayerPath = "no layer/"; // struct_name paths start with '/'
constexpr std::string_view kNoLayerLabel = "ops outside any layer";
constexpr size_t kLooseOpsShownAtTop = 8;

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// A group under construction: a trie entry keyed by its path.
struct Entry
{
    std::string path;
    std::string label;
    int parent = -1;
    LayerGroupKind kind = LayerGroupKind::Layer;
    std::vector<int> children;
    std::vector<int> nodes;
    bool alive = true;
    int firstNode = std::numeric_limits<int>::max();
    int lastNode = -1;
    /// Ranges: the labels of the first and last layers inside, to name the range by.
    std::string firstLayer;
    std::string lastLayer;
};

class Grouper
{
public:
    Grouper(GraphModel &model, const LayerGrouperOptions &options)
        : m_model(model)
        , m_options(options)
        , m_owner(model.nodes.size(), -1)
        , m_leaf(model.nodes.size(), -1)
    {
    }

    void run()
    {
        m_model.groups.clear();
        m_model.topGroups.clear();
        m_model.topNodes.clear();
        findOwners();
        assignPaths();
        simplify();
        addUnusedGroup();
        m_topNodes = std::move(m_rootNodes);
        for (size_t e = 0; e < m_entries.size(); ++e)
            if (m_entries[e].alive && m_entries[e].parent < 0)
                m_topChildren.push_back(int(e));
        computeSpans();
        if (m_options.maxItems > 0) {
            chunk(-1);
            for (size_t e = 0; e < m_entries.size(); ++e)
                if (m_entries[e].alive && m_entries[e].kind != LayerGroupKind::Range)
                    chunk(int(e));
        }
        emit();
    }

private:
    /// The top-level node each node is drawn with: itself, the consumer a ghost is attached to,
    /// or the op owning the region a node sits in. Nodes are created owner first.
    void findOwners()
    {
        std::unordered_map<const Operation *, int> positionInBlock;
        for (const GraphNode &n : m_model.nodes) {
            int owner = n.id;
            if (n.ghost)
                owner = n.attachedTo >= 0 ? m_owner[size_t(n.attachedTo)] : -1;
            else if (n.cluster >= 0)
                owner = m_owner[size_t(m_model.nodeOf(m_model.clusters[size_t(n.cluster)].op))];
            m_owner[size_t(n.id)] = owner;
            if (owner != n.id || n.ghost)
                continue;
            m_topLevel.push_back(n.id);
            if (!n.op || !n.op->parentBlock())
                continue;
            if (positionInBlock.empty()) {
                const std::vector<Operation *> &ops = n.op->parentBlock()->ops();
                for (size_t i = 0; i < ops.size(); ++i)
                    positionInBlock.emplace(ops[i], int(i));
            }
            auto it = positionInBlock.find(n.op);
            if (it != positionInBlock.end())
                m_opIndex.emplace_back(n.id, it->second); // in node order: sorted by node
        }
    }

    bool isUnused(const GraphNode &n) const
    {
        if (!m_options.unusedGroup || !n.op || n.op->numRegions() != 0 || n.op->numResults() == 0)
            return false;
        if (n.kind != NodeKind::Parameter && n.kind != NodeKind::Constant)
            return false;
        for (unsigned i = 0; i < n.op->numOperands(); ++i)
            if (n.op->operand(i))
                return false;
        for (unsigned r = 0; r < n.op->numResults(); ++r)
            if (n.op->result(r).hasUses())
                return false;
        return true;
    }

    /// A data or feed op: always at the top level, never filed into a layer, so that the program's
    /// inputs stay visible when every layer is closed.
    static bool isProgramInput(const GraphNode &n) { return n.op && n.kind == NodeKind::Data; }

    int ensure(int parent, const std::string &path, std::string_view label, LayerGroupKind kind)
    {
        auto [it, inserted] = m_byPath.try_emplace(path, int(m_entries.size()));
        if (inserted) {
            Entry e;
            e.path = path;
            e.label = std::string(label);
            e.parent = parent;
            e.kind = kind;
            m_entries.push_back(std::move(e));
            if (parent >= 0)
                m_entries[size_t(parent)].children.push_back(it->second);
        }
        return it->second;
    }

    /// The deepest group of a `struct_name` path, created as needed; `root` is the group the
    /// path hangs under (the backward group or -1) and `prefix` its path.
    int ensurePath(std::string_view structName, int root, const std::string &prefix)
    {
        int parent = root;
        std::string path = prefix.empty() ? std::string() : prefix;
        size_t pos = 0;
        while (pos < structName.size()) {
            size_t end = structName.find('/', pos);
            if (end == std::string_view::npos)
                end = structName.size();
            if (end > pos) {
                const std::string_view segment = structName.substr(pos, end - pos);
                path += "/";
                path += segment;
                parent = ensure(parent, path + "/", segment, LayerGroupKind::Layer);
            }
            pos = end + 1;
        }
        return parent;
    }

    /// The backward group (created on first use), or -1 when the backward is not prefixed.
    int backwardRoot()
    {
        if (!m_backwardPrefixed)
            return -1;
        if (m_backwardRoot < 0)
            m_backwardRoot
                = ensure(-1, std::string(kBackwardLabel), kBackwardLabel, LayerGroupKind::Backward);
        return m_backwardRoot;
    }

    void assignPaths()
    {
        int backwardStart = -1;
        bool forwardLayers = false;
        for (int t : m_topLevel) {
            const GraphNode &n = m_model.nodes[size_t(t)];
            if (n.kind == NodeKind::Grad) {
                backwardStart = t;
                break;
            }
            forwardLayers = forwardLayers || (n.op && n.op->hasAttribute("struct_name"));
        }
        m_backwardPrefixed = forwardLayers && backwardStart >= 0;
        std::vector<int> helpers; // backward ops that are not grad ops, resolved afterwards
        for (int t : m_topLevel) {
            const GraphNode &n = m_model.nodes[size_t(t)];
            if (isUnused(n)) {
                m_unused.push_back(t);
                m_leaf[size_t(t)] = kUnused;
                continue;
            }
            if (!m_options.layers || !n.op || isProgramInput(n))
                continue;
            const Attribute *structAttr = n.op->attribute("struct_name");
            const bool isText = structAttr
                && (structAttr->kind() == Attribute::Kind::String
                    || structAttr->kind() == Attribute::Kind::TensorName);
            const std::string_view structName
                = isText ? std::string_view(structAttr->asString()) : std::string_view();
            if (!structName.empty() || backwardStart < 0 || t < backwardStart) {
                m_leaf[size_t(t)] = forwardLeaf(structName);
                continue;
            }
            if (n.kind != NodeKind::Grad && !linkedForwardOp(*n.op)) {
                helpers.push_back(t);
                continue;
            }
            m_leaf[size_t(t)] = backwardLeaf(*n.op);
        }
        // Helpers (add_n, full, combine, split, ...) join their first consumer's layer; those
        // without one (consumers come later in SSA order, so a reverse sweep sees them
        // resolved) join their first operand's, in a forward sweep.
        for (auto it = helpers.rbegin(); it != helpers.rend(); ++it)
            m_leaf[size_t(*it)] = helperLeaf(*m_model.nodes[size_t(*it)].op, true);
        for (int t : helpers)
            if (m_leaf[size_t(t)] == backwardRoot())
                m_leaf[size_t(t)] = helperLeaf(*m_model.nodes[size_t(t)].op, false);
        fileLooseOps();
    }

    /// Ops without a layer stay at the top level while they are few (a fetch, a scale on the
    /// input). Past half a layout's worth (a split forward's hundreds of shadow_outputs, a split
    /// backward's helper ops) each joins the layer of its first consumer, else of its first
    /// operand's producer, so that the top level shows layers instead of ranges of loose ops;
    /// those left (an assign of a parameter and its shadow_output) share one "no layer" group.
    void fileLooseOps()
    {
        if (!m_options.layers || m_entries.empty() || m_options.maxItems == 0)
            return;
        std::vector<int> loose;
        for (int t : m_topLevel)
            if (m_leaf[size_t(t)] == -1 && m_model.nodes[size_t(t)].op
                && !isProgramInput(m_model.nodes[size_t(t)]))
                loose.push_back(t);
        if (loose.size() <= m_options.maxItems / 2)
            return;
        for (auto it = loose.rbegin(); it != loose.rend(); ++it)
            m_leaf[size_t(*it)] = nearestLayer(*m_model.nodes[size_t(*it)].op, true, -1);
        std::vector<int> left;
        for (int t : loose) {
            if (m_leaf[size_t(t)] == -1)
                m_leaf[size_t(t)] = nearestLayer(*m_model.nodes[size_t(t)].op, false, -1);
            if (m_leaf[size_t(t)] == -1)
                left.push_back(t);
        }
        if (left.size() > kLooseOpsShownAtTop) {
            const int group = ensure(-1, std::string(kNoLayerPath), kNoLayerLabel, LayerGroupKind::Layer);
            for (int t : left)
                m_leaf[size_t(t)] = group;
        }
    }

    /// ensurePath(structName, -1, ""), remembering the last path asked for.
    int forwardLeaf(std::string_view structName)
    {
        if (m_lastLeaf < 0 || structName != m_lastStructName) {
            m_lastLeaf = ensurePath(structName, -1, std::string());
            m_lastStructName = structName;
        }
        return m_lastLeaf;
    }

    const Operation *linkedForwardOp(const Operation &op) const
    {
        if (!m_options.forwardOpOf)
            return nullptr;
        auto it = m_options.forwardOpOf->find(&op);
        return it == m_options.forwardOpOf->end() ? nullptr : it->second;
    }

    int backwardLeaf(const Operation &gradOp)
    {
        const Operation *forward = linkedForwardOp(gradOp);
        if (!forward)
            forward = LayerGrouper::guessForwardOp(gradOp);
        const int root = backwardRoot();
        const std::string structName = forward ? forward->stringAttribute("struct_name") : std::string();
        return ensurePath(structName, root, root >= 0 ? std::string(kBackwardLabel) : std::string());
    }

    /// The resolved group of a top-level op node, or kUnresolved.
    int leafOf(const Operation *op) const
    {
        const int node = op ? m_model.nodeOf(op) : -1;
        if (node < 0 || m_owner[size_t(node)] < 0)
            return kUnresolved;
        const int leaf = m_leaf[size_t(m_owner[size_t(node)])];
        return leaf == kUnused ? kUnresolved : leaf;
    }

    /// A layer of the backward (not the backward group itself) for a helper op: its first
    /// consumer's, or its first operand's producer's; else the backward group. Never a forward
    /// layer: a helper reading a forward value (a saved mean) stays in the backward.
    int helperLeaf(const Operation &op, bool consumers)
    {
        return nearestLayer(op, consumers, backwardRoot());
    }

    /// Whether `entry` is inside the backward group `root` (-1: there is none). Parents are
    /// final until simplify().
    bool inBackward(int entry, int root) const
    {
        if (root < 0)
            return false;
        for (int e = entry; e >= 0; e = m_entries[size_t(e)].parent)
            if (e == root)
                return true;
        return false;
    }

    /// The layer (not the backward group) of `op`'s first consumer in a layer, or with
    /// `consumers` false of its first operand's producer in one, on `op`'s side of a train
    /// program (backward layers for a backward op, forward ones otherwise); `fallback` when
    /// none is. The fallback is the backward group for a backward op.
    int nearestLayer(const Operation &op, bool consumers, int fallback)
    {
        const int root = backwardRoot();
        const bool backward = fallback >= 0 && fallback == root;
        auto specific = [this, root, backward](int leaf) {
            return leaf != kUnresolved && leaf >= 0 && leaf != root && inBackward(leaf, root) == backward;
        };
        if (consumers) {
            for (unsigned r = 0; r < op.numResults(); ++r)
                for (OpOperand *use = op.result(r).firstUse(); use; use = use->nextUse())
                    if (int leaf = leafOf(use->owner()); specific(leaf))
                        return leaf;
            return fallback;
        }
        for (unsigned i = 0; i < op.numOperands(); ++i)
            if (Value v = op.operand(i))
                if (int leaf = leafOf(v.definingOp()); specific(leaf))
                    return leaf;
        return fallback;
    }

    void simplify()
    {
        for (int t : m_topLevel) {
            const int leaf = m_leaf[size_t(t)];
            if (leaf >= 0)
                m_entries[size_t(leaf)].nodes.push_back(t);
            else if (leaf == -1)
                m_rootNodes.push_back(t);
        }
        // Children are created after their parents: a reverse sweep is a post-order, and an
        // entry's children have all been dealt with (detached ones marked dead) when it is.
        for (size_t i = m_entries.size(); i-- > 0;) {
            Entry &e = m_entries[i];
            std::erase_if(e.children, [this](int c) { return !m_entries[size_t(c)].alive; });
            if (e.children.empty() && e.nodes.empty()) { // a backward group nothing went into
                detach(int(i));
            } else if (e.children.empty() && e.nodes.size() == 1 && e.kind == LayerGroupKind::Layer) {
                nodesOf(e.parent).push_back(e.nodes.front());
                detach(int(i));
            } else if (e.nodes.empty() && e.children.size() == 1) {
                const int c = e.children.front();
                Entry &child = m_entries[size_t(c)];
                e.label += " / " + child.label;
                e.path = child.path;
                e.nodes = std::move(child.nodes);
                e.children = std::move(child.children);
                for (int cc : e.children)
                    m_entries[size_t(cc)].parent = int(i);
                child.alive = false;
            }
        }
    }

    std::vector<int> &nodesOf(int entry) { return entry >= 0 ? m_entries[size_t(entry)].nodes : m_rootNodes; }

    /// Marks `entry` dead; simplify() drops it from its parent's children when it reaches the
    /// parent (erasing it here would make a layer with many one-op sub-layers quadratic).
    void detach(int entry) { m_entries[size_t(entry)].alive = false; }

    void addUnusedGroup()
    {
        if (m_unused.empty())
            return;
        Entry e;
        e.path = "unused";
        e.label = "unused parameters and constants";
        e.kind = LayerGroupKind::Unused;
        e.nodes = m_unused;
        m_entries.push_back(std::move(e));
    }

    /// First and last node inside each entry (entries after their parents, ranges aside).
    void computeSpans()
    {
        for (size_t i = m_entries.size(); i-- > 0;) {
            Entry &e = m_entries[i];
            if (!e.alive)
                continue;
            for (int n : e.nodes) {
                e.firstNode = std::min(e.firstNode, n);
                e.lastNode = std::max(e.lastNode, n);
            }
            for (int c : e.children) {
                e.firstNode = std::min(e.firstNode, m_entries[size_t(c)].firstNode);
                e.lastNode = std::max(e.lastNode, m_entries[size_t(c)].lastNode);
            }
        }
    }

    std::vector<GroupItem> sortedItems(const std::vector<int> &nodes, const std::vector<int> &children) const
    {
        std::vector<GroupItem> items;
        for (int n : nodes)
            items.push_back({ false, n });
        for (int c : children)
            items.push_back({ true, c });
        std::sort(items.begin(), items.end(),
            [this](const GroupItem &a, const GroupItem &b) { return first(a) < first(b); });
        return items;
    }

    int first(const GroupItem &item) const
    {
        return item.isGroup ? m_entries[size_t(item.id)].firstNode : item.id;
    }
    int last(const GroupItem &item) const
    {
        return item.isGroup ? m_entries[size_t(item.id)].lastNode : item.id;
    }

    /// The layer an item starts (or ends) with: a layer's label, a range's first (last) layer;
    /// empty for an op.
    std::string layerName(const GroupItem &item, bool fromStart) const
    {
        if (!item.isGroup)
            return {};
        const Entry &e = m_entries[size_t(item.id)];
        if (e.kind == LayerGroupKind::Range)
            return fromStart ? e.firstLayer : e.lastLayer;
        return e.label;
    }

    std::string opPosition(int node, bool fromStart) const
    {
        // Argument nodes have no op index: name the nearest op.
        auto it = std::lower_bound(
            m_opIndex.begin(), m_opIndex.end(), std::pair(node, std::numeric_limits<int>::min()));
        if (!fromStart && (it == m_opIndex.end() || it->first != node) && it != m_opIndex.begin())
            --it;
        return it == m_opIndex.end() ? std::string("?") : std::to_string(it->second);
    }

    /// Splits `entry`'s items (-1: the top level) into ranges of consecutive items until at most
    /// maxItems remain, ranges of ranges where needed.
    void chunk(int entry)
    {
        std::vector<int> &nodes = entry >= 0 ? m_entries[size_t(entry)].nodes : m_topNodes;
        std::vector<int> &children = entry >= 0 ? m_entries[size_t(entry)].children : m_topChildren;
        std::vector<GroupItem> items = sortedItems(nodes, children);
        const size_t max = std::max<size_t>(m_options.maxItems, 2);
        if (items.size() <= max)
            return;
        // The program's inputs stay beside the top-level ranges while they are few; a program
        // with many (a split backward reading every saved value) has them ranged like any op.
        std::vector<int> inputs;
        if (entry < 0)
            for (const GroupItem &item : items)
                if (!item.isGroup && isProgramInput(m_model.nodes[size_t(item.id)]))
                    inputs.push_back(item.id);
        if (inputs.size() > max / 4)
            inputs.clear();
        std::erase_if(items, [&inputs](const GroupItem &item) {
            return !item.isGroup && std::find(inputs.begin(), inputs.end(), item.id) != inputs.end();
        });
        const size_t room = std::max<size_t>(max - inputs.size(), 2);
        const std::string parentPath = entry >= 0 ? m_entries[size_t(entry)].path : std::string();
        while (items.size() > room) {
            const size_t count = (items.size() + room - 1) / room;
            const size_t size = (items.size() + count - 1) / count;
            std::vector<GroupItem> ranges;
            for (size_t begin = 0; begin < items.size(); begin += size) {
                const size_t end = std::min(items.size(), begin + size);
                Entry r;
                r.kind = LayerGroupKind::Range;
                r.parent = entry;
                r.firstNode = first(items[begin]);
                r.lastNode = last(items[end - 1]);
                const std::string from = opPosition(r.firstNode, true);
                const std::string to = opPosition(r.lastNode, false);
                r.firstLayer = layerName(items[begin], true);
                r.lastLayer = layerName(items[end - 1], false);
                // "ops 4997–7556: Linear … Linear_311": where the layers start and end.
                r.label = "ops " + from + "\u2013" + to;
                if (!r.firstLayer.empty() && !r.lastLayer.empty())
                    r.label += ": " + r.firstLayer
                        + (r.firstLayer == r.lastLayer ? std::string() : " \u2026 " + r.lastLayer);
                r.path = parentPath + "[" + from + "-" + to + "]";
                const int id = int(m_entries.size());
                for (size_t i = begin; i < end; ++i) {
                    if (items[i].isGroup) {
                        r.children.push_back(items[i].id);
                        m_entries[size_t(items[i].id)].parent = id;
                    } else {
                        r.nodes.push_back(items[i].id);
                    }
                }
                m_entries.push_back(std::move(r));
                ranges.push_back({ true, id });
            }
            items = std::move(ranges);
        }
        std::vector<int> &n = entry >= 0 ? m_entries[size_t(entry)].nodes : m_topNodes;
        std::vector<int> &c = entry >= 0 ? m_entries[size_t(entry)].children : m_topChildren;
        n = std::move(inputs);
        c.clear();
        for (const GroupItem &item : items)
            c.push_back(item.id);
    }

    void emit()
    {
        std::vector<int> finalId(m_entries.size(), -1);
        // Pre-order: a parent gets its id before its children.
        std::vector<std::pair<int, int>> stack; // (entry, final parent)
        auto pushChildren = [&](const std::vector<int> &nodes, const std::vector<int> &children, int parent) {
            const std::vector<GroupItem> items = sortedItems(nodes, children);
            for (auto it = items.rbegin(); it != items.rend(); ++it)
                if (it->isGroup)
                    stack.emplace_back(it->id, parent);
        };
        pushChildren(m_topNodes, m_topChildren, -1);
        while (!stack.empty()) {
            const auto [entry, parent] = stack.back();
            stack.pop_back();
            const Entry &e = m_entries[size_t(entry)];
            LayerGroup g;
            g.id = int(m_model.groups.size());
            g.parent = parent;
            g.kind = e.kind;
            g.path = e.path;
            g.label = e.label;
            g.nodes = e.nodes;
            std::sort(g.nodes.begin(), g.nodes.end());
            g.firstNode = e.firstNode;
            finalId[size_t(entry)] = g.id;
            if (parent >= 0)
                m_model.groups[size_t(parent)].groups.push_back(g.id);
            else
                m_model.topGroups.push_back(g.id);
            m_model.groups.push_back(std::move(g));
            pushChildren(e.nodes, e.children, finalId[size_t(entry)]);
        }
        m_model.topNodes = m_topNodes;
        std::sort(m_model.topNodes.begin(), m_model.topNodes.end());
        for (const LayerGroup &g : m_model.groups)
            for (int n : g.nodes)
                m_model.nodes[size_t(n)].group = g.id;
        for (GraphNode &n : m_model.nodes) {
            const int owner = m_owner[size_t(n.id)];
            if (owner >= 0 && owner != n.id)
                n.group = m_model.nodes[size_t(owner)].group;
            if (!n.ghost && n.op)
                for (int g = n.group; g >= 0; g = m_model.groups[size_t(g)].parent)
                    ++m_model.groups[size_t(g)].ops;
        }
    }

    static constexpr int kUnused = -2;
    static constexpr int kUnresolved = -3;

    GraphModel &m_model;
    const LayerGrouperOptions &m_options;
    std::vector<int> m_owner;
    std::vector<int> m_leaf; ///< per top-level node: its entry, -1 top level, kUnused
    std::vector<int> m_topLevel;
    /// (top-level op node, its index in the block), sorted by node.
    std::vector<std::pair<int, int>> m_opIndex;
    std::vector<Entry> m_entries;
    std::unordered_map<std::string, int> m_byPath;
    std::vector<int> m_rootNodes;
    std::vector<int> m_unused;
    std::vector<int> m_topNodes;
    std::vector<int> m_topChildren;
    bool m_backwardPrefixed = false;
    int m_backwardRoot = -1;
    /// The last forward `struct_name` and its leaf: consecutive ops mostly share their layer.
    std::string m_lastStructName;
    int m_lastLeaf = -1;
};

} // namespace

void LayerGrouper::group(GraphModel &model, const LayerGrouperOptions &options)
{
    Grouper(model, options).run();
}

const Operation *LayerGrouper::guessForwardOp(const Operation &gradOp)
{
    std::string_view base = gradOp.name();
    if (endsWith(base, "_grad_"))
        base.remove_suffix(6);
    else if (endsWith(base, "_grad"))
        base.remove_suffix(5);
    else
        return nullptr;
    // An inplace forward op (relu_) has a grad op without the underscore (relu_grad).
    auto sameOp = [base](const Operation *op) {
        if (!op || !op->hasAttribute("struct_name"))
            return false;
        std::string_view name = op->name();
        if (endsWith(name, "_") && !endsWith(base, "_"))
            name.remove_suffix(1);
        return name == base;
    };
    for (unsigned i = 0; i < gradOp.numOperands(); ++i)
        if (Value v = gradOp.operand(i); v && sameOp(v.definingOp()))
            return v.definingOp();
    constexpr int kUsesScanned = 64; // a shared parameter can have thousands of users
    for (unsigned i = 0; i < gradOp.numOperands(); ++i) {
        Value v = gradOp.operand(i);
        if (!v)
            continue;
        int scanned = 0;
        for (OpOperand *use = v.firstUse(); use && scanned < kUsesScanned; use = use->nextUse(), ++scanned)
            if (sameOp(use->owner()))
                return use->owner();
    }
    return nullptr;
}

} // namespace ps
