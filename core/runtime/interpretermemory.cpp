// Interpreter: eager deletion and the bytes a run holds.

#include "core/dialect/opinfo.h"
#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/runtime/allocationmeter.h"
#include "core/runtime/allocator.h"
#include "core/runtime/backend.h"
#include "core/runtime/interpreter.h"

#include <algorithm>
#include <set>

namespace ps {
namespace {

/// The scope variable an op reads or writes by name ("" for none): a data op's `name`, a
/// parameter's `parameter_name`, a shadow output's `output_name`.
std::string scopeNameOf(const Operation &op)
{
    if (ops::isData(op))
        return op.stringAttribute("name");
    if (ops::isParameter(op))
        return op.stringAttribute("parameter_name");
    if (ops::isShadowOutput(op))
        return op.stringAttribute("output_name");
    return {};
}

} // namespace

Interpreter::ReleasePlan Interpreter::planReleases(const Segment &segment)
{
    const Block &block = segment.program->block();
    // Index of the top-level op after which each value is no longer read, for its data (`last`)
    // and for its meta alone (`metaLast`: a no-need-buffer input slot, the shadow output of a
    // no-need-buffer variable), as Paddle's garbage collector counts reads.
    std::unordered_map<const ValueImpl *, size_t> last;
    std::unordered_map<const ValueImpl *, size_t> metaLast;
    auto note = [](std::unordered_map<const ValueImpl *, size_t> &map, Value v, size_t i) {
        if (v.isNull())
            return;
        auto [it, fresh] = map.try_emplace(v.impl(), i);
        if (!fresh)
            it->second = std::max(it->second, i);
    };
    std::set<std::string> metaOnlyNames;
    for (const auto &[name, reason] : segment.freeAfter)
        if (reason == FreeReason::NoNeedBuffer)
            metaOnlyNames.insert(name);
    std::vector<std::pair<std::string, Value>> named;
    for (Value kw : block.kwargs()) {
        note(last, kw, 0);
        named.emplace_back(kw.keyword(), kw);
    }
    const std::vector<Operation *> &ops = block.ops();
    for (size_t i = 0; i < ops.size(); ++i) {
        Operation &top = *ops[i];
        for (unsigned r = 0; r < top.numResults(); ++r)
            note(last, top.result(r), i);
        const OpInfo *info = OpRegistry::instance().lookup(top.name());
        const std::string name = scopeNameOf(top);
        const bool metaOutput = ops::isShadowOutput(top) && metaOnlyNames.count(name);
        for (unsigned k = 0; k < top.numOperands(); ++k) {
            const bool meta
                = metaOutput || (info && int(k) < info->numInputs && info->inputs[k].noNeedBuffer);
            note(meta ? metaLast : last, top.operand(k), i);
        }
        for (unsigned g = 0; g < top.numRegions(); ++g)
            for (size_t b = 0; b < top.region(g).numBlocks(); ++b) {
                const Block &inner = top.region(g).block(b);
                for (size_t a = 0; a < inner.numArguments(); ++a)
                    note(last, inner.argument(a), i);
                inner.walk([&](Operation *op) {
                    for (unsigned k = 0; k < op->numOperands(); ++k)
                        note(last, op->operand(k), i);
                    for (unsigned r = 0; r < op->numResults(); ++r)
                        note(last, op->result(r), i);
                    for (unsigned rg = 0; rg < op->numRegions(); ++rg)
                        for (size_t nb = 0; nb < op->region(rg).numBlocks(); ++nb)
                            for (size_t a = 0; a < op->region(rg).block(nb).numArguments(); ++a)
                                note(last, op->region(rg).block(nb).argument(a), i);
                });
            }
        if (!name.empty()) {
            if (ops::isShadowOutput(top) && top.numOperands() > 0)
                named.emplace_back(name, top.operand(0));
            else if (top.numResults() > 0)
                named.emplace_back(name, top.result(0));
        }
    }

    ReleasePlan plan;
    if (ops.empty())
        return plan;
    // A value read for its meta after its data's last read keeps only its meta from then on.
    std::unordered_map<const ValueImpl *, size_t> dropAt = last;
    for (const auto &[value, i] : metaLast) {
        auto it = dropAt.find(value);
        if (it == dropAt.end() || i <= it->second)
            continue;
        plan[ops[it->second]].demoted.push_back(value);
        it->second = i;
    }
    for (const auto &[value, i] : dropAt)
        plan[ops[i]].values.push_back(value);

    // Scope name → the top-level op after which every value bound to it is dropped.
    std::unordered_map<std::string, size_t> nameDead;
    for (const auto &[name, value] : named) {
        auto at = dropAt.find(value.impl());
        if (at == dropAt.end())
            continue;
        auto [it, fresh] = nameDead.try_emplace(name, at->second);
        if (!fresh)
            it->second = std::max(it->second, at->second);
    }
    auto freeWhenDead = [&](const std::string &name, size_t k) {
        if (auto it = nameDead.find(name); it != nameDead.end())
            plan[ops[it->second]].scopeVariables.push_back(k);
    };
    for (size_t k = 0; k < segment.freeAfter.size(); ++k)
        freeWhenDead(segment.freeAfter[k].first, k);
    for (size_t k = 0; k < segment.collectable.size(); ++k)
        freeWhenDead(segment.collectable[k], segment.freeAfter.size() + k);
    return plan;
}

bool Interpreter::diesAt(const Operation &op, Value value)
{
    const Operation *def = value.definingOp();
    if (!def || isBuiltinOp(def->name()))
        return false;
    std::optional<ReleasePlan> &plan = m_releasePlans[m_segment];
    if (!plan)
        plan = planReleases(m_segments[m_segment]);
    auto it = plan->find(&op);
    return it != plan->end()
        && std::find(it->second.values.begin(), it->second.values.end(), value.impl())
        != it->second.values.end();
}

bool Interpreter::mayOverwriteOperand(const Operation &op, size_t i)
{
    if (!m_options.eagerDeletion || m_reference || m_frames.size() != 1 || i >= op.numOperands())
        return false;
    const Value value = op.operand(unsigned(i));
    if (value.isNull())
        return false;
    for (unsigned k = 0; k < op.numOperands(); ++k)
        if (k != i && op.operand(k) == value)
            return false;
    auto it = m_values.find(value.impl());
    if (it == m_values.end() || !it->second.isTensor())
        return false;
    const Tensor &t = it->second.tensor();
    return t.defined() && t.device().isCpu() && t.storage().use_count() == 1 && diesAt(op, value);
}

void Interpreter::releaseAfter(const Operation &op)
{
    std::optional<ReleasePlan> &plan = m_releasePlans[m_segment];
    if (!plan)
        plan = planReleases(m_segments[m_segment]);
    auto it = plan->find(&op);
    if (it == plan->end())
        return;
    for (const ValueImpl *v : it->second.demoted) {
        auto value = m_values.find(v);
        if (value == m_values.end() || !value->second.isTensor())
            continue;
        const Tensor &t = value->second.tensor();
        if (t.defined() && t.device().isCpu())
            value->second = RuntimeValue(Tensor(t.shape(), t.dtype(), unbackedAllocator()));
    }
    for (const ValueImpl *v : it->second.values)
        m_values.erase(v);
    for (size_t k : it->second.scopeVariables) {
        if (m_freedEarly[k])
            continue;
        freeScopeVariable(k);
        m_freedEarly[k] = true;
    }
}

void Interpreter::freeScopeVariable(size_t index)
{
    const Segment &segment = m_segments[m_segment];
    if (index >= segment.freeAfter.size()) {
        m_scope.free(segment.collectable[index - segment.freeAfter.size()], FreeReason::NotNeededLater);
        return;
    }
    const auto &[name, reason] = segment.freeAfter[index];
    FreedMeta meta = FreedMeta::None;
    if (reason == FreeReason::NoNeedBuffer)
        meta = m_options.eagerDeletion     ? FreedMeta::Unbacked
            : m_options.poisonFreedBuffers ? FreedMeta::Poisoned
                                           : FreedMeta::Same;
    m_scope.free(name, reason, meta, &m_backend);
}

void Interpreter::beginMeasuring()
{
    // A new meter: storages of the previous run still count down the old one when they go.
    m_meter = std::make_shared<AllocationMeter>();
    m_segmentEndLiveBytes.clear();
    m_startLiveBytes = int64_t(m_scope.bytes());
}

int64_t Interpreter::liveBytes() const
{
    return m_startLiveBytes + m_meter->liveBytes();
}

int64_t Interpreter::peakLiveBytes() const
{
    return m_startLiveBytes + m_meter->peakBytes();
}

} // namespace ps
