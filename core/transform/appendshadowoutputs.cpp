#include "core/transform/appendshadowoutputs.h"

#include "core/analysis/valuenames.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <unordered_set>

namespace ps {

void appendShadowOutput(Program &program, Value value, const std::string &name, size_t startPoint)
{
    Operation *op = Operation::create(program.arena(), ops::kShadowOutput, std::span<const Value>(&value, 1),
        {}, { { "output_name", Attribute::string(name) } });
    Block &block = program.block();
    if (startPoint >= block.size())
        block.push_back(op);
    else
        block.insert(startPoint, op);
}

int appendShadowOutputs(
    Program &program, const std::vector<Value> &values, size_t startPoint, const std::string &namePrefix)
{
    int counter = 0;
    std::unordered_set<Value> added;
    for (Value value : values) {
        const bool fake = value.isNull() || !value.type();
        if (added.count(value) && !fake)
            continue;
        const std::string name = ValueNames::firstName(value).value_or(namePrefix + std::to_string(counter));
        appendShadowOutput(program, value, name, startPoint + size_t(counter));
        ++counter;
        added.insert(value);
    }
    return counter;
}

} // namespace ps
