#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/dialect/ops.h"
#include "core/io/jsonemitter.h"
#include "core/io/numbertext.h"
#include "core/io/paddlerunlog.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/session/runlogmatcher.h"
#include "core/transform/syntheticprogram.h"

#include <cstring>
#include <iostream>
#include <unordered_map>

namespace {

/// A run log as Paddle prints it for `program`: one record per float result of every kernel op,
/// in program order, named by its scope variable (`<prefix>_inner_var_N`).
std::string syntheticLog(const ps::Program &program, size_t records)
{
    std::unordered_map<const ps::ValueImpl *, size_t> index;
    const std::vector<ps::Value> vars = ps::RunLogMatcher::scopeVariables(program);
    for (size_t i = 0; i < vars.size(); ++i)
        index.emplace(vars[i].impl(), i);
    std::string text;
    size_t written = 0;
    for (const ps::Operation *op : program.block().ops()) {
        if (op->name().starts_with("builtin.") || ps::ops::isData(*op))
            continue;
        for (unsigned r = 0; r < op->numResults() && written < records; ++r, ++written) {
            text += "[PRECISION] in [device=cpu, op=";
            text += op->name().substr(op->name().find('.') + 1);
            text += ", tensor=0x55695b6659901796412407662864882_inner_var_"
                + std::to_string(index[op->result(r).impl()]);
            text += ", dtype=fp32], numel=2048, num_zero=0, max=2.050777e+00, min=-2.187821e+00, "
                    "mean=3.122877e-02\n";
        }
    }
    return text;
}

} // namespace

int runBenchRunLog(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json" }, { "records" }, error))
        return cliError(error);
    if (!cli.positional().empty())
        return cliError("usage: pirscope-cli bench runlog [--records N] [--json]");
    const std::optional<uint64_t> records
        = ps::NumberText::parseUnsigned(cli.option("records").value_or("100000"), 10'000'000, error);
    if (!records || *records == 0)
        return cliError("--records: " + (error.empty() ? std::string("at least 1") : error));

    // One record per op result of an MLP (8 ops a layer) with as many result-making ops as records.
    ps::SyntheticProgram::Model model
        = ps::SyntheticProgram::ofSize(ps::SyntheticProgram::Kind::Mlp, size_t(*records) * 3 / 2);
    const std::string text = syntheticLog(*model.program, size_t(*records));
    const auto file = ps::MappedFile::fromString(text, "bench.log");

    size_t lines = 0;
    const double scan = bestOf([&] {
        lines = 0;
        for (const char *p = text.data(), *end = p + text.size();
             (p = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)))); ++p)
            ++lines;
    });
    std::shared_ptr<const ps::PaddleRunLog> log;
    const double index = bestOf([&] { log = ps::PaddleRunLog::fromFiles("bench.log", { file }); });
    ps::RunLogMatcher::Result result;
    double build = 0;
    const double match = bestOf([&] {
        const auto t0 = std::chrono::steady_clock::now();
        ps::RunLogMatcher matcher({ { "fwd", model.program.get() } });
        build = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        result = matcher.match(*log);
    });
    const double mb = double(text.size()) / 1e6;
    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject()
            .key("records")
            .value(uint64_t(log->records.size()))
            .key("bytes")
            .value(uint64_t(text.size()));
        json.key("program_ops")
            .value(uint64_t(model.program->numOps()))
            .key("matched")
            .value(uint64_t(result.matched));
        json.key("scan_seconds")
            .value(scan)
            .key("index_seconds")
            .value(index)
            .key("match_seconds")
            .value(match);
        json.key("ratio_index_to_scan").value(scan / index).endObject();
        json.finish();
        return 0;
    }
    std::cout << "run log: " << log->records.size() << " records (" << mb << " MB) against a "
              << model.program->numOps() << "-op program, " << result.matched << " matched\n";
    std::cout << "  bare line scan:   " << scan * 1e3 << " ms (" << mb / scan << " MB/s, " << lines
              << " lines)\n";
    std::cout << "  index records:    " << index * 1e3 << " ms (" << mb / index << " MB/s, "
              << double(log->records.size()) / index / 1e6 << " M records/s)\n";
    std::cout << "  match to program: " << match * 1e3 << " ms (of which indexing the program " << build * 1e3
              << " ms; " << double(log->records.size()) / match / 1e6 << " M records/s)\n";
    std::cout << "  ratio (index / bare scan): " << scan / index << "\n";
    return 0;
}
