#pragma once

#include <memory>
#include <string>
#include <vector>

namespace ps {
class DiagnosticList;
class Program;
struct LoadResult;
struct PipelineSource;
} // namespace ps

/// Subcommands of pirscope-cli. Each takes the arguments after its name and returns the
/// process exit code: 0 on success, 1 on a user error (message `error: ...` on stderr).
int runInfo(const std::vector<std::string> &args);
int runPrint(const std::vector<std::string> &args);
int runNames(const std::vector<std::string> &args);
int runInplace(const std::vector<std::string> &args);
int runDot(const std::vector<std::string> &args);
int runVerify(const std::vector<std::string> &args);
int runBench(const std::vector<std::string> &args);
int runSplit(const std::vector<std::string> &args);
int runCompare(const std::vector<std::string> &args);
int runPasses(const std::vector<std::string> &args);
int runRun(const std::vector<std::string> &args);
int runPassLog(const std::vector<std::string> &args);
int runReduce(const std::vector<std::string> &args);
int runMemory(const std::vector<std::string> &args);
/// `bench pipeline ...` and `bench run ...`: the arguments after the bench subcommand.
int runBenchPipeline(const std::vector<std::string> &args);
int runBenchRun(const std::vector<std::string> &args);
int runBenchOpen(const std::vector<std::string> &args);
/// `render FILE --out ...` and `bench layout ...` (app/cli/render/, built with the GUI libraries;
/// without them they report which build they need).
int runRender(const std::vector<std::string> &args);
int runBenchLayout(const std::vector<std::string> &args);
int runBenchPassLog(const std::vector<std::string> &args);
/// `bench runlog [--records N]`: indexing and matching a synthetic Paddle run log.
int runBenchRunLog(const std::vector<std::string> &args);
int runBenchMemory(const std::vector<std::string> &args);
int runBenchShapes(const std::vector<std::string> &args);
/// `bench graph [--ops N]`: the graph model of generated programs of N/5 and N ops.
int runBenchGraph(const std::vector<std::string> &args);

/// What loadForCli asks of a program beyond being readable.
enum class LoadCheck {
    /// verifyBeforeUse: for commands that run, pass, draw, name or diff the program.
    Verified,
    /// None: `print` and `info` show a malformed program as it is.
    Readable,
};
/// Loads `path`, printing every diagnostic to stderr; nullptr (after an `error:` line) when the
/// program could not be read or (LoadCheck::Verified) the verifier finds errors in it.
std::unique_ptr<ps::Program> loadForCli(
    const std::string &path, ps::LoadResult *result = nullptr, LoadCheck check = LoadCheck::Verified);
/// Opens a program file or trace bundle with core/session's PipelineSource::open (the GUI's
/// path), printing every diagnostic to stderr; nullptr (after an `error:` line) on failure.
std::shared_ptr<const ps::PipelineSource> openForCli(const std::string &path);
/// Each diagnostic on its own stderr line.
void printDiagnostics(const ps::DiagnosticList &diagnostics);
/// Prints `error: message` to stderr and returns 1.
int cliError(const std::string &message);
