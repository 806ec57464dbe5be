#include "core/ir/program.h"

#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"

namespace ps {

Program::Program()
    : m_region(std::make_unique<Region>(this))
{
    m_region->addBlock();
}

Program::~Program() = default;

size_t Program::numOps() const
{
    return block().size();
}

size_t Program::numOpsTotal() const
{
    size_t n = 0;
    block().walk([&n](Operation *) { ++n; });
    return n;
}

std::vector<const Operation *> Program::allOps() const
{
    std::vector<const Operation *> ops;
    block().walk([&ops](Operation *op) { ops.push_back(op); });
    return ops;
}

static size_t countBlockArgs(const Block &b)
{
    return b.numArguments() + b.numKwargs();
}

size_t Program::numValues() const
{
    size_t n = countBlockArgs(block());
    block().walk([&n](Operation *op) {
        n += op->numResults();
        for (unsigned r = 0; r < op->numRegions(); ++r) {
            for (size_t b = 0; b < op->region(r).numBlocks(); ++b)
                n += countBlockArgs(op->region(r).block(b));
        }
    });
    return n;
}

std::unique_ptr<Program> Program::clone(IrMapping *mapping) const
{
    IrMapping local;
    IrMapping &map = mapping ? *mapping : local;
    auto copy = std::make_unique<Program>();
    copy->serializationVersion = serializationVersion;
    copy->trainable = trainable;
    Block &from = block();
    Block &to = copy->block();
    from.copyArgumentsTo(to, map);
    for (Operation *op : from.ops())
        to.push_back(op->clone(copy->arena(), map));
    return copy;
}

} // namespace ps
