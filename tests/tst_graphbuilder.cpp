#include "core/graph/dotwriter.h"
#include "core/graph/ghostchiplayout.h"
#include "core/graph/graphbuilder.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <QtTest>

using namespace ps;

namespace {

Type tensor(std::vector<int64_t> dims)
{
    return Type::denseTensor(DataType::Float32, std::move(dims));
}

NamedAttribute str(const char *name, const char *value)
{
    return { name, Attribute::string(value) };
}

/// data x, parameter w → matmul → relu → fetch.
struct Chain
{
    Program program;
    Operation *data, *param, *matmul, *relu, *fetch;
    Chain()
    {
        Builder b(program);
        b.setInsertionPointToEnd(program.block());
        param
            = b.create("builtin.parameter", {}, { tensor({ 30, 30 }) }, { str("parameter_name", "fc.w_0") });
        data = b.create("pd_op.data", {}, { tensor({ -1, 30 }) }, { str("name", "x") });
        matmul = b.create("pd_op.matmul", { data->result(0), param->result(0) }, { tensor({ -1, 30 }) });
        relu = b.create("pd_op.relu", { matmul->result(0) }, { tensor({ -1, 30 }) });
        fetch = b.create("pd_op.fetch", { relu->result(0) }, { tensor({ -1, 30 }) }, { str("name", "out") });
    }
};

const GraphEdge *edgeBetween(const GraphModel &m, int from, int to)
{
    for (const GraphEdge &e : m.edges)
        if (e.from == from && e.to == to)
            return &e;
    return nullptr;
}

int countEdgesFrom(const GraphModel &m, int from)
{
    int n = 0;
    for (const GraphEdge &e : m.edges)
        n += e.from == from ? 1 : 0;
    return n;
}

} // namespace

/// GraphBuilder and DotWriter on hand-built programs.
class TestGraphBuilder : public QObject
{
    Q_OBJECT

private slots:
    void kinds_data();
    void kinds();
    void chainWithSourceGhosts();
    void chainWithoutGhosts();
    void highFanOutBecomesGhosts();
    void ifAndWhileRegionsBecomeClusters();
    void blockArgumentsAndShapes();
    void dotText();
    void dotNodeSizesAndEscaping();
    void ghostChipLayout();
    void longEdgesBecomeGhosts();
    void widelyUsedValuesKeepTheirNames();
    void oneDnnPlacedOpsAreTitledByTheirPaddleName();
};

void TestGraphBuilder::kinds_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("kind");
    QTest::newRow("data") << "pd_op.data" << int(NodeKind::Data);
    QTest::newRow("feed") << "pd_op.feed" << int(NodeKind::Data);
    QTest::newRow("parameter") << "builtin.parameter" << int(NodeKind::Parameter);
    QTest::newRow("matmul") << "pd_op.matmul" << int(NodeKind::Compute);
    QTest::newRow("matmul_grad") << "pd_op.matmul_grad" << int(NodeKind::Grad);
    QTest::newRow("add_grad_") << "pd_op.add_grad_" << int(NodeKind::Grad);
    QTest::newRow("shadow_output") << "builtin.shadow_output" << int(NodeKind::Output);
    QTest::newRow("fetch") << "pd_op.fetch" << int(NodeKind::Output);
    QTest::newRow("set_parameter") << "builtin.set_parameter" << int(NodeKind::Output);
    QTest::newRow("if") << "pd_op.if" << int(NodeKind::ControlFlow);
    QTest::newRow("while") << "pd_op.while" << int(NodeKind::ControlFlow);
    QTest::newRow("yield") << "cf.yield" << int(NodeKind::ControlFlow);
    QTest::newRow("pylayer") << "pd_op.pylayer" << int(NodeKind::ControlFlow);
    QTest::newRow("full") << "pd_op.full" << int(NodeKind::Constant);
    QTest::newRow("full_int_array") << "pd_op.full_int_array" << int(NodeKind::Constant);
    QTest::newRow("assign_value_") << "pd_op.assign_value_" << int(NodeKind::Constant);
    QTest::newRow("unknown dialect") << "my.custom" << int(NodeKind::Compute);
    // onednn_placement_pass's ops are the pd_ops they were.
    QTest::newRow("onednn full") << "onednn_op.full" << int(NodeKind::Constant);
    QTest::newRow("onednn relu") << "onednn_op.relu" << int(NodeKind::Compute);
}

void TestGraphBuilder::kinds()
{
    QFETCH(QString, name);
    QFETCH(int, kind);
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *op = b.create(name.toStdString(), {}, {});
    QCOMPARE(int(GraphBuilder::kindOf(*op)), kind);
}

void TestGraphBuilder::chainWithSourceGhosts()
{
    Chain c;
    GraphModel m = GraphBuilder().build(c.program);
    // The parameter is drawn only as a ghost next to matmul; the program input is a node of its
    // own, with its name and shape, and an edge into matmul.
    QCOMPARE(m.nodeOf(c.param), -1);
    QCOMPARE(m.nodes.size(), size_t(5)); // data, matmul, relu, fetch + 1 ghost
    QCOMPARE(m.ghostCount(), size_t(1));
    const int data = m.nodeOf(c.data);
    QVERIFY(data >= 0);
    QVERIFY(!m.nodes[data].ghost);
    QCOMPARE(m.nodes[data].kind, NodeKind::Data);
    QCOMPARE(m.nodes[data].lines,
        (std::vector<std::string> { std::string("data"), std::string("x"), std::string("?x30xf32") }));
    QCOMPARE(m.ghostsOfOp.count(c.data), size_t(0));
    int matmul = m.nodeOf(c.matmul);
    QVERIFY(matmul >= 0);
    QCOMPARE(m.nodes[matmul].kind, NodeKind::Compute);
    QCOMPARE(m.nodes[matmul].lines.at(0), std::string("matmul"));
    QCOMPARE(m.nodes[matmul].lines.at(1), std::string("?x30xf32"));
    const GraphEdge *input = edgeBetween(m, data, matmul);
    QVERIFY(input);
    QCOMPARE(input->operandIndex, 0);
    QCOMPARE(input->label, std::string("x"));
    int ghostsIntoMatmul = 0;
    for (const GraphEdge &e : m.edges) {
        if (e.to != matmul || e.from == data)
            continue;
        const GraphNode &g = m.nodes[e.from];
        QVERIFY(g.ghost);
        QCOMPARE(g.op, e.value.definingOp());
        ++ghostsIntoMatmul;
        QCOMPARE(e.operandIndex, 1);
        QCOMPARE(g.kind, NodeKind::Parameter);
        QCOMPARE(g.lines.at(0), std::string("fc.w_0"));
    }
    QCOMPARE(ghostsIntoMatmul, 1);
    QCOMPARE(m.ghostsOfOp.count(c.param), size_t(1));
    const GraphEdge *e = edgeBetween(m, matmul, m.nodeOf(c.relu));
    QVERIFY(e);
    QCOMPARE(e->label, std::string("?x30xf32")); // unnamed value: its shape
    QCOMPARE(e->value, c.matmul->result(0));
    QCOMPARE(m.nodes[m.nodeOf(c.fetch)].kind, NodeKind::Output);
    QCOMPARE(m.nodes[m.nodeOf(c.fetch)].lines.at(1), std::string("out"));
}

void TestGraphBuilder::chainWithoutGhosts()
{
    Chain c;
    GraphBuilderOptions o;
    o.ghostSourceValues = false;
    o.ghostUseThreshold = 0;
    GraphModel m = GraphBuilder(o).build(c.program);
    QCOMPARE(m.nodes.size(), size_t(5));
    QCOMPARE(m.ghostCount(), size_t(0));
    QCOMPARE(m.edges.size(), size_t(4));
    const GraphEdge *e = edgeBetween(m, m.nodeOf(c.param), m.nodeOf(c.matmul));
    QVERIFY(e);
    QCOMPARE(e->label, std::string("fc.w_0")); // named value: its name
    QCOMPARE(e->operandIndex, 1);
    QCOMPARE(m.nodes[m.nodeOf(c.param)].kind, NodeKind::Parameter);
}

void TestGraphBuilder::highFanOutBecomesGhosts()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *x = b.create("pd_op.data", {}, { tensor({ 4 }) }, { str("name", "x") });
    Operation *mask = b.create("pd_op.sigmoid", { x->result(0) }, { tensor({ 4 }) });
    std::vector<Operation *> users;
    for (int i = 0; i < 6; ++i)
        users.push_back(b.create("pd_op.multiply", { mask->result(0), mask->result(0) }, { tensor({ 4 }) }));
    Operation *few = b.create("pd_op.relu", { users[0]->result(0) }, { tensor({ 4 }) });

    GraphModel m = GraphBuilder().build(program);
    int maskNode = m.nodeOf(mask);
    QVERIFY(maskNode >= 0);
    QCOMPARE(countEdgesFrom(m, maskNode), 0); // 12 uses > 4: one ghost per use instead
    int ghostsOfMask = 0;
    for (const GraphNode &n : m.nodes)
        if (n.ghost && n.value == mask->result(0)) {
            ++ghostsOfMask;
            QCOMPARE(n.op, mask);
            QCOMPARE(n.kind, NodeKind::Compute);
            QVERIFY(QString::fromStdString(n.lines.at(0)).startsWith('%'));
        }
    QCOMPARE(ghostsOfMask, 12);
    for (Operation *u : users) {
        int un = m.nodeOf(u);
        int in = 0;
        for (const GraphEdge &e : m.edges)
            if (e.to == un) {
                QVERIFY(m.nodes[e.from].ghost);
                QVERIFY(e.label.empty());
                ++in;
            }
        QCOMPARE(in, 2);
    }
    QVERIFY(edgeBetween(m, m.nodeOf(users[0]), m.nodeOf(few))); // one use: a plain edge

    GraphBuilderOptions loose;
    loose.ghostUseThreshold = 12;
    GraphModel m2 = GraphBuilder(loose).build(program);
    QCOMPARE(countEdgesFrom(m2, m2.nodeOf(mask)), 12);
}

void TestGraphBuilder::ifAndWhileRegionsBecomeClusters()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *x = b.create("pd_op.data", {}, { tensor({ 1 }) }, { str("name", "x") });
    Operation *cond = b.create("pd_op.less_than", { x->result(0), x->result(0) }, { tensor({ 1 }) });
    Operation *pre = b.create("pd_op.relu", { x->result(0) }, { tensor({ 1 }) });
    Operation *ifOp = b.create("pd_op.if", { cond->result(0) }, { tensor({ 1 }) }, {}, 2);
    Block &thenBlock = ifOp->region(0).addBlock();
    Block &elseBlock = ifOp->region(1).addBlock();
    b.setInsertionPointToEnd(thenBlock);
    Operation *add = b.create("pd_op.add", { pre->result(0), pre->result(0) }, { tensor({ 1 }) });
    Operation *whileOp
        = b.create("pd_op.while", { cond->result(0), add->result(0) }, { tensor({ 1 }) }, {}, 1);
    Block &body = whileOp->region(0).addBlock();
    Value loopVar = body.addArgument(tensor({ 1 }));
    b.setInsertionPointToEnd(body);
    Operation *inc = b.create("pd_op.scale", { loopVar }, { tensor({ 1 }) });
    Operation *innerYield = b.create("cf.yield", { cond->result(0), inc->result(0) }, {});
    b.setInsertionPointToEnd(thenBlock);
    b.create("cf.yield", { whileOp->result(0) }, {});
    b.setInsertionPointToEnd(elseBlock);
    Operation *sub = b.create("pd_op.subtract", { cond->result(0), cond->result(0) }, { tensor({ 1 }) });
    b.create("cf.yield", { sub->result(0) }, {});
    b.setInsertionPointToEnd(program.block());
    Operation *after = b.create("pd_op.relu", { ifOp->result(0) }, { tensor({ 1 }) });

    GraphModel m = GraphBuilder().build(program);
    QCOMPARE(m.clusters.size(), size_t(3));
    const GraphCluster &thenC = m.clusters[0];
    const GraphCluster &whileC = m.clusters[1];
    const GraphCluster &elseC = m.clusters[2];
    QCOMPARE(thenC.op, ifOp);
    QCOMPARE(thenC.parent, -1);
    QCOMPARE(thenC.label, std::string("if: true"));
    QCOMPARE(elseC.op, ifOp);
    QCOMPARE(elseC.regionIndex, 1u);
    QCOMPARE(elseC.label, std::string("if: false"));
    QCOMPARE(whileC.op, whileOp);
    QCOMPARE(whileC.parent, thenC.id);
    QCOMPARE(whileC.label, std::string("while: body"));

    QCOMPARE(m.nodes[m.nodeOf(ifOp)].cluster, -1);
    QCOMPARE(m.nodes[m.nodeOf(ifOp)].kind, NodeKind::ControlFlow);
    QCOMPARE(m.nodes[m.nodeOf(add)].cluster, thenC.id);
    QCOMPARE(m.nodes[m.nodeOf(whileOp)].cluster, thenC.id);
    QCOMPARE(m.nodes[m.nodeOf(inc)].cluster, whileC.id);
    QCOMPARE(m.nodes[m.nodeOf(innerYield)].kind, NodeKind::ControlFlow);
    QCOMPARE(m.nodes[m.nodeOf(sub)].cluster, elseC.id);
    QCOMPARE(m.nodes[m.nodeOf(after)].cluster, -1);
    // A value from outside the region flows into it with a plain edge.
    QVERIFY(edgeBetween(m, m.nodeOf(pre), m.nodeOf(add)));
    QVERIFY(edgeBetween(m, m.nodeOf(ifOp), m.nodeOf(after)));
    // The loop variable is a block argument: a ghost inside the body cluster.
    bool argGhost = false;
    for (const GraphEdge &e : m.edges)
        if (e.to == m.nodeOf(inc)) {
            const GraphNode &g = m.nodes[e.from];
            QVERIFY(g.ghost);
            QCOMPARE(g.value, loopVar);
            QCOMPARE(g.cluster, whileC.id);
            QCOMPARE(g.lines.at(0), std::string("arg_0"));
            argGhost = true;
        }
    QVERIFY(argGhost);

    std::string dot = DotWriter::write(m);
    QVERIFY(dot.find("subgraph cluster_0 {") != std::string::npos);
    QVERIFY(dot.find("subgraph cluster_1 {") != std::string::npos);
    QVERIFY(dot.find("subgraph cluster_2 {") != std::string::npos);
    QVERIFY(dot.find("a1 [shape=point, style=invis") != std::string::npos);
    QVERIFY(dot.find("compound=true") != std::string::npos);
    std::string ifAnchorEdge = "n" + std::to_string(m.nodeOf(ifOp)) + " -> a0 [lhead=cluster_0";
    QVERIFY(dot.find(ifAnchorEdge) != std::string::npos);
    // cluster_1 is nested in cluster_0.
    QVERIFY(dot.find("subgraph cluster_1") > dot.find("subgraph cluster_0"));
    QVERIFY(dot.find("subgraph cluster_1") < dot.find("subgraph cluster_2"));
}

void TestGraphBuilder::blockArgumentsAndShapes()
{
    Program program;
    Value kw = program.block().addKwarg("input_0", tensor({ 2, 3 }));
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *exp = b.create("pd_op.exp", { kw }, { Type::denseTensor(DataType::Float16, {}) });
    b.create("builtin.shadow_output", { exp->result(0) }, {}, { str("output_name", "out_0") });

    GraphBuilderOptions o;
    o.ghostSourceValues = false;
    GraphModel m = GraphBuilder(o).build(program);
    QCOMPARE(m.nodes.size(), size_t(3));
    const GraphNode &arg = m.nodes[0];
    QCOMPARE(arg.op, nullptr);
    QCOMPARE(arg.value, kw);
    QCOMPARE(arg.kind, NodeKind::Data);
    QCOMPARE(arg.lines.at(0), std::string("input_0"));
    QCOMPARE(arg.lines.at(1), std::string("2x3xf32"));
    const GraphEdge *toOut = edgeBetween(m, m.nodeOf(exp), 2);
    QVERIFY(toOut);
    QCOMPARE(toOut->label, std::string("out_0")); // the shadow_output name
    QCOMPARE(m.nodes[m.nodeOf(exp)].lines.at(1), std::string("f16"));

    QCOMPARE(GraphBuilder::shapeText(Type::vector({ tensor({ 1 }), tensor({ 2 }) })), std::string("vec[2]"));
    QCOMPARE(GraphBuilder::shapeText(Type()), std::string("null"));
}

void TestGraphBuilder::dotText()
{
    Chain c;
    GraphModel m = GraphBuilder().build(c.program);
    std::string dot = DotWriter::write(m);
    QVERIFY(dot.rfind("digraph pir {\n", 0) == 0);
    QVERIFY(dot.find("nslimit=2") != std::string::npos);
    QVERIFY(dot.find("nslimit1=2") != std::string::npos);
    QVERIFY(dot.find("rankdir=TB") != std::string::npos);
    QVERIFY(dot.find("splines=spline") != std::string::npos);
    QVERIFY(dot.find("compound=true") == std::string::npos); // no clusters
    QVERIFY(dot.find("fixedsize=true") != std::string::npos);
    int matmul = m.nodeOf(c.matmul);
    int relu = m.nodeOf(c.relu);
    QVERIFY(dot.find("n" + std::to_string(matmul) + " -> n" + std::to_string(relu) + " [id=e")
        != std::string::npos);
    QVERIFY(dot.find("tooltip=\"?x30xf32\"") != std::string::npos);
    // Ghosts are chips inside their consumer: no DOT node or edge of their own, a taller box.
    QVERIFY(dot.find("style=\"rounded,filled,dashed\"") == std::string::npos);
    QVERIFY(dot.find("[label=\"matmul\\n?x30xf32\"") != std::string::npos);
    QVERIFY(dot.find("labelloc=t, tooltip=\"inputs: fc.w_0\"") != std::string::npos);
    int edgeLines = 0;
    for (size_t at = dot.find(" -> "); at != std::string::npos; at = dot.find(" -> ", at + 1))
        ++edgeLines;
    QCOMPARE(edgeLines, 3); // data -> matmul -> relu -> fetch
    QVERIFY(dot.find("n" + std::to_string(m.nodeOf(c.data)) + " -> n" + std::to_string(matmul) + " [id=e")
        != std::string::npos);
    QVERIFY(dot.find(std::string(nodeKindFillColor(NodeKind::Data))) != std::string::npos);
    QVERIFY(dot.find(std::string(nodeKindFillColor(NodeKind::Output))) != std::string::npos);
    const std::vector<NodeSize> sizes = DotWriter::boxSizes(m, {});
    const NodeSize own = DotWriter::estimateSize(m.nodes[matmul], 10);
    QVERIFY(sizes[matmul].height > own.height);
    QCOMPARE(sizes[m.nodeOf(c.relu)].height, DotWriter::estimateSize(m.nodes[m.nodeOf(c.relu)], 10).height);

    DotWriterOptions separate;
    separate.attachGhosts = false;
    const std::string dotSeparate = DotWriter::write(m, separate);
    QVERIFY(dotSeparate.find("style=\"rounded,filled,dashed\"") != std::string::npos);
    QVERIFY(dotSeparate.find("style=dashed]") != std::string::npos); // ghost edges
    // Every edge comes after every node.
    QVERIFY(dot.find(" -> ") > dot.rfind("[label="));
    QCOMPARE(DotWriter::write(m), dot); // deterministic

    DotWriterOptions naive;
    naive.nslimit = 0;
    naive.nslimit1 = 0;
    naive.splines = "ortho";
    naive.edgeLabels = true;
    std::string dot2 = DotWriter::write(m, naive);
    QVERIFY(dot2.find("nslimit") == std::string::npos);
    QVERIFY(dot2.find("splines=ortho") != std::string::npos);
    QVERIFY(dot2.find("label=\"?x30xf32\"") != std::string::npos);
}

void TestGraphBuilder::dotNodeSizesAndEscaping()
{
    QCOMPARE(DotWriter::escape("a\"b\\c\nd"), std::string("a\\\"b\\\\c d"));
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    b.create("pd_op.data", {}, { tensor({ 1 }) }, { str("name", "say \"hi\"") });
    GraphBuilderOptions o;
    o.ghostSourceValues = false;
    GraphModel m = GraphBuilder(o).build(program);
    DotWriterOptions opts;
    opts.nodeSizes = { { 144, 36 } };
    std::string dot = DotWriter::write(m, opts);
    QVERIFY(dot.find("label=\"data\\nsay \\\"hi\\\"\\n1xf32\"") != std::string::npos);
    QVERIFY(dot.find("width=2, height=0.5") != std::string::npos);

    GraphBuilderOptions shortLabels;
    shortLabels.ghostSourceValues = false;
    shortLabels.maxLabelLength = 5;
    GraphModel m2 = GraphBuilder(shortLabels).build(program);
    QCOMPARE(m2.nodes[0].lines.at(1), std::string("say \u2026"));
    NodeSize est = DotWriter::estimateSize(m.nodes[0], 10);
    QVERIFY(est.width > 36 && est.height > 20);
}

void TestGraphBuilder::ghostChipLayout()
{
    const NodeSize label { 100, 30 };
    GhostChipLayout none = GhostChipLayout::compute(label, {});
    QCOMPARE(none.box.width, 100.0);
    QCOMPARE(none.box.height, 30.0);
    QVERIFY(none.chipOffsets.empty());

    // Three 60-wide chips fit one 220 row; a fourth wraps.
    std::vector<NodeSize> chips(4, NodeSize { 60, 14 });
    GhostChipLayout g = GhostChipLayout::compute(label, chips);
    QCOMPARE(g.labelHeight, 30.0);
    QCOMPARE(g.chipOffsets.size(), size_t(4));
    const double row = 3 * 60 + 2 * GhostChipLayout::kGap;
    QCOMPARE(g.box.width, row + 2 * GhostChipLayout::kPad);
    QCOMPARE(g.chipOffsets[0].y, 30.0);
    QCOMPARE(g.chipOffsets[2].y, 30.0);
    QCOMPARE(g.chipOffsets[3].y, 30.0 + 14 + GhostChipLayout::kGap);
    QCOMPARE(g.box.height, 30.0 + 2 * 14 + GhostChipLayout::kGap + GhostChipLayout::kPad);
    // Rows are centred and chips never overlap or leave the box.
    QCOMPARE(g.chipOffsets[0].x, GhostChipLayout::kPad);
    QCOMPARE(g.chipOffsets[3].x, (g.box.width - 60) / 2);
    for (size_t i = 0; i < chips.size(); ++i) {
        QVERIFY(g.chipOffsets[i].x >= 0 && g.chipOffsets[i].x + 60 <= g.box.width);
        QVERIFY(g.chipOffsets[i].y + 14 <= g.box.height);
        if (i > 0 && g.chipOffsets[i].y == g.chipOffsets[i - 1].y)
            QVERIFY(g.chipOffsets[i].x >= g.chipOffsets[i - 1].x + 60);
    }
    // A chip wider than the row gets its own row and widens the box.
    GhostChipLayout wide = GhostChipLayout::compute(label, { { 300, 14 } });
    QCOMPARE(wide.box.width, 300 + 2 * GhostChipLayout::kPad);
}

void TestGraphBuilder::longEdgesBecomeGhosts()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *x = b.create("pd_op.data", {}, { tensor({ 4 }) }, { str("name", "x") });
    // `skip` feeds the head of a 10-op chain and its end: a skip connection over 11 ranks.
    Operation *skip = b.create("pd_op.relu", { x->result(0) }, { tensor({ 4 }) });
    // `bias` is computed from a parameter only and feeds the end: dot ranks it right above
    // its consumer, so its edge stays.
    Operation *w = b.create("builtin.parameter", {}, { tensor({ 4 }) }, { str("parameter_name", "b_0") });
    Operation *bias = b.create("pd_op.reshape", { w->result(0) }, { tensor({ 4 }) });
    Operation *chain = skip;
    for (int i = 0; i < 10; ++i)
        chain = b.create("pd_op.relu", { chain->result(0) }, { tensor({ 4 }) });
    Operation *late
        = b.create("pd_op.add", { chain->result(0), skip->result(0), bias->result(0) }, { tensor({ 4 }) });

    GraphBuilderOptions o; // ghostRankSpan 8 by default
    GraphModel m = GraphBuilder(o).build(program);
    QCOMPARE(countEdgesFrom(m, m.nodeOf(skip)), 1); // only into the chain
    bool ghost = false;
    for (const GraphNode &n : m.nodes)
        if (n.ghost && n.value == skip->result(0)) {
            QCOMPARE(n.attachedTo, m.nodeOf(late));
            ghost = true;
        }
    QVERIFY(ghost);
    QVERIFY(edgeBetween(m, m.nodeOf(chain), m.nodeOf(late)));
    QVERIFY(edgeBetween(m, m.nodeOf(bias), m.nodeOf(late)));

    o.ghostRankSpan = 0;
    GraphModel m2 = GraphBuilder(o).build(program);
    QVERIFY(edgeBetween(m2, m2.nodeOf(skip), m2.nodeOf(late)));
    o.ghostRankSpan = 11;
    GraphModel m3 = GraphBuilder(o).build(program);
    QVERIFY(edgeBetween(m3, m3.nodeOf(skip), m3.nodeOf(late)));
}

/// A value with many uses has as many ghosts (or, without ghosts, edges): each is named as
/// a value with one use would be, by its shadow_output, else by its number.
void TestGraphBuilder::widelyUsedValuesKeepTheirNames()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    Operation *x = b.create("pd_op.data", {}, { tensor({ 4 }) }, { str("name", "x") });
    Operation *mask = b.create("pd_op.sigmoid", { x->result(0) }, { tensor({ 4 }) });
    Operation *scale = b.create("pd_op.scale", { x->result(0) }, { tensor({ 4 }) });
    constexpr int kUsers = 30;
    for (int i = 0; i < kUsers; ++i)
        b.create("pd_op.multiply", { mask->result(0), scale->result(0) }, { tensor({ 4 }) });
    b.create("builtin.shadow_output", { mask->result(0) }, {}, { str("output_name", "mask_out") });

    GraphModel m = GraphBuilder().build(program);
    int maskGhosts = 0, scaleGhosts = 0;
    std::string scaleTitle;
    for (const GraphNode &n : m.nodes) {
        if (!n.ghost)
            continue;
        if (n.value == mask->result(0)) {
            ++maskGhosts;
            QCOMPARE(n.lines, std::vector<std::string> { "mask_out" });
        } else if (n.value == scale->result(0)) {
            ++scaleGhosts;
            QCOMPARE(n.lines.size(), size_t(1));
            QVERIFY(QString::fromStdString(n.lines[0]).startsWith('%'));
            if (scaleTitle.empty())
                scaleTitle = n.lines[0];
            QCOMPARE(n.lines[0], scaleTitle); // the same number on every ghost
        }
    }
    QCOMPARE(maskGhosts, kUsers + 1);
    QCOMPARE(scaleGhosts, kUsers);

    GraphBuilderOptions noGhosts;
    noGhosts.ghostUseThreshold = 0;
    noGhosts.ghostRankSpan = 0;
    GraphModel flat = GraphBuilder(noGhosts).build(program);
    int maskEdges = 0, scaleEdges = 0;
    for (const GraphEdge &e : flat.edges) {
        if (e.value == mask->result(0)) {
            ++maskEdges;
            QCOMPARE(e.label, std::string("mask_out"));
        } else if (e.value == scale->result(0)) {
            ++scaleEdges;
            QCOMPARE(e.label, std::string("4xf32")); // no name: the shape
        }
    }
    QCOMPARE(maskEdges, kUsers + 1);
    QCOMPARE(scaleEdges, kUsers);
}

void TestGraphBuilder::oneDnnPlacedOpsAreTitledByTheirPaddleName()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    const Type t = Type::denseTensor(DataType::Float32, { 2, 3 });
    Operation *data = b.create("pd_op.data", {}, { t }, { { "name", Attribute::string("x") } });
    Operation *relu = b.create("onednn_op.relu", { data->result(0) }, { t });
    Operation *fused = b.create("onednn_op.fused_softplus", { relu->result(0) }, { t });
    b.create("pd_op.fetch", { fused->result(0) }, { t }, { { "name", Attribute::string("out") } });
    const GraphModel m = GraphBuilder().build(program);
    QCOMPARE(m.nodes[size_t(m.nodeOf(relu))].lines.at(0), std::string("relu [onednn]"));
    // A fused oneDNN op has no pd_op it stands for: its full name.
    QCOMPARE(m.nodes[size_t(m.nodeOf(fused))].lines.at(0), std::string("onednn_op.fused_softplus"));
}

QTEST_GUILESS_MAIN(TestGraphBuilder)
#include "tst_graphbuilder.moc"
