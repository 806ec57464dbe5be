#include "programsummary.h"

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
        if (name == "pd_op.data" || name == "pd_op.feed")
            inputs.push_back(op->stringAttribute("name"));
        else if (name == "builtin.parameter")
            parameters.push_back(op->stringAttribute("parameter_name"));
        else if (name == "builtin.shadow_output")
            outputs.push_back(op->stringAttribute("output_name"));
        else if (name == "pd_op.fetch")
            outputs.push_back(op->stringAttribute("name"));
    }
}
