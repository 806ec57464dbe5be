#include "core/transform/replacefetchwithshadowoutput.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/gradstopgradient.h"

namespace ps {

namespace {

Attribute stopGradient(bool stop)
{
    return Attribute::array({ Attribute::boolean(stop) });
}

} // namespace

size_t ReplaceFetchWithShadowOutput::run(Program &program)
{
    Block &block = program.block();
    std::vector<Operation *> fetches;
    for (Operation *op : block.ops())
        if (ops::isFetch(*op) && op->numOperands() == 1)
            fetches.push_back(op);
    Builder builder(program);
    for (Operation *fetch : fetches) {
        builder.setInsertionPoint(block, size_t(block.indexOf(fetch)));
        Value source = fetch->operand(0);
        const Operation *producer = source.definingOp();
        if (producer && producer->hasAttribute("name")) {
            Place cpu;
            cpu.type = Place::AllocType::Cpu;
            const Type scalar = Type::denseTensor(DataType::Float32, { 1 });
            Operation *one
                = builder.create(ops::kFull, std::span<const Value>(), std::span<const Type>(&scalar, 1),
                    { { "shape", Attribute::intArray({ 1 }) }, { "value", Attribute::f64(1.0) },
                        { "dtype", Attribute::dataType(DataType::Float32) },
                        { "place", Attribute::place(cpu) }, { "stop_gradient", stopGradient(true) } });
            const Value operands[] = { source, one->result(0) };
            const Type type = source.type();
            source = builder
                         .create(ops::kScale, operands, std::span<const Type>(&type, 1),
                             { { "bias", Attribute::f32(0.0f) },
                                 { "bias_after_scale", Attribute::boolean(true) },
                                 { "stop_gradient", stopGradient(stopGradientOf(source)) } })
                         ->result(0);
        }
        builder.create(ops::kShadowOutput, std::span<const Value>(&source, 1), std::span<const Type>(),
            { { "output_name", Attribute::string(fetch->stringAttribute("name")) } });
        for (Value r : fetch->results())
            if (r.hasUses())
                r.replaceAllUsesWith(source);
        block.erase(fetch);
    }
    return fetches.size();
}

} // namespace ps
