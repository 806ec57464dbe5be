#include "app/allocatortuning.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/analysis/inplacegroups.h"
#include "core/io/jsonemitter.h"
#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/irmapping.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/ir/shapesize.h"
#include "core/ir/valuenumbering.h"
#include "core/session/inputshapes.h"
#include "core/session/passsession.h"
#include "core/session/pathkind.h"
#include "core/session/pipelinesource.h"
#include "core/transform/appendshadowoutputs.h"
#include "core/transform/passirprinter.h"
#include "core/transform/passmanager.h"
#include "core/transform/passpipeline.h"
#include "core/transform/passregistry.h"
#include "core/transform/passtimelinerecorder.h"
#include "runsource.h"
#include "trainmode.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <sstream>
#include <unordered_set>

namespace {

const char *kUsage
    = "usage: pirscope-cli passes FILE|BUNDLE_DIR [--pipeline NAME] [--place cpu|gpu] [--enable a,b] "
      "[--disable c] [--json] [--all] [--print] [--print-ir] [--check-numerics] [--inputs SRC] [--params "
      "SRC] "
      "[--seed N] "
      "[--shape NAME=DIMS]... [--mode train|infer [--output ID]...] | --list\n"
      "       pirscope-cli passes LOG|DUMP_DIR [passlog options]  (a Paddle pass log: see passlog)\n"
      "FILE is a program (PIR JSON or text); BUNDLE_DIR a trace bundle (folder or its manifest.json):\n"
      "the passes run on its program, checked on its inputs/ and params/ unless --inputs/--params say\n"
      "otherwise.";

std::vector<std::string> splitList(const std::string &list)
{
    std::vector<std::string> out;
    std::istringstream in(list);
    std::string item;
    while (std::getline(in, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

std::string passList(const ps::PassManager &pm)
{
    std::string out;
    for (const ps::Pass *p : pm.passes())
        out += std::string(out.empty() ? "" : ", ") + std::string(p->name())
            + (p->alias() != p->name() ? " (" + std::string(p->alias()) + ")" : std::string());
    return out;
}

void printOps(const char *sign, const std::vector<std::string> &ops, size_t limit)
{
    for (size_t i = 0; i < ops.size() && i < limit; ++i)
        std::cout << "    " << sign << " " << ops[i] << "\n";
    if (ops.size() > limit)
        std::cout << "    " << sign << " ... " << ops.size() - limit << " more (--all shows them)\n";
}

void listPasses()
{
    const ps::PassManager defaults = ps::PassManager::withDefaultPasses();
    std::cout << "passes (Paddle name, alias, on by default, what it does):\n";
    for (const std::string &name : ps::PassRegistry::implementedNames()) {
        const auto pass = ps::PassRegistry::create(name);
        std::cout << pass->name() << "\t" << pass->alias() << "\t"
                  << (defaults.isEnabled(name) ? "on" : "off") << "\t" << pass->description() << "\n";
    }
    std::cout << "\npipelines (--pipeline NAME; passes marked * are listed but not implemented):\n";
    for (const ps::PassPipeline::Info &p : ps::PassPipeline::pipelines()) {
        std::cout << p.name << "\t" << p.description << "\n   ";
        const std::optional<std::vector<std::string>> names = ps::PassPipeline::passNames(p.name);
        for (const std::string &name : *names)
            std::cout << " " << name << (ps::PassRegistry::isImplemented(name) ? "" : "*");
        std::cout << "\n";
    }
}

/// `--place cpu|gpu`: nullopt when absent (the pipeline's own place), false with `error` when
/// it names something else.
bool placeOption(const CliArguments &cli, std::optional<ps::Place::AllocType> &place, std::string &error)
{
    const std::optional<std::string> text = cli.option("place");
    if (!text)
        return true;
    if (*text == "cpu" || *text == "gpu") {
        place = *text == "cpu" ? ps::Place::AllocType::Cpu : ps::Place::AllocType::Gpu;
        return true;
    }
    error = "--place needs cpu or gpu, got '" + *text + "'";
    return false;
}

/// Why `--disable name` cannot switch a pass off in `pm`.
std::string notInPipeline(const std::string &name, const ps::PassManager &pm)
{
    const std::string canonical = ps::PassRegistry::canonicalName(name);
    if (canonical.empty())
        return "unknown pass '" + name + "'; passes in this pipeline: " + passList(pm);
    return "--disable " + name + ": pass " + canonical
        + " is not in this pipeline; the pipeline has: " + passList(pm);
}

/// The manager the options ask for: a named pipeline, then `--enable` (switches a pass of the
/// list on, appends any other pass in the order given) and `--disable`. Without `--pipeline`,
/// `--enable a,b` is the pipeline (exactly a then b); with neither, dy2static's default passes.
/// `--place` sets the place of the pipeline and of every pass.
std::optional<ps::PassManager> buildManager(
    const CliArguments &cli, ps::PassOptions options, std::string &error)
{
    std::optional<ps::Place::AllocType> place;
    if (!placeOption(cli, place, error))
        return std::nullopt;
    const std::optional<std::string> pipeline = cli.option("pipeline");
    if (pipeline)
        place = place.value_or(ps::PassPipeline::defaultPlace(*pipeline));
    if (place)
        options.place = ps::Place { *place, 0, {} };
    std::optional<ps::PassManager> pm;
    if (pipeline)
        pm = ps::PassPipeline::build(*pipeline, options, error, place);
    else if (cli.option("enable"))
        pm.emplace();
    else
        pm = ps::PassManager::withDefaultPasses();
    if (!pm)
        return std::nullopt;
    for (const std::string &name : splitList(cli.option("enable").value_or(std::string()))) {
        if (pm->setEnabled(name, true))
            continue;
        std::unique_ptr<ps::Pass> pass = ps::PassRegistry::create(name, options);
        if (!pass) {
            std::string known;
            for (const std::string &n : ps::PassRegistry::implementedNames())
                known += " " + n;
            error = "unknown pass '" + name + "'; passes:" + known;
            return std::nullopt;
        }
        pm->addPass(std::move(pass));
    }
    for (const std::string &name : splitList(cli.option("disable").value_or(std::string()))) {
        if (!pm->setEnabled(name, false)) {
            error = notInPipeline(name, *pm);
            return std::nullopt;
        }
    }
    return pm;
}

/// The inplace groups (core/analysis) of the program after an inplace_pass step that hold an op
/// the pass made `_`: "%2 %3 %4" per group, members in program order.
std::vector<std::string> newInplaceGroups(const ps::PassTimelineStep &step)
{
    std::vector<std::string> out;
    if (step.pass != "inplace_pass" || !step.after || step.addedOps.empty())
        return out;
    const std::shared_ptr<const ps::LoadedProgram> after = step.after->load();
    if (!after->program)
        return out;
    const std::vector<const ps::Operation *> ops = after->program->allOps();
    std::unordered_set<const ps::Operation *> added;
    for (const ps::PassOpRef &ref : step.addedOps)
        if (ref.index < ops.size())
            added.insert(ops[ref.index]);
    const ps::InplaceGroups groups(*after->program);
    const ps::ValueNumbering numbering(*after->program);
    for (const ps::InplaceGroup &g : groups.groups()) {
        const bool touched = std::any_of(
            g.edges.begin(), g.edges.end(), [&](const ps::InplaceEdge &e) { return added.count(e.op) != 0; });
        if (!touched)
            continue;
        std::string members;
        for (const ps::Value &v : g.members)
            members += (members.empty() ? "" : " ") + numbering.name(v);
        out.push_back(members);
    }
    return out;
}

/// An element's value: a number, or "inf" / "-inf" / "nan" (a float16 overflow shows as such).
void writeElement(ps::JsonEmitter &json, double v)
{
    if (std::isfinite(v))
        json.value(v);
    else
        json.value(std::string(std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf"));
}

void writeNumerics(ps::JsonEmitter &json, const ps::PassNumerics &n)
{
    json.key("numerics").beginObject();
    json.key("checked").value(n.checked);
    if (!n.skipped.empty())
        json.key("skipped").value(n.skipped);
    json.key("max_abs").value(n.maxAbs);
    json.key("max_rel").value(n.maxRel);
    json.key("worst_value").value(n.worstValue);
    // A check that did not run (a program that does not run, an unchanged program, a pass not
    // implemented) is neither ok nor failed: null, with `skipped` saying why.
    if (n.checked)
        json.key("ok").value(n.ok);
    else
        json.key("ok").null();
    json.key("rtol").value(n.rtol);
    json.key("atol").value(n.atol);
    json.key("low_precision").value(n.lowPrecision);
    json.key("values_compared").value(n.valuesCompared);
    json.key("values_outside_tolerance").value(n.valuesOutsideTolerance);
    json.key("peak_bytes").value(n.peakBytes);
    json.key("run_peak_bytes").value(n.runPeakBytes);
    json.key("outputs").beginArray();
    for (const ps::ValueNumerics &o : n.outputs) {
        json.beginObject();
        json.key("name").value(o.value);
        json.key("max_abs").value(o.maxAbs);
        json.key("max_rel").value(o.maxRel);
        json.key("ok").value(o.ok);
        json.key("order_sensitive").value(o.orderSensitive);
        json.endObject();
    }
    json.endArray();
    const ps::PassNumerics::OrderSensitive &o = n.orderSensitive;
    json.key("order_sensitive").beginObject();
    json.key("values").value(o.values);
    json.key("mismatches").value(o.mismatches);
    json.key("max_abs").value(o.maxAbs);
    json.key("max_rel").value(o.maxRel);
    json.key("worst_value").value(o.worstValue);
    json.key("selections").beginArray();
    for (const std::string &s : o.selections)
        json.value(s);
    json.endArray();
    json.key("selection_input_max_abs").value(o.inputMaxAbs);
    json.key("selection_input_max_rel").value(o.inputMaxRel);
    json.endObject();
    json.key("beyond_tolerance").beginArray();
    for (const ps::ValueNumerics &v : n.beyondTolerance) {
        json.beginObject();
        json.key("value").value(v.value);
        json.key("op").value(v.op);
        json.key("max_abs").value(v.maxAbs);
        json.key("max_rel").value(v.maxRel);
        json.key("mismatches").value(v.mismatches);
        json.key("worst_index").value(v.worstIndex);
        writeElement(json.key("worst_actual"), v.worstActual);
        writeElement(json.key("worst_expected"), v.worstExpected);
        json.key("order_sensitive").value(v.orderSensitive);
        json.endObject();
    }
    json.endArray().endObject();
}

void writeJson(const std::vector<ps::PassTimelineStep> &steps, const ps::PassNumericsCheck *numerics,
    const ps::Program *printed)
{
    ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
    json.beginObject().key("passes").beginArray();
    for (size_t i = 0; i < steps.size(); ++i) {
        const ps::PassTimelineStep &step = steps[i];
        json.beginObject();
        json.key("pass").value(step.pass);
        json.key("implemented").value(step.implemented);
        json.key("changed").value(step.changed());
        // A pass that is not implemented did not run: no rewrites, no time.
        json.key("rewrites").value(size_t(std::max(step.rewrites, 0L)));
        json.key("seconds").value(std::max(step.seconds, 0.0));
        json.key("ops_before").value(step.opsBefore());
        json.key("ops_after").value(step.opsAfter());
        json.key("removed").value(step.removedOps.size());
        json.key("added").value(step.addedOps.size());
        json.key("modified").value(step.modifiedOps.size());
        json.key("notes").beginArray();
        for (const std::string &note : step.notes)
            json.value(note);
        json.endArray();
        if (step.pass == "inplace_pass") {
            json.key("inplace_groups").beginArray();
            for (const std::string &g : newInplaceGroups(step))
                json.value(g);
            json.endArray();
        }
        json.key("removed_ops").beginArray();
        for (const std::string &op : step.removedOpTexts())
            json.value(op);
        json.endArray().key("added_ops").beginArray();
        for (const std::string &op : step.addedOpTexts())
            json.value(op);
        json.endArray().key("modified_ops").beginArray();
        for (const std::string &op : step.modifiedOpTexts())
            json.value(op);
        json.endArray();
        if (numerics && i < numerics->results().size())
            writeNumerics(json, numerics->results()[i]);
        json.endObject();
    }
    json.endArray();
    if (numerics) {
        json.key("numerics_baseline_error").value(numerics->baselineError());
        json.key("numerics_peak_bytes").value(numerics->peakBytes());
        json.key("numerics_run_peak_bytes").value(numerics->runPeakBytes());
        json.key("numerics_input_shapes").beginObject();
        for (const auto &[name, dims] : numerics->options().inputShapes) {
            json.key(name).beginArray();
            for (int64_t d : dims)
                json.value(d);
            json.endArray();
        }
        json.endObject();
    }
    if (printed)
        json.key("program").value(ps::PirPrinter::toString(*printed));
    json.endObject();
    json.finish();
}

void printNumerics(const ps::PassNumerics &n)
{
    std::cout << "    numerics: ";
    if (!n.checked) {
        std::cout << "not checked (" << n.skipped << ")\n";
        return;
    }
    if (!n.skipped.empty()) {
        std::cout << n.skipped << "\n";
        return;
    }
    std::cout << "max abs " << n.maxAbs << ", max rel " << n.maxRel << " (worst " << n.worstValue << ", "
              << n.valuesCompared << " values), " << (n.ok ? "within" : "BEYOND") << " rtol " << n.rtol
              << " atol " << n.atol << (n.lowPrecision ? " (low precision: error expected)" : "") << "; held "
              << ps::ShapeSize::formatBytes(uint64_t(n.peakBytes)) << ", a run "
              << ps::ShapeSize::formatBytes(uint64_t(n.runPeakBytes)) << "\n";
    const ps::PassNumerics::OrderSensitive &o = n.orderSensitive;
    if (o.values == 0)
        return;
    std::string selections;
    for (const std::string &s : o.selections)
        selections += (selections.empty() ? "" : ", ") + s;
    std::cout << "    order-sensitive (not a failure): " << o.values << " values, " << o.mismatches
              << " elements differ (max abs " << o.maxAbs << ", worst " << o.worstValue
              << ") after near ties flipped in " << selections
              << "; their float inputs within tolerance (max abs " << o.inputMaxAbs << ", max rel "
              << o.inputMaxRel << ")\n";
}

void writeText(
    const std::vector<ps::PassTimelineStep> &steps, const ps::PassNumericsCheck *numerics, size_t limit)
{
    for (size_t i = 0; i < steps.size(); ++i) {
        const ps::PassTimelineStep &step = steps[i];
        std::cout << step.pass << ": ";
        if (!step.implemented) {
            std::cout << "not run (not implemented in PIRScope)\n";
            continue;
        }
        if (!step.changed()) {
            std::cout << "no change (" << step.opsBefore() << " ops)\n";
            for (const std::string &note : step.notes)
                std::cout << "    note: " << note << "\n";
            continue;
        }
        std::cout << step.rewrites << " rewrites, ops " << step.opsBefore() << " -> " << step.opsAfter()
                  << " (-" << step.removedOps.size() << " +" << step.addedOps.size() << " ~"
                  << step.modifiedOps.size() << ")\n";
        printOps("-", step.removedOpTexts(), limit);
        printOps("+", step.addedOpTexts(), limit);
        printOps("~", step.modifiedOpTexts(), limit);
        for (const std::string &group : newInplaceGroups(step))
            std::cout << "    inplace group: " << group << "\n";
        for (const std::string &note : step.notes)
            std::cout << "    note: " << note << "\n";
        if (numerics && i < numerics->results().size())
            printNumerics(numerics->results()[i]);
    }
}

/// Whether a pass that does not compute in low precision went beyond the tolerance.
bool beyondTolerance(const ps::PassNumericsCheck &numerics)
{
    for (const ps::PassNumerics &n : numerics.results())
        if (n.checked && !n.ok && !n.lowPrecision)
            return true;
    return false;
}

} // namespace

int runPasses(const std::vector<std::string> &args)
{
    // A Paddle pass log (FLAGS_print_ir) or a folder of per-pass dumps: its timeline, as passlog.
    if (!args.empty() && !args[0].starts_with("-") && ps::opensAsTimeline(ps::classifyPath(args[0])))
        return runPassLog(args);
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json", "all", "print", "print-ir", "list", "check-numerics" },
            { "pipeline", "place", "enable", "disable", "inputs", "image-norm", "params", "seed", "mode",
                "output", "shape" },
            error))
        return cliError(error);
    if (cli.flag("list")) {
        listPasses();
        return 0;
    }
    if (cli.positional().size() != 1)
        return cliError(kUsage);
    bool train = false;
    if (!trainModeOption(cli, train, error))
        return cliError(error);
    // A trace bundle opens as run, split and verify open it (core/session); the passes run on a
    // copy of its origin program with the manifest's outputs as `output_<k>` shadow outputs (as
    // Paddle's origin_runnable_program has them), so DCE keeps what the layer returns.
    const std::string &path = cli.positional()[0];
    std::shared_ptr<const ps::TraceBundle> bundle;
    std::unique_ptr<ps::Program> program;
    if (ps::classifyPath(path) == ps::PathKind::TraceBundle) {
        const std::shared_ptr<const ps::PipelineSource> source = openForCli(path);
        if (!source)
            return 1;
        bundle = source->bundle;
        ps::IrMapping mapping;
        program = source->origin->clone(&mapping);
        std::vector<ps::Value> outputs;
        for (const ps::Value &v : source->roles.outputValues())
            outputs.push_back(mapping.lookup(v));
        ps::appendShadowOutputs(*program, outputs, program->numOps(), "output_");
    } else {
        program = loadForCli(path);
    }
    if (!program)
        return 1;
    if (train) { // the passes run on the whole train program: gradients are outputs too
        std::optional<ps::RunnableProgram> whole
            = plainTrainProgram(*program, ps::PipelineFlavour::Newest, outputOptions(cli), error);
        if (!whole)
            return cliError(error);
        program = whole->takeProgram();
    }

    // Parameters: when given or for the numeric check, constant_folding_pass computes its
    // values over them and the check runs every program on them.
    ps::PassSession session;
    ps::ProgramRunner::Options sources;
    sources.inputs
        = bundle ? ps::TensorSource::npyDirectory(bundle->filePath("inputs")) : ps::TensorSource::random(0);
    sources.params
        = bundle ? ps::TensorSource::npyDirectory(bundle->filePath("params")) : ps::TensorSource::random(0);
    if (!applySourceOptions(cli, sources, error))
        return cliError(error);
    if ((cli.flag("check-numerics") || cli.option("params"))
        && !session.loadParameters(*program, sources.params, error))
        return cliError("--params: " + error);
    std::optional<ps::PassManager> pm = buildManager(cli, session.passOptions(), error);
    if (!pm)
        return cliError(error);
    auto recorder = std::make_shared<ps::PassTimelineRecorder>();
    pm->addInstrumentation(recorder);
    std::shared_ptr<ps::PassNumericsCheck> numerics;
    if (cli.flag("check-numerics")) {
        decommitPromptly();
        ps::PassNumericsCheck::Options options;
        options.inputs = sources.inputs;
        // --shape NAME=DIMS gives an input with dynamic dims its shape (as for run); the dynamic
        // dims of other inputs are 1, which keeps the check fast but small.
        std::map<std::string, std::vector<int64_t>> chosen;
        for (const std::string &text : cli.options("shape")) {
            auto assignment = ps::InputShapes::parseAssignment(text, error);
            if (!assignment)
                return cliError("--shape " + error);
            chosen[assignment->first] = assignment->second;
        }
        std::vector<std::string> errors;
        for (const ps::InputShape &s : ps::InputShapes::resolve(*program, chosen, nullptr, errors))
            if (s.origin == ps::InputShape::Origin::Chosen)
                options.inputShapes[s.name] = s.shape;
        if (!errors.empty())
            return cliError("--shape " + errors.front());
        numerics = session.numericsCheck(std::move(options));
        pm->addInstrumentation(numerics);
    }
    if (cli.flag("print-ir")) // Paddle's FLAGS_print_ir text, on stderr so --json stays parseable
        pm->addInstrumentation(std::make_shared<ps::PassIrPrinter>(std::cerr));
    pm->run(*program);
    const ps::PassTimeline timeline(recorder->takeSteps(), "pass manager");
    const std::vector<ps::PassTimelineStep> &steps = timeline.steps();
    // A check cut short by --max-ops or the budget checked nothing: an error, after the report.
    const bool bounded = numerics && !numerics->boundedError().empty();
    const int status = bounded ? 1 : numerics && beyondTolerance(*numerics) ? 2 : 0;

    if (cli.flag("json")) {
        writeJson(steps, numerics.get(), cli.flag("print") ? program.get() : nullptr);
        return bounded ? cliError("--check-numerics: " + numerics->boundedError()) : status;
    }
    if (numerics && !numerics->baselineError().empty())
        std::cout << "numerics: the program does not run before the passes: " << numerics->baselineError()
                  << "\n";
    if (steps.empty())
        std::cout << "no pass enabled; passes: " << passList(*pm) << "\n";
    writeText(steps, numerics.get(), cli.flag("all") ? size_t(-1) : 10);
    if (numerics)
        std::cout << "numerics: the check held at most "
                  << ps::ShapeSize::formatBytes(uint64_t(numerics->peakBytes()))
                  << " (one run alone: " << ps::ShapeSize::formatBytes(uint64_t(numerics->runPeakBytes()))
                  << ")\n";
    if (cli.flag("print"))
        ps::PirPrinter::print(*program, std::cout);
    return bounded ? cliError("--check-numerics: " + numerics->boundedError()) : status;
}
