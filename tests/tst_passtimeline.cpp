#include "core/analysis/programdiff.h"
#include "core/analysis/programtextdiff.h"
#include "core/graph/diffgraph.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/parameterstore.h"
#include "core/session/passtimelinenumerics.h"
#include "core/transform/passmanager.h"
#include "core/transform/passregistry.h"
#include "core/transform/passtimeline.h"
#include "core/transform/passtimelinerecorder.h"
#include "core/transform/syntheticprogram.h"
#include "passprograms.h"

#include <QtTest>

using namespace ps;

namespace {

std::unique_ptr<Program> parse(const char *text)
{
    LoadResult r = PirTextReader::readString(text, "test.txt");
    if (!r.ok())
        qWarning("%s", r.diagnostics.toString().c_str());
    return std::move(r.program);
}

// matmul + add + relu as Paddle prints them, and the same after matmul_add_act_fuse_pass
// (op for op what Paddle 3.3.1 printed in tests/fixtures/paddle_logs/perpass_dir).
const char *kUnfused = R"pir({
    (%0) = "builtin.parameter" () {parameter_name:"b",stop_gradient:[false]} : () -> tensor<8xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w",stop_gradient:[false]} : () -> tensor<8x8xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%3) = "pd_op.matmul" (%2, %1) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<2x8xf32>, tensor<8x8xf32>) -> tensor<2x8xf32>
    (%4) = "pd_op.add" (%3, %0) {stop_gradient:[false]} : (tensor<2x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    (%5) = "pd_op.relu" (%4) {stop_gradient:[false]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    (%6) = "pd_op.exp" (%2) {stop_gradient:[true]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    (%7) = "pd_op.fetch" (%5) {col:0,name:"out",stop_gradient:[false]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
})pir";

const char *kFused = R"pir({
    (%0) = "builtin.parameter" () {parameter_name:"b",stop_gradient:[false]} : () -> tensor<8xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w",stop_gradient:[false]} : () -> tensor<8x8xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,8],stop_gradient:[true]} : () -> tensor<2x8xf32>
    (%3) = "pd_op.fc" (%2, %1, %0) {activation_type:"relu",in_num_col_dims:1,padding_weights:false,stop_gradient:[false]} : (tensor<2x8xf32>, tensor<8x8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    (%4) = "pd_op.exp" (%2) {stop_gradient:[true]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
    (%5) = "pd_op.fetch" (%3) {col:0,name:"out",stop_gradient:[false]} : (tensor<2x8xf32>) -> tensor<2x8xf32>
})pir";

int indexOfName(const std::vector<const Operation *> &ops, std::string_view name, int nth = 0)
{
    for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i]->name() == name && nth-- == 0)
            return int(i);
    return -1;
}

std::vector<std::string> names(const OpDiff &d, const std::vector<int32_t> &beforeIndices)
{
    std::vector<std::string> out;
    for (int32_t i : beforeIndices)
        out.emplace_back(d.before[size_t(i)]->name());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestPassTimeline : public QObject
{
    Q_OBJECT

private slots:
    void fusionByStructure()
    {
        auto before = parse(kUnfused);
        auto after = parse(kFused);
        QVERIFY(before && after);
        const OpDiff d = ProgramDiff::ops(*before, *after);
        QCOMPARE(d.removed, size_t(3));
        QCOMPARE(d.added, size_t(1));
        QCOMPARE(d.changed, size_t(1)); // the fetch reads the fc now: rewired
        QCOMPARE(d.kept, size_t(4)); // parameters, data, exp
        QCOMPARE(d.matchedByKey, size_t(0));
        const int fc = indexOfName(d.after, "pd_op.fc");
        QVERIFY(fc >= 0);
        QCOMPARE(d.afterChange[size_t(fc)], OpChange::Added);
        QCOMPARE(names(d, d.fusedFrom[size_t(fc)]),
            (std::vector<std::string> { "pd_op.add", "pd_op.matmul", "pd_op.relu" }));
        QCOMPARE(d.rewrites, std::vector<int32_t> { fc });
        // The fetch now reads the fc: relu was replaced by it.
        const int relu = indexOfName(d.before, "pd_op.relu");
        QCOMPARE(d.replacedBy[size_t(relu)], std::vector<int32_t> { fc });
        QCOMPARE(d.summary(), std::string("\u22123 +1 ~1"));
        // The fetch's counterpart is the fetch, changed because its operand was rewired.
        const int fetch = indexOfName(d.before, "pd_op.fetch");
        QCOMPARE(d.after[size_t(d.afterOf[size_t(fetch)])]->name(), std::string_view("pd_op.fetch"));
        QCOMPARE(d.beforeChange[size_t(fetch)], OpChange::Changed);
        QCOMPARE(d.beforeChange[size_t(indexOfName(d.before, "pd_op.exp"))], OpChange::Kept);
    }

    void rewiredOpsAreChanged()
    {
        // The same ops in the same order, but the second exp reads the data instead of the first
        // exp: nothing was added or removed, yet the program computes something else.
        auto before = parse(R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.exp" (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.exp" (%1) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
})pir");
        auto after = parse(R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.exp" (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.exp" (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
})pir");
        const OpKeys keys { 1, 2, 3 };
        const OpDiff d = ProgramDiff::ops(*before, *after, &keys, &keys);
        QCOMPARE(d.matchedByKey, size_t(3));
        QCOMPARE(d.kept, size_t(2));
        QCOMPARE(d.changed, size_t(1));
        QCOMPARE(d.afterChange[2], OpChange::Changed);
        QVERIFY(!d.identical());
        // The same program twice is identical (ids and block arguments pair).
        const OpDiff same = ProgramDiff::ops(*before, *before->clone(), &keys, &keys);
        QVERIFY(same.identical());
        const std::vector<TextDiffLine> lines = ProgramTextDiff::build(*before, *after, d);
        const std::string unified = ProgramTextDiff::unified(lines);
        QVERIFY2(unified.find("~-(%2) = \"pd_op.exp\" (%1)") != std::string::npos, unified.c_str());
        QVERIFY2(unified.find("~+(%2) = \"pd_op.exp\" (%0)") != std::string::npos, unified.c_str());
    }

    void textDiffNumbersEachSide()
    {
        // Removed lines in the before program's ids, kept ones in both where they differ, so a
        // removed `(%4) = add` never sits beside a kept `(%4) = exp` as if they were one value.
        QCOMPARE(ProgramTextDiff::bothIds("(%6) = \"pd_op.exp\" (%2)", "(%4) = \"pd_op.exp\" (%2)"),
            std::string("(%6\u2192%4) = \"pd_op.exp\" (%2)"));
        QCOMPARE(ProgramTextDiff::bothIds("(%arg_0) = f (%10, %2)", "(%arg_0) = f (%1, %2)"),
            std::string("(%arg_0) = f (%10\u2192%1, %2)"));
        // Not one op in two numberings: the after text alone.
        QCOMPARE(ProgramTextDiff::bothIds("(%1) = a (%0)", "(%1) = b (%0)"), std::string("(%1) = b (%0)"));
        auto before = parse(kUnfused);
        auto after = parse(kFused);
        const OpDiff d = ProgramDiff::ops(*before, *after);
        const std::string unified = ProgramTextDiff::unified(ProgramTextDiff::build(*before, *after, d));
        QVERIFY2(unified.find("- (%4) = \"pd_op.add\" (%3, %0)") != std::string::npos, unified.c_str());
        QVERIFY2(unified.find("  (%6\u2192%4) = \"pd_op.exp\" (%2)") != std::string::npos, unified.c_str());
        QVERIFY2(unified.find("~-(%7) = \"pd_op.fetch\" (%5)") != std::string::npos, unified.c_str());
        QVERIFY2(unified.find("~+(%5) = \"pd_op.fetch\" (%3)") != std::string::npos, unified.c_str());
        // Every kept line with the same ids on both sides prints them once.
        QVERIFY2(unified.find("  (%2) = \"pd_op.data\"") != std::string::npos, unified.c_str());
    }

    void numericCheckPerStep()
    {
        // The recorder checks each pass that runs on the live program (PassTimelineNumerics over
        // the CPU oracle): CSE and DCE keep the numbers; an unimplemented pass is listed, not run.
        auto program = parse(passprograms::kRedundant);
        QVERIFY(program);
        std::unique_ptr<Backend> cpu = createCpuBackend();
        auto store = std::make_shared<ParameterStore>();
        std::string error;
        QVERIFY2(store->load(*program, TensorSource::random(0), error), error.c_str());
        PassManager pm = PassManager::withDefaultPasses();
        pm.setEnabled("dce", true);
        pm.addPass(PassRegistry::create("pd_op_to_kernel_pass"));
        PassTimelineOptions options;
        options.check = std::make_shared<PassTimelineNumerics>(*cpu, store);
        const auto timeline = PassTimelineRecorder::run(pm, *program, options);
        QCOMPARE(timeline->size(), size_t(3));
        const PassTimelineStep &dce = timeline->step(0);
        QVERIFY(dce.numerics && dce.numerics->checked && dce.numerics->ok); // the exp went
        QCOMPARE(dce.numerics->maxAbs, 0.0);
        const PassTimelineStep &cse = timeline->step(1);
        QVERIFY(cse.numerics && cse.numerics->checked && cse.numerics->ok);
        QVERIFY2(QString::fromStdString(cse.numerics->note).contains("values compared"),
            cse.numerics->note.c_str());
        QVERIFY2(QString::fromStdString(cse.numerics->note).contains(", a run alone "),
            cse.numerics->note.c_str());
        const PassTimelineStep &lowering = timeline->step(2);
        QVERIFY(!lowering.implemented);
        QVERIFY(!lowering.numerics);
        QCOMPARE(lowering.seconds, -1.0);

        // A pass that changes the numbers is flagged with the value that differs most.
        PassNumerics wrong;
        wrong.checked = true;
        wrong.ok = false;
        wrong.maxAbs = 0.5;
        wrong.worstValue = "out";
        const std::optional<NumericCheck> flagged = PassTimelineNumerics::summary(wrong);
        QVERIFY(flagged && flagged->checked && !flagged->ok);
        QCOMPARE(flagged->worstValue, std::string("out"));
        // Values that differ only through a flipped near tie stay ok, named in the note.
        PassNumerics flipped;
        flipped.checked = true;
        flipped.orderSensitive.values = 13;
        flipped.orderSensitive.maxAbs = 9937;
        flipped.orderSensitive.selections = { "%2284 (pd_op.topk)" };
        const std::optional<NumericCheck> tie = PassTimelineNumerics::summary(flipped);
        QVERIFY(tie && tie->checked && tie->ok);
        QVERIFY2(
            QString::fromStdString(tie->note).contains("13 order-sensitive values, not failures: near ties "
                                                       "flipped in %2284 (pd_op.topk)"),
            tie->note.c_str());
        PassNumerics failed;
        failed.skipped = "the program after the pass did not run: no kernel";
        const std::optional<NumericCheck> notRun = PassTimelineNumerics::summary(failed);
        QVERIFY(notRun && !notRun->checked);
        QCOMPARE(notRun->note, failed.skipped);
    }

    void aPassListedTwiceRunsAtEachPlace()
    {
        // DCE listed off, then CSE, then DCE again switched on: each instance is its own step
        // with its own switch (the second DCE once ran as the first one, and was skipped).
        auto program = parse(passprograms::kRedundant);
        QVERIFY(program);
        PassManager pm;
        pm.addPass(PassRegistry::create("dead_code_elimination_pass"), false);
        pm.addPass(PassRegistry::create("common_subexpression_elimination_pass"), true);
        pm.addPass(PassRegistry::create("dead_code_elimination_pass"), true);
        const auto timeline = PassTimelineRecorder::run(pm, *program);
        QCOMPARE(timeline->size(), size_t(3));
        QVERIFY(!timeline->step(0).enabled);
        QVERIFY(timeline->step(1).enabled && timeline->step(1).rewrites == 2);
        const PassTimelineStep &second = timeline->step(2);
        QCOMPARE(second.pass, std::string("dead_code_elimination_pass"));
        QVERIFY(second.enabled);
        QCOMPARE(second.rewrites, 1L); // the dead exp
        QCOMPARE(second.after->load()->program->block().size(),
            second.before->load()->program->block().size() - 1);
    }

    void cseKeepsTheTwin()
    {
        auto before = parse(passprograms::kRedundant);
        auto after = before->clone();
        PassManager pm = PassManager::withDefaultPasses(); // CSE on
        pm.run(*after);
        const OpDiff d = ProgramDiff::ops(*before, *after);
        QCOMPARE(d.removed, size_t(2)); // the second full and scale
        QCOMPARE(d.added, size_t(0));
        const int secondScale = indexOfName(d.before, "pd_op.scale", 1);
        QCOMPARE(d.beforeChange[size_t(secondScale)], OpChange::Removed);
        QCOMPARE(d.replacedBy[size_t(secondScale)].size(), size_t(1));
        const int twin = d.replacedBy[size_t(secondScale)].front();
        QCOMPARE(d.after[size_t(twin)]->name(), std::string_view("pd_op.scale"));
        QCOMPARE(d.afterChange[size_t(twin)], OpChange::Kept);
    }

    void changedOps()
    {
        // inplace_pass's relu → relu_ and pd_op_to_kernel_pass's lowering keep the op: changed.
        auto before = parse(R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "pd_op.exp" (%1) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
})pir");
        auto after = parse(R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.relu_" (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
    (%2) = "exp(phi_kernel)" (%1) {kernel_key:<backend:CPU|layout:NCHW|dtype:float32>,kernel_name:"exp",op_name:"pd_op.exp",stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
})pir");
        QVERIFY(before && after);
        const OpDiff d = ProgramDiff::ops(*before, *after);
        QCOMPARE(d.kept, size_t(1));
        QCOMPARE(d.changed, size_t(2));
        QCOMPARE(d.removed + d.added, size_t(0));
        QCOMPARE(d.summary(), std::string("~2"));
    }

    void keysWin()
    {
        // With keys (a PassManager's, Paddle's [id:N]) two equal ops are told apart by key: the
        // first exp was removed and a new one added, though they look alike.
        auto before = parse(R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.exp" (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
})pir");
        auto after = before->clone();
        const OpKeys keysBefore { 10, 11 };
        const OpKeys keysAfter { 10, 12 };
        OpDiff d = ProgramDiff::ops(*before, *after, &keysBefore, &keysAfter);
        QCOMPARE(d.matchedByKey, size_t(1));
        // Structure pairs the exp anyway (the key 12 is unknown before): keys first, then shape.
        QCOMPARE(d.kept, size_t(2));
        const OpKeys clash { 10, 10 };
        d = ProgramDiff::ops(*before, *after, &clash, &keysAfter);
        QCOMPARE(d.matchedByKey, size_t(0)); // an ambiguous key identifies nothing
        QCOMPARE(d.kept, size_t(2));
    }

    void textDiffIsAlignedByOp()
    {
        auto before = parse(kUnfused);
        auto after = parse(kFused);
        const OpDiff d = ProgramDiff::ops(*before, *after);
        const std::vector<TextDiffLine> lines = ProgramTextDiff::build(*before, *after, d);
        QCOMPARE(lines.size(), size_t(5 + 3 + 1));
        size_t removed = 0;
        size_t added = 0;
        for (const TextDiffLine &l : lines) {
            removed += l.kind == OpChange::Removed;
            added += l.kind == OpChange::Added;
        }
        QCOMPARE(removed, size_t(3));
        QCOMPARE(added, size_t(1));
        // The removed ops stand where they stood: right before the fc that replaced them.
        QCOMPARE(lines[3].kind, OpChange::Removed);
        QVERIFY(lines[3].textBefore.find("pd_op.matmul") != std::string::npos);
        QCOMPARE(lines[6].kind, OpChange::Added);
        QVERIFY(lines[6].textAfter.find("pd_op.fc") != std::string::npos);
        const std::string unified = ProgramTextDiff::unified(lines);
        QVERIFY(unified.find("- ") != std::string::npos);
        QVERIFY(unified.find("+ ") != std::string::npos);
        QVERIFY(unified.find("  (%6\u2192%4) = \"pd_op.exp\"") != std::string::npos);
        // One op of context keeps the parameters out.
        const std::string context = ProgramTextDiff::unified(lines, 1);
        QVERIFY(context.find("builtin.parameter") == std::string::npos);
        QVERIFY(context.find("  ...") != std::string::npos);
    }

    void recorderSharesUnchangedPrograms()
    {
        auto input = parse(passprograms::kRedundant);
        PassManager pm = PassManager::withDefaultPasses(); // dce off, cse on
        const std::shared_ptr<PassTimeline> t = PassTimelineRecorder::run(pm, *input);
        QCOMPARE(t->size(), size_t(2));
        const PassTimelineStep &dce = t->step(0);
        const PassTimelineStep &cse = t->step(1);
        QCOMPARE(dce.pass, std::string("dead_code_elimination_pass"));
        QVERIFY(!dce.enabled);
        QCOMPARE(dce.before, dce.after); // a switched-off pass shares its program
        QVERIFY(t->counts(0) && t->counts(0)->identical());
        QCOMPARE(cse.before, dce.after);
        QVERIFY(cse.enabled);
        QVERIFY(cse.after != cse.before);
        QVERIFY(cse.seconds >= 0);
        QVERIFY(cse.rewrites > 0);
        QCOMPARE(t->result(), cse.after);
        QCOMPARE(t->input(), dce.before);
        // Keys make the diff exact: every surviving op matched by key.
        const std::shared_ptr<const StepDiff> d = t->diff(1);
        QVERIFY(d->error.empty());
        QCOMPARE(d->ops.removed, size_t(2));
        QCOMPARE(d->ops.matchedByKey, d->ops.kept + d->ops.changed);
        QVERIFY(t->counts(1));
        QCOMPARE(t->counts(1)->removed, size_t(2));
        // The input is left alone.
        QCOMPARE(input->block().size(), size_t(8));
    }

    void rerunReusesTheStepsBefore()
    {
        auto input = parse(passprograms::kRedundant);
        PassManager pm = PassManager::withDefaultPasses();
        const std::shared_ptr<PassTimeline> first = PassTimelineRecorder::run(pm, *input);
        // Switching CSE (step 2) off re-runs from it; step 1 is reused as it was.
        pm.setEnabled("cse", false);
        const std::shared_ptr<PassTimeline> second = PassTimelineRecorder::rerun(pm, *first, 1);
        QCOMPARE(second->size(), size_t(2));
        QCOMPARE(second->step(0).before, first->step(0).before);
        QCOMPARE(second->step(0).after, first->step(0).after);
        QVERIFY(!second->step(1).enabled);
        QCOMPARE(second->result(), second->input());
        // Switching DCE (step 1) on re-runs everything: it removes the exp, then CSE two ops.
        pm.setEnabled("dce", true);
        pm.setEnabled("cse", true);
        const std::shared_ptr<PassTimeline> third = PassTimelineRecorder::rerun(pm, *second, 0);
        QVERIFY(third->step(0).enabled && third->step(1).enabled);
        QCOMPARE(third->diff(0)->ops.removed, size_t(1));
        QCOMPARE(third->diff(1)->ops.removed, size_t(2));
        // Keys carry across steps: an op kept by both passes has one key all along.
        const auto in = third->step(0).before->load();
        const auto out = third->step(1).after->load();
        QCOMPARE(in->keys.front(), out->keys.front()); // pd_op.data
        QCOMPARE(out->program->block().size(), size_t(5));
    }

    void diffGraphHoldsBothPrograms()
    {
        auto before = parse(kUnfused);
        auto after = parse(kFused);
        const OpDiff d = ProgramDiff::ops(*before, *after);
        const auto g = DiffGraph::build(*before, *after, d, {});
        QVERIFY(g->program);
        QCOMPARE(g->program->block().size(), size_t(6 + 3));
        QVERIFY(!g->cropped);
        size_t removed = 0;
        size_t added = 0;
        const Operation *fc = nullptr;
        for (const auto &[op, change] : g->change) {
            removed += change == OpChange::Removed;
            added += change == OpChange::Added;
            if (op->name() == "pd_op.fc")
                fc = op;
        }
        QCOMPARE(removed, size_t(3));
        QCOMPARE(added, size_t(1));
        QVERIFY(fc);
        QCOMPARE(g->fusedFrom.at(fc).size(), size_t(3));
        // The removed matmul reads the same data and weight as the fc: one node each.
        const Operation *matmul = g->fusedFrom.at(fc).front();
        QVERIFY(matmul->operand(0).definingOp() == fc->operand(0).definingOp());
        // The fc's node says what it was made from.
        const GraphNode &node = g->graph.nodes[size_t(g->graph.nodeOf(fc))];
        QVERIFY(node.lines.back().find("matmul") != std::string::npos);
        QCOMPARE(g->replacedBy.at(g->fusedFrom.at(fc).back()).size(), size_t(1));
    }

    void diffGraphCropsLargePrograms()
    {
        SyntheticProgram::Model model = SyntheticProgram::mlp(40);
        std::unique_ptr<Program> before = model.program->clone();
        std::unique_ptr<Program> after = model.program->clone();
        // One op at the very end goes (the loss, which nothing reads).
        after->block().erase(after->block().back());
        const OpDiff d = ProgramDiff::ops(*before, *after);
        QCOMPARE(d.removed, size_t(1));
        DiffGraph::Options options;
        options.wholeProgramLimit = 50;
        const auto g = DiffGraph::build(*before, *after, d, options);
        QVERIFY(g->cropped);
        QVERIFY(g->shownOps < g->totalOps);
        QVERIFY(g->shownOps >= 2);
        bool removedShown = false;
        for (const auto &[op, change] : g->change)
            removedShown = removedShown || change == OpChange::Removed;
        QVERIFY(removedShown);
        // Inputs of shown ops whose producers are left out become arguments of the picture.
        QVERIFY(g->program->block().numArguments() > 0);
    }
};

QTEST_GUILESS_MAIN(TestPassTimeline)
#include "tst_passtimeline.moc"
