#include "core/graph/dotwriter.h"
#include "core/graph/graphbuilder.h"
#include "core/graph/graphsearch.h"
#include "core/graph/groupdotwriter.h"
#include "core/graph/groupexpansion.h"
#include "core/graph/layergrouper.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/ir/valuenumbering.h"

#include <QtTest>
#include <set>

using namespace ps;

namespace {

Type tensor(std::vector<int64_t> dims)
{
    return Type::denseTensor(DataType::Float32, std::move(dims));
}

NamedAttribute str(const char *name, const std::string &value)
{
    return { name, Attribute::string(value) };
}

/// A small conv net with layer paths, as Paddle traces them:
///   data x (a program input: a node at the top level), scale (no layer)
///   /Net/Block/{Conv2D,BatchNorm2D,ReLU}/  conv2d, batch_norm, relu  (one op per leaf layer)
///   /Net/Block_1/{Conv2D,ReLU}/            conv2d, relu
///   /Net/Linear/                           matmul, add
///   fetch
struct LayerNet
{
    Program program;
    Operation *data, *pre, *conv, *bn, *relu, *conv1, *relu1, *matmul, *add, *fetch;
    std::vector<Operation *> unused;

    explicit LayerNet(int unusedParameters = 0)
    {
        Builder b(program);
        b.setInsertionPointToEnd(program.block());
        Operation *w
            = b.create("builtin.parameter", {}, { tensor({ 4, 4 }) }, { str("parameter_name", "w") });
        for (int i = 0; i < unusedParameters; ++i)
            unused.push_back(b.create("builtin.parameter", {}, { tensor({ 4 }) },
                { str("parameter_name", "unused_" + std::to_string(i)) }));
        data = b.create("pd_op.data", {}, { tensor({ 1, 4 }) }, { str("name", "x") });
        auto op = [&](const char *name, Value in, const std::string &layer) {
            return b.create(name, { in }, { tensor({ 1, 4 }) }, { str("struct_name", layer) });
        };
        pre = b.create("pd_op.scale", { data->result(0) }, { tensor({ 1, 4 }) }, {});
        conv = op("pd_op.conv2d", pre->result(0), "/Net/Block/Conv2D/");
        bn = op("pd_op.batch_norm", conv->result(0), "/Net/Block/BatchNorm2D/");
        relu = op("pd_op.relu", bn->result(0), "/Net/Block/ReLU/");
        conv1 = op("pd_op.conv2d", relu->result(0), "/Net/Block_1/Conv2D/");
        relu1 = op("pd_op.relu", conv1->result(0), "/Net/Block_1/ReLU/");
        matmul = b.create("pd_op.matmul", { relu1->result(0), w->result(0) }, { tensor({ 1, 4 }) },
            { str("struct_name", "/Net/Linear/") });
        add = op("pd_op.add", matmul->result(0), "/Net/Linear/");
        fetch = b.create("pd_op.fetch", { add->result(0) }, { tensor({ 1, 4 }) }, { str("name", "out") });
    }
};

const LayerGroup *groupByPath(const GraphModel &m, const std::string &path)
{
    for (const LayerGroup &g : m.groups)
        if (g.path == path)
            return &g;
    return nullptr;
}

int groupOf(const GraphModel &m, const Operation *op)
{
    return m.nodes[size_t(m.nodeOf(op))].group;
}

} // namespace

/// LayerGrouper, GroupExpansion, GroupDotWriter and GraphSearch on hand-built programs.
class TestLayerGroups : public QObject
{
    Q_OBJECT

private slots:
    void layersFromStructName();
    void singleChildChainsMerge();
    void backwardMirrorsForwardLayers();
    void unusedParametersGetAGroup();
    void manyLooseOpsJoinTheirNeighboursLayers();
    void programInputsStayAtTheTopLevel();
    void rangesBoundEveryLayout();
    void manyOneOpLayersDissolveInOrder();
    void regionsStayWithTheirOp();
    void expansion();
    void groupGraphsHavePortsAndItems();
    void flatDotIgnoresGroups();
    void search();
};

void TestLayerGroups::layersFromStructName()
{
    LayerNet net;
    const GraphModel m = GraphBuilder().build(net.program);
    // Net holds Block, Block_1 and Linear; the one-op leaf layers dissolve into their parents.
    const LayerGroup *top = groupByPath(m, "/Net/");
    const LayerGroup *block = groupByPath(m, "/Net/Block/");
    const LayerGroup *block1 = groupByPath(m, "/Net/Block_1/");
    const LayerGroup *linear = groupByPath(m, "/Net/Linear/");
    QVERIFY(top && block && block1 && linear);
    QVERIFY(!groupByPath(m, "/Net/Block/Conv2D/"));
    QCOMPARE(m.groups.size(), size_t(4));
    QCOMPARE(top->label, std::string("Net"));
    QCOMPARE(block->label, std::string("Block"));
    QCOMPARE(top->parent, -1);
    QCOMPARE(block->parent, top->id);
    QCOMPARE(top->groups, (std::vector<int> { block->id, block1->id, linear->id }));
    QVERIFY(top->nodes.empty());
    QCOMPARE(top->ops, size_t(7));
    QCOMPARE(block->ops, size_t(3));
    QCOMPARE(groupOf(m, net.conv), block->id);
    QCOMPARE(groupOf(m, net.bn), block->id);
    QCOMPARE(groupOf(m, net.relu1), block1->id);
    QCOMPARE(groupOf(m, net.add), linear->id);
    QCOMPARE(groupOf(m, net.pre), -1);
    QVERIFY(m.nodeOf(net.data) >= 0); // a program input is a node, not a chip of its consumer
    QCOMPARE(groupOf(m, net.data), -1);
    QCOMPARE(m.topGroups, std::vector<int> { top->id });
    // The top level in program order: data, scale, Net, fetch.
    const std::vector<GroupItem> items = m.itemsOf(-1);
    QCOMPARE(items.size(), size_t(4));
    QCOMPARE(items[0], (GroupItem { false, m.nodeOf(net.data) }));
    QCOMPARE(items[1], (GroupItem { false, m.nodeOf(net.pre) }));
    QCOMPARE(items[2], (GroupItem { true, top->id }));
    QCOMPARE(items[3], (GroupItem { false, m.nodeOf(net.fetch) }));
    // The parameter's ghost chip sits with its consumer, in its group.
    for (const GraphNode &n : m.nodes)
        if (n.ghost && n.attachedTo == m.nodeOf(net.matmul))
            QCOMPARE(n.group, linear->id);
    QVERIFY(m.groupWithin(block->id, top->id));
    QVERIFY(!m.groupWithin(top->id, block->id));
    QVERIFY(m.groupWithin(block->id, -1));

    // Layers can be switched off: only the top level then.
    GraphBuilderOptions flat;
    flat.grouping.layers = false;
    const GraphModel f = GraphBuilder(flat).build(net.program);
    QVERIFY(f.groups.empty());
    QCOMPARE(f.itemsOf(-1).size(), size_t(10)); // data and the 9 ops after it; w is a chip
}

void TestLayerGroups::singleChildChainsMerge()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *x = b.create("pd_op.data", {}, { tensor({ 2 }) }, { str("name", "x") });
    Operation *a
        = b.create("pd_op.relu", { x->result(0) }, { tensor({ 2 }) }, { str("struct_name", "/A/B/") });
    b.create("pd_op.exp", { a->result(0) }, { tensor({ 2 }) }, { str("struct_name", "/A/B/") });
    const GraphModel m = GraphBuilder().build(program);
    QCOMPARE(m.groups.size(), size_t(1));
    QCOMPARE(m.groups[0].label, std::string("A / B"));
    QCOMPARE(m.groups[0].path, std::string("/A/B/"));
    QCOMPARE(m.groups[0].nodes.size(), size_t(2));
}

void TestLayerGroups::backwardMirrorsForwardLayers()
{
    LayerNet net;
    Builder b(net.program);
    b.setInsertionPointToEnd(net.program.block());
    // Grad ops carry no struct_name, as in Paddle's train programs.
    Operation *seed = b.create("pd_op.full", {}, { tensor({ 1, 4 }) }, {});
    Operation *addGrad = b.create("pd_op.add_grad", { net.matmul->result(0), seed->result(0) },
        { tensor({ 1, 4 }), tensor({ 1, 4 }) }, {});
    Operation *matmulGrad = b.create(
        "pd_op.matmul_grad", { net.relu1->result(0), addGrad->result(0) }, { tensor({ 1, 4 }) }, {});
    Operation *reluGrad = b.create(
        "pd_op.relu_grad", { net.relu1->result(0), matmulGrad->result(0) }, { tensor({ 1, 4 }) }, {});
    Operation *sum = b.create("pd_op.add_n", { reluGrad->result(0) }, { tensor({ 1, 4 }) }, {});
    b.create("builtin.shadow_output", { sum->result(0) }, {}, { str("output_name", "x@GRAD") });
    // A backward helper that reads only a forward value (a saved activation).
    Operation *saved = b.create("pd_op.cast", { net.relu1->result(0) }, { tensor({ 1, 4 }) }, {});
    b.create("builtin.shadow_output", { saved->result(0) }, {}, { str("output_name", "saved") });

    QCOMPARE(LayerGrouper::guessForwardOp(*reluGrad), net.relu1); // its operand's producer
    QCOMPARE(LayerGrouper::guessForwardOp(*matmulGrad), net.matmul); // a user of its operand
    QCOMPARE(LayerGrouper::guessForwardOp(*sum), nullptr); // not a grad op

    const GraphModel m = GraphBuilder().build(net.program);
    const int backward = m.topGroups.back();
    QCOMPARE(m.groups[size_t(backward)].kind, LayerGroupKind::Backward);
    QVERIFY(m.groups[size_t(backward)].label.rfind("backward", 0) == 0);
    QVERIFY(m.groupWithin(groupOf(m, addGrad), backward));
    QCOMPARE(m.groups[size_t(groupOf(m, addGrad))].path, std::string("backward/Net/Linear/"));
    QCOMPARE(groupOf(m, matmulGrad), groupOf(m, addGrad));
    // A helper joins its consumer's layer, else its operand's; the seed is a chip of its consumer.
    QCOMPARE(groupOf(m, sum), groupOf(m, reluGrad));
    // Never a forward layer: the helper that reads a forward value stays in the backward.
    QCOMPARE(groupOf(m, saved), backward);
    QCOMPARE(m.nodeOf(seed), -1);
    QCOMPARE(m.nodes[size_t(m.ghostsOfOp.find(seed)->second)].group, groupOf(m, addGrad));
    // The forward layers are untouched.
    QCOMPARE(m.groups[size_t(groupOf(m, net.add))].path, std::string("/Net/Linear/"));

    // With autodiff's links the guess is not needed.
    std::unordered_map<const Operation *, const Operation *> links { { reluGrad, net.conv },
        { addGrad, net.bn } };
    GraphBuilderOptions options;
    options.grouping.forwardOpOf = &links;
    const GraphModel linked = GraphBuilder(options).build(net.program);
    // add_grad alone in BatchNorm2D dissolves into Block; relu_grad shares Conv2D with add_n.
    QCOMPARE(linked.groups[size_t(groupOf(linked, addGrad))].path, std::string("backward/Net/Block/"));
    QCOMPARE(
        linked.groups[size_t(groupOf(linked, reluGrad))].path, std::string("backward/Net/Block/Conv2D/"));
    QCOMPARE(groupOf(linked, sum), groupOf(linked, reluGrad));
}

void TestLayerGroups::unusedParametersGetAGroup()
{
    LayerNet net(5);
    const GraphModel m = GraphBuilder().build(net.program);
    const LayerGroup *unused = groupByPath(m, "unused");
    QVERIFY(unused);
    QCOMPARE(unused->kind, LayerGroupKind::Unused);
    QCOMPARE(unused->nodes.size(), size_t(5));
    for (Operation *p : net.unused)
        QCOMPARE(groupOf(m, p), unused->id);
    // Everything else opens by default; the unused parameters stay out of the way.
    const GroupExpansion e = GroupExpansion::defaults(m);
    QVERIFY(!e.isExpanded(unused->id));
    QVERIFY(e.isExpanded(groupByPath(m, "/Net/")->id));
}

void TestLayerGroups::manyLooseOpsJoinTheirNeighboursLayers()
{
    // A split forward program: every value the backward needs leaves through a shadow_output
    // without a struct_name; a parameter's assign has no layer next to it either.
    LayerNet net;
    Builder b(net.program);
    b.setInsertionPointToEnd(net.program.block());
    std::vector<Operation *> outputs;
    for (Operation *producer : { net.conv, net.bn, net.relu, net.conv1, net.relu1, net.matmul, net.add })
        for (int i = 0; i < 5; ++i)
            outputs.push_back(b.create("builtin.shadow_output", { producer->result(0) }, {},
                { str("output_name", "middle_" + std::to_string(outputs.size())) }));
    std::vector<Operation *> assigns;
    for (int i = 0; i < 10; ++i) {
        Operation *w = b.create(
            "builtin.parameter", {}, { tensor({ 4 }) }, { str("parameter_name", "p" + std::to_string(i)) });
        assigns.push_back(b.create("pd_op.assign", { w->result(0) }, { tensor({ 4 }) }, {}));
        b.create("builtin.shadow_output", { assigns.back()->result(0) }, {},
            { str("output_name", "param_" + std::to_string(i)) });
    }
    const GraphModel m = GraphBuilder().build(net.program);
    // 35 + 20 + 2 loose ops: more than half of maxItems, so they are filed.
    for (Operation *out : outputs)
        QCOMPARE(groupOf(m, out), groupOf(m, out->operand(0).definingOp()));
    QCOMPARE(groupOf(m, net.pre), groupOf(m, net.conv)); // its consumer's layer
    QCOMPARE(groupOf(m, net.fetch), groupOf(m, net.add)); // its operand's producer's
    const LayerGroup *noLayer = groupByPath(m, "no layer/");
    QVERIFY(noLayer);
    QCOMPARE(noLayer->label, std::string("ops outside any layer"));
    QCOMPARE(noLayer->nodes.size(), size_t(20));
    for (Operation *a : assigns)
        QCOMPARE(groupOf(m, a), noLayer->id);
    // The top level holds layers and the program input only: no ranges of loose ops.
    QCOMPARE(m.topNodes, std::vector<int> { m.nodeOf(net.data) });
    for (int g : m.topGroups)
        QVERIFY(m.groups[size_t(g)].kind != LayerGroupKind::Range);

    // A few loose ops stay where they are (layersFromStructName: pre and fetch at the top).
    LayerNet few;
    const GraphModel f = GraphBuilder().build(few.program);
    QCOMPARE(groupOf(f, few.pre), -1);
    QVERIFY(!groupByPath(f, "no layer/"));
}

/// A program input whose consumer sits in a closed layer keeps a node of its own at the top
/// level, visible with every layer closed, even with a struct_name of its own and among enough
/// loose ops to have them filed into layers.
void TestLayerGroups::programInputsStayAtTheTopLevel()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *data = b.create(
        "pd_op.data", {}, { tensor({ 1, 4 }) }, { str("name", "x"), str("struct_name", "/Net/Conv2D/") });
    Operation *conv = b.create(
        "pd_op.conv2d", { data->result(0) }, { tensor({ 1, 4 }) }, { str("struct_name", "/Net/Conv2D/") });
    Operation *relu = b.create(
        "pd_op.relu", { conv->result(0) }, { tensor({ 1, 4 }) }, { str("struct_name", "/Net/ReLU/") });
    for (int i = 0; i < 40; ++i)
        b.create("builtin.shadow_output", { relu->result(0) }, {},
            { str("output_name", "out_" + std::to_string(i)) });
    const GraphModel m = GraphBuilder().build(program);
    const int input = m.nodeOf(data);
    QVERIFY(input >= 0);
    QVERIFY(!m.nodes[size_t(input)].ghost);
    QCOMPARE(m.nodes[size_t(input)].group, -1);
    QCOMPARE(m.topNodes, std::vector<int> { input });
    QVERIFY(groupOf(m, conv) >= 0);
    QVERIFY(groupOf(m, relu) >= 0);

    const GroupExpansion closed(m);
    QCOMPARE(closed.visibleItem(m, input), (GroupItem { false, input }));
    QCOMPARE(closed.visibleItem(m, m.nodeOf(conv)).isGroup, true);
    const std::vector<GroupItem> top = m.itemsOf(-1);
    QCOMPARE(top.front(), (GroupItem { false, input }));
    bool edgeIntoTheLayer = false;
    for (const GraphEdge &e : m.edges)
        edgeIntoTheLayer = edgeIntoTheLayer || (e.from == input && e.to == m.nodeOf(conv));
    QVERIFY(edgeIntoTheLayer);
}

/// A layer with hundreds of one-op sub-layers (activations, dropouts) among bigger ones: the
/// one-op layers dissolve into it, the others stay its child groups, all in program order.
void TestLayerGroups::manyOneOpLayersDissolveInOrder()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Value v = b.create("pd_op.data", {}, { tensor({ 2 }) }, { str("name", "x") })->result(0);
    std::vector<Operation *> single;
    std::vector<std::string> bigger;
    for (int layer = 0; layer < 600; ++layer) {
        const std::string path = "/Net/L_" + std::to_string(layer) + "/";
        const int ops = layer % 7 == 3 ? 2 : 1;
        for (int k = 0; k < ops; ++k) {
            Operation *op = b.create("pd_op.relu", { v }, { tensor({ 2 }) }, { str("struct_name", path) });
            v = op->result(0);
            if (ops == 1)
                single.push_back(op);
        }
        if (ops == 2)
            bigger.push_back(path);
    }
    GraphBuilderOptions options;
    options.grouping.maxItems = 0; // no ranges: the layers as they are
    const GraphModel m = GraphBuilder(options).build(program);
    const LayerGroup *net = groupByPath(m, "/Net/");
    QVERIFY(net);
    QCOMPARE(m.groups.size(), bigger.size() + 1);
    QCOMPARE(m.topGroups, std::vector<int> { net->id });
    QCOMPARE(net->nodes.size(), single.size());
    for (size_t i = 0; i < single.size(); ++i)
        QCOMPARE(net->nodes[i], m.nodeOf(single[i]));
    QCOMPARE(net->groups.size(), bigger.size());
    for (size_t i = 0; i < bigger.size(); ++i) {
        const LayerGroup &g = m.groups[size_t(net->groups[i])];
        QCOMPARE(g.path, bigger[i]);
        QCOMPARE(g.parent, net->id);
        QCOMPARE(g.nodes.size(), size_t(2));
    }
    QCOMPARE(net->ops, size_t(600 + bigger.size()));
}

void TestLayerGroups::rangesBoundEveryLayout()
{
    for (int ops : { 200, 3000 }) {
        Program program;
        Builder b(program);
        b.setInsertionPointToEnd(program.block());
        Operation *data = b.create("pd_op.data", {}, { tensor({ 2 }) }, { str("name", "x") });
        Value v = data->result(0);
        for (int i = 0; i < ops; ++i)
            v = b.create("pd_op.relu", { v }, { tensor({ 2 }) })->result(0);
        const GraphModel m = GraphBuilder().build(program);
        QVERIFY(m.itemsOf(-1).size() <= 48);
        size_t inside = 0;
        for (const LayerGroup &g : m.groups) {
            QCOMPARE(g.kind, LayerGroupKind::Range);
            QVERIFY(g.nodes.size() + g.groups.size() <= 48);
            inside += g.nodes.size();
            QVERIFY(g.label.rfind("ops ", 0) == 0);
        }
        QCOMPARE(inside + m.topNodes.size(), size_t(ops + 1));
        if (ops == 3000) // 63 ranges of ~48 items do not fit one level: ranges of ranges
            QVERIFY(m.groups[size_t(m.topGroups.front())].groups.size() > 0);
        // The data op stays at the top level, beside the ranges; the first range starts at op 1.
        QCOMPARE(m.topNodes, std::vector<int> { m.nodeOf(data) });
        QVERIFY(m.groups[size_t(m.topGroups.front())].label.rfind("ops 1\u2013", 0) == 0);
        QCOMPARE(GroupExpansion::defaults(m).visibleItemCount(m) <= GroupExpansion::kDefaultBudget, true);
    }
    // Ranges of layers are named by the layers they start and end with.
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Value v = b.create("pd_op.data", {}, { tensor({ 2 }) }, { str("name", "x") })->result(0);
    for (int layer = 0; layer < 100; ++layer)
        for (int k = 0; k < 2; ++k)
            v = b.create("pd_op.relu", { v }, { tensor({ 2 }) },
                     { str("struct_name", "/Linear_" + std::to_string(layer) + "/") })
                    ->result(0);
    const GraphModel m = GraphBuilder().build(program);
    QVERIFY(m.topGroups.size() > 1);
    const LayerGroup &first = m.groups[size_t(m.topGroups.front())];
    QCOMPARE(first.kind, LayerGroupKind::Range);
    QVERIFY2(first.label.rfind("ops 1\u2013", 0) == 0, first.label.c_str());
    QVERIFY2(first.label.find(": Linear_0 \u2026 Linear_") != std::string::npos, first.label.c_str());
    const LayerGroup &last = m.groups[size_t(m.topGroups.back())];
    QVERIFY2(last.label.size() > 10 && last.label.compare(last.label.size() - 10, 10, " Linear_99") == 0,
        last.label.c_str());
}

void TestLayerGroups::regionsStayWithTheirOp()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *cond = b.create("pd_op.data", {}, { tensor({ 1 }) }, { str("name", "c") });
    Operation *ifOp = b.create(
        "pd_op.if", { cond->result(0) }, { tensor({ 1 }) }, { str("struct_name", "/M/Branch/") }, 2);
    b.create("pd_op.relu", { ifOp->result(0) }, { tensor({ 1 }) }, { str("struct_name", "/M/Branch/") });
    Block &then = ifOp->region(0).addBlock();
    b.setInsertionPointToEnd(then);
    Operation *inner
        = b.create("pd_op.exp", { cond->result(0) }, { tensor({ 1 }) }, { str("struct_name", "/M/Other/") });
    b.create("cf.yield", { inner->result(0) }, {});
    ifOp->region(1).addBlock();
    const GraphModel m = GraphBuilder().build(program);
    QCOMPARE(groupOf(m, inner), groupOf(m, ifOp)); // its own struct_name does not pull it out
    QVERIFY(!groupByPath(m, "/M/Other/"));
    QVERIFY(m.groups[size_t(groupOf(m, ifOp))].path.find("Branch") != std::string::npos);
}

void TestLayerGroups::expansion()
{
    LayerNet net;
    const GraphModel m = GraphBuilder().build(net.program);
    const int top = groupByPath(m, "/Net/")->id;
    const int block = groupByPath(m, "/Net/Block/")->id;
    const int conv = m.nodeOf(net.conv);

    GroupExpansion closed(m);
    QCOMPARE(closed.visibleItem(m, conv), (GroupItem { true, top }));
    QCOMPARE(closed.visibleItemCount(m), size_t(4)); // data, scale, Net, fetch
    QVERIFY(closed.isShown(m, top));
    QVERIFY(!closed.isShown(m, block));
    closed.reveal(m, conv);
    QVERIFY(closed.isExpanded(top) && closed.isExpanded(block));
    QCOMPARE(closed.visibleItem(m, conv), (GroupItem { false, conv }));

    const GroupExpansion all = GroupExpansion::all(m);
    for (const LayerGroup &g : m.groups)
        QVERIFY(all.isExpanded(g.id));
    // The budget decides how deep the default goes: 4 top items, Net's 3 children fit in 6.
    const GroupExpansion small = GroupExpansion::defaults(m, 6);
    QVERIFY(small.isExpanded(top));
    QVERIFY(!small.isExpanded(block));
    QVERIFY(!GroupExpansion::defaults(m, 5).isExpanded(top));
    QCOMPARE(GroupExpansion::defaults(m), all); // a small graph opens whole

    // Paths carry the state over to another model of the same program.
    const GraphModel again = GraphBuilder().build(net.program);
    QCOMPARE(GroupExpansion::fromPaths(again, small.expandedPaths(m)), small);

    GroupExpansion subtree(m);
    subtree.setSubtreeExpanded(m, top, true);
    QCOMPARE(subtree, all);
    subtree.setSubtreeExpanded(m, -1, false);
    QCOMPARE(subtree, GroupExpansion(m));
}

void TestLayerGroups::groupGraphsHavePortsAndItems()
{
    LayerNet net;
    const GraphModel m = GraphBuilder().build(net.program);
    const int top = groupByPath(m, "/Net/")->id;
    const int block = groupByPath(m, "/Net/Block/")->id;
    const std::vector<NodeSize> nodeSizes(m.nodes.size(), NodeSize { 80, 30 });
    const std::vector<NodeSize> groupSizes(m.groups.size(), NodeSize { 120, 40 });
    const GroupExpansion all = GroupExpansion::all(m);
    DotWriterOptions options;
    GroupDotWriter writer(m);

    // The top level: data → scale → Net → fetch, with Net a box.
    const GroupDotWriter::Graph root = writer.write(-1, nodeSizes, groupSizes, all, options);
    QCOMPARE(root.items.size(), size_t(4));
    QCOMPARE(root.edges.size(), size_t(3));
    QVERIFY(root.entries.empty() && root.exits.empty());
    QCOMPARE(root.edges[0].from, (GroupItem { false, m.nodeOf(net.data) }));
    QCOMPARE(root.edges[0].to, (GroupItem { false, m.nodeOf(net.pre) }));
    QCOMPARE(root.edges[1].to, (GroupItem { true, top }));
    QVERIFY(root.dot.find("g" + std::to_string(top) + " [") != std::string::npos);
    QVERIFY(root.dot.find("arrowhead=none") != std::string::npos); // into an open frame
    QCOMPARE(writer.localItem(m.nodeOf(net.conv), -1), (GroupItem { true, top }));
    QCOMPARE(writer.localItem(m.nodeOf(net.conv), block), (GroupItem { false, m.nodeOf(net.conv) }));
    QCOMPARE(writer.localItem(m.nodeOf(net.pre), block).id, -2);

    // Inside Net: the scaled input enters, the Linear output leaves.
    const GroupDotWriter::Graph inside = writer.write(top, nodeSizes, groupSizes, all, options);
    QCOMPARE(inside.items.size(), size_t(3));
    QCOMPARE(inside.entries, std::vector<Value> { net.pre->result(0) });
    QCOMPARE(inside.exits, std::vector<Value> { net.add->result(0) });
    QVERIFY(inside.dot.find("{ rank=source; pi0") != std::string::npos);
    QVERIFY(inside.dot.find("{ rank=sink; po0") != std::string::npos);
    // Block → Block_1 → Linear, plus the port edges.
    QCOMPARE(inside.edges.size(), size_t(4));
    // Deterministic: the same inputs write the same text.
    QCOMPARE(writer.write(top, nodeSizes, groupSizes, all, options).dot, inside.dot);
    // A collapsed child is a labelled box, and the edge into it has its arrow.
    const GroupDotWriter::Graph closed = writer.write(-1, nodeSizes, groupSizes, GroupExpansion(m), options);
    QVERIFY(closed.dot.find("Net\\n7 ops") != std::string::npos);
    QVERIFY(closed.dot.find("arrowhead=none") == std::string::npos);
}

void TestLayerGroups::flatDotIgnoresGroups()
{
    LayerNet net;
    const GraphModel m = GraphBuilder().build(net.program);
    const std::string dot = DotWriter::write(m);
    QCOMPARE(dot, GroupDotWriter::writeFlat(m, {}));
    for (const GraphNode &n : m.nodes)
        if (!n.ghost)
            QVERIFY(dot.find("n" + std::to_string(n.id) + " [") != std::string::npos);
    QVERIFY(dot.find(" g0") == std::string::npos);
}

void TestLayerGroups::search()
{
    LayerNet net;
    const GraphModel m = GraphBuilder().build(net.program);
    const GraphSearch search(m, net.program);
    QCOMPARE(search.find("RELU"), (std::vector<int> { m.nodeOf(net.relu), m.nodeOf(net.relu1) }));
    QCOMPARE(search.find("Block_1"), (std::vector<int> { m.nodeOf(net.conv1), m.nodeOf(net.relu1) }));
    QVERIFY(search.find("").empty());
    QVERIFY(search.find("no such thing").empty());
    // %id matches results and operands exactly: the relu's result and the conv that reads it.
    const std::string id = ValueNumbering(net.program).name(net.relu->result(0));
    QCOMPARE(search.find(id), (std::vector<int> { m.nodeOf(net.relu), m.nodeOf(net.conv1) }));
    QVERIFY(search.find(id + "9").empty()); // exact, not a prefix
    // A parameter is found by its name through its ghost chip.
    const std::vector<int> chips = search.find("w");
    bool chip = false;
    for (int n : chips)
        chip = chip || m.nodes[size_t(n)].ghost;
    QVERIFY(chip);
}

QTEST_GUILESS_MAIN(TestLayerGroups)
#include "tst_layergroups.moc"
