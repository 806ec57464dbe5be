#include "core/transform/automixedprecision.h"

#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/datatypekind.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/transform/gradstopgradient.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

namespace ps {

namespace {

// Paddle's InputVarsNotConvert / OutputVarsNotConvert: statistics and scales stay float32.
const std::map<std::string_view, std::vector<unsigned>> kInputsKept = {
    { ops::kBatchNorm, { 1, 2, 3, 4 } },
    { "pd_op.instance_norm", { 1, 2 } },
    { ops::kLayerNorm, { 1, 2 } },
    { "pd_op.fused_multi_transformer", { 1, 2, 14, 15 } },
    { "pd_op.fused_bias_dropout_residual_layer_norm", { 3, 4 } },
    { "pd_op.quantize_linear", { 1, 2 } },
    { "pd_op.dequantize_linear", { 1, 2 } },
};
const std::map<std::string_view, std::vector<unsigned>> kOutputsKept = {
    { ops::kBatchNorm, { 1, 2, 3, 4 } },
    { ops::kLayerNorm, { 1, 2 } },
    { "pd_op.instance_norm", { 1, 2 } },
};

bool listed(const std::map<std::string_view, std::vector<unsigned>> &table, const Operation &op, unsigned i)
{
    auto it = table.find(op.name());
    return it != table.end() && std::find(it->second.begin(), it->second.end(), i) != it->second.end();
}

bool isFloat(DataType t)
{
    return t == DataType::Float32 || t == DataType::Float16 || t == DataType::BFloat16;
}

bool isDense(Value v)
{
    return v && v.type() && v.type().kind() == Type::Kind::DenseTensor;
}

bool isFloatVector(Value v)
{
    if (!v || !v.type() || v.type().kind() != Type::Kind::Vector)
        return false;
    for (const Type &e : v.type().elements())
        if (e.kind() != Type::Kind::DenseTensor || !isFloat(e.dtype()))
            return false;
    return true;
}

DataType dtypeOf(Value v)
{
    return isDense(v) ? v.type().dtype() : DataType::Undefined;
}

bool hasFloatData(const Operation &op)
{
    for (Value v : op.operands())
        if ((isDense(v) && isFloat(v.type().dtype())) || isFloatVector(v))
            return true;
    for (Value v : op.results())
        if ((isDense(v) && isFloat(v.type().dtype())) || isFloatVector(v))
            return true;
    return false;
}

Type withDtype(const Type &t, DataType dtype)
{
    return Type::denseTensor(dtype, t.dims(), t.layout(), t.lod(), t.offset());
}

/// Paddle's SetResultDataType: float dense tensors (or float elements of a vector) get `precision`.
void setResultDtype(Value v, DataType precision)
{
    const Type t = v.type();
    if (t.kind() == Type::Kind::DenseTensor) {
        if (isFloat(t.dtype()))
            v.setType(withDtype(t, precision));
    } else if (t.kind() == Type::Kind::Vector) {
        std::vector<Type> elements;
        for (const Type &e : t.elements())
            elements.push_back(
                e.kind() == Type::Kind::DenseTensor && isFloat(e.dtype()) ? withDtype(e, precision) : e);
        v.setType(Type::vector(std::move(elements)));
    }
}

/// A mutable-attribute input of `user` at `index` whose YAML type is Scalar.
bool isScalarInput(const Operation &user, unsigned index)
{
    const OpInfo *info = OpRegistry::instance().lookup(user.name());
    return info && int(index) < info->numInputs && info->inputs[index].mutableAttribute
        && info->inputs[index].type.starts_with("Scalar");
}

bool feedsScalar(const Operation &op)
{
    for (Value r : op.results())
        for (const OpOperand *use = r.firstUse(); use; use = use->nextUse()) {
            const Operation *user = use->owner();
            if (ops::isCombine(*user) ? feedsScalar(*user) : isScalarInput(*user, use->index()))
                return true;
        }
    return false;
}

} // namespace

struct AutoMixedPrecision::State
{
    std::unordered_set<const Operation *> low;
    std::unordered_set<const Operation *> untouched;
    Block *block = nullptr; ///< the block being rewritten
    std::unordered_map<Value, Operation *> casts; ///< of `block`
    size_t lowOps = 0;
};

AutoMixedPrecision::AutoMixedPrecision(Place place, DataType precision, bool lowPrecisionIo,
    std::set<std::string> whiteList, std::set<std::string> blackList)
    : m_place(std::move(place))
    , m_precision(precision)
    , m_lowPrecisionIo(lowPrecisionIo)
    , m_whiteList(std::move(whiteList))
    , m_blackList(std::move(blackList))
{
}

const std::set<std::string> &AutoMixedPrecision::defaultBlackList()
{
    static const std::set<std::string> list = { "exp", "square", "log", "mean", "sum",
        "sigmoid_cross_entropy_with_logits", "cross_entropy_with_softmax_", "array_to_tensor" };
    return list;
}

std::vector<std::string> AutoMixedPrecision::takeNotes()
{
    return std::exchange(m_notes, {});
}

size_t AutoMixedPrecision::run(Program &program)
{
    m_notes.clear();
    m_casts = 0;
    if (m_place.type != Place::AllocType::Gpu) {
        m_notes.push_back(
            "applies on a GPU place only (Paddle's CanApplyOn); the place is " + m_place.toString());
        return 0;
    }
    if (m_precision != DataType::Float16 && m_precision != DataType::BFloat16) {
        m_notes.push_back("mixed_precision_mode must be float16 or bfloat16");
        return 0;
    }
    State state;
    runBlock(program.block(), state);
    m_notes.push_back(std::to_string(state.lowOps) + " ops in " + std::string(phiName(m_precision)) + ", "
        + std::to_string(m_casts) + " casts; kernel support assumed for every pd_op op with float data "
        + "(no GPU kernel registry here)");
    return state.lowOps + m_casts;
}

void AutoMixedPrecision::runBlock(Block &block, State &state)
{
    const std::vector<Operation *> ops = block.ops();
    getOpPrecision(ops, state);
    updateOpPrecision(ops, state);
    processBlock(block, ops, state);
    for (Operation *op : ops)
        for (unsigned r = 0; r < op->numRegions(); ++r)
            for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
                runBlock(op->region(r).block(b), state);
}

void AutoMixedPrecision::getOpPrecision(const std::vector<Operation *> &ops, State &state) const
{
    const OpRegistry &registry = OpRegistry::instance();
    for (Operation *op : ops) {
        const std::string_view name = op->name();
        const std::string shortName(op->shortName());
        bool low = true;
        if (defaultBlackList().count(shortName) && op->dialect() == "pd_op") {
            low = false;
        } else if (name.find("builtin") != std::string_view::npos) {
            low = name != ops::kParameter && name != ops::kSetParameter;
        } else if (name == ops::kFeed || name == ops::kFetch || name == ops::kData) {
            low = m_lowPrecisionIo;
        } else if (hasFloatData(*op)) {
            if (m_whiteList.count(shortName))
                low = true;
            else if (m_blackList.count(shortName))
                low = false;
            else // a GPU kernel in this precision: assumed for pd_op ops Paddle registers
                low = op->dialect() == "pd_op" && op->numRegions() == 0 && registry.lookup(name);
            if (name == ops::kScale) {
                bool floatResult = false;
                for (Value r : op->results())
                    floatResult = floatResult || (isDense(r) && isFloat(r.type().dtype()));
                if (!floatResult) {
                    low = false;
                    state.untouched.insert(op);
                }
            }
        } else {
            low = false;
            state.untouched.insert(op);
        }
        if (low)
            state.low.insert(op);
    }
}

void AutoMixedPrecision::updateOpPrecision(const std::vector<Operation *> &ops, State &state)
{
    for (bool updated = true; updated;) {
        updated = false;
        for (Operation *op : ops) {
            if (state.untouched.count(op) || !state.low.count(op))
                continue;
            if (op->name() == ops::kFullLike) {
                const Operation *input = op->operand(0).definingOp();
                if (!state.low.count(input)) {
                    state.low.erase(op);
                    updated = true;
                    continue;
                }
            }
            if (op->name() == ops::kCast && !isFloat(dtypeOf(op->result(0)))) {
                state.low.erase(op);
                state.untouched.insert(op);
                updated = true;
                continue;
            }
            if (feedsScalar(*op)) {
                state.low.erase(op);
                updated = true;
                continue;
            }
            for (Value v : op->operands()) {
                if (!isFloatVector(v))
                    continue;
                const Operation *producer = v.definingOp();
                if (!state.low.count(op) || !state.low.count(producer)) {
                    state.low.erase(op);
                    state.low.erase(producer);
                    updated = true;
                }
            }
        }
    }
}

void AutoMixedPrecision::processBlock(Block &block, const std::vector<Operation *> &ops, State &state)
{
    state.block = &block;
    state.casts.clear();
    for (Operation *op : ops) {
        if (state.untouched.count(op))
            continue;
        if (op->name().find("builtin") != std::string_view::npos)
            rewriteBuiltinOp(op, state);
        else
            rewritePdOp(op, state);
    }
}

void AutoMixedPrecision::insertCast(Operation *op, unsigned operand, DataType to, State &state)
{
    const Value value = op->operand(operand);
    if (auto it = state.casts.find(value); it != state.casts.end()) {
        op->setOperand(operand, it->second->result(0));
        return;
    }
    Block &block = *state.block;
    Builder builder(*block.program());
    builder.setInsertionPoint(block, size_t(block.indexOf(op)));
    const Type type = withDtype(value.type(), to);
    Operation *cast
        = builder.create(ops::kCast, std::span<const Value>(&value, 1), std::span<const Type>(&type, 1),
            { { "dtype", Attribute::dataType(to) },
                { "stop_gradient", Attribute::array({ Attribute::boolean(stopGradientOf(value)) }) } });
    op->setOperand(operand, cast->result(0));
    state.casts.emplace(value, cast);
    ++m_casts;
}

void AutoMixedPrecision::rewriteBuiltinOp(Operation *op, State &state)
{
    const std::string_view name = op->name();
    const bool low = state.low.count(op) != 0;
    if (name == ops::kCombine) {
        for (unsigned i = 0; i < op->numOperands(); ++i) {
            const DataType t = dtypeOf(op->operand(i));
            if (low && isFloat(t) && t != m_precision)
                insertCast(op, i, m_precision, state);
            else if (!low && t == m_precision)
                insertCast(op, i, DataType::Float32, state);
        }
        if (low) {
            std::vector<Type> types;
            for (Value v : op->operands())
                types.push_back(v.type());
            op->result(0).setType(Type::vector(std::move(types)));
        }
    } else if (name == ops::kBuiltinSlice && low) {
        const Attribute *index = op->attribute("index");
        const std::vector<Type> &inputs = op->operand(0).type().elements();
        if (index && size_t(index->asInt()) < inputs.size())
            op->result(0).setType(inputs[size_t(index->asInt())]);
    } else if (name == ops::kBuiltinSplit && low) {
        const std::vector<Type> &inputs = op->operand(0).type().elements();
        for (unsigned i = 0; i < op->numResults() && i < inputs.size(); ++i)
            op->result(i).setType(inputs[i]);
    }
    if (low)
        ++state.lowOps;
}

void AutoMixedPrecision::rewritePdOp(Operation *op, State &state)
{
    const std::string_view name = op->name();
    const bool low = state.low.count(op) != 0;
    if (name == ops::kFetch) {
        if (low)
            setResultDtype(op->result(0), m_precision);
        if (isDense(op->result(0)) && dtypeOf(op->operand(0)) != dtypeOf(op->result(0)))
            insertCast(op, 0, dtypeOf(op->result(0)), state);
        state.lowOps += low;
    } else if ((name == ops::kFeed || name == ops::kData || name == ops::kShareData_) && low) {
        setResultDtype(op->result(0), m_precision);
        ++state.lowOps;
    } else if (low) {
        ++state.lowOps;
        rewriteLowPrecisionOp(op, state);
    } else {
        castLowPrecisionInputsBack(op, state);
    }
}

void AutoMixedPrecision::rewriteLowPrecisionOp(Operation *op, State &state)
{
    const OpInfo *info = OpRegistry::instance().lookup(op->name());
    // The kernel's tensor inputs (mutable attributes are not kernel tensors).
    for (unsigned i = 0; info && int(i) < info->numInputs && i < op->numOperands(); ++i) {
        if (info->inputs[i].mutableAttribute || !isDense(op->operand(i)))
            continue;
        const DataType t = dtypeOf(op->operand(i));
        if (!listed(kInputsKept, *op, i) && isFloat(t) && t != m_precision)
            insertCast(op, i, m_precision, state);
    }
    if (const Attribute *dtype = op->attribute("dtype");
        dtype && dtype->kind() == Attribute::Kind::DataTypeAttr) {
        if (!isFloat(dtype->asDataType()) && dtype->asDataType() != DataType::Undefined)
            return; // the op makes a non-float type: its results stay
        op->setAttribute("dtype", Attribute::dataType(m_precision));
    }
    for (unsigned i = 0; i < op->numResults(); ++i)
        if (op->result(i).type() && !listed(kOutputsKept, *op, i))
            setResultDtype(op->result(i), m_precision);
}

void AutoMixedPrecision::castLowPrecisionInputsBack(Operation *op, State &state)
{
    for (unsigned i = 0; i < op->numOperands(); ++i) {
        const Value v = op->operand(i);
        if (isDense(v) && dtypeOf(v) == m_precision) {
            insertCast(op, i, DataType::Float32, state);
        } else if (v && v.type() && v.type().kind() == Type::Kind::Vector && v.definingOp()
            && ops::isCombine(*v.definingOp())) {
            Operation *combine = v.definingOp();
            for (unsigned j = 0; j < combine->numOperands(); ++j) {
                const DataType t = dtypeOf(combine->operand(j));
                if (isFloat(t) && t != DataType::Float32)
                    insertCast(combine, j, DataType::Float32, state);
            }
            std::vector<Type> types;
            for (Value item : combine->operands())
                types.push_back(item.type());
            combine->result(0).setType(Type::vector(std::move(types)));
        }
    }
}

} // namespace ps
