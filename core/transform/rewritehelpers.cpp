#include "core/transform/rewritehelpers.h"

#include "core/dialect/ops.h"
#include "core/ir/operation.h"
#include "core/transform/gradstopgradient.h"
#include "core/transform/patternrewriter.h"

#include <algorithm>

namespace ps {

Operation *buildOp(PatternRewriter &rewriter, std::string_view name, std::span<const Value> operands,
    std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes)
{
    const bool stop = std::none_of(operands.begin(), operands.end(), hasExplicitFalseStopGradient);
    std::erase_if(attributes, [](const NamedAttribute &a) { return a.name == "stop_gradient"; });
    attributes.push_back({ "stop_gradient", boolArrayAttr(resultTypes.size(), stop) });
    return rewriter.create(name, operands, resultTypes, std::move(attributes));
}

Operation *buildOp(PatternRewriter &rewriter, std::string_view name, std::initializer_list<Value> operands,
    std::initializer_list<Type> resultTypes, std::vector<NamedAttribute> attributes)
{
    return buildOp(rewriter, name, std::span<const Value>(operands.begin(), operands.size()),
        std::span<const Type>(resultTypes.begin(), resultTypes.size()), std::move(attributes));
}

Place cpuPlace()
{
    Place p;
    p.type = Place::AllocType::Cpu;
    return p;
}

Value buildReshape(PatternRewriter &rewriter, Value x, const std::vector<int64_t> &shape)
{
    Operation *shapeOp = buildOp(rewriter, ops::kFullIntArray, {},
        { Type::denseTensor(DataType::Int64, { int64_t(shape.size()) }) },
        { { "value", int64ArrayAttr(shape) }, { "dtype", Attribute::dataType(DataType::Int64) },
            { "place", Attribute::place(cpuPlace()) } });
    return buildOp(rewriter, ops::kReshape, { x, shapeOp->result(0) }, { withDims(x.type(), shape) })
        ->result(0);
}

bool valueIsPersistable(Value value)
{
    const Operation *op = value.definingOp();
    if (!op)
        return false;
    if (op->numOperands() > 0) {
        for (unsigned i = 0; i < op->numOperands(); ++i)
            if (!valueIsPersistable(op->operand(i)))
                return false;
        return true;
    }
    const std::string_view name = op->name();
    return name == ops::kParameter || name == ops::kFull || name == ops::kFullIntArray;
}

Operation *definingOpOfOperand(const Operation &op, unsigned index)
{
    return index < op.numOperands() ? op.operand(index).definingOp() : nullptr;
}

bool stringAttrIn(const Attribute *a, std::initializer_list<std::string_view> values)
{
    if (!a || a->kind() != Attribute::Kind::String)
        return false;
    return std::find(values.begin(), values.end(), std::string_view(a->asString())) != values.end();
}

bool resultsUnused(const Operation &op)
{
    for (unsigned i = 0; i < op.numResults(); ++i)
        if (op.result(i).hasUses())
            return false;
    return true;
}

Attribute int32ArrayAttr(const std::vector<int64_t> &values)
{
    std::vector<Attribute> items;
    items.reserve(values.size());
    for (int64_t v : values)
        items.push_back(Attribute::int32(int32_t(v)));
    return Attribute::array(std::move(items));
}

Attribute int64ArrayAttr(const std::vector<int64_t> &values)
{
    std::vector<Attribute> items;
    items.reserve(values.size());
    for (int64_t v : values)
        items.push_back(Attribute::int64(v));
    return Attribute::array(std::move(items));
}

Attribute boolArrayAttr(size_t count, bool value)
{
    return Attribute::array(std::vector<Attribute>(count, Attribute::boolean(value)));
}

Type withDims(Type type, std::vector<int64_t> dims)
{
    return Type::denseTensor(type.dtype(), std::move(dims), type.layout(), type.lod(), type.offset());
}

Type withDtype(Type type, DataType dtype)
{
    return Type::denseTensor(dtype, type.dims(), type.layout(), type.lod(), type.offset());
}

int64_t dimsProduct(const std::vector<int64_t> &dims)
{
    int64_t product = 1;
    for (int64_t d : dims)
        product *= d;
    return product;
}

std::optional<float> foldableBatchNormEpsilon(const Operation &bn)
{
    const Attribute *epsilon = bn.attribute("epsilon");
    if (!epsilon)
        return std::nullopt;
    const auto value = float(epsilon->asDouble());
    if (value < 0.0f || value > 0.001f)
        return std::nullopt;
    return value;
}

} // namespace ps
