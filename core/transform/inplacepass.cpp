#include "core/transform/inplacepass.h"

#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <functional>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace ps {

namespace {

/// Ops the lowering turns into kernel ops: pd_op ops without regions.
bool isKernelOp(const Operation &op)
{
    return op.dialect() == "pd_op" && op.numRegions() == 0;
}

bool isPersistable(Value v)
{
    const Operation *def = v.definingOp();
    if (!def)
        return false;
    const Attribute *a = def->attribute("persistable");
    if (!a || a->kind() != Attribute::Kind::Array || v.index() >= a->asArray().size())
        return false;
    const Attribute &flag = a->asArray()[v.index()];
    return flag.kind() == Attribute::Kind::Bool && flag.asBool();
}

/// Paddle's CanBeDeleted: an (allocated) dense tensor or selected rows that is not persistable.
bool canBeDeleted(Value v)
{
    if (!v || !v.type())
        return false;
    const Type::Kind kind = v.type().kind();
    if (kind != Type::Kind::DenseTensor && kind != Type::Kind::SelectedRows)
        return false;
    return !isPersistable(v);
}

bool isNoNeedBufferSlot(const Operation &op, Value v)
{
    if (!isKernelOp(op))
        return false;
    const OpInfo *info = OpRegistry::instance().lookup(op.name());
    if (!info)
        return false;
    for (int i = 0; i < info->numInputs && unsigned(i) < op.numOperands(); ++i)
        if (info->inputs[i].noNeedBuffer && op.operand(unsigned(i)) == v)
            return true;
    return false;
}

bool isTensor(Value v)
{
    return v.type() && v.type().kind() == Type::Kind::DenseTensor;
}

/// Paddle's strict numel check: a -1 dim is allowed only as the first of several dims.
bool numelEqualStrict(const Type &in, const Type &out)
{
    auto numel = [](const std::vector<int64_t> &dims, int64_t &n) {
        n = 1;
        for (size_t i = 0; i < dims.size(); ++i) {
            if (dims[i] == -1 && (dims.size() == 1 || i != 0))
                return false;
            if (__builtin_mul_overflow(n, dims[i], &n))
                return false; // past int64: not a size to share a buffer by
        }
        return true;
    };
    int64_t a = 0;
    int64_t b = 0;
    return numel(in.dims(), a) && numel(out.dims(), b) && a == b;
}

bool numelEqualLoose(const Type &in, const Type &out)
{
    // nullopt past int64: never equal.
    auto numel = [](const std::vector<int64_t> &dims) -> std::optional<int64_t> {
        int64_t n = 1;
        for (int64_t d : dims)
            if (__builtin_mul_overflow(n, d, &n))
                return std::nullopt;
        return n;
    };
    const std::optional<int64_t> a = numel(in.dims());
    return a && a == numel(out.dims());
}

/// Values the ops of `block` (nested ones included) read without defining them first in it:
/// Paddle's GetUsedExternalValue (kwargs and values of enclosing blocks).
std::unordered_set<Value> usedExternalValues(const Block &block)
{
    std::unordered_set<Value> defined;
    std::unordered_set<Value> used;
    for (Value a : block.arguments())
        defined.insert(a);
    std::function<void(const Operation &)> visit = [&](const Operation &op) {
        for (unsigned i = 0; i < op.numOperands(); ++i)
            if (Value v = op.operand(i); v && !defined.count(v))
                used.insert(v);
        for (unsigned r = 0; r < op.numRegions(); ++r)
            for (size_t b = 0; b < op.region(r).numBlocks(); ++b) {
                const Block &inner = op.region(r).block(b);
                for (Value a : inner.arguments())
                    defined.insert(a);
                for (const Operation *nested : inner.ops())
                    visit(*nested);
            }
        for (Value v : op.results())
            defined.insert(v);
    };
    for (const Operation *op : block.ops())
        visit(*op);
    return used;
}

class Decider
{
public:
    Decider(const Block &block, const Place &place, const std::set<std::string> &noNeedBufferNames)
        : m_block(block)
        , m_cpu(place.type == Place::AllocType::Cpu)
        , m_noNeedBufferNames(noNeedBufferNames)
    {
        collectSkippedValues();
        collectEagerDeletions(block);
        countUses();
        m_external = usedExternalValues(block);
    }

    std::vector<std::pair<Operation *, std::string>> decide();

private:
    bool noNeedBuffer(const Operation &op, Value v) const
    {
        if (ops::isShadowOutput(op))
            return m_noNeedBufferNames.count(op.stringAttribute("output_name")) != 0;
        return isNoNeedBufferSlot(op, v);
    }
    void collectSkippedValues();
    void collectEagerDeletions(const Block &block);
    void countUses();
    bool canDoInplace(const Operation &op, Value input, Value output) const;
    bool isLastUser(Value v) const;

    const Block &m_block;
    bool m_cpu;
    const std::set<std::string> &m_noNeedBufferNames;
    std::unordered_set<Value> m_skip;
    std::unordered_map<const Operation *, std::unordered_set<Value>> m_eagerDels;
    std::unordered_map<Value, size_t> m_uses;
    std::unordered_map<Value, Value> m_inplace; ///< output → the input whose buffer it takes
    std::unordered_set<Value> m_external;
};

void Decider::collectSkippedValues()
{
    for (const Operation *op : m_block.ops()) {
        const std::string_view name = op->name();
        if (name == ops::kShadowOutput) {
            if (!m_noNeedBufferNames.count(op->stringAttribute("output_name")))
                m_skip.insert(op->operand(0));
        } else if (name == ops::kFeed || name == ops::kData || name == "pd_op.shadow_feed") {
            m_skip.insert(op->result(0));
        } else if (name == ops::kFetch) {
            m_skip.insert(op->operand(0));
        }
    }
}

void Decider::collectEagerDeletions(const Block &block)
{
    std::unordered_map<Value, const Operation *> lastOp;
    std::function<void(const Block &)> visit = [&](const Block &b) {
        for (const Operation *op : b.ops()) {
            if (ops::isShadowOutput(*op))
                continue;
            for (unsigned i = 0; i < op->numOperands(); ++i) {
                const Value v = op->operand(i);
                if (!v || m_skip.count(v) || !canBeDeleted(v) || isNoNeedBufferSlot(*op, v))
                    continue;
                lastOp[v] = op;
            }
            for (Value r : op->results())
                if (canBeDeleted(r))
                    lastOp[r] = op;
            for (unsigned r = 0; r < op->numRegions(); ++r)
                for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
                    visit(op->region(r).block(b));
        }
    };
    visit(block);
    for (const auto &[value, op] : lastOp)
        m_eagerDels[op].insert(value);
}

void Decider::countUses()
{
    for (const Operation *op : m_block.ops())
        for (Value r : op->results()) {
            size_t n = 0;
            for (const OpOperand *use = r.firstUse(); use; use = use->nextUse())
                n += noNeedBuffer(*use->owner(), r) ? 0 : 1;
            m_uses[r] = n;
        }
}

bool Decider::isLastUser(Value v) const
{
    Value current = v;
    for (;;) {
        auto it = m_uses.find(current);
        if (it == m_uses.end() || it->second != 0)
            return false;
        auto next = m_inplace.find(current);
        if (next == m_inplace.end())
            return true;
        current = next->second;
    }
}

bool Decider::canDoInplace(const Operation &op, Value input, Value output) const
{
    if (!input.type() || !output.type() || !input.isOpResult())
        return false;
    const Operation *def = input.definingOp();
    if (def->numRegions() > 0) {
        std::vector<Value> related = def->operands();
        for (unsigned r = 0; r < def->numRegions(); ++r)
            for (size_t b = 0; b < def->region(r).numBlocks(); ++b) {
                const Block &inner = def->region(r).block(b);
                if (!inner.empty() && ops::isYield(*inner.back()))
                    for (Value y : inner.back()->operands())
                        related.push_back(y);
            }
        for (Value v : related)
            if (isPersistable(v))
                return false;
    }
    const auto dels = m_eagerDels.find(&op);
    const bool eager = dels != m_eagerDels.end() && dels->second.count(input);
    if (isTensor(input) && isTensor(output)) {
        if (input.type().dtype() != output.type().dtype())
            return false;
        const std::string_view name = op.name();
        if ((name == ops::kReshape || name == ops::kSqueeze || name == "pd_op.unsqueeze") && eager)
            return true;
        const bool relaxed = name == "pd_op.reshape_grad" || name == ops::kAddGrad;
        if (!(relaxed ? numelEqualLoose(input.type(), output.type())
                      : numelEqualStrict(input.type(), output.type())))
            return false;
    } else if (input.type() != output.type()) {
        return false;
    }
    return eager;
}

std::vector<std::pair<Operation *, std::string>> Decider::decide()
{
    std::vector<std::pair<Operation *, std::string>> out;
    std::unordered_set<Value> visited;
    const OpRegistry &registry = OpRegistry::instance();
    for (Operation *op : m_block.ops()) {
        for (unsigned i = 0; i < op->numOperands(); ++i) {
            const Value v = op->operand(i);
            visited.insert(v);
            if (!noNeedBuffer(*op, v) && m_uses.count(v) && m_uses[v] > 0)
                --m_uses[v];
        }
        auto visitResults = [&] {
            for (Value r : op->results())
                visited.insert(r);
        };
        if (!isKernelOp(*op)) {
            visitResults();
            continue;
        }
        const std::string name(op->name());
        if (m_cpu && (name == ops::kAddGrad || name == ops::kSubtractGrad)) {
            visitResults();
            continue;
        }
        const OpInfo *info = registry.lookup(name);
        if (info && info->inplaceTrait) { // already inplace: extends the chains
            for (const OpIndexPair &p : registry.inplaceInfo(name))
                if (unsigned(p.output) < op->numResults() && unsigned(p.input) < op->numOperands())
                    m_inplace[op->result(unsigned(p.output))] = op->operand(unsigned(p.input));
            visitResults();
            continue;
        }
        const std::string inplaceName = name + "_";
        const OpInfo *inplaceInfo = registry.lookup(inplaceName);
        if (!m_eagerDels.count(op) || !inplaceInfo || !inplaceInfo->inplaceTrait || name == ops::kTranspose) {
            visitResults();
            continue;
        }
        const std::vector<OpIndexPair> pairs = registry.inplaceInfo(inplaceName);
        bool can = !pairs.empty();
        for (const OpIndexPair &p : pairs) {
            const unsigned in = unsigned(p.input);
            const unsigned res = unsigned(p.output);
            if (in >= op->numOperands() || res >= op->numResults()) {
                can = false;
                break;
            }
            const Value input = op->operand(in);
            const Value output = op->result(res);
            if (!canDoInplace(*op, input, output) || visited.count(output) || !canBeDeleted(output)
                || !isLastUser(input) || m_external.count(input) || m_external.count(output)) {
                can = false;
                break;
            }
        }
        if (can) {
            out.emplace_back(op, inplaceName);
            for (const OpIndexPair &p : pairs)
                m_inplace[op->result(unsigned(p.output))] = op->operand(unsigned(p.input));
        }
        visitResults();
    }
    return out;
}

} // namespace

size_t InplacePass::run(Program &program)
{
    m_decisions.clear();
    Block &block = program.block();
    Decider decider(block, m_place, m_noNeedBufferNames);
    const std::vector<std::pair<Operation *, std::string>> decisions = decider.decide();
    Builder builder(program);
    for (const auto &[op, inplaceName] : decisions) {
        const long index = block.indexOf(op);
        builder.setInsertionPoint(block, size_t(index));
        std::vector<Type> types;
        for (Value r : op->results())
            types.push_back(r.type());
        const std::vector<Value> operands = op->operands();
        const std::span<const NamedAttribute> attrs = op->attributes();
        Operation *replacement = builder.create(inplaceName, std::span<const Value>(operands),
            std::span<const Type>(types), std::vector<NamedAttribute>(attrs.begin(), attrs.end()));
        for (unsigned i = 0; i < op->numResults(); ++i)
            op->result(i).replaceAllUsesWith(replacement->result(i));
        m_decisions.emplace_back(op, inplaceName);
        block.erase(op);
    }
    return decisions.size();
}

} // namespace ps
