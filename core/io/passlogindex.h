#pragma once

#include "core/io/mappedfile.h"
#include "core/ir/diagnostic.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// One program printed in a pass log: where its text is, not the program itself (that is
/// parsed only when someone asks: PaddlePassLog::readProgram).
struct LoggedProgram
{
    size_t file = 0; ///< index into PassLogIndex::files
    size_t begin = 0; ///< byte range of the program text in that file
    size_t end = 0;
    int line = 0; ///< 1-based line of the text's first line
    size_t opLines = 0; ///< lines that start an op (nested ops included): the op count, cheaply
    bool kernelDialect = false; ///< holds ops lowered to kernels (`(phi_kernel)`, `*_kernel.*`)
};

/// One step of a pass pipeline as a log shows it: a program before and after a pass.
struct LoggedStep
{
    enum class Kind {
        Pass, ///< `IRPrinting on builtin.module before/after P pass`, `IR After P ---`
        Lowering, ///< `IR before lowering` / `IR after lowering` (pd_op_to_kernel_pass)
        Split, ///< `Splited Program (fwd | bwd)`: the forward or the backward program
        Printed, ///< a program printed without a banner
        Unlogged, ///< the program changed between two printed steps: passes that did not print
    };
    Kind kind = Kind::Pass;
    std::string pass; ///< Paddle's pass name, or a description for Printed / Unlogged steps
    std::string target; ///< what it ran on: "builtin.module", "forward", "backward", ...
    int before = -1; ///< index into PassLogIndex::programs; -1 when the log does not show it
    int after = -1;
    int depth = 0; ///< 1 for steps inside another pass (constant folding lowers sub-programs)
    int line = 0; ///< line of the banner that announced the step (0 for inferred steps)
    /// Paddle's `--- detected [..] subgraphs!` for this pass ("1", "3, 19"); empty if none.
    std::string statistics;
    double seconds = -1; ///< from a `PassTiming on ...` table; negative when absent
};

/// The index of a pass log (PaddlePassLog::index) or of a folder of per-pass dumps
/// (PassDumpFolder::index): the files (mapped), every program's place and every step. Building
/// it reads each byte once; programs are parsed later, one at a time.
struct PassLogIndex
{
    std::string path; ///< the log file or the folder
    std::vector<std::shared_ptr<const MappedFile>> files;
    std::vector<LoggedProgram> programs;
    std::vector<LoggedStep> steps;
    /// Lines that are neither banners nor programs and were not understood are not listed;
    /// these are problems with the log itself (a program cut off, a pass that never ended).
    DiagnosticList diagnostics;
    size_t bytes = 0;
    size_t lines = 0;

    std::string_view text(const LoggedProgram &p) const
    {
        return files[p.file]->bytes().substr(p.begin, p.end - p.begin);
    }
    const std::string &fileOf(const LoggedProgram &p) const { return files[p.file]->path(); }
};

} // namespace ps
