#include "cliarguments.h"
#include "commands.h"
#include "core/io/loadresult.h"
#include "core/io/pirtextformat.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/appendshadowoutputs.h"
#include "core/transform/runnableprogram.h"
#include "jsonstream.h"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <simdjson.h>

namespace {

/// What split runs on: the whole program with names and ranges, and where they came from.
struct SplitSource
{
    std::string kind; ///< "bundle", "train" (names and ranges inferred) or "inference"
    std::unique_ptr<ps::RunnableProgram> runnable;
};

std::vector<std::string> stringList(simdjson::dom::element object, const char *key)
{
    std::vector<std::string> out;
    simdjson::dom::array array;
    if (object[key].get_array().get(array) != simdjson::SUCCESS)
        return out;
    for (simdjson::dom::element e : array) {
        std::string_view s;
        if (e.get_string().get(s) == simdjson::SUCCESS)
            out.emplace_back(s);
    }
    return out;
}

std::optional<ps::OpRange> rangeOf(simdjson::dom::element object, const char *key)
{
    simdjson::dom::array array;
    if (object[key].get_array().get(array) != simdjson::SUCCESS || array.size() != 2)
        return std::nullopt;
    int64_t begin = 0, end = 0;
    if (array.at(0).get_int64().get(begin) != simdjson::SUCCESS
        || array.at(1).get_int64().get(end) != simdjson::SUCCESS)
        return std::nullopt;
    return ps::OpRange { size_t(begin), size_t(end) };
}

/// A trace bundle folder (tools/README.md): its train program with the manifest's names and
/// ranges, or its origin program as inference when the bundle was made in eval mode.
bool bundleSource(const std::filesystem::path &dir, std::optional<ps::PipelineFlavour> flavour,
    SplitSource &out, std::string &error)
{
    simdjson::dom::parser parser;
    simdjson::dom::element manifest;
    if (parser.load((dir / "manifest.json").string()).get(manifest) != simdjson::SUCCESS) {
        error = "cannot read " + (dir / "manifest.json").string();
        return false;
    }
    if (!flavour) {
        std::string_view name = "newest";
        if (manifest["pipeline_flavour"].get_string().get(name) != simdjson::SUCCESS)
            name = "newest";
        flavour = ps::flavourFromName(name).value_or(ps::PipelineFlavour::Newest);
    }
    simdjson::dom::element names;
    const bool train = manifest["train_names"].get(names) == simdjson::SUCCESS
        && std::filesystem::exists(dir / "train_program.txt");
    auto program = loadForCli((dir / (train ? "train_program.txt" : "origin_runnable_program.txt")).string());
    if (!program)
        return false;
    if (!train) {
        out.kind = "inference";
        ps::RunnableProgram::Names n;
        for (const ps::Operation *op : program->block().ops()) {
            if (op->name() == "pd_op.data")
                n.x.push_back(op->stringAttribute("name"));
            else if (op->name() == "builtin.shadow_output")
                n.out.push_back(op->stringAttribute("output_name"));
        }
        out.runnable = std::make_unique<ps::RunnableProgram>(
            std::move(program), std::move(n), std::nullopt, std::nullopt, *flavour);
        return true;
    }
    ps::RunnableProgram::Names n { stringList(names, "x"), stringList(names, "param"),
        stringList(names, "out"), stringList(names, "x_grad"), stringList(names, "param_grad"),
        stringList(names, "out_grad") };
    // The manifest spells the fake value as its Paddle did; another flavour has its own spelling.
    std::string_view fake = "Fake_var";
    if (manifest["fake_value_name"].get_string().get(fake) != simdjson::SUCCESS)
        fake = "Fake_var";
    for (auto *list : { &n.x, &n.param, &n.out, &n.xGrad, &n.paramGrad, &n.outGrad })
        for (std::string &name : *list)
            if (name == fake)
                name = std::string(ps::fakeValueName(*flavour));
    out.kind = "bundle";
    out.runnable = std::make_unique<ps::RunnableProgram>(std::move(program), std::move(n),
        rangeOf(manifest, "forward_range"), rangeOf(manifest, "backward_range"), *flavour);
    return true;
}

/// `stop_gradient:[true]` on the defining data/parameter op: Paddle gives such a value no gradient.
bool stopsGradient(const ps::Value &v)
{
    const ps::Attribute *a = v.definingOp() ? v.definingOp()->attribute("stop_gradient") : nullptr;
    if (!a || a->kind() != ps::Attribute::Kind::Array || a->asArray().empty())
        return false;
    const ps::Attribute &first = a->asArray().front();
    return first.kind() == ps::Attribute::Kind::Bool && first.asBool();
}

bool startsWith(const std::string &s, const char *prefix)
{
    return s.rfind(prefix, 0) == 0;
}

/// A plain program: inputs are `pd_op.data`, parameters `builtin.parameter`, outputs the operands
/// of `builtin.shadow_output`/`pd_op.fetch`. A program in the train layout of `_append_backward`
/// (`grad_input_<k>`/`grad_output_<k>` shadow outputs) gets its ranges from that layout; its
/// gradients are matched in order to the inputs, then the parameters sorted by name (dy2static's
/// order), skipping values with `stop_gradient:[true]` and values of another type. Outputs without a name get
/// `output_<k>` shadow outputs, as PartialProgramLayer adds them.
SplitSource plainSource(std::unique_ptr<ps::Program> program, ps::PipelineFlavour flavour)
{
    ps::Block &block = program->block();
    std::vector<ps::Value> inputs, params, outputs, seeds, grads;
    std::vector<std::pair<std::string, ps::Value>> namedParams;
    std::optional<size_t> forwardEnd, lastSeed, firstGrad;
    for (size_t i = 0; i < block.size(); ++i) {
        const ps::Operation *op = block.op(i);
        const std::string_view name = op->name();
        if (name == "pd_op.data") {
            inputs.push_back(op->result(0));
        } else if (name == "builtin.parameter") {
            namedParams.emplace_back(op->stringAttribute("parameter_name"), op->result(0));
        } else if (name == "builtin.shadow_output") {
            const std::string output = op->stringAttribute("output_name");
            if (startsWith(output, "grad_input_")) {
                seeds.push_back(op->operand(0));
                lastSeed = i;
            } else if (startsWith(output, "grad_output_")) {
                grads.push_back(op->operand(0));
                if (!firstGrad && lastSeed)
                    firstGrad = i;
            } else if (!lastSeed) {
                outputs.push_back(op->operand(0));
                forwardEnd = i + 1;
            }
        } else if (name == "pd_op.fetch" && op->numOperands() == 1) {
            outputs.push_back(op->operand(0));
        }
    }
    const bool train = lastSeed.has_value();
    if (train)
        std::stable_sort(namedParams.begin(), namedParams.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &[name, value] : namedParams)
        params.push_back(value);
    SplitSource source;
    if (!train) {
        ps::appendShadowOutputs(*program, outputs, program->numOps(), "output_");
        source.kind = "inference";
        source.runnable = std::make_unique<ps::RunnableProgram>(ps::RunnableProgram::fromValues(
            std::move(program), inputs, params, outputs, {}, {}, {}, std::nullopt, std::nullopt, flavour));
        return source;
    }
    std::vector<ps::Value> xGrads, pGrads;
    size_t next = 0;
    auto match = [&grads, &next](const std::vector<ps::Value> &values, std::vector<ps::Value> &out) {
        for (const ps::Value &v : values) {
            const bool take = next < grads.size() && grads[next].type() == v.type() && !stopsGradient(v);
            out.push_back(take ? grads[next++] : ps::Value());
        }
    };
    match(inputs, xGrads);
    match(params, pGrads);
    const size_t n = block.size();
    const ps::OpRange forward { 0, forwardEnd.value_or(0) };
    const ps::OpRange backward { *lastSeed + 1, firstGrad.value_or(n) };
    source.kind = "train";
    source.runnable = std::make_unique<ps::RunnableProgram>(ps::RunnableProgram::fromValues(
        std::move(program), inputs, params, outputs, xGrads, pGrads, seeds, forward, backward, flavour));
    return source;
}

std::string bytesText(int64_t bytes)
{
    return bytes < 0 ? std::string("dynamic") : std::to_string(bytes) + " bytes";
}

} // namespace

int runSplit(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "flavour" }, error))
        return cliError(error);
    if (cli.positional().size() != 1)
        return cliError("usage: pirscope-cli split FILE|BUNDLE [--json] [--flavour newest|3.0|seed]");
    std::optional<ps::PipelineFlavour> flavour;
    if (auto f = cli.option("flavour")) {
        flavour = ps::flavourFromName(*f);
        if (!flavour)
            return cliError("unknown flavour '" + *f + "' (newest, 3.0, seed)");
    }
    const std::filesystem::path path = cli.positional()[0];
    SplitSource source;
    if (std::filesystem::is_directory(path)) {
        if (!bundleSource(path, flavour, source, error))
            return error.empty() ? 1 : cliError(error);
    } else {
        auto program = loadForCli(path.string());
        if (!program)
            return 1;
        source = plainSource(std::move(program), flavour.value_or(ps::PipelineFlavour::Newest));
    }
    ps::RunnableProgram &rp = *source.runnable;
    const ps::SplitResult &split = rp.splitForwardBackward();
    const ps::SplitNames &names = rp.programNameAttr();
    const std::vector<std::string> &middleNames = names[ps::SplitKey::Fm];
    int64_t middleBytes = 0;
    size_t dynamicMiddles = 0;
    for (const ps::Value &m : split.middles) {
        const int64_t b = m.type().byteSize();
        if (b < 0)
            ++dynamicMiddles;
        else
            middleBytes += b;
    }
    auto middleName
        = [&middleNames](size_t i) { return i < middleNames.size() ? middleNames[i] : std::string(); };
    auto producer = [](const ps::Value &v) {
        return v.definingOp() ? std::string(v.definingOp()->name()) : std::string("(block argument)");
    };

    if (cli.flag("json")) {
        JsonStream json(std::cout);
        json.beginObject();
        json.key("source").value(path.string());
        json.key("kind").value(source.kind);
        json.key("flavour").value(ps::flavourName(rp.flavour()));
        json.key("forward_range")
            .beginArray()
            .value(rp.forwardRange().begin)
            .value(rp.forwardRange().end)
            .endArray();
        json.key("backward_range")
            .beginArray()
            .value(rp.backwardRange().begin)
            .value(rp.backwardRange().end)
            .endArray();
        json.key("has_backward").value(split.hasBackward);
        json.key("forward").beginObject().key("ops").value(split.forward->numOps());
        json.key("ops_total").value(split.forward->numOpsTotal()).endObject();
        json.key("backward").beginObject().key("ops").value(split.backward->numOps());
        json.key("ops_total").value(split.backward->numOpsTotal());
        json.key("kwargs").value(split.backward->block().numKwargs()).endObject();
        json.key("attributes").beginObject();
        for (ps::SplitKey key : ps::allSplitKeys()) {
            json.key(ps::splitKeyName(key)).beginArray();
            for (const std::string &n : names[key])
                json.value(n);
            json.endArray();
        }
        json.endObject();
        json.key("middles").beginArray();
        for (size_t i = 0; i < split.middles.size(); ++i) {
            const ps::Value &m = split.middles[i];
            json.beginObject().key("name").value(middleName(i));
            json.key("type").value(ps::PirTextFormat::typeText(m.type(), ps::Generation::C));
            json.key("bytes");
            if (m.type().byteSize() < 0)
                json.value("dynamic");
            else
                json.value(m.type().byteSize());
            json.key("defined_by").value(producer(m)).endObject();
        }
        json.endArray();
        json.key("middle_bytes").value(middleBytes);
        json.key("dynamic_middles").value(dynamicMiddles);
        json.key("diagnostics").beginArray();
        for (const std::string &d : rp.diagnostics())
            json.value(d);
        json.endArray().endObject();
        json.finish();
        return 0;
    }

    static const char *const kKinds[][2] = { { "bundle", "trace bundle (manifest names and ranges)" },
        { "train", "train program (names and ranges inferred)" },
        { "inference", "inference program (forward only)" } };
    std::string kindText = source.kind;
    for (const auto &k : kKinds)
        if (source.kind == k[0])
            kindText = k[1];
    std::cout << "split:    " << path.string() << ": " << kindText << ", flavour "
              << ps::flavourName(rp.flavour()) << "\n";
    std::cout << "ranges:   forward [" << rp.forwardRange().begin << ", " << rp.forwardRange().end
              << "), backward [" << rp.backwardRange().begin << ", " << rp.backwardRange().end << ") of "
              << rp.program().numOps() << " ops\n";
    std::cout << "forward:  " << split.forward->numOps() << " ops (" << split.forward->numOpsTotal()
              << " in total)\n";
    std::cout << "backward: " << split.backward->numOps() << " ops (" << split.backward->numOpsTotal()
              << " in total), " << split.backward->block().numKwargs() << " keyword arguments\n";
    std::cout << "attributes:\n";
    for (ps::SplitKey key : ps::allSplitKeys()) {
        std::string line;
        for (const std::string &n : names[key])
            line += (line.empty() ? "" : ", ") + (n.empty() ? std::string("<unnamed>") : n);
        std::cout << "  " << ps::splitKeyName(key) << std::string(16 - ps::splitKeyName(key).size(), ' ')
                  << line << "\n";
    }
    std::cout << "middles:  " << split.middles.size() << ", " << middleBytes << " bytes";
    if (dynamicMiddles)
        std::cout << " + " << dynamicMiddles << " of dynamic size";
    std::cout << "\n";
    for (size_t i = 0; i < split.middles.size(); ++i) {
        const ps::Value &m = split.middles[i];
        std::cout << "  " << middleName(i) << "\t" << ps::PirTextFormat::typeText(m.type(), ps::Generation::C)
                  << "\t" << bytesText(m.type().byteSize()) << "\t" << producer(m) << "\n";
    }
    for (const std::string &d : rp.diagnostics())
        std::cerr << "warning: " << d << "\n";
    return 0;
}
