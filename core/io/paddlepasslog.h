#pragma once

#include "core/io/loadresult.h"
#include "core/io/passlogindex.h"
#include "core/io/pirtextreader.h"

#include <memory>
#include <string>
#include <string_view>

namespace ps {

/// Reads the pass logs Paddle prints (stdout and stderr in one file) into a PassLogIndex:
///
/// * `FLAGS_print_ir=1` / `config.switch_ir_debug(True)`: the PassManager's IRPrinting banners
///   (`===---===` / `IRPrinting on builtin.module before P pass` / `===---===`) around the
///   program before and after each pass, nested when a pass runs passes itself;
/// * `IR before lowering = {` / `IR after lowering = {` around pd_op_to_kernel_pass;
/// * dy2static's `IR After P -------------------` (only the program after) and
///   `Splited Program (fwd | bwd):` with `ForwardProgram is :` / `BackwardProgram is:`;
/// * a program printed without a banner (`print(program)`);
/// * `--- Running PIR pass [P]` and `--- detected [N] subgraphs!` (glog on stderr) give each
///   step its match statistics, `PassTiming on ...` tables its time.
///
/// Where the program after one step is not the program before the next, passes ran without
/// printing (a filtered `switch_ir_debug(True, passes)`, or the lowering the inference
/// predictor calls directly): an Unlogged step is put between them, named after the
/// `Running PIR pass` lines in between, or pd_op_to_kernel_pass when kernel ops appear. When the
/// texts are equal the two steps share one program.
///
/// Indexing is one pass over the bytes with memchr (a 100 MB log in well under a second); the
/// programs are parsed only by readProgram.
class PaddlePassLog
{
public:
    /// Null with the reason in `diagnostics` when the file cannot be read.
    static std::shared_ptr<const PassLogIndex> index(const std::string &path, DiagnosticList &diagnostics);
    /// Indexes `text` (tests); `name` is used in diagnostics.
    static std::shared_ptr<const PassLogIndex> indexText(std::string text, const std::string &name);
    /// Adds the programs and steps of one file's bytes to `index` (the file is index.files[file]).
    static void scan(PassLogIndex &index, size_t file);

    /// Whether the first 64 KiB of the file at `path` look like a pass log (an IRPrinting or
    /// lowering banner, or `IR After`), so a GUI can open it as a timeline, not a program.
    static bool looksLikeLogFile(const std::string &path);
    /// The same test on text already read.
    static bool looksLikeLog(std::string_view head);

    /// Parses program `i` with PirTextReader; diagnostics name the log's lines. `opIds`, when
    /// given, receives the ops' `[id:N]`. Thread-safe.
    static LoadResult readProgram(
        const PassLogIndex &index, size_t i, PirTextReader::OpIdMap *opIds = nullptr);
};

} // namespace ps
