#include "core/session/memorymodel.h"

#include "core/dialect/opinfo.h"
#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/io/memorybudget.h"
#include "core/ir/attribute.h"
#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/ir/valuenumbering.h"
#include "core/runtime/interpreter.h"
#include "core/session/debugtarget.h"
#include "core/transform/forwardbackwardcut.h"
#include "core/transform/inplacepass.h"
#include "core/transform/pipelineresult.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace ps {

namespace {

constexpr size_t kTop = 10;
constexpr long kNever = std::numeric_limits<long>::max();

/// a + b, held at the int64 limits instead of overflowing (absurd shapes: 2^62-element tensors).
int64_t addClamped(int64_t a, int64_t b)
{
    int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    return r;
}

/// Bytes of a value of type `t`: a list is the sum of its elements; -1 when not static.
int64_t bytesOf(Type t)
{
    if (!t)
        return 0;
    if (t.kind() == Type::Kind::Vector) {
        int64_t sum = 0;
        for (const Type &e : t.elements()) {
            const int64_t b = bytesOf(e);
            if (b < 0)
                return -1;
            sum = addClamped(sum, b);
        }
        return sum;
    }
    return t.isTensorLike() ? t.byteSize() : -1;
}

/// "/TransformerEncoderLayer/MultiHeadAttention/" → "/TransformerEncoderLayer/".
std::string topLayer(const std::string &layer)
{
    const size_t end = layer.find('/', 1);
    return end == std::string::npos ? layer : layer.substr(0, end + 1);
}

int64_t elementsOf(Value v)
{
    const int64_t n = v && v.type() && v.type().isTensorLike() ? v.type().numElements() : -1;
    return std::max<int64_t>(n, 0);
}

/// Forward FLOPs of one op: 2·M·N·K for matmul, 2·out·(Cin/groups)·KH·KW for convolutions, one
/// per result element otherwise.
double flopsOf(const Operation &op)
{
    if (op.numResults() == 0)
        return 0;
    const double out = double(elementsOf(op.result(0)));
    if (op.name() == "pd_op.matmul" && op.numOperands() >= 1 && op.operand(0).type().isTensorLike()) {
        const std::vector<int64_t> &x = op.operand(0).type().dims();
        const Attribute *transpose = op.attribute("transpose_x");
        const bool t = transpose && transpose->kind() == Attribute::Kind::Bool && transpose->asBool();
        if (x.size() >= 2)
            return 2 * out * double(std::max<int64_t>(x[x.size() - (t ? 2 : 1)], 0));
    }
    if ((op.name() == "pd_op.conv2d" || op.name() == "pd_op.depthwise_conv2d") && op.numOperands() >= 2
        && op.operand(1).type().isTensorLike()) {
        const std::vector<int64_t> &f = op.operand(1).type().dims();
        if (f.size() == 4)
            return 2 * out * double(std::max<int64_t>(f[1] * f[2] * f[3], 0));
    }
    double sum = 0;
    for (unsigned r = 0; r < op.numResults(); ++r)
        sum += double(elementsOf(op.result(r)));
    return sum;
}

/// The ops of `program` that the executor runs in their `_` form: Paddle's inplace_pass, which
/// run_program applies to the lowered programs, decided on a copy (the program stays as it is).
std::unordered_set<const Operation *> inplaceOps(
    const Program &program, const Place &place, const std::set<std::string> &noNeedBufferNames)
{
    IrMapping mapping;
    std::unique_ptr<Program> copy = program.clone(&mapping);
    std::unordered_map<const Operation *, const Operation *> original;
    for (const Operation *op : program.block().ops())
        if (op->numResults() > 0)
            if (const Operation *c = mapping.lookup(op->result(0)).definingOp())
                original[c] = op;
    InplacePass pass(place, noNeedBufferNames);
    pass.run(*copy);
    std::unordered_set<const Operation *> out;
    for (const auto &[op, name] : pass.decisions())
        if (auto it = original.find(op); it != original.end())
            out.insert(it->second);
    return out;
}

struct Buffer
{
    int64_t bytes = 0;
    long allocAt = -1; ///< timeline index
    long lastUse = -1;
    bool baseline = false;
    bool keepToEnd = false;
    /// Read by a forward op of another top-level layer than the one that defined it.
    bool readOutsideLayer = false;
    MemoryValue desc;

    long freeAt() const { return baseline || keepToEnd ? kNever : std::max(allocAt, lastUse); }
};

/// Follows the buffers through one or two programs, op by op.
class Tracker
{
public:
    /// `noNeedBuffer`: the names of the forward's no-need-buffer middles (their buffers can go
    /// once the forward no longer reads them).
    explicit Tracker(const MemoryModel::Measured *measured, std::set<std::string> noNeedBuffer = {})
        : m_measured(measured)
        , m_noNeedBuffer(std::move(noNeedBuffer))
    {
    }

    /// Runs over the top-level ops of `program`, labelled "PREFIX:N". `forward`: uses are
    /// attributed to layers (for recomputation).
    /// `ids`: the printer's numbering of `program`.
    void walk(const Program &program, const ValueNumbering &ids, const std::string &prefix, bool forward,
        const std::unordered_set<const Operation *> &inplace)
    {
        m_inplace = &inplace;
        const std::vector<Operation *> &ops = program.block().ops();
        for (size_t i = 0; i < ops.size(); ++i) {
            const Operation &op = *ops[i];
            const long step = long(m_steps.size());
            m_steps.push_back({ prefix + ":" + std::to_string(i), std::string(op.name()) });
            const std::string layer = op.stringAttribute("struct_name");
            if (forward)
                m_forwardOps.push_back({ &op, topLayer(layer) });
            // A shadow output names the value for the backward; it is not a reader to recompute for.
            const bool naming = ops::isShadowOutput(op);
            auto use = [&](Value v) {
                for (size_t b : buffersOf(v)) {
                    Buffer &buffer = m_buffers[b];
                    buffer.lastUse = std::max(buffer.lastUse, step);
                    if (forward && !buffer.baseline && !naming
                        && topLayer(buffer.desc.layer) != topLayer(layer))
                        buffer.readOutsideLayer = true;
                }
            };
            const OpInfo *info = OpRegistry::instance().lookup(op.name());
            const bool metaOnlyOutput
                = ops::isShadowOutput(op) && m_noNeedBuffer.count(op.stringAttribute("output_name"));
            for (unsigned k = 0; k < op.numOperands(); ++k) {
                // The executor's garbage collector does not count a read of the meta alone: a
                // no-need-buffer input slot, the shadow output of a no-need-buffer middle.
                if (metaOnlyOutput || (info && int(k) < info->numInputs && info->inputs[k].noNeedBuffer))
                    continue;
                use(op.operand(k));
            }
            for (unsigned r = 0; r < op.numRegions(); ++r)
                for (size_t b = 0; b < op.region(r).numBlocks(); ++b)
                    op.region(r).block(b).walk([&](Operation *inner) {
                        for (unsigned k = 0; k < inner->numOperands(); ++k)
                            use(inner->operand(k));
                    });
            define(op, i, step, prefix, layer, ids);
        }
    }

    /// The backward program's keyword arguments before its first op: values of the forward
    /// (through the cut; a no-need-buffer one has no buffer) or allocated as the backward starts
    /// (the output gradients).
    void enterBackward(
        const Program &backward, const ValueNumbering &ids, const std::vector<CrossingValue> &cut)
    {
        std::unordered_map<const ValueImpl *, const CrossingValue *> crossing;
        for (const CrossingValue &c : cut)
            crossing[c.backward.impl()] = &c;
        const long step = long(m_steps.size());
        for (const Value kwarg : backward.block().kwargs()) {
            auto it = crossing.find(kwarg.impl());
            if (it != crossing.end()) {
                if (!it->second->noNeedBuffer)
                    m_of[kwarg.impl()] = buffersOf(it->second->forward);
                continue;
            }
            Buffer b;
            b.allocAt = step;
            b.desc = { "bwd", "(keyword argument)", ids.name(kwarg), kwarg.keyword(), {},
                bytesOf(kwarg.type()) };
            add(kwarg, std::move(b));
        }
    }

    /// Keeps the buffers of `v` after the step (an output the caller receives, a gradient).
    void keepToEnd(Value v)
    {
        for (size_t b : buffersOf(v))
            m_buffers[b].keepToEnd = true;
    }

    MemoryReport report(std::string mode, size_t cut) const;

private:
    const std::vector<size_t> &buffersOf(Value v) const
    {
        static const std::vector<size_t> kNone;
        auto it = m_of.find(v.impl());
        return it == m_of.end() ? kNone : it->second;
    }

    void add(Value v, Buffer b)
    {
        if (b.desc.bytes < 0 && m_measured)
            if (auto it = m_measured->find(v.impl()); it != m_measured->end()) {
                b.desc.bytes = it->second;
                ++m_measuredValues;
            }
        if (b.bytes < 0 || b.desc.bytes < 0) {
            b.desc.bytes = -1;
            m_unknown.push_back(b.desc);
            return;
        }
        b.bytes = b.desc.bytes;
        m_of[v.impl()] = { m_buffers.size() };
        m_buffers.push_back(std::move(b));
    }

    void define(const Operation &op, size_t index, long step, const std::string &prefix,
        const std::string &layer, const ValueNumbering &ids)
    {
        auto describe = [&](Value v, std::string name) {
            return MemoryValue { prefix + ":" + std::to_string(index), std::string(op.name()), ids.name(v),
                std::move(name), layer, bytesOf(v.type()) };
        };
        if (ops::isParameter(op) || ops::isData(op)) {
            Buffer b;
            b.baseline = true;
            b.allocAt = step;
            b.desc = describe(
                op.result(0), op.stringAttribute(ops::isParameter(op) ? "parameter_name" : "name"));
            add(op.result(0), std::move(b));
            return;
        }
        if (ops::isShadowOutput(op)) {
            for (size_t b : buffersOf(op.operand(0)))
                if (m_buffers[b].desc.name.empty())
                    m_buffers[b].desc.name = op.stringAttribute("output_name");
            return;
        }
        if (ops::isCombine(op)) {
            std::vector<size_t> list;
            for (unsigned k = 0; k < op.numOperands(); ++k)
                for (size_t b : buffersOf(op.operand(k)))
                    list.push_back(b);
            m_of[op.result(0).impl()] = std::move(list);
            return;
        }
        if (ops::isBuiltinSplit(op) || op.name() == "builtin.slice" || ops::isFetch(op)) {
            // The list's elements (or the fetched value) themselves.
            const std::vector<size_t> whole
                = op.numOperands() ? buffersOf(op.operand(0)) : std::vector<size_t>();
            for (unsigned r = 0; r < op.numResults(); ++r)
                m_of[op.result(r).impl()] = whole;
            return;
        }
        const std::vector<OpIndexPair> inplace = OpRegistry::instance().inplaceInfo(
            m_inplace->count(&op) ? std::string(op.name()) + "_" : std::string(op.name()));
        for (unsigned r = 0; r < op.numResults(); ++r) {
            const Value result = op.result(r);
            auto pair = std::find_if(
                inplace.begin(), inplace.end(), [r](const OpIndexPair &p) { return p.output == int(r); });
            if (pair != inplace.end() && unsigned(pair->input) < op.numOperands()) {
                m_of[result.impl()] = buffersOf(op.operand(unsigned(pair->input)));
                continue;
            }
            Buffer b;
            b.allocAt = step;
            b.lastUse = step; // freed after its op when nothing reads it
            b.desc = describe(result, {});
            add(result, std::move(b));
        }
    }

    struct ForwardOp
    {
        const Operation *op;
        std::string layer; ///< top level
    };

    std::vector<Buffer> m_buffers;
    std::unordered_map<const ValueImpl *, std::vector<size_t>> m_of;
    std::vector<std::pair<std::string, std::string>> m_steps;
    std::vector<ForwardOp> m_forwardOps;
    std::vector<MemoryValue> m_unknown;
    const std::unordered_set<const Operation *> *m_inplace = nullptr;
    const MemoryModel::Measured *m_measured;
    size_t m_measuredValues = 0;
    std::set<std::string> m_noNeedBuffer;
};

MemoryReport Tracker::report(std::string mode, size_t cut) const
{
    MemoryReport r;
    r.mode = std::move(mode);
    r.cut = cut;
    r.unknown = m_unknown;
    r.measuredValues = m_measuredValues;
    const size_t steps = m_steps.size();
    std::vector<int64_t> delta(steps + 1, 0);
    for (const Buffer &b : m_buffers) {
        if (b.baseline) {
            r.baselineBytes = addClamped(r.baselineBytes, b.bytes);
            continue;
        }
        if (b.allocAt < 0)
            continue;
        delta[size_t(b.allocAt)] = addClamped(delta[size_t(b.allocAt)], b.bytes);
        if (b.freeAt() != kNever)
            delta[size_t(b.freeAt()) + 1] = addClamped(delta[size_t(b.freeAt()) + 1], -b.bytes);
        else
            r.afterStepBytes = addClamped(r.afterStepBytes, b.bytes);
    }
    int64_t live = r.baselineBytes;
    size_t peakStep = 0;
    r.peakBytes = live;
    r.timeline.reserve(steps);
    for (size_t t = 0; t < steps; ++t) {
        live = addClamped(live, delta[t]);
        r.timeline.push_back({ m_steps[t].first, m_steps[t].second, live });
        if (live > r.peakBytes) {
            r.peakBytes = live;
            peakStep = t;
        }
    }
    if (steps > 0) {
        r.peakOp = m_steps[peakStep].first;
        r.peakOpName = m_steps[peakStep].second;
    }

    auto largestFirst = [](const MemoryValue &a, const MemoryValue &b) {
        return a.bytes != b.bytes ? a.bytes > b.bytes : a.op < b.op;
    };
    for (const Buffer &b : m_buffers) {
        if (b.baseline || b.allocAt < 0)
            continue;
        if (long(peakStep) >= b.allocAt && long(peakStep) <= b.freeAt())
            r.topAtPeak.push_back(b.desc);
        if (cut < steps && b.allocAt < long(cut) && b.freeAt() >= long(cut))
            r.kept.push_back(b.desc);
    }
    std::sort(r.topAtPeak.begin(), r.topAtPeak.end(), largestFirst);
    if (r.topAtPeak.size() > kTop)
        r.topAtPeak.resize(kTop);
    std::sort(r.kept.begin(), r.kept.end(), largestFirst);
    std::map<std::string, MemoryLayerBytes> byLayer;
    for (const MemoryValue &v : r.kept) {
        r.keptAfterForwardBytes = addClamped(r.keptAfterForwardBytes, v.bytes);
        MemoryLayerBytes &l = byLayer[v.layer];
        l.layer = v.layer;
        l.bytes = addClamped(l.bytes, v.bytes);
        ++l.values;
    }
    for (auto &[name, l] : byLayer)
        r.keptByLayer.push_back(l);
    std::sort(r.keptByLayer.begin(), r.keptByLayer.end(),
        [](const MemoryLayerBytes &a, const MemoryLayerBytes &b) { return a.bytes > b.bytes; });

    // Recomputing a top-level layer keeps its outputs (what other layers and the caller read) and
    // frees what only its own ops read; it runs the layer's forward ops once more.
    if (cut < steps) {
        std::map<std::string, MemoryRecompute> recompute;
        for (const ForwardOp &op : m_forwardOps)
            if (op.layer.size() > 1)
                recompute[op.layer].flops += flopsOf(*op.op);
        for (const Buffer &b : m_buffers)
            if (!b.baseline && !b.keepToEnd && !b.readOutsideLayer && b.allocAt >= 0 && b.allocAt < long(cut)
                && b.freeAt() >= long(cut))
                if (auto it = recompute.find(topLayer(b.desc.layer)); it != recompute.end())
                    it->second.savesBytes = addClamped(it->second.savesBytes, b.bytes);
        for (auto &[name, rc] : recompute) {
            rc.layer = name;
            r.recompute.push_back(rc);
        }
        std::sort(r.recompute.begin(), r.recompute.end(),
            [](const MemoryRecompute &a, const MemoryRecompute &b) { return a.savesBytes > b.savesBytes; });
    }
    return r;
}

} // namespace

MemoryReport MemoryModel::train(const PipelineResult &pipeline, const Place &place, const Measured *measured)
{
    const std::vector<std::string> &names = pipeline.attributeNames[SplitKey::NoNeedBuffers];
    const std::set<std::string> noNeedBuffer(names.begin(), names.end());
    Tracker tracker(measured, noNeedBuffer);
    if (!pipeline.forward)
        return tracker.report("train", 0);
    const auto forwardInplace = inplaceOps(*pipeline.forward, place, noNeedBuffer);
    tracker.walk(*pipeline.forward, ValueNumbering(*pipeline.forward), "fwd", true, forwardInplace);
    for (const Value v : pipeline.attributeValues[SplitKey::Fo])
        if (v)
            tracker.keepToEnd(v);
    const size_t cut = size_t(pipeline.forward->block().size());
    if (!pipeline.backward || pipeline.backward->block().size() == 0)
        return tracker.report("train", cut);
    const ValueNumbering backwardIds(*pipeline.backward);
    tracker.enterBackward(*pipeline.backward, backwardIds, ForwardBackwardCut::of(pipeline));
    const auto backwardInplace = inplaceOps(*pipeline.backward, place, noNeedBuffer);
    tracker.walk(*pipeline.backward, backwardIds, "bwd", false, backwardInplace);
    pipeline.backward->block().walk([&](Operation *op) {
        if (ops::isShadowOutput(*op) && op->numOperands() == 1)
            tracker.keepToEnd(op->operand(0));
    });
    return tracker.report("train", cut);
}

MemoryReport MemoryModel::infer(const Program &program, const Place &place, const Measured *measured)
{
    Tracker tracker(measured);
    const auto inplace = inplaceOps(program, place, {});
    tracker.walk(program, ValueNumbering(program), "0", false, inplace);
    for (const Operation *op : program.block().ops())
        if ((ops::isShadowOutput(*op) || ops::isFetch(*op)) && op->numOperands() >= 1)
            tracker.keepToEnd(op->operand(0));
    return tracker.report("infer", size_t(program.block().size()));
}

MemoryReport MemoryModel::forTarget(const DebugTarget &target, const Place &place, const Measured *measured)
{
    if (target.pipeline && target.pipeline->training)
        return train(*target.pipeline, place, measured);
    if (target.pipeline && target.pipeline->forward)
        return infer(*target.pipeline->forward, place, measured);
    return target.program ? infer(*target.program, place, measured) : MemoryReport {};
}

void MemoryModel::attachMeasured(MemoryReport &report, const Interpreter &interpreter)
{
    for (MemoryTimelinePoint &p : report.timeline)
        p.measuredBytes = -1;
    for (const OpRecord &record : interpreter.records()) {
        if (record.position.path.empty())
            continue;
        const size_t step = (record.position.segment == 0 ? 0 : report.cut) + record.position.path.front();
        if (record.position.segment > 1 || step >= report.timeline.size())
            continue;
        int64_t &m = report.timeline[step].measuredBytes;
        m = std::max(m, record.liveBytes);
    }
    report.measuredPeakBytes = interpreter.peakLiveBytes();
    const std::vector<int64_t> &ends = interpreter.segmentEndLiveBytes();
    report.measuredKeptAfterForwardBytes = interpreter.segments().size() > 1 && !ends.empty()
        ? ends.front() - interpreter.startLiveBytes()
        : -1;
}

std::unordered_set<const Operation *> MemoryModel::executorInplaceOps(
    const DebugTarget &target, const Place &place)
{
    const PipelineResult *pipeline = target.pipeline.get();
    if (pipeline && pipeline->training && pipeline->forward) {
        const std::vector<std::string> &names = pipeline->attributeNames[SplitKey::NoNeedBuffers];
        const std::set<std::string> noNeedBuffer(names.begin(), names.end());
        std::unordered_set<const Operation *> out = inplaceOps(*pipeline->forward, place, noNeedBuffer);
        if (pipeline->backward)
            out.merge(inplaceOps(*pipeline->backward, place, noNeedBuffer));
        return out;
    }
    if (pipeline && pipeline->forward)
        return inplaceOps(*pipeline->forward, place, {});
    return target.program ? inplaceOps(*target.program, place, {}) : std::unordered_set<const Operation *> {};
}

std::string MemoryModel::budgetProblem(const DebugTarget &target)
{
    const MemoryReport predicted = forTarget(target);
    std::string why;
    if (predicted.peakBytes <= 0 || MemoryBudget::fits(uint64_t(predicted.peakBytes), why))
        return {};
    return predicted.peakOpName + " at " + predicted.peakOp + ": " + why
        + ": the run's predicted peak, as Paddle's executor would allocate it (pirscope-cli memory); "
          "refused before anything is allocated";
}

} // namespace ps
