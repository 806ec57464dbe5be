#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/graph/graphbuilder.h"
#include "core/io/jsonemitter.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"
#include "core/transform/partialprogram.h"
#include "core/transform/pipelineresult.h"
#include "core/transform/syntheticprogram.h"

#include <algorithm>
#include <iostream>
#include <unordered_map>

namespace {

/// The target: the graph model of a 100k-op program in under a second.
constexpr double kTargetSeconds = 1.0;
constexpr size_t kTargetOps = 100'000;

const char *const kUsage = "usage: pirscope-cli bench graph [--ops N] [--kind mlp|transformer|wide] "
                           "[--mode train|split|infer] [--json] | bench graph FILE";

/// One program whose graph model is built and, for a train program, autodiff's grad op →
/// forward op links (what the GUI passes to GraphBuilder).
struct GraphPart
{
    std::shared_ptr<const ps::Program> program;
    std::unordered_map<const ps::Operation *, const ps::Operation *> forwardOpOf;
};

/// What one size builds: the program (infer), the whole train program (train) or, as the
/// pipeline view does, the split forward and backward programs (split).
struct GraphSubject
{
    std::vector<GraphPart> parts;
    size_t ops() const
    {
        size_t n = 0;
        for (const GraphPart &p : parts)
            n += p.program->numOpsTotal();
        return n;
    }
};

/// `ops` adds, each in a one-op layer of its own ("/Net/Add_7/") and each reading one shared,
/// unnamed value: the shapes that made the model quadratic (a value read by every op, drawn as
/// one ghost per use, each named by scanning all its uses for a shadow_output; a layer with
/// thousands of one-op sub-layers, each dissolved into it).
std::unique_ptr<ps::Program> wideProgram(size_t ops)
{
    auto program = std::make_unique<ps::Program>();
    ps::Builder b(*program);
    b.setInsertionPointToEnd(program->block());
    const ps::Type t = ps::Type::denseTensor(ps::DataType::Float32, { 4 });
    const ps::Value x
        = b.create("pd_op.data", {}, { t }, { { "name", ps::Attribute::string("x") } })->result(0);
    const ps::Value shared
        = b.create("pd_op.sigmoid", { x }, { t }, { { "struct_name", ps::Attribute::string("/Net/") } })
              ->result(0);
    ps::Value v = shared;
    for (size_t i = 0; i < ops; ++i)
        v = b.create("pd_op.add", { v, shared }, { t },
                 { { "struct_name", ps::Attribute::string("/Net/Add_" + std::to_string(i) + "/") } })
                ->result(0);
    b.create("builtin.shadow_output", { v }, {}, { { "output_name", ps::Attribute::string("out") } });
    return program;
}

ps::SyntheticProgram::Model modelOf(ps::SyntheticProgram::Kind kind, size_t layers)
{
    return kind == ps::SyntheticProgram::Kind::Mlp ? ps::SyntheticProgram::mlp(layers)
                                                   : ps::SyntheticProgram::transformer(layers);
}

bool trainSubject(ps::SyntheticProgram::Kind kind, size_t layers, bool split, GraphSubject &subject)
{
    ps::PipelineResult result = ps::SyntheticProgram::layer(modelOf(kind, layers))->snapshot(true);
    if (!result.whole || (split && !result.ok()))
        return false;
    subject.parts.clear();
    if (!split) {
        GraphPart whole { result.whole, {} };
        const ps::Block &block = result.whole->block();
        for (const ps::GradOpLink &link : result.gradOps)
            for (size_t g : link.gradOps)
                if (g < block.size() && link.forwardOp < block.size())
                    whole.forwardOpOf[block.op(g)] = block.op(link.forwardOp);
        subject.parts.push_back(std::move(whole));
        return true;
    }
    GraphPart backward { result.backward, {} };
    const ps::Block &f = result.forward->block();
    const ps::Block &b = result.backward->block();
    for (const ps::GradOpLink &link : result.splitGradOps)
        for (size_t g : link.gradOps)
            if (g < b.size() && link.forwardOp < f.size())
                backward.forwardOpOf[b.op(g)] = f.op(link.forwardOp);
    subject.parts.push_back({ result.forward, {} });
    subject.parts.push_back(std::move(backward));
    return true;
}

/// Train and split modes size the train program (forward + backward): its op count grows
/// linearly with the layers, fitted from two small models.
bool makeSubject(ps::SyntheticProgram::Kind kind, size_t ops, const std::string &mode, GraphSubject &subject)
{
    if (mode == "infer") {
        subject.parts.push_back({ ps::SyntheticProgram::ofSize(kind, ops).program, {} });
        return true;
    }
    const bool split = mode == "split";
    GraphSubject two, four;
    if (!trainSubject(kind, 2, split, two) || !trainSubject(kind, 4, split, four))
        return false;
    const double perLayer = (double(four.ops()) - double(two.ops())) / 2;
    const double fixed = double(two.ops()) - 2 * perLayer;
    return trainSubject(kind, size_t(std::max(1.0, (double(ops) - fixed) / perLayer)), split, subject);
}

struct Measurement
{
    size_t ops = 0;
    size_t nodes = 0;
    size_t edges = 0;
    size_t groups = 0;
    double modelSeconds = 0;
    double baselineSeconds = 0;
    double perOpModel() const { return modelSeconds / double(ops); }
    double perOpBaseline() const { return baselineSeconds / double(ops); }
};

Measurement measure(const GraphSubject &subject)
{
    Measurement m;
    m.ops = subject.ops();
    std::vector<ps::GraphModel> models(subject.parts.size());
    m.modelSeconds = bestOf(
        [&] {
            for (size_t i = 0; i < subject.parts.size(); ++i) {
                ps::GraphBuilderOptions options;
                options.grouping.forwardOpOf = &subject.parts[i].forwardOpOf;
                models[i] = ps::GraphBuilder(options).build(*subject.parts[i].program);
            }
        },
        0.5, 3);
    for (const ps::GraphModel &model : models) {
        m.nodes += model.nodes.size();
        m.edges += model.edges.size();
        m.groups += model.groups.size();
    }
    size_t values = 0;
    m.baselineSeconds = bestOf(
        [&] {
            values = 0;
            for (const GraphPart &p : subject.parts)
                values += ps::ValueNumbering(*p.program).size();
        },
        0.5, 3);
    return m;
}

void printSize(const Measurement &m)
{
    std::cout << "  " << m.ops << " ops (" << m.nodes << " nodes, " << m.edges << " edges, " << m.groups
              << " groups):\n";
    std::cout << "    graph model: " << m.modelSeconds * 1e3 << " ms (" << m.perOpModel() * 1e6
              << " us per op)\n";
    std::cout << "    baseline:    " << m.baselineSeconds * 1e3 << " ms (" << m.perOpBaseline() * 1e6
              << " us per op)\n";
    std::cout << "    ratio (model / baseline): " << m.modelSeconds / m.baselineSeconds << "\n";
}

} // namespace

/// `bench graph [--ops N] [--kind mlp|transformer|wide] [--mode train|split|infer] [--json]`:
/// the graph model (GraphBuilder: nodes, edges, ghosts, layer groups; what a ProgramDocument
/// builds for the graph view) of a generated program of N/5 and N ops (train: the whole train
/// program; split: its forward and backward programs, as the pipeline view builds them; wide:
/// see wideProgram), each against numbering its values once (ValueNumbering, one linear pass
/// over the ops) in the same run. The per-op costs at the two sizes show whether building grows
/// linearly. `bench graph FILE`: the same for one program file.
int runBenchGraph(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "ops", "kind", "mode" }, error))
        return cliError(error);
    if (cli.positional().size() > 1)
        return cliError(kUsage);
    if (cli.positional().size() == 1) {
        if (cli.option("ops") || cli.option("kind") || cli.option("mode") || cli.flag("json"))
            return cliError(kUsage);
        std::unique_ptr<ps::Program> loaded = loadForCli(cli.positional()[0]);
        if (!loaded)
            return 1;
        GraphSubject subject;
        subject.parts.push_back({ std::move(loaded), {} });
        std::cout << "graph model of " << cli.positional()[0] << ", against numbering its values once\n";
        printSize(measure(subject));
        return 0;
    }
    uint64_t ops = kTargetOps;
    if (!cli.unsignedOption("ops", 50, 5'000'000, ops, error))
        return cliError(error);
    const std::string kindName = cli.option("kind").value_or("mlp");
    const bool wide = kindName == "wide";
    const std::optional<ps::SyntheticProgram::Kind> kind = ps::SyntheticProgram::kindFromName(kindName);
    if (!kind && !wide)
        return cliError("--kind: mlp, transformer or wide");
    const std::string mode = cli.option("mode").value_or(wide ? "infer" : "train");
    if (mode != "train" && mode != "infer" && mode != "split")
        return cliError("--mode: train, split or infer");
    if (wide && mode != "infer")
        return cliError("--kind wide: infer only (the program has no backward)");

    std::vector<Measurement> sizes;
    for (size_t n : { size_t(ops) / 5, size_t(ops) }) {
        GraphSubject subject;
        if (wide)
            subject.parts.push_back({ wideProgram(n), {} });
        else if (!makeSubject(*kind, n, mode, subject))
            return cliError("the generated model has no train program");
        sizes.push_back(measure(subject));
    }
    const Measurement &small = sizes.front();
    const Measurement &big = sizes.back();
    const double growth = big.perOpModel() / small.perOpModel();
    const double baselineGrowth = big.perOpBaseline() / small.perOpBaseline();
    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject();
        json.key("kind").value(kindName);
        json.key("mode").value(mode);
        json.key("sizes").beginArray();
        for (const Measurement &m : sizes) {
            json.beginObject();
            json.key("ops").value(uint64_t(m.ops)).key("nodes").value(uint64_t(m.nodes));
            json.key("edges").value(uint64_t(m.edges)).key("groups").value(uint64_t(m.groups));
            json.key("model_seconds").value(m.modelSeconds).key("baseline_seconds").value(m.baselineSeconds);
            json.key("ratio").value(m.modelSeconds / m.baselineSeconds);
            json.endObject();
        }
        json.endArray();
        json.key("per_op_growth").value(growth).key("baseline_per_op_growth").value(baselineGrowth);
        json.key("target_seconds").value(kTargetSeconds).key("target_ops").value(uint64_t(kTargetOps));
        json.endObject();
        json.finish();
        return 0;
    }
    std::cout << "graph model of a generated " << kindName << " (" << mode
              << ") program, against numbering its values once\n";
    for (const Measurement &m : sizes)
        printSize(m);
    std::cout << "  per-op cost at " << big.ops << " / at " << small.ops << " ops: " << growth
              << " (baseline: " << baselineGrowth << "; 1 is linear)\n";
    std::cout << "  target: " << kTargetSeconds * 1e3 << " ms for " << kTargetOps << " ops\n";
    return 0;
}
