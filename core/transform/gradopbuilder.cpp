#include "core/transform/gradopbuilder.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/gradstopgradient.h"

namespace ps {

GradOpBuilder::GradOpBuilder(Program &program)
    : m_program(program)
    , m_block(&program.block())
{
}

void GradOpBuilder::setInsertionPointToEnd(Block &block)
{
    m_block = &block;
    m_index = -1;
}

void GradOpBuilder::setInsertionPoint(Block &block, size_t index)
{
    m_block = &block;
    m_index = long(index);
}

Operation *GradOpBuilder::insert(Operation *op)
{
    if (m_index < 0) {
        m_block->push_back(op);
    } else {
        m_block->insert(size_t(m_index), op);
        ++m_index;
    }
    return op;
}

Operation *GradOpBuilder::createPlain(std::string_view name, std::span<const Value> operands,
    std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes, unsigned numRegions)
{
    return insert(
        Operation::create(m_program.arena(), name, operands, resultTypes, std::move(attributes), numRegions));
}

Operation *GradOpBuilder::create(std::string_view name, std::span<const Value> operands,
    std::span<const Type> resultTypes, std::vector<NamedAttribute> attributes, unsigned numRegions)
{
    if (!resultTypes.empty()) {
        bool stop = true;
        for (Value v : operands) {
            if (hasExplicitFalseStopGradient(v)) {
                stop = false;
                break;
            }
        }
        attributes.push_back({ "stop_gradient",
            Attribute::array(std::vector<Attribute>(resultTypes.size(), Attribute::boolean(stop))) });
    }
    return createPlain(name, operands, resultTypes, std::move(attributes), numRegions);
}

Operation *GradOpBuilder::full(double value)
{
    Place cpu;
    cpu.type = Place::AllocType::Cpu;
    const Type type = Type::denseTensor(DataType::Float32, { 1 });
    return create(ops::kFull, std::span<const Value>(), std::span<const Type>(&type, 1),
        { { "shape", Attribute::intArray({ 1 }) }, { "value", Attribute::f64(value) },
            { "dtype", Attribute::dataType(DataType::Float32) }, { "place", Attribute::place(cpu) } });
}

Operation *GradOpBuilder::fullLike(Value x, double value)
{
    Operation *fill = full(value);
    const Value operands[] = { x, fill->result(0) };
    const Type type = x.type();
    // Paddle 3.3.1 spells the place of full_like in a static program Place(undefined:0).
    return create(ops::kFullLike, operands, std::span<const Type>(&type, 1),
        { { "dtype", Attribute::dataType(x.type().dtype()) }, { "place", Attribute::place(Place()) } });
}

Value GradOpBuilder::combine(std::span<const Value> values)
{
    std::vector<Type> types;
    types.reserve(values.size());
    for (Value v : values)
        types.push_back(v.type());
    const Type type = Type::vector(std::move(types));
    return create(ops::kCombine, values, std::span<const Type>(&type, 1))->result(0);
}

Operation *GradOpBuilder::split(Value vector)
{
    const std::vector<Type> types = vector.type().elements();
    return create(ops::kBuiltinSplit, std::span<const Value>(&vector, 1), types);
}

Operation *GradOpBuilder::addN(std::span<const Value> values)
{
    const Value vec = combine(values);
    const Type type = values.front().type();
    return create("pd_op.add_n", std::span<const Value>(&vec, 1), std::span<const Type>(&type, 1));
}

} // namespace ps
