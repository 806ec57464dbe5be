#pragma once

#include "core/io/loadresult.h"
#include "core/io/tracebundle.h"
#include "core/ir/program.h" // runnableprogram.h needs Program complete
#include "core/session/pathkind.h"
#include "core/transform/pipelineresult.h"
#include "core/transform/programroles.h"
#include "core/transform/runnableprogram.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ps {

/// Pass name → enabled; passes not listed keep the flavour's default.
using PassSwitches = std::map<std::string, bool>;

/// One pass the pipeline knows, as it was set for a build.
struct PassInfo
{
    std::string name;
    std::string alias;
    std::string description;
    bool enabled = false;
};

/// What a session opened: an origin program with the roles of its values, the flavour and where
/// it came from (a trace bundle or a plain program file). The one way the GUI and every CLI
/// command that needs more than the program (run, verify, bench run, split) open a path.
/// Immutable once built and shared between threads; pipelines are built from a clone of
/// `origin`, never from `origin` itself.
struct PipelineSource
{
    enum class Kind { Bundle, Program };

    Kind kind = Kind::Program;
    std::string path; ///< the bundle folder, or the program file
    std::string title; ///< the bundle's name, or the file name
    std::shared_ptr<const Program> origin;
    LoadResult::Format format = LoadResult::Format::Unknown;
    double loadSeconds = 0;
    ProgramRoles roles; ///< values of `origin`
    PipelineFlavour flavour = PipelineFlavour::Newest;
    /// The mode a fresh window shows: the bundle's `training`; train for a plain program already
    /// in the train layout, infer otherwise.
    bool training = false;
    std::shared_ptr<const TraceBundle> bundle; ///< null for a plain program

    /// Opens what `path` names (classifyPath): a trace bundle (folder or manifest.json), else a
    /// program file (PIR JSON or text). Null with the problems in `diagnostics` (which also
    /// receives the warnings of a successful load), among them a program that loads but does
    /// not verify (verifyBeforeUse: nothing downstream runs, splits, passes or draws it).
    static std::shared_ptr<const PipelineSource> open(const std::string &path, DiagnosticList &diagnostics);
    /// `open` for a path already classified as `kind` (a caller that chose between a timeline
    /// and a program with it): TraceBundle opens as a bundle, every other kind as a program file.
    static std::shared_ptr<const PipelineSource> open(
        const std::string &path, PathKind kind, DiagnosticList &diagnostics);
    /// A program file's content already in memory (a Qt resource); `path` names it. Verified
    /// as `open` does.
    static std::shared_ptr<const PipelineSource> openBytes(
        std::string_view bytes, const std::string &path, DiagnosticList &diagnostics);
    /// Opens a bundle (folder or manifest.json): the manifest, the origin program (program.json,
    /// else program.txt, verified) and the manifest's roles. Null with the problems in
    /// `diagnostics`.
    static std::shared_ptr<const PipelineSource> fromBundle(
        const std::string &path, DiagnosticList &diagnostics);
    /// A plain program: roles from its data / parameter / shadow_output / fetch ops (the results
    /// nothing uses when it has no output op). The caller has verified it (verifyBeforeUse).
    static std::shared_ptr<const PipelineSource> fromProgram(std::unique_ptr<Program> program,
        const std::string &path, LoadResult::Format format, double loadSeconds);

    /// PIRScope's dy2static pipeline on a clone of `origin` (ProgramRoles::makeLayer), the passes
    /// switched as `passes`, in `training` or infer mode; `passInfo` receives the passes as set.
    /// Thread-safe (reads this source only); O(pipeline).
    PipelineResult buildPipeline(
        bool training, const PassSwitches &passes = {}, std::vector<PassInfo> *passInfo = nullptr) const;
    /// What `run`, `verify --numerics` and `bench run` execute for a bundle: Paddle's own train
    /// program (train_program.txt with the manifest's names and ranges) split and passed like
    /// dy2static when the bundle was made in training, else the infer pipeline. Nullopt with the
    /// reasons in `diagnostics`. Bundles only.
    std::optional<PipelineResult> paddlePipeline(DiagnosticList &diagnostics) const;

    /// What `split` runs on, and how it was found.
    struct SplitInput
    {
        /// "bundle" (the manifest's names and ranges), "train" (names and ranges inferred from
        /// the `_append_backward` layout) or "inference" (forward only).
        std::string kind;
        std::unique_ptr<RunnableProgram> runnable;
    };
    /// A bundle: Paddle's train program with the manifest's names and ranges, or its
    /// origin_runnable_program.txt as inference when it was made in eval mode. A plain program:
    /// ProgramRoles::runnable on a clone of `origin`. Null runnable with `diagnostics` on failure
    /// (a bundle's program that does not verify among them).
    SplitInput splitInput(std::optional<PipelineFlavour> flavour, DiagnosticList &diagnostics) const;
};

} // namespace ps
