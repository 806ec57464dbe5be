#include "cliarguments.h"
#include "commands.h"
#include "core/io/loadresult.h"
#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirtextformat.h"
#include "core/ir/program.h"
#include "core/transform/programroles.h"
#include "core/transform/runnableprogram.h"
#include "jsonstream.h"

#include <filesystem>
#include <iostream>

namespace {

/// What split runs on: the whole program with names and ranges, and where they came from.
struct SplitSource
{
    std::string kind; ///< "bundle", "train" (names and ranges inferred) or "inference"
    std::unique_ptr<ps::RunnableProgram> runnable;
};

/// A trace bundle (its folder or manifest.json, tools/README.md): Paddle's train program with the
/// manifest's names and ranges, or its origin runnable program as inference when the bundle was
/// made in eval mode.
bool bundleSource(
    const std::string &path, std::optional<ps::PipelineFlavour> flavour, SplitSource &out, std::string &error)
{
    ps::DiagnosticList diagnostics;
    std::unique_ptr<ps::TraceBundle> bundle = ps::TraceBundle::open(path, diagnostics);
    if (!bundle) {
        const ps::Diagnostic *first = diagnostics.firstError();
        error = first ? first->toString() : "cannot read " + path;
        return false;
    }
    const ps::PipelineFlavour f = flavour.value_or(bundle->flavour());
    const std::filesystem::path dir = bundle->dir();
    const bool train = bundle->trainNames() && std::filesystem::exists(dir / "train_program.txt");
    auto program = loadForCli((dir / (train ? "train_program.txt" : "origin_runnable_program.txt")).string());
    if (!program)
        return false;
    if (train) {
        out.kind = "bundle";
        out.runnable
            = std::make_unique<ps::RunnableProgram>(bundle->paddleTrainProgram(std::move(program), f));
        return true;
    }
    out.kind = "inference";
    ps::RunnableProgram::Names n;
    for (const ps::Operation *op : program->block().ops()) {
        if (op->name() == "pd_op.data")
            n.x.push_back(op->stringAttribute("name"));
        else if (op->name() == "builtin.shadow_output")
            n.out.push_back(op->stringAttribute("output_name"));
    }
    out.runnable = std::make_unique<ps::RunnableProgram>(
        std::move(program), std::move(n), std::nullopt, std::nullopt, f);
    return true;
}

/// A plain program (ps::ProgramRoles::runnable): a program in the train layout of
/// `_append_backward` gets its ranges and gradients from that layout; any other program is
/// the forward of an inference split.
SplitSource plainSource(std::unique_ptr<ps::Program> program, ps::PipelineFlavour flavour)
{
    SplitSource source;
    bool train = false;
    source.runnable = std::make_unique<ps::RunnableProgram>(
        ps::ProgramRoles::runnable(std::move(program), flavour, &train));
    source.kind = train ? "train" : "inference";
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
    if (ps::TraceBundle::isBundlePath(path.string())) {
        if (!bundleSource(path.string(), flavour, source, error))
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
