#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/ir/block.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"
#include "core/session/memorymodel.h"
#include "core/transform/partialprogram.h"
#include "core/transform/pipelineresult.h"
#include "core/transform/syntheticprogram.h"

#include <iostream>

namespace {

/// The target: the memory model of a 20k-op train program in under 100 ms.
constexpr double kTargetSeconds = 0.1;

} // namespace

/// `bench memory [--ops N] [--kind mlp|transformer] [--json]`: MemoryModel::train on the train
/// pipeline of a generated model of N forward ops, against numbering every value of its two
/// programs once (ValueNumbering, the least any pass over the values costs) in the same run.
int runBenchMemory(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "ops", "kind" }, error))
        return cliError(error);
    uint64_t ops = 7500; // about 20k ops forward + backward
    if (!cli.unsignedOption("ops", 10, 2'000'000, ops, error))
        return cliError(error);
    const std::optional<ps::SyntheticProgram::Kind> kind
        = ps::SyntheticProgram::kindFromName(cli.option("kind").value_or("mlp"));
    if (!kind)
        return cliError("--kind: mlp or transformer");
    auto layer = ps::SyntheticProgram::layer(ps::SyntheticProgram::ofSize(*kind, size_t(ops)));
    layer->setRecordPassSteps(false);
    const ps::PipelineResult pipeline = layer->snapshot(true);
    if (!pipeline.forward || !pipeline.backward)
        return cliError("the generated model has no train pipeline");
    const size_t trainOps = pipeline.forward->block().size() + pipeline.backward->block().size();
    ps::MemoryReport report;
    const double model = bestOf([&] { report = ps::MemoryModel::train(pipeline); });
    size_t numbered = 0;
    const double baseline = bestOf([&] {
        numbered
            = ps::ValueNumbering(*pipeline.forward).size() + ps::ValueNumbering(*pipeline.backward).size();
    });
    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject();
        json.key("kind").value(ps::SyntheticProgram::kindName(*kind));
        json.key("train_ops").value(uint64_t(trainOps)).key("values").value(uint64_t(numbered));
        json.key("model_seconds").value(model).key("baseline_seconds").value(baseline);
        json.key("ratio").value(model / baseline).key("target_seconds").value(kTargetSeconds);
        json.key("peak_bytes").value(report.peakBytes);
        json.endObject();
        json.finish();
        return 0;
    }
    std::cout << "memory model of a " << ps::SyntheticProgram::kindName(*kind) << " train step: " << trainOps
              << " ops (forward + backward), " << numbered << " values\n";
    std::cout << "  MemoryModel::train:       " << model * 1e3 << " ms (target " << kTargetSeconds * 1e3
              << " ms for 20k ops)\n";
    std::cout << "  baseline (number values): " << baseline * 1e3 << " ms\n";
    std::cout << "  ratio (model / baseline): " << model / baseline << "\n";
    std::cout << "  peak " << report.peakBytes << " bytes at " << report.peakOp << "\n";
    return 0;
}
