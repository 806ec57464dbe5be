#include "core/io/pirjsonupgrader.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/opnames.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <string_view>
#include <unordered_map>
#include <vector>

namespace ps {

namespace {

enum class Action : unsigned char {
    ToInt64, ///< Int32 → Int64
    ToInt64Array, ///< array elements Int32 → Int64
    ToDouble, ///< Float → Double
    ToDoubleArray, ///< array elements Float → Double
    AddInt64MinusOne,
    AddInt32MinusOne,
    AddBoolFalse,
    AddFloat32Output, ///< append a `tensor<-1xf32>` result when the op has exactly one
};

struct Patch
{
    int version;
    std::string_view op;
    std::string_view attribute;
    Action action;
};

// Transcribed from Paddle's patch/2.yaml, 3.yaml and 4.yaml.
constexpr Patch kPatches[] = {
    { 2, "pd_op.lp_pool2d", "strides", Action::ToInt64Array },
    { 2, "pd_op.lp_pool2d", "paddings", Action::ToInt64Array },
    { 2, ops::kPool2d, "strides", Action::ToInt64Array },
    { 2, ops::kPool2d, "paddings", Action::ToInt64Array },
    { 2, "pd_op.pool3d", "kernel_size", Action::ToInt64Array },
    { 2, "pd_op.pool3d", "strides", Action::ToInt64Array },
    { 2, "pd_op.pool3d", "paddings", Action::ToInt64Array },
    { 2, "pd_op.expand_as", "target_shape", Action::ToInt64Array },
    { 2, "pd_op.slogdet", "", Action::AddFloat32Output },
    { 3, "pd_op.kthvalue", "k", Action::ToInt64 },
    { 3, "pd_op.repeat_interleave", "output_size", Action::AddInt64MinusOne },
    { 3, "pd_op.repeat_interleave_with_tensor_index", "output_size", Action::AddInt64MinusOne },
    { 4, ops::kLeakyRelu, "negative_slope", Action::ToDouble },
    { 4, "pd_op.softplus", "beta", Action::ToDouble },
    { 4, "pd_op.softplus", "threshold", Action::ToDouble },
    { 4, "onednn_op.fused_softplus", "beta", Action::ToDouble },
    { 4, "onednn_op.fused_softplus", "threshold", Action::ToDouble },
    { 4, "onednn_op.fused_softplus", "fuse_alpha", Action::ToDouble },
    { 4, "onednn_op.fused_softplus", "fuse_beta", Action::ToDouble },
    { 4, "pd_op.logit", "eps", Action::ToDouble },
    { 4, "pd_op.pad3d", "pad_value", Action::ToDouble },
    { 4, ops::kGroupNorm, "epsilon", Action::ToDouble },
    { 4, ops::kAddGroupNormSilu, "epsilon", Action::ToDouble },
    { 4, "pd_op.group_norm_silu_xpu", "epsilon", Action::ToDouble },
    { 4, "pd_op.top_p_sampling", "seed", Action::ToInt64 },
    { 4, "pd_op.bicubic_interp", "scale", Action::ToDoubleArray },
    { 4, "pd_op.nearest_interp", "scale", Action::ToDoubleArray },
    { 4, "pd_op.linear_interp", "scale", Action::ToDoubleArray },
    { 4, "pd_op.bilinear_interp", "scale", Action::ToDoubleArray },
    { 4, "pd_op.trilinear_interp", "scale", Action::ToDoubleArray },
    { 4, "pd_op.moe_permute", "using_ue8m0_scale", Action::AddBoolFalse },
    { 4, "pd_op.moe_permute", "return_expert_indices", Action::AddBoolFalse },
    { 4, "pd_op.moe_permute", "override_buffer_size", Action::AddInt32MinusOne },
    { 4, "pd_op.moe_unpermute", "using_ue8m0_scale", Action::AddBoolFalse },
    { 4, "pd_op.moe_unpermute", "using_weighted_combine", Action::AddBoolFalse },
    { 4, "pd_op.p_norm", "porder", Action::ToDouble },
};

/// By op name, keyed by the interned name's address: every Operation's name is interned
/// (internOpName), so a lookup hashes a pointer, not a string (the walk looks up every op).
using PatchTable = std::unordered_map<const char *, std::vector<const Patch *>>;

const PatchTable &patchesByOp()
{
    static const auto *map = [] {
        auto *m = new PatchTable;
        for (const Patch &p : kPatches)
            (*m)[internOpName(p.op).data()].push_back(&p);
        return m;
    }();
    return *map;
}

bool toInt64(Attribute &a)
{
    if (a.kind() != Attribute::Kind::Int32)
        return false;
    a = Attribute::int64(a.asInt());
    return true;
}

bool toDouble(Attribute &a)
{
    if (a.kind() != Attribute::Kind::Float)
        return false;
    a = Attribute::f64(a.asDouble());
    return true;
}

template<class Fn> bool convertElements(Attribute &a, Fn fn)
{
    if (a.kind() != Attribute::Kind::Array)
        return false;
    std::vector<Attribute> items = a.asArray();
    bool changed = false;
    for (Attribute &item : items)
        changed |= fn(item);
    if (changed)
        a = Attribute::array(std::move(items));
    return changed;
}

bool addIfAbsent(Operation *op, std::string_view name, Attribute value)
{
    if (op->hasAttribute(name))
        return false;
    op->setAttribute(name, std::move(value));
    return true;
}

/// Replaces `op` by a copy with one more result (Paddle's `add_output`). Returns the new op.
Operation *addFloat32Output(Program &program, Operation *op)
{
    Block *block = op->parentBlock();
    if (op->numResults() != 1 || op->numRegions() != 0 || !block)
        return nullptr;
    const std::vector<Value> operands = op->operands();
    const Type types[] = { op->result(0).type(), Type::denseTensor(DataType::Float32, { -1 }) };
    Operation *replacement = Operation::create(program.arena(), op->name(), operands, types,
        std::vector<NamedAttribute>(op->attributes().begin(), op->attributes().end()));
    block->insert(size_t(block->indexOf(op)), replacement);
    op->result(0).replaceAllUsesWith(replacement->result(0));
    block->erase(op);
    return replacement;
}

size_t upgradeBlock(Program &program, Block &block, int fileVersion)
{
    const auto &table = patchesByOp();
    size_t changedOps = 0;
    for (size_t i = 0; i < block.size(); ++i) {
        Operation *op = block.op(i);
        for (unsigned r = 0; r < op->numRegions(); ++r) {
            Region &region = op->region(r);
            for (size_t b = 0; b < region.numBlocks(); ++b)
                changedOps += upgradeBlock(program, region.block(b), fileVersion);
        }
        const auto it = table.find(op->name().data());
        if (it == table.end())
            continue;
        bool changed = false;
        for (const Patch *p : it->second) {
            if (p->version < fileVersion)
                continue;
            if (p->action == Action::AddFloat32Output) {
                if (Operation *replacement = addFloat32Output(program, op)) {
                    op = replacement;
                    changed = true;
                }
                continue;
            }
            Attribute *attr = op->mutableAttribute(p->attribute);
            switch (p->action) {
            case Action::ToInt64:
                changed |= attr && toInt64(*attr);
                break;
            case Action::ToInt64Array:
                changed |= attr && convertElements(*attr, toInt64);
                break;
            case Action::ToDouble:
                changed |= attr && toDouble(*attr);
                break;
            case Action::ToDoubleArray:
                changed |= attr && convertElements(*attr, toDouble);
                break;
            case Action::AddInt64MinusOne:
                changed |= addIfAbsent(op, p->attribute, Attribute::int64(-1));
                break;
            case Action::AddInt32MinusOne:
                changed |= addIfAbsent(op, p->attribute, Attribute::int32(-1));
                break;
            case Action::AddBoolFalse:
                changed |= addIfAbsent(op, p->attribute, Attribute::boolean(false));
                break;
            case Action::AddFloat32Output:
                break;
            }
        }
        changedOps += changed ? 1 : 0;
    }
    return changedOps;
}

} // namespace

size_t PirJsonUpgrader::upgrade(Program &program, int fileVersion)
{
    if (fileVersion > kLatestPatch)
        return 0;
    return upgradeBlock(program, program.block(), fileVersion);
}

} // namespace ps
