#include "core/transform/splitprogram.h"

#include "core/analysis/valuenames.h"
#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace ps {

namespace {

constexpr std::array<std::string_view, kSplitKeyCount> kKeyNames
    = { "fx", "fp", "fm", "fo", "bx", "bp", "bm", "bo_g", "bx_g", "bp_g", "no_need_buffers", "bo" };

OpRange clampRange(OpRange range, size_t size)
{
    range.end = std::min(range.end, size);
    range.begin = std::min(range.begin, range.end);
    return range;
}

/// Paddle's `pir::Walk` default order: nested ops before the op that holds them.
void walkPostOrder(Operation *op, const std::function<void(Operation *)> &fn)
{
    for (unsigned r = 0; r < op->numRegions(); ++r) {
        Region &region = op->region(r);
        for (size_t b = 0; b < region.numBlocks(); ++b)
            for (Operation *inner : region.block(b).ops())
                walkPostOrder(inner, fn);
    }
    fn(op);
}

/// Every value defined inside `op` (its results and those of nested ops, nested block
/// arguments and kwargs).
void collectDefined(Operation *op, std::unordered_set<Value> &defined)
{
    op->walk([&defined](Operation *inner) {
        for (unsigned i = 0; i < inner->numResults(); ++i)
            defined.insert(inner->result(i));
        for (unsigned r = 0; r < inner->numRegions(); ++r) {
            const Region &region = inner->region(r);
            for (size_t b = 0; b < region.numBlocks(); ++b) {
                for (Value v : region.block(b).arguments())
                    defined.insert(v);
                for (Value v : region.block(b).kwargs())
                    defined.insert(v);
            }
        }
    });
}

/// Clones the ops of `range` (skipping `builtin.shadow_output`) to the end of `dst`'s top block.
/// Operands from outside the range that `mapping` does not know become null operands.
void cloneRange(const Block &src, OpRange range, Program &dst, IrMapping &mapping, const char *what,
    std::vector<std::string> &diagnostics)
{
    for (size_t i = range.begin; i < range.end; ++i) {
        Operation *op = src.op(i);
        if (ops::isShadowOutput(*op))
            continue;
        auto check = [&](Value v, const std::unordered_set<Value> *defined) {
            if (v.isNull() || v.definingOp() == op || (defined && defined->count(v)) || mapping.contains(v))
                return;
            mapping.map(v, Value());
            diagnostics.push_back(std::string(what) + " op " + std::to_string(i) + " ("
                + std::string(op->name()) + ") uses a value defined outside the " + what
                + " range and not passed in; it becomes a null operand");
        };
        if (op->numRegions() == 0) {
            // The common case: only the op's own operands, no nested walk.
            for (unsigned k = 0; k < op->numOperands(); ++k)
                check(op->operand(k), nullptr);
        } else {
            std::unordered_set<Value> defined;
            collectDefined(op, defined);
            op->walk([&](Operation *inner) {
                for (unsigned k = 0; k < inner->numOperands(); ++k)
                    check(inner->operand(k), &defined);
            });
        }
        dst.block().push_back(op->clone(dst.arena(), mapping));
    }
}

void appendShadowOutput(Program &program, Value value, const std::string &name)
{
    const Value operands[] = { value };
    std::vector<NamedAttribute> attributes { { "output_name", Attribute::string(name) } };
    program.block().push_back(
        Operation::create(program.arena(), ops::kShadowOutput, operands, {}, std::move(attributes)));
}

/// `create_output_fn`: a shadow output per non-null value, named by its first name in `program`
/// or `prefix<k>`; every element consumes an index.
void createOutputs(const std::vector<Value> &values, const IrMapping &mapping, Program &program,
    const std::string &prefix, std::vector<std::string> &diagnostics)
{
    size_t counter = 0;
    for (const Value &v : values) {
        const size_t index = counter++;
        if (v.isNull())
            continue;
        if (!mapping.contains(v)) {
            diagnostics.push_back("no copy of the value for shadow output '" + prefix + std::to_string(index)
                + "' (Paddle raises: value_map.at)");
            continue;
        }
        const Value newValue = mapping.lookup(v);
        std::optional<std::string> name = ValueNames::firstName(newValue);
        appendShadowOutput(program, newValue, name ? std::move(*name) : prefix + std::to_string(index));
    }
}

std::vector<Value> mapValues(const std::vector<Value> &values, const IrMapping &mapping)
{
    std::vector<Value> out;
    out.reserve(values.size());
    for (const Value &v : values)
        out.push_back(v.isNull() || !mapping.contains(v) ? Value() : mapping.lookup(v));
    return out;
}

std::unordered_set<Value> backwardUsedValues(const Program &program, const SplitRequest &request)
{
    std::unordered_set<Value> used(request.fxGrad.begin(), request.fxGrad.end());
    used.insert(request.fpGrad.begin(), request.fpGrad.end());
    const Block &block = program.block();
    const OpRange range = clampRange(request.backwardRange, block.size());
    for (size_t i = range.begin; i < range.end; ++i) {
        block.op(i)->walk([&used](Operation *op) {
            for (unsigned k = 0; k < op->numOperands(); ++k)
                used.insert(op->operand(k));
        });
    }
    return used;
}

std::vector<Value> middleValuesFor(
    const Program &program, const SplitRequest &request, const std::unordered_set<Value> &backwardUsed)
{
    std::unordered_set<Value> inOut(request.fx.begin(), request.fx.end());
    inOut.insert(request.fo.begin(), request.fo.end());
    inOut.insert(request.fp.begin(), request.fp.end());
    std::vector<Value> middles;
    const Block &block = program.block();
    const OpRange range = clampRange(request.forwardRange, block.size());
    for (size_t i = range.begin; i < range.end; ++i) {
        walkPostOrder(block.op(i), [&](Operation *op) {
            for (unsigned k = 0; k < op->numResults(); ++k) {
                const Value v = op->result(k);
                if (backwardUsed.count(v) && !inOut.count(v))
                    middles.push_back(v);
            }
        });
    }
    return middles;
}

} // namespace

std::string_view splitKeyName(SplitKey key)
{
    return kKeyNames[size_t(key)];
}

std::optional<SplitKey> splitKeyFromName(std::string_view name)
{
    for (size_t i = 0; i < kKeyNames.size(); ++i)
        if (kKeyNames[i] == name)
            return SplitKey(i);
    return std::nullopt;
}

const std::array<SplitKey, kSplitKeyCount> &allSplitKeys()
{
    static const std::array<SplitKey, kSplitKeyCount> keys = [] {
        std::array<SplitKey, kSplitKeyCount> k {};
        for (size_t i = 0; i < kSplitKeyCount; ++i)
            k[i] = SplitKey(i);
        return k;
    }();
    return keys;
}

bool isForwardKey(SplitKey key)
{
    return kKeyNames[size_t(key)].front() == 'f' || key == SplitKey::NoNeedBuffers;
}

bool SplitProgram::hasYamlInfo(std::string_view opName)
{
    const OpInfo *info = OpRegistry::instance().lookup(opName);
    if (!info)
        return false;
    return info->source.ends_with(".yaml") || info->source.find("manual_op.h") != std::string_view::npos;
}

std::vector<Value> SplitProgram::middleValues(const Program &program, const SplitRequest &request)
{
    return middleValuesFor(program, request, backwardUsedValues(program, request));
}

std::vector<Value> SplitProgram::noNeedBufferValues(const Block &block, OpRange range)
{
    range = clampRange(range, block.size());
    const OpRegistry &registry = OpRegistry::instance();
    std::unordered_set<Value> need;
    for (size_t i = range.begin; i < range.end; ++i) {
        const Operation *op = block.op(i);
        // Paddle handles a builtin.combine in its users.
        if (ops::isCombine(*op))
            continue;
        const OpInfo *info = hasYamlInfo(op->name()) ? registry.lookup(op->name()) : nullptr;
        if (!info) {
            for (unsigned k = 0; k < op->numOperands(); ++k)
                need.insert(op->operand(k));
            continue;
        }
        for (int k = 0; k < info->numInputs && unsigned(k) < op->numOperands(); ++k) {
            if (info->inputs[k].noNeedBuffer)
                continue;
            const Value v = op->operand(unsigned(k));
            need.insert(v);
            const Operation *def = v.definingOp();
            if (v.type() && def && ops::isCombine(*def))
                for (unsigned c = 0; c < def->numOperands(); ++c)
                    need.insert(def->operand(c));
        }
    }
    std::vector<Value> noNeed;
    std::unordered_set<Value> seen;
    for (size_t i = range.begin; i < range.end; ++i) {
        const Operation *op = block.op(i);
        for (unsigned k = 0; k < op->numOperands(); ++k) {
            const Value v = op->operand(k);
            if (!need.count(v) && seen.insert(v).second)
                noNeed.push_back(v);
        }
    }
    return noNeed;
}

SplitNames SplitProgram::valueNames(const SplitValues &values, std::string_view fakeName)
{
    SplitNames names;
    for (SplitKey key : allSplitKeys())
        for (const Value &v : values[key])
            names[key].push_back(v.isNull() ? std::string(fakeName) : valueNameOrEmpty(v));
    return names;
}

SplitResult SplitProgram::split(const Program &program, const SplitRequest &request)
{
    SplitResult result;
    result.forward = std::make_unique<Program>();
    result.backward = std::make_unique<Program>();
    const Block &block = program.block();
    const OpRange forwardRange = clampRange(request.forwardRange, block.size());
    const OpRange backwardRange = clampRange(request.backwardRange, block.size());
    if (forwardRange != request.forwardRange || backwardRange != request.backwardRange)
        result.diagnostics.push_back(
            "an op range reaches past the " + std::to_string(block.size()) + " top-level ops; clamped");

    const std::unordered_set<Value> backwardUsed = backwardUsedValues(program, request);
    result.middles = middleValuesFor(program, request, backwardUsed);
    result.hasBackward = !request.fxGrad.empty() || !request.fpGrad.empty() || !request.foGrad.empty();

    IrMapping forwardMap;
    cloneRange(block, forwardRange, *result.forward, forwardMap, "forward", result.diagnostics);
    createOutputs(result.middles, forwardMap, *result.forward, "middle_", result.diagnostics);
    createOutputs(request.fo, forwardMap, *result.forward, "output_", result.diagnostics);

    IrMapping backwardMap;
    Block &backwardBlock = result.backward->block();
    // The backward block starts empty: its kwargs by keyword (Block::kwarg is a linear scan).
    std::unordered_map<std::string, Value> kwargsByKey;
    auto createKwargs = [&](const std::vector<Value> &values, const std::string &prefix) {
        size_t counter = 0;
        for (const Value &v : values) {
            const size_t index = counter++;
            if (v.isNull() || backwardMap.contains(v) || !backwardUsed.count(v))
                continue;
            // Paddle reads forward_value_map[v]: a value without a forward copy has no name.
            const Value forwardCopy = forwardMap.contains(v) ? forwardMap.lookup(v) : Value();
            std::optional<std::string> first = ValueNames::firstName(forwardCopy);
            const std::string key = first ? std::move(*first) : prefix + std::to_string(index);
            Value &kwarg = kwargsByKey[key];
            if (kwarg.isNull()) {
                kwarg = backwardBlock.addKwarg(key, v.type());
            } else {
                result.diagnostics.push_back(
                    "two backward inputs are both named '" + key + "'; they share one keyword argument");
            }
            backwardMap.map(v, kwarg);
        }
    };
    if (result.hasBackward) {
        createKwargs(request.fo, "output_");
        createKwargs(request.fx, "input_");
        createKwargs(request.fp, "param_");
        createKwargs(result.middles, "middle_");
        createKwargs(request.foGrad, "output_grad_");
    }

    cloneRange(block, backwardRange, *result.backward, backwardMap, "backward", result.diagnostics);
    if (result.hasBackward) {
        createOutputs(request.fxGrad, backwardMap, *result.backward, "input_grad_", result.diagnostics);
        createOutputs(request.fpGrad, backwardMap, *result.backward, "param_grad_", result.diagnostics);
    }

    SplitValues &a = result.attributes;
    a[SplitKey::Fx] = mapValues(request.fx, forwardMap);
    a[SplitKey::Fp] = mapValues(request.fp, forwardMap);
    a[SplitKey::Fm] = mapValues(result.middles, forwardMap);
    a[SplitKey::Fo] = mapValues(request.fo, forwardMap);
    a[SplitKey::Bx] = mapValues(request.fx, backwardMap);
    a[SplitKey::Bp] = mapValues(request.fp, backwardMap);
    a[SplitKey::Bm] = mapValues(result.middles, backwardMap);
    a[SplitKey::BoG] = mapValues(request.foGrad, backwardMap);
    a[SplitKey::BxG] = mapValues(request.fxGrad, backwardMap);
    a[SplitKey::BpG] = mapValues(request.fpGrad, backwardMap);
    a[SplitKey::NoNeedBuffers] = mapValues(noNeedBufferValues(block, backwardRange), forwardMap);
    a[SplitKey::Bo] = mapValues(request.fo, backwardMap);
    return result;
}

} // namespace ps
