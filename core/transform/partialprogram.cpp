#include "core/transform/partialprogram.h"

#include "core/analysis/valuenames.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/appendshadowoutputs.h"
#include "core/transform/backwardappender.h"
#include "core/transform/passtimelinerecorder.h"

#include <optional>
#include <unordered_map>

namespace ps {

namespace {

/// split_program clones the top-level ops of `range` except `builtin.shadow_output`, in order,
/// to the front of `split`: pairs each whole-program index with its clone. Empty when the
/// programs do not line up that way.
std::vector<const Operation *> clonesOf(const Block &whole, OpRange range, const Program &split)
{
    std::vector<const Operation *> clones(whole.size(), nullptr);
    size_t next = 0;
    for (size_t i = range.begin; i < range.end && i < whole.size(); ++i) {
        const Operation *op = whole.op(i);
        if (ops::isShadowOutput(*op))
            continue;
        if (next >= split.block().size() || split.block().op(next)->name() != op->name())
            return {};
        clones[i] = split.block().op(next++);
    }
    return clones;
}

/// The links in `forward`/`backward` top-level op indices, through the clones recorded at the
/// split; ops the passes removed since are no longer in the blocks and drop out.
std::vector<GradOpLink> splitLinks(const std::vector<GradOpLink> &links,
    const std::vector<const Operation *> &forwardClones, const std::vector<const Operation *> &backwardClones,
    const Program &forward, const Program &backward)
{
    auto indexOf = [](const Program &p) {
        std::unordered_map<const Operation *, size_t> index;
        for (size_t i = 0; i < p.block().size(); ++i)
            index.emplace(p.block().op(i), i);
        return index;
    };
    const auto forwardIndex = indexOf(forward);
    const auto backwardIndex = indexOf(backward);
    auto find
        = [](const std::vector<const Operation *> &clones,
              const std::unordered_map<const Operation *, size_t> &index, size_t i) -> std::optional<size_t> {
        if (i >= clones.size() || !clones[i])
            return std::nullopt;
        auto it = index.find(clones[i]);
        return it == index.end() ? std::nullopt : std::optional<size_t>(it->second);
    };
    std::vector<GradOpLink> out;
    for (const GradOpLink &link : links) {
        const std::optional<size_t> f = find(forwardClones, forwardIndex, link.forwardOp);
        if (!f)
            continue;
        GradOpLink mapped { *f, {} };
        for (size_t g : link.gradOps)
            if (const std::optional<size_t> b = find(backwardClones, backwardIndex, g))
                mapped.gradOps.push_back(*b);
        if (!mapped.gradOps.empty())
            out.push_back(std::move(mapped));
    }
    return out;
}

/// Each whole-program op's clone as a top-level index of `forward`/`backward` (after the passes).
std::vector<SplitOpIndex> wholeToSplit(size_t wholeOps, const std::vector<const Operation *> &forwardClones,
    const std::vector<const Operation *> &backwardClones, const Program &forward, const Program &backward)
{
    std::vector<SplitOpIndex> out(wholeOps);
    if (forwardClones.empty() && backwardClones.empty())
        return {};
    int segment = 0;
    for (const auto *clones : { &forwardClones, &backwardClones }) {
        const Program &program = segment == 0 ? forward : backward;
        std::unordered_map<const Operation *, size_t> index;
        for (size_t i = 0; i < program.block().size(); ++i)
            index.emplace(program.block().op(i), i);
        for (size_t i = 0; i < clones->size() && i < wholeOps; ++i)
            if (auto it = (*clones)[i] ? index.find((*clones)[i]) : index.end(); it != index.end())
                out[i] = { segment, it->second };
        ++segment;
    }
    return out;
}

} // namespace

PartialProgramLayer::PartialProgramLayer(std::unique_ptr<Program> mainProgram, NestSequence inputs,
    NestSequence outputs, std::vector<Value> parameters, PipelineFlavour flavour)
    : m_main(std::move(mainProgram))
    , m_inputs(std::move(inputs))
    , m_outputs(std::move(outputs))
    , m_parameters(std::move(parameters))
    , m_flavour(flavour)
    , m_passes(PassManager::withDefaultPasses())
    , m_backwardFn(defaultBackwardFn(flavour))
{
    if (m_flavour != PipelineFlavour::Newest) {
        m_passes.setEnabled("cse", false);
        pruneUnusedParameters();
    }
}

PartialProgramLayer::~PartialProgramLayer() = default;

void PartialProgramLayer::pruneUnusedParameters()
{
    std::vector<Value> kept;
    for (const Value &p : m_parameters) {
        if (p.isNull() || p.hasUses()) {
            kept.push_back(p);
            continue;
        }
        m_pruned.push_back(valueNameOrEmpty(p));
        if (Operation *def = p.definingOp())
            def->parentBlock()->erase(def);
    }
    m_parameters = std::move(kept);
}

PartialProgramLayer::BackwardFn PartialProgramLayer::defaultBackwardFn(PipelineFlavour flavour)
{
    return [flavour](RunnableProgram &&origin, std::string &error) -> std::optional<RunnableProgram> {
        // `origin` is the layer's own clone: the backward goes into it in place, as in Paddle.
        const RunnableProgram::ForwardValues values = origin.forwardValues();
        std::unique_ptr<Program> program = origin.takeProgram();
        TrainProgram train = BackwardAppender::append(*program, values.x, values.params, values.outs);
        train.program = std::move(program);
        if (!train.ok() || !train.program) {
            const Diagnostic *first = train.diagnostics.firstError();
            error = first ? first->message : std::string("no program");
            return std::nullopt;
        }
        const OpRange forward { train.forwardRange.first, train.forwardRange.second };
        const OpRange backward { train.backwardRange.first, train.backwardRange.second };
        RunnableProgram rp = RunnableProgram::fromValues(std::move(train.program), train.inputs, train.params,
            train.outputs, train.inputGrads, train.paramGrads, train.outputGrads, forward, backward, flavour);
        rp.setGradOpLinks(std::move(train.gradOps));
        return rp;
    };
}

RunnableProgram &PartialProgramLayer::originRunnableProgram()
{
    if (!m_origin) {
        ps::appendShadowOutputs(*m_main, m_outputs.varList(), m_main->numOps(), "output_");
        m_origin = std::make_unique<RunnableProgram>(
            RunnableProgram::fromValues(std::move(m_main), m_inputs.varList(), m_parameters,
                m_outputs.varList(), {}, {}, {}, std::nullopt, std::nullopt, m_flavour));
    }
    return *m_origin;
}

void PartialProgramLayer::prepare(Stage &stage, bool training)
{
    RunnableProgram &rp = *stage.program;
    const SplitResult &split = rp.splitForwardBackward();
    stage.splitForward = split.forward->clone();
    stage.splitBackward = split.backward->clone();
    stage.splitNames = rp.programNameAttr();
    stage.forwardClones = clonesOf(rp.program().block(), rp.forwardRange(), *split.forward);
    stage.backwardClones = clonesOf(rp.program().block(), rp.backwardRange(), *split.backward);
    std::shared_ptr<PassTimelineRecorder> recorder;
    if (m_recordPassSteps) {
        recorder = std::make_shared<PassTimelineRecorder>();
        m_passes.addInstrumentation(recorder);
    }
    auto runPasses = [&](Program &program, const std::string &target) {
        std::vector<PassRecord> records = m_passes.run(program, target);
        if (recorder) {
            for (PassTimelineStep &step : recorder->takeSteps())
                stage.passLog.push_back(std::move(step));
            return;
        }
        for (const PassRecord &r : records)
            stage.passLog.push_back(PassTimelineRecorder::stepOf(r));
    };
    rp.applyPass([&](Program &forward, Program &backward, const SplitNames &) {
        runPasses(forward, "forward");
        // The newest infer pass_fn only touches the forward program.
        if (training)
            runPasses(backward, "backward");
    });
    if (recorder)
        m_passes.removeInstrumentation(recorder.get());
}

RunnableProgram *PartialProgramLayer::trainProgram()
{
    if (m_train.program || m_trainTried)
        return m_train.program.get();
    m_trainTried = true;
    if (!m_backwardFn) {
        m_diagnostics.push_back("no backward function: the train program cannot be built");
        return nullptr;
    }
    std::string error;
    std::optional<RunnableProgram> train = m_backwardFn(originRunnableProgram().clone(), error);
    if (!train) {
        m_diagnostics.push_back("_append_backward_desc failed: " + error);
        return nullptr;
    }
    useTrainProgram(std::move(*train));
    return m_train.program.get();
}

RunnableProgram &PartialProgramLayer::useTrainProgram(RunnableProgram train)
{
    m_trainTried = true;
    m_train = Stage {};
    m_train.program = std::make_unique<RunnableProgram>(std::move(train));
    prepare(m_train, true);
    return *m_train.program;
}

RunnableProgram &PartialProgramLayer::inferProgram()
{
    if (!m_infer.program) {
        m_infer.program = std::make_unique<RunnableProgram>(originRunnableProgram().clone());
        prepare(m_infer, false);
    }
    return *m_infer.program;
}

bool PartialProgramLayer::applyPass(const RunnableProgram::PassFn &fn, bool training)
{
    RunnableProgram *rp = training ? trainProgram() : &inferProgram();
    return rp && rp->applyPass(fn);
}

PipelineResult PartialProgramLayer::snapshot(bool training)
{
    PipelineResult r;
    r.flavour = m_flavour;
    r.training = training;
    r.prunedParameters = m_pruned;
    RunnableProgram *rp = training ? trainProgram() : &inferProgram();
    r.origin = originRunnableProgram().program().clone();
    if (!rp) {
        r.diagnostics = m_diagnostics;
        return r;
    }
    const Stage &stage = training ? m_train : m_infer;
    const ProgramAttributes &attr = rp->programAttr();
    r.whole = rp->program().clone();
    r.names = rp->names();
    r.forwardRange = rp->forwardRange();
    r.backwardRange = rp->backwardRange();
    r.splitForward = stage.splitForward;
    r.splitBackward = stage.splitBackward;
    r.splitNames = stage.splitNames;
    IrMapping forwardMap;
    IrMapping backwardMap;
    r.forward = rp->forwardProgram().clone(&forwardMap);
    r.backward = rp->backwardProgram().clone(&backwardMap);
    r.attributeNames = attr.names;
    for (SplitKey key : allSplitKeys())
        for (const Value &v : attr.values[key])
            r.attributeValues[key].push_back(
                isForwardKey(key) ? forwardMap.lookup(v) : backwardMap.lookup(v));
    r.renames = attr.renames;
    r.gradOps = rp->gradOpLinks();
    r.splitGradOps = splitLinks(
        r.gradOps, stage.forwardClones, stage.backwardClones, rp->forwardProgram(), rp->backwardProgram());
    r.wholeToSplit = wholeToSplit(rp->program().block().size(), stage.forwardClones, stage.backwardClones,
        rp->forwardProgram(), rp->backwardProgram());
    r.passLog = stage.passLog;
    r.diagnostics = m_diagnostics;
    r.diagnostics.insert(r.diagnostics.end(), rp->diagnostics().begin(), rp->diagnostics().end());
    return r;
}

} // namespace ps
