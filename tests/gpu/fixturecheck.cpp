#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/npyio.h"
#include "gpucheck.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <simdjson.h>

namespace fs = std::filesystem;

namespace gpucheck {
namespace {

struct CaseResult
{
    std::string op;
    std::string error; ///< CUDA vs the expected arrays
    std::string cpuNote; ///< CUDA vs CPU
    bool missing = false; ///< no CUDA kernel
    int compared = 0;
    double maxError = 0;
};

CaseResult runCase(const fs::path &dir, ps::Backend &cuda, ps::Backend &cpu)
{
    CaseResult r;
    double rtol = 1e-5, atol = 1e-6;
    simdjson::dom::parser parser;
    simdjson::dom::element meta;
    if (!parser.load((dir / "case.json").string()).get(meta)) {
        double v;
        if (!meta["rtol"].get(v))
            rtol = v;
        if (!meta["atol"].get(v))
            atol = v;
    }
    ps::LoadResult loaded = ps::PirTextReader::readFile((dir / "program.txt").string());
    if (!loaded.ok() || loaded.program->block().ops().empty()) {
        r.error = "program.txt does not load";
        return r;
    }
    r.op = std::string(loaded.program->block().ops().back()->name());
    if (!cuda.kernels().has(r.op)) {
        r.missing = true;
        r.error = "no CUDA kernel for " + r.op;
        return r;
    }
    std::map<std::string, ps::Tensor> feeds;
    for (const ps::Operation *op : loaded.program->block().ops()) {
        if (op->name() != "pd_op.data")
            continue;
        const std::string name = op->stringAttribute("name");
        std::string error;
        ps::Tensor t = ps::NpyIO::read((dir / (name + ".npy")).string(), error);
        if (!t.defined()) {
            r.error = error;
            return r;
        }
        feeds[name] = t;
    }
    const ProgramRun got = runProgram(*loaded.program, cuda, feeds, true);
    if (!got.error.empty()) {
        r.error = got.error;
        return r;
    }
    const ProgramRun oracle
        = cpu.kernels().has(r.op) ? runProgram(*loaded.program, cpu, feeds, true) : ProgramRun();
    // Paddle's CPU kernel orders equal values as libstdc++'s sort does, its GPU kernel (and ours)
    // by index: for topk's tie cases only the values (result 0) are compared.
    const std::string name = dir.filename().string();
    const bool tieOrder = name.starts_with("topk")
        && (name.find("ties") != std::string::npos || name.find("equal") != std::string::npos
            || name.find("nan") != std::string::npos);
    const auto compare = [&](const std::string &what, const ps::Tensor &result, const fs::path &file,
                             const ps::Tensor *cpuResult) {
        std::string error;
        const ps::Tensor want = ps::NpyIO::read(file.string(), error);
        if (!result.defined()) {
            if (r.error.empty())
                r.error = what + " was not produced";
            return;
        }
        const std::string mismatch = compareTensors(result, want, rtol, atol, &r.maxError);
        if (!mismatch.empty() && r.error.empty())
            r.error = what + ": " + mismatch;
        ++r.compared;
        if (cpuResult && cpuResult->defined() && r.cpuNote.empty()) {
            const std::string diff = compareTensors(result, *cpuResult, rtol, atol);
            if (!diff.empty())
                r.cpuNote = "differs from CPU: " + diff;
        }
    };
    for (size_t k = 0; k < got.lastResults.size(); ++k) {
        if (tieOrder && k > 0)
            break;
        const fs::path file = dir / ("expected_" + std::to_string(k) + ".npy");
        if (fs::exists(file)) {
            compare("result " + std::to_string(k), got.lastResults[k], file,
                k < oracle.lastResults.size() ? &oracle.lastResults[k] : nullptr);
            continue;
        }
        // A list result (split): expected_<k>_<j>.npy per element.
        const auto element = [&](size_t j) {
            return dir / ("expected_" + std::to_string(k) + "_" + std::to_string(j) + ".npy");
        };
        size_t expected = 0;
        while (fs::exists(element(expected)))
            ++expected;
        if (expected == 0)
            continue;
        const auto list = got.lastLists.find(k);
        if (list == got.lastLists.end() || list->second.size() != expected) {
            if (r.error.empty())
                r.error = "result " + std::to_string(k) + " is not a list of " + std::to_string(expected)
                    + " tensors";
            continue;
        }
        const auto cpuList = oracle.lastLists.find(k);
        for (size_t j = 0; j < expected; ++j)
            compare("result " + std::to_string(k) + " element " + std::to_string(j), list->second[j],
                element(j),
                cpuList != oracle.lastLists.end() && j < cpuList->second.size() ? &cpuList->second[j]
                                                                                : nullptr);
    }
    if (tieOrder && r.error.empty())
        r.cpuNote = "indices of equal values not compared (index order on CUDA, libstdc++'s on the CPU)";
    if (r.compared == 0 && r.error.empty())
        r.error = "no expected_<r>.npy compared";
    if (!oracle.error.empty() && r.cpuNote.empty())
        r.cpuNote = "CPU run failed: " + oracle.error;
    return r;
}

std::string escape(std::string s)
{
    std::replace(s.begin(), s.end(), '|', '/');
    std::replace(s.begin(), s.end(), '\n', ' ');
    return s.size() > 160 ? s.substr(0, 157) + "..." : s;
}

} // namespace

int checkKernelFixtures(
    const std::string &root, ps::Backend &cuda, ps::Backend &cpu, const std::string &filter)
{
    std::vector<fs::path> cases;
    if (fs::is_directory(root))
        for (const auto &family : fs::directory_iterator(root))
            if (family.is_directory())
                for (const auto &c : fs::directory_iterator(family.path()))
                    if (c.is_directory() && fs::exists(c.path() / "program.txt"))
                        if (filter.empty() || c.path().string().find(filter) != std::string::npos)
                            cases.push_back(c.path());
    std::sort(cases.begin(), cases.end());
    int passed = 0, failed = 0, missing = 0;
    std::set<std::string> missingOps;
    std::string failures, cpuNotes;
    for (const fs::path &c : cases) {
        const CaseResult r = runCase(c, cuda, cpu);
        const std::string name = c.parent_path().filename().string() + "/" + c.filename().string();
        if (r.missing) {
            ++missing;
            missingOps.insert(r.op);
        } else if (r.error.empty()) {
            ++passed;
        } else {
            ++failed;
            failures += "| " + name + " | " + r.op + " | " + escape(r.error) + " |\n";
        }
        if (!r.cpuNote.empty() && !r.missing)
            cpuNotes += "| " + name + " | " + r.op + " | " + escape(r.cpuNote) + " |\n";
    }
    std::cout << "### Kernel fixtures (" << root << ")\n\n"
              << cases.size() << " cases: **" << passed << " passed**, **" << failed << " failed**, "
              << missing << " without a CUDA kernel.\n\n";
    if (!failures.empty())
        std::cout << "Failures (CUDA vs expected):\n\n| case | op | first mismatch |\n|---|---|---|\n"
                  << failures << "\n";
    if (!cpuNotes.empty())
        std::cout << "CUDA vs CPU oracle notes:\n\n| case | op | note |\n|---|---|---|\n" << cpuNotes << "\n";
    if (!missingOps.empty()) {
        std::cout << "Ops without a CUDA kernel (reported, not run):";
        for (const std::string &op : missingOps)
            std::cout << " `" << op << "`";
        std::cout << "\n\n";
    }
    return failed == 0 && !cases.empty() ? 0 : 1;
}

int checkBundles(const std::string &root, ps::Backend &cuda, ps::Backend &cpu)
{
    std::cout << "### Golden training bundles: train program on CUDA vs CPU\n\n"
              << "| bundle | ops | outputs | result |\n|---|---|---|---|\n";
    int failures = 0;
    std::vector<fs::path> bundles;
    if (fs::is_directory(root))
        for (const auto &b : fs::directory_iterator(root))
            if (fs::exists(b.path() / "train_program.txt"))
                bundles.push_back(b.path());
    std::sort(bundles.begin(), bundles.end());
    for (const fs::path &b : bundles) {
        ps::LoadResult loaded = ps::PirTextReader::readFile((b / "train_program.txt").string());
        if (!loaded.ok()) {
            std::cout << "| " << b.filename().string() << " | - | - | does not load |\n";
            ++failures;
            continue;
        }
        std::map<std::string, ps::Tensor> feeds;
        for (const char *sub : { "inputs", "params" })
            if (fs::is_directory(b / sub))
                for (const auto &f : fs::directory_iterator(b / sub)) {
                    std::string error;
                    ps::Tensor t = ps::NpyIO::read(f.path().string(), error);
                    if (t.defined())
                        feeds[f.path().stem().string()] = t;
                }
        const ProgramRun got = runProgram(*loaded.program, cuda, feeds, true);
        if (!got.error.empty()) {
            // Control flow and ops without CUDA kernels are reported, not counted as failures.
            const bool unsupported = got.error.find("no CUDA kernel") != std::string::npos;
            std::cout << "| " << b.filename().string() << " | " << got.ops << " | - | "
                      << (unsupported ? "skipped: " : "**error**: ") << escape(got.error) << " |\n";
            failures += unsupported ? 0 : 1;
            continue;
        }
        const ProgramRun oracle = runProgram(*loaded.program, cpu, feeds, true);
        if (!oracle.error.empty()) {
            std::cout << "| " << b.filename().string() << " | " << got.ops << " | " << got.outputs.size()
                      << " | CPU oracle failed: " << escape(oracle.error) << " |\n";
            continue;
        }
        std::string mismatch;
        double maxError = 0;
        for (const auto &[name, t] : got.outputs) {
            auto it = oracle.outputs.find(name);
            if (it == oracle.outputs.end())
                continue;
            const std::string m = compareTensors(t, it->second, 1e-4, 1e-5, &maxError);
            if (!m.empty() && mismatch.empty())
                mismatch = name + ": " + m;
        }
        char err[64];
        std::snprintf(err, sizeof err, "max |diff| %.3g", maxError);
        std::cout << "| " << b.filename().string() << " | " << got.ops << " | " << got.outputs.size() << " | "
                  << (mismatch.empty() ? std::string("match (") + err + ")"
                                       : "**mismatch** " + escape(mismatch))
                  << " |\n";
        failures += mismatch.empty() ? 0 : 1;
    }
    std::cout << "\n";
    return failures == 0 ? 0 : 1;
}

} // namespace gpucheck
