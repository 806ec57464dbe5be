#include "core/analysis/programdiff.h"
#include "core/graph/graphbuilder.h"
#include "core/io/paddlepasslog.h"
#include "core/io/passdumpfolder.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/session/pathkind.h"
#include "core/transform/passtimeline.h"

#include <QtTest>
#include <algorithm>
#include <sys/stat.h>

using namespace ps;

namespace {

std::string fixture(const char *name)
{
    return std::string(PIRSCOPE_FIXTURES_DIR "/paddle_logs/") + name;
}

std::shared_ptr<const PassLogIndex> indexOf(const char *name)
{
    DiagnosticList d;
    auto index = PaddlePassLog::index(fixture(name), d);
    if (!index)
        qWarning("%s", d.toString().c_str());
    return index;
}

int stepNamed(const PassLogIndex &index, std::string_view pass, int nth = 0)
{
    for (size_t i = 0; i < index.steps.size(); ++i)
        if (index.steps[i].pass == pass && nth-- == 0)
            return int(i);
    return -1;
}

std::vector<std::string> fusedNames(const OpDiff &d, std::string_view op)
{
    for (int32_t j : d.rewrites) {
        if (d.after[size_t(j)]->name() != op)
            continue;
        std::vector<std::string> names;
        for (int32_t i : d.fusedFrom[size_t(j)])
            names.emplace_back(d.before[size_t(i)]->name());
        std::sort(names.begin(), names.end());
        names.erase(std::unique(names.begin(), names.end()), names.end());
        return names;
    }
    return {};
}

/// Every program of the log reads without an error.
void checkAllPrograms(const PassLogIndex &index)
{
    for (size_t i = 0; i < index.programs.size(); ++i) {
        LoadResult r = PaddlePassLog::readProgram(index, i);
        QVERIFY2(r.ok(), r.diagnostics.toString().c_str());
        QCOMPARE(r.program->numOpsTotal(), index.programs[i].opLines);
    }
}

const char *kBanner = "===-------------------------------------------------------===\n";

std::string mlirStep(const std::string &pass, const std::string &before, const std::string &after)
{
    return std::string(kBanner) + "        IRPrinting on builtin.module before " + pass + " pass\n" + kBanner
        + before + "\n\n" + kBanner + "        IRPrinting on builtin.module after " + pass + " pass\n"
        + kBanner + after + "\n\n";
}

const char *kOne = R"pir({
    (%0) = "pd_op.data" [id:1] () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" [id:2] (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
    () = "builtin.shadow_output" [id:3] (%1) {output_name:"out"} : (tensor<4xf32>) -> 
})pir";

const char *kTwo = R"pir({
    (%0) = "pd_op.data" [id:1] () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.relu_" [id:2] (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
    () = "builtin.shadow_output" [id:3] (%1) {output_name:"out"} : (tensor<4xf32>) -> 
})pir";

} // namespace

class TestPaddlePassLog : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        if (!QFile::exists(QString::fromStdString(fixture("conv_infer_cpu.log"))))
            QSKIP("tests/fixtures/paddle_logs is missing");
    }

    void convInferenceOnCpu()
    {
        // paddle.inference, oneDNN off, switch_ir_debug + FLAGS_print_ir: every pass printed,
        // ops with [id:N], pd_op_to_kernel_pass between `IR before/after lowering`.
        const auto index = indexOf("conv_infer_cpu.log");
        QVERIFY(index);
        QVERIFY2(index->diagnostics.empty(), index->diagnostics.toString().c_str());
        const std::vector<std::string> expected { "add_shadow_output_after_dead_parameter_pass",
            "delete_quant_dequant_linear_op_pass", "delete_weight_dequant_linear_op_pass",
            "transfer_layout_pass", "common_subexpression_elimination_pass", "constant_folding_pass",
            "pd_op_to_kernel_pass", "dead_code_elimination_pass", "replace_fetch_with_shadow_output_pass",
            "pd_op_to_kernel_pass", "remove_shadow_feed_pass", "inplace_pass" };
        QCOMPARE(index->steps.size(), expected.size());
        for (size_t i = 0; i < expected.size(); ++i)
            QCOMPARE(index->steps[i].pass, expected[i]);
        // Constant folding lowers a sub-program to run it: a step inside it.
        const LoggedStep &folding = index->steps[5];
        QCOMPARE(folding.statistics, std::string("1, 18"));
        QCOMPARE(index->steps[6].depth, 1);
        QCOMPARE(index->steps[6].kind, LoggedStep::Kind::Lowering);
        // The predictor lowers the program itself.
        const LoggedStep &lowering = index->steps[9];
        QCOMPARE(lowering.depth, 0);
        QVERIFY(!index->programs[size_t(lowering.before)].kernelDialect);
        QVERIFY(index->programs[size_t(lowering.after)].kernelDialect);
        QCOMPARE(index->steps[11].statistics, std::string("4"));
        // Equal programs printed after one pass and before the next are one program.
        QCOMPARE(index->steps[1].before, index->steps[0].after);
        checkAllPrograms(*index);

        const auto timeline = PassTimeline::fromLog(index);
        auto d = timeline->diff(0);
        QVERIFY(d->ops.identical());
        QCOMPARE(d->ops.matchedByKey, d->ops.kept); // every op by its [id:N]
        d = timeline->diff(9);
        QCOMPARE(d->ops.removed + d->ops.added, size_t(0)); // lowering keeps every op, changed
        QCOMPARE(d->ops.changed, size_t(17));
        QCOMPARE(timeline->diff(11)->ops.changed, size_t(4)); // inplace_pass: four ops become inplace
        QVERIFY(timeline->diff(11)->diagnostics.empty());
    }

    void kernelProgramsLoadPrintAndDraw()
    {
        for (const char *log :
            { "conv_infer_cpu.log", "transformer_infer_onednn.log", "dy2static_train.log" }) {
            const auto index = indexOf(log);
            QVERIFY(index);
            size_t kernelPrograms = 0;
            for (size_t i = 0; i < index->programs.size(); ++i) {
                if (!index->programs[i].kernelDialect)
                    continue;
                ++kernelPrograms;
                LoadResult r = PaddlePassLog::readProgram(*index, i);
                QVERIFY2(r.ok() && r.diagnostics.empty(), r.diagnostics.toString().c_str());
                const std::string printed = PirPrinter::toString(*r.program);
                QVERIFY(printed.find("(phi_kernel)\"") != std::string::npos
                    || printed.find("_kernel.") != std::string::npos);
                QVERIFY(printed.find("kernel_key:<backend:") != std::string::npos);
                LoadResult again = PirTextReader::readString(printed, "printed");
                QVERIFY(again.ok());
                QCOMPARE(PirPrinter::toString(*again.program), printed);
                // Every lowered op is drawn, coloured by the op it was lowered from.
                const GraphModel graph = GraphBuilder().build(*r.program);
                for (const Operation *op : r.program->block().ops())
                    QVERIFY(graph.nodeOf(op) >= 0 || graph.ghostsOfOp.count(op) || !op->numResults());
                for (const GraphNode &n : graph.nodes)
                    if (n.op && n.op->stringAttribute("op_name") == "pd_op.data")
                        QCOMPARE(n.kind, NodeKind::Data);
            }
            QVERIFY2(kernelPrograms > 0, log);
        }
    }

    void gpuFusionPasses()
    {
        // The fusion passes of Paddle's GPU pipeline, run on CPU: the fused ops and what they
        // were made from, matched by Paddle's op ids.
        const auto index = indexOf("conv_gpu_passes.log");
        QVERIFY(index);
        // The predictor failed after lowering started (no CPU kernel for the fused conv).
        QVERIFY(index->diagnostics.toString().find("has no 'after' banner") != std::string::npos);
        checkAllPrograms(*index);
        const auto timeline = PassTimeline::fromLog(index);
        const int bn = stepNamed(*index, "conv2d_bn_fuse_pass");
        QCOMPARE(index->steps[size_t(bn)].statistics, std::string("1"));
        auto d = timeline->diff(size_t(bn));
        QCOMPARE(d->ops.removed, size_t(1));
        QCOMPARE(d->ops
                     .before[size_t(
                         std::find(d->ops.beforeChange.begin(), d->ops.beforeChange.end(), OpChange::Removed)
                         - d->ops.beforeChange.begin())]
                     ->name(),
            std::string_view("pd_op.batch_norm_"));
        QCOMPARE(fusedNames(d->ops, "pd_op.add"), std::vector<std::string> { "pd_op.batch_norm_" });
        QVERIFY(d->ops.matchedByKey > 10);
        d = timeline->diff(size_t(stepNamed(*index, "conv2d_add_act_fuse_pass")));
        QCOMPARE(fusedNames(d->ops, "pd_op.fused_conv2d_add_act"),
            (std::vector<std::string> { "pd_op.add", "pd_op.conv2d", "pd_op.relu" }));
        d = timeline->diff(size_t(stepNamed(*index, "matmul_add_act_fuse_pass")));
        QCOMPARE(fusedNames(d->ops, "pd_op.fc"),
            (std::vector<std::string> { "pd_op.add", "pd_op.matmul", "pd_op.relu" }));
        // Constant folding: twelve sub-programs lowered inside it, and parameters made of ops.
        const int folding = stepNamed(*index, "constant_folding_pass");
        size_t nested = 0;
        for (size_t i = size_t(folding) + 1; i < index->steps.size() && index->steps[i].depth == 1; ++i)
            nested += index->steps[i].pass == "pd_op_to_kernel_pass";
        QCOMPARE(nested, size_t(12));
        QVERIFY(!fusedNames(timeline->diff(size_t(folding))->ops, "builtin.parameter").empty());
        QCOMPARE(index->steps[size_t(stepNamed(*index, "dead_code_elimination_pass"))].statistics,
            std::string("14"));
    }

    void filteredOneDnnLog()
    {
        // switch_ir_debug(True, passes): passes that did not print are one Unlogged step, named
        // after glog's `Running PIR pass` lines; no [id:N], so ops are matched by structure.
        const auto index = indexOf("transformer_infer_onednn.log");
        QVERIFY(index);
        checkAllPrograms(*index);
        QCOMPARE(index->steps.size(), size_t(11));
        const auto unlogged = std::find_if(index->steps.begin(), index->steps.end(),
            [](const LoggedStep &s) { return s.kind == LoggedStep::Kind::Unlogged; });
        QVERIFY(unlogged != index->steps.end());
        QVERIFY(unlogged->pass.find("replace_fetch_with_shadow_output_pass") != std::string::npos);
        QVERIFY(unlogged->pass.ends_with("pd_op_to_kernel_pass"));
        QVERIFY(unlogged->statistics.find("constant_folding_pass: 0, 31") != std::string::npos);
        const auto timeline = PassTimeline::fromLog(index);
        auto d = timeline->diff(size_t(stepNamed(*index, "matmul_add_act_fuse_pass")));
        QCOMPARE(d->ops.matchedByKey, size_t(0));
        QCOMPARE(d->ops.rewrites.size(), size_t(6));
        for (int32_t j : d->ops.rewrites)
            QCOMPARE(d->ops.after[size_t(j)]->name(), std::string_view("pd_op.fc"));
        QCOMPARE(d->ops.removed, size_t(13));
        // fc_onednn_enable_pass turns each pd_op.fc into onednn_op.fc: the same ops, changed.
        d = timeline->diff(size_t(stepNamed(*index, "fc_onednn_enable_pass")));
        QCOMPARE(d->ops.changed, size_t(6));
        QCOMPARE(d->ops.removed + d->ops.added, size_t(0));
    }

    void dy2staticTraining()
    {
        const auto index = indexOf("dy2static_train.log");
        QVERIFY(index);
        checkAllPrograms(*index);
        QCOMPARE(index->steps.front().pass, std::string("FusedBnAddActPass"));
        QCOMPARE(index->steps.front().before, -1); // `IR After` only
        QCOMPARE(index->steps[1].kind, LoggedStep::Kind::Split);
        QCOMPARE(index->steps[1].target, std::string("forward"));
        QCOMPARE(index->steps[2].target, std::string("backward"));
        QCOMPARE(index->steps[1].before, index->steps[0].after);
        QCOMPARE(index->steps[2].before, index->steps[0].after);
        size_t lowerings = 0;
        size_t inplace = 0;
        for (const LoggedStep &s : index->steps) {
            lowerings += s.kind == LoggedStep::Kind::Lowering;
            inplace += s.pass == "inplace";
        }
        QCOMPARE(lowerings, size_t(2));
        QCOMPARE(inplace, size_t(2));
        // The backward program is lowered as split_program made it: the same program.
        const int second = stepNamed(*index, "pd_op_to_kernel_pass", 1);
        QCOMPARE(index->steps[size_t(second)].before, index->steps[2].after);
        const auto timeline = PassTimeline::fromLog(index);
        const auto d = timeline->diff(1);
        QVERIFY(d->ops.removed > 20); // the backward half leaves the forward program
        QVERIFY(timeline->diff(size_t(second) + 1)->ops.changed > 0); // inplace
    }

    void perPassDumpFolder()
    {
        DiagnosticList diagnostics;
        const auto index = PassDumpFolder::index(fixture("perpass_dir"), diagnostics);
        QVERIFY(index);
        QVERIFY(PassDumpFolder::isDumpFolder(fixture("perpass_dir")));
        QCOMPARE(index->programs.size(), size_t(5));
        QCOMPARE(index->steps.size(), size_t(5));
        QCOMPARE(index->steps[0].kind, LoggedStep::Kind::Printed);
        QCOMPARE(index->steps[1].pass, std::string("matmul_add_act_fuse_pass"));
        QCOMPARE(index->steps[4].pass, std::string("dead_code_elimination_pass"));
        QCOMPARE(index->steps[2].before, index->steps[1].after);
        checkAllPrograms(*index);
        const auto timeline = PassTimeline::fromLog(index);
        QCOMPARE(fusedNames(timeline->diff(1)->ops, "pd_op.fc"),
            (std::vector<std::string> { "pd_op.add", "pd_op.matmul", "pd_op.relu" }));
        QCOMPARE(timeline->diff(3)->ops.removed, size_t(3)); // CSE: the second matmul, full, scale
        QCOMPARE(timeline->diff(4)->ops.removed, size_t(1)); // DCE: the exp
        QCOMPARE(timeline->result(), timeline->step(4).after);
    }

    void bannersOfEveryKind()
    {
        std::string log = "W1201 16:53:53.031966 10608 eager_utils.cc:3584] a warning\n";
        log += "\x1b[1m\x1b[35m--- Running PIR pass [a_pass]\x1b[0m\n";
        log += mlirStep("a_pass", kOne, kOne);
        log += "I1201 16:53:53.180047 10608 print_statistics.cc:50] --- detected [3] subgraphs!\n";
        log += "\x1b[1m\x1b[35m--- Running PIR pass [quiet_pass]\x1b[0m\n";
        log += mlirStep("inplace_pass", kTwo, kTwo);
        log += "IR After FusedBnAddActPass -------------------\n" + std::string(kTwo) + "\n";
        log += "===---------------------------===\n        PassTiming on "
               "builtin.module\n===---------------------------===\n"
               "  Total Execution Time: 0.010 seconds\n\n  ----Walk Time----  ----Name----\n"
               "     0.006 ( 60.0%)  a_pass\n     0.004 ( 40.0%)  inplace_pass\n\n";
        QVERIFY(PaddlePassLog::looksLikeLog(log));
        QVERIFY(!PaddlePassLog::looksLikeLog(std::string_view(kOne)));
        const auto index = PaddlePassLog::indexText(log, "synthetic.log");
        QVERIFY2(index->diagnostics.empty(), index->diagnostics.toString().c_str());
        QCOMPARE(index->programs.size(), size_t(5));
        QCOMPARE(index->steps.size(), size_t(4));
        const LoggedStep &a = index->steps[0];
        QCOMPARE(a.pass, std::string("a_pass"));
        QCOMPARE(a.target, std::string("builtin.module"));
        QCOMPARE(a.statistics, std::string("3"));
        QCOMPARE(a.seconds, 0.006);
        QCOMPARE(a.line, 4);
        QCOMPARE(index->programs[size_t(a.before)].opLines, size_t(3));
        // relu became relu_ with no banner: quiet_pass ran unprinted between the two steps.
        const LoggedStep &unlogged = index->steps[1];
        QCOMPARE(unlogged.kind, LoggedStep::Kind::Unlogged);
        QCOMPARE(unlogged.pass, std::string("quiet_pass"));
        QCOMPARE(unlogged.before, a.after);
        QCOMPARE(unlogged.after, index->steps[2].before);
        // "IR After" has no program before: it continues from the last one printed.
        const LoggedStep &fused = index->steps[3];
        QCOMPARE(fused.pass, std::string("FusedBnAddActPass"));
        QCOMPARE(fused.before, index->steps[2].after);

        // The unlogged change is a changed op, matched by Paddle's op id.
        const auto timeline = PassTimeline::fromLog(index);
        const auto d = timeline->diff(1);
        QVERIFY(d->error.empty());
        QCOMPARE(d->ops.changed, size_t(1));
        QCOMPARE(d->ops.matchedByKey, size_t(3));
        QCOMPARE(timeline->counts(1)->changed, size_t(1));
    }

    void damagedLogsSayWhere()
    {
        // A program cut off at the end of the log, and an op line Paddle never prints.
        std::string log = mlirStep("a_pass", kOne, std::string(kOne).substr(0, std::string(kOne).size() - 2));
        const auto index = PaddlePassLog::indexText(log, "cut.log");
        QVERIFY(index->diagnostics.hasErrors());
        QVERIFY2(index->diagnostics.toString().find("cut.log:13:") != std::string::npos,
            index->diagnostics.toString().c_str());
        std::string broken = mlirStep("b_pass", kOne, std::string(kOne));
        broken.replace(broken.rfind("pd_op.relu"), 10, "pd_op.relu\" ((");
        const auto damaged = PaddlePassLog::indexText(broken, "damaged.log");
        LoadResult r = PaddlePassLog::readProgram(*damaged, 1);
        QVERIFY(r.diagnostics.hasErrors());
        // The error names the log's line (15: the relu of the second program), not the program's.
        QVERIFY2(r.diagnostics.firstError()->location.line == 15, r.diagnostics.toString().c_str());
        QCOMPARE(r.diagnostics.firstError()->location.file, std::string("damaged.log"));
        const auto timeline = PassTimeline::fromLog(damaged);
        QVERIFY(!timeline->diff(0)->error.empty() || timeline->diff(0)->diagnostics.hasErrors());
        // A file that does not exist.
        DiagnosticList missing;
        QVERIFY(!PaddlePassLog::index("/nonexistent/x.log", missing));
        QVERIFY(missing.toString().find("/nonexistent/x.log") != std::string::npos);
    }

    void devicesAndFifosAreRefusedNotRead()
    {
        // A FIFO would block a plain open and /dev/zero never ends: both are named and refused.
        QTemporaryDir dir;
        const std::string fifo = dir.filePath(QStringLiteral("pipe.log")).toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        for (const std::string &path : { fifo, std::string("/dev/zero") }) {
            DiagnosticList d;
            QVERIFY(!PaddlePassLog::index(path, d));
            QVERIFY2(d.toString().find(path) != std::string::npos, d.toString().c_str());
            QVERIFY(!PaddlePassLog::looksLikeLogFile(path));
            QVERIFY(!opensAsTimeline(classifyPath(path)));
        }
        DiagnosticList d;
        PaddlePassLog::index(fifo, d);
        QVERIFY2(d.toString().find("FIFO") != std::string::npos, d.toString().c_str());
    }

    void naturalOrder()
    {
        QVERIFY(PassDumpFolder::naturalLess("2_a", "10_a"));
        QVERIFY(!PassDumpFolder::naturalLess("10_a", "2_a"));
        QVERIFY(PassDumpFolder::naturalLess("01_x", "1_y"));
        QVERIFY(PassDumpFolder::naturalLess("a", "b"));
    }
};

QTEST_GUILESS_MAIN(TestPaddlePassLog)
#include "tst_paddlepasslog.moc"
