#include "core/transform/onednnplacementpass.h"

#include "core/dialect/onednnplacement.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <string>
#include <vector>

namespace ps {

namespace {

bool floatOperand(const Operation &op)
{
    if (op.numOperands() == 0 || !op.operand(0))
        return false;
    const DataType dtype = op.operand(0).type().dtype();
    return dtype == DataType::Float32 || dtype == DataType::BFloat16;
}

// The renamed op, not yet in a block; nullptr when `op` stays.
Operation *placedCopy(Arena &arena, const Operation &op)
{
    if (op.dialect() != "pd_op" || op.numRegions() != 0)
        return nullptr;
    const std::string_view shortName = op.shortName();
    const std::vector<NamedAttribute> *extras = OneDnnPlacement::extraAttributes(shortName);
    if (!extras || (OneDnnPlacement::needsFloatOperand(shortName) && !floatOperand(op)))
        return nullptr;
    std::vector<NamedAttribute> attributes(op.attributes().begin(), op.attributes().end());
    const auto set = [&attributes](const NamedAttribute &a) {
        for (NamedAttribute &existing : attributes)
            if (existing.name == a.name) {
                existing.value = a.value;
                return;
            }
        attributes.push_back(a);
    };
    for (const NamedAttribute &extra : *extras)
        set(extra);
    for (NamedAttribute &a : attributes)
        if (a.name == "is_test")
            a.value = Attribute::boolean(true);
    const std::vector<Value> operands = op.operands();
    std::vector<Type> types;
    types.reserve(op.numResults());
    for (unsigned i = 0; i < op.numResults(); ++i)
        types.push_back(op.result(i).type());
    return Operation::create(
        arena, "onednn_op." + std::string(shortName), operands, types, std::move(attributes));
}

size_t placeBlock(Arena &arena, Block &block)
{
    size_t placed = 0;
    for (size_t i = 0; i < block.size(); ++i) {
        Operation *op = block.op(i);
        for (unsigned r = 0; r < op->numRegions(); ++r)
            for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
                placed += placeBlock(arena, op->region(r).block(b));
        Operation *copy = placedCopy(arena, *op);
        if (!copy)
            continue;
        for (unsigned r = 0; r < op->numResults(); ++r)
            op->result(r).replaceAllUsesWith(copy->result(r));
        block.replace(i, copy);
        ++placed;
    }
    return placed;
}

} // namespace

size_t OneDnnPlacementPass::run(Program &program)
{
    return placeBlock(program.arena(), program.block());
}

} // namespace ps
