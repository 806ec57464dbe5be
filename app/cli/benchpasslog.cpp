#include "benchtiming.h"
#include "cliarguments.h"
#include "commands.h"
#include "core/io/jsonemitter.h"
#include "core/io/numbertext.h"
#include "core/io/paddlepasslog.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/transform/passtimeline.h"
#include "core/transform/syntheticprogram.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <pthread.h>
#include <signal.h>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace {

/// The largest log `--mb` generates, and the free space it leaves on the temporary folder's disk.
constexpr uint64_t kMaxMegabytes = 4000;
constexpr uint64_t kMaxOps = 1'000'000;
constexpr uint64_t kSpareBytes = uint64_t(1) << 30;

/// The generated log, removed by ~GeneratedLog on a normal return or an exception and by
/// removeOnSignal on SIGINT, SIGTERM or SIGHUP (the path is kept in a static buffer the handler
/// can read).
char g_generatedPath[4096];

extern "C" void removeOnSignal(int signal)
{
    if (g_generatedPath[0])
        ::unlink(g_generatedPath);
    std::signal(signal, SIG_DFL);
    std::raise(signal);
}

/// SIGINT, SIGTERM and SIGHUP held back while the handler's path and the file disagree.
class SignalsHeld
{
public:
    SignalsHeld()
    {
        sigset_t set;
        sigemptyset(&set);
        for (int s : kSignals)
            sigaddset(&set, s);
        pthread_sigmask(SIG_BLOCK, &set, &m_old);
    }
    ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &m_old, nullptr); }
    static constexpr int kSignals[] = { SIGINT, SIGTERM, SIGHUP };

private:
    sigset_t m_old;
};

class GeneratedLog
{
public:
    /// Creates an empty, new file in the temporary folder (mkstemps: never an existing file or
    /// link); false with `error` set when that fails.
    bool create(std::string &error)
    {
        const std::string pattern
            = (std::filesystem::temp_directory_path() / "pirscope-bench-XXXXXX.log").string();
        if (pattern.size() >= sizeof g_generatedPath) {
            error = "the temporary folder's path is too long";
            return false;
        }
        std::vector<char> name(pattern.begin(), pattern.end());
        name.push_back('\0');
        const SignalsHeld held;
        m_fd = ::mkstemps(name.data(), 4);
        if (m_fd < 0) {
            error = "cannot create a temporary log in " + pattern + ": " + std::strerror(errno);
            return false;
        }
        m_path = name.data();
        std::memcpy(g_generatedPath, m_path.c_str(), m_path.size() + 1);
        for (int s : SignalsHeld::kSignals)
            std::signal(s, removeOnSignal);
        return true;
    }
    /// The file stays (--keep) unless a signal ends the run.
    void keep() { m_keep = true; }
    int fd() const { return m_fd; }
    const std::string &path() const { return m_path; }
    void closeFile()
    {
        if (m_fd >= 0)
            ::close(m_fd);
        m_fd = -1;
    }
    ~GeneratedLog()
    {
        closeFile();
        if (m_path.empty())
            return;
        const SignalsHeld held;
        if (!m_keep)
            ::unlink(m_path.c_str());
        g_generatedPath[0] = '\0';
        for (int s : SignalsHeld::kSignals)
            std::signal(s, SIG_DFL);
    }

private:
    int m_fd = -1;
    std::string m_path;
    bool m_keep = false;
};

/// Writes all of `text` to `fd`; throws naming `path` on an error (a full disk).
void writeAll(int fd, const std::string &path, const std::string &text)
{
    for (size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        done += size_t(n);
    }
}

void banner(std::ostream &out, const char *when, const std::string &pass)
{
    const std::string text = std::string("IRPrinting on builtin.module ") + when + " " + pass + " pass";
    const std::string rule = "===" + std::string(text.size() + 16, '-') + "===";
    out << rule << "\n        " << text << "\n" << rule << "\n";
}

/// Writes a log of about `megabytes` MB in the layout FLAGS_print_ir gives: IRPrinting banners
/// around a synthetic transformer of about `ops` ops, where every fourth pass adds a dead
/// `pd_op.exp` and the next one (dead_code_elimination_pass) removes it again, with glog's
/// `Running PIR pass` and `detected` lines between. Returns the bytes written.
size_t writeLog(int fd, const std::string &path, size_t megabytes, size_t ops)
{
    ps::SyntheticProgram::Model model
        = ps::SyntheticProgram::ofSize(ps::SyntheticProgram::Kind::Transformer, ops);
    const std::string plain = ps::PirPrinter::toString(*model.program);
    ps::Value input = model.inputs.front();
    ps::Operation *dead = ps::Operation::create(model.program->arena(), "pd_op.exp", { &input, 1 },
        std::vector<ps::Type> { input.type() },
        { { "stop_gradient", ps::Attribute::array({ ps::Attribute::boolean(false) }) } });
    model.program->block().push_back(dead);
    const std::string withDead = ps::PirPrinter::toString(*model.program);

    size_t written = 0;
    for (size_t pass = 0; written < megabytes * 1000000; ++pass) {
        const bool adds = pass % 4 == 2;
        const bool removes = pass % 4 == 3;
        const std::string name = adds ? "add_dead_exp_pass"
            : removes                 ? "dead_code_elimination_pass"
                                      : "identity_pass_" + std::to_string(pass);
        std::ostringstream step;
        step << "\x1b[1m\x1b[35m--- Running PIR pass [" << name << "]\x1b[0m\n";
        banner(step, "before", name);
        step << (removes ? withDead : plain) << "\n\n";
        banner(step, "after", name);
        step << (adds ? withDead : plain) << "\n\n";
        if (adds || removes)
            step << "I0101 00:00:00.000000  1234 print_statistics.cc:50] --- detected [1] subgraphs!\n";
        const std::string text = step.str();
        writeAll(fd, path, text);
        written += text.size();
    }
    return written;
}

std::string readWhole(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::string bytes;
    in.seekg(0, std::ios::end);
    bytes.resize(size_t(in.tellg()));
    in.seekg(0);
    in.read(bytes.data(), std::streamsize(bytes.size()));
    return bytes;
}

} // namespace

int runBenchPassLog(const std::vector<std::string> &args)
{
    CliArguments cli;
    std::string error;
    if (!cli.parse(args, { "json", "keep" }, { "mb", "ops" }, error))
        return cliError(error);
    if (cli.positional().size() > 1)
        return cliError("usage: pirscope-cli bench passlog [LOG] [--mb N] [--ops N] [--json] [--keep]");
    uint64_t megabytes = 100;
    uint64_t ops = 8000;
    if (!cli.unsignedOption("mb", 1, kMaxMegabytes, megabytes, error)
        || !cli.unsignedOption("ops", 1, kMaxOps, ops, error))
        return cliError(error);
    std::string path;
    const bool generated = cli.positional().empty();
    GeneratedLog log;
    if (!generated) {
        path = cli.positional()[0];
    } else {
        std::error_code ec;
        const std::filesystem::space_info space
            = std::filesystem::space(std::filesystem::temp_directory_path(ec), ec);
        if (!ec && megabytes * 1000000 + kSpareBytes > space.available)
            return cliError("--mb " + std::to_string(megabytes) + ": the temporary folder's disk has "
                + std::to_string(space.available / 1000000) + " MB free; the log would leave less than "
                + std::to_string(kSpareBytes / 1000000) + " MB");
        if (!log.create(error))
            return cliError(error);
        if (cli.flag("keep"))
            log.keep();
        path = log.path();
        writeLog(log.fd(), path, size_t(megabytes), size_t(ops));
        log.closeFile();
    }

    ps::DiagnosticList diagnostics;
    std::shared_ptr<const ps::PassLogIndex> index = ps::PaddlePassLog::index(path, diagnostics);
    if (!index)
        return cliError(diagnostics.toString());
    const double mb = double(index->bytes) / 1e6;

    // Baseline: reading the bytes into memory, nothing else.
    size_t sink = 0;
    const double readSeconds = bestOf([&] { sink += readWhole(path).size(); }, 0.0, 3);
    // Opening: mapping and indexing every banner and program (what the GUI waits for).
    const double indexSeconds = bestOf(
        [&] {
            ps::DiagnosticList d;
            sink += ps::PaddlePassLog::index(path, d)->programs.size();
        },
        0.0, 3);
    // The first step on screen: reading its two programs and diffing them.
    const double firstStepSeconds = bestOf(
        [&] {
            auto timeline = ps::PassTimeline::fromLog(index);
            sink += timeline->diff(0)->ops.kept;
        },
        0.0, 3);
    // Every step's counts (the background task of the pass view), once.
    const auto t0 = std::chrono::steady_clock::now();
    auto timeline = ps::PassTimeline::fromLog(index);
    size_t changedSteps = 0;
    for (size_t i = 0; i < timeline->size(); ++i)
        changedSteps += !timeline->diff(i)->ops.identical();
    const double allSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

    if (cli.flag("json")) {
        ps::JsonEmitter json(std::cout, ps::JsonEmitter::Format::Report);
        json.beginObject();
        json.key("file").value(generated ? std::string("(generated)") : path);
        json.key("bytes").value(index->bytes);
        json.key("programs").value(index->programs.size());
        json.key("steps").value(timeline->size());
        json.key("changed_steps").value(changedSteps);
        json.key("read_seconds").value(readSeconds);
        json.key("read_mb_per_s").value(mb / readSeconds);
        json.key("index_seconds").value(indexSeconds);
        json.key("index_mb_per_s").value(mb / indexSeconds);
        json.key("index_to_read_ratio").value(indexSeconds / readSeconds);
        json.key("first_step_seconds").value(firstStepSeconds);
        json.key("all_steps_seconds").value(allSeconds);
        json.endObject();
        json.finish();
        return sink == 0 ? 1 : 0;
    }
    std::cout << (generated ? std::string("generated log") : path) << ": " << index->bytes << " bytes, "
              << index->programs.size() << " programs, " << timeline->size() << " steps (" << changedSteps
              << " change the program)\n";
    std::cout << "  baseline: read the file   " << readSeconds * 1e3 << " ms  (" << mb / readSeconds
              << " MB/s)\n";
    std::cout << "  open: map + index         " << indexSeconds * 1e3 << " ms  (" << mb / indexSeconds
              << " MB/s, " << indexSeconds / readSeconds << "x the read)\n";
    std::cout << "  first step: parse 2 programs + diff  " << firstStepSeconds * 1e3 << " ms\n";
    std::cout << "  every step's diff (background)       " << allSeconds * 1e3 << " ms\n";
    return sink == 0 ? 1 : 0;
}
