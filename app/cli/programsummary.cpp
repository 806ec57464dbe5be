#include "programsummary.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

ProgramSummary::ProgramSummary(const ps::Program &program)
{
    ops = program.numOps();
    values = program.numValues();
    program.block().walk([this](ps::Operation *op) {
        ++opsTotal;
        ++opCounts[std::string(op->name())];
    });
    for (ps::Operation *op : program.block().ops()) {
        const std::string_view name = op->name();
        if (name == ps::ops::kData || name == ps::ops::kFeed)
            inputs.push_back(op->stringAttribute("name"));
        else if (name == ps::ops::kParameter)
            parameters.push_back(op->stringAttribute("parameter_name"));
        else if (name == ps::ops::kShadowOutput)
            outputs.push_back(op->stringAttribute("output_name"));
        else if (name == ps::ops::kFetch)
            outputs.push_back(op->stringAttribute("name"));
    }
}
