#pragma once

#include "core/io/loadresult.h"
#include "core/ir/diagnostic.h"
#include "core/ir/oprange.h"
#include "core/ir/pipelineflavour.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ps {

/// A trace bundle written by tools/export_paddle_trace.py (tools/README.md): a folder with a
/// `manifest.json`, the origin program (`program.json`, `program.txt`), Paddle's own pipeline
/// programs and reference tensors as `.npy`. open() reads and checks the manifest and the headers of
/// the `.npy` files it names (TraceBundleFiles: dtypes and shapes, where the runner reads them); the
/// programs load on demand. File paths in the manifest are relative to dir(). io reads the
/// bundle only; the pipeline built from it (roles, dy2static layer, Paddle's train program) is
/// core/session's BundlePrograms.
class TraceBundle
{
public:
    /// An input or parameter of the layer.
    struct Tensor
    {
        std::string name; ///< the name in the program (`_jst.0.x.0`, `linear_0.w_0`)
        std::string argument; ///< inputs: the `forward` argument
        std::vector<int64_t> shape;
        std::string dtype;
        bool stopGradient = false;
        bool trainable = true; ///< parameters
        std::string file; ///< value before the run (.npy)
        std::string gradFile; ///< Paddle's gradient (.npy); empty where Paddle gives none
    };
    /// One distinct output tensor, in `fo` order.
    struct Output
    {
        size_t index = 0;
        std::vector<int64_t> shape;
        std::string dtype;
        bool stopGradient = false;
        size_t opIndex = 0; ///< defined_by: top-level op index in program.txt
        size_t resultIndex = 0;
        std::string opName;
        std::string name; ///< name in the train program
        std::string foName;
        std::string file; ///< Paddle's output (.npy)
    };
    /// The layer's return structure: tensor leaves index outputs().
    struct OutputNode
    {
        enum class Kind { Tensor, Constant, List, Tuple, Dict };
        Kind kind = Kind::List;
        size_t index = 0; ///< Tensor
        bool duplicate = false; ///< Tensor: repeats an earlier leaf
        std::string constant; ///< Constant: the JSON text of the value
        std::vector<OutputNode> items; ///< List/Tuple elements, Dict values
        std::vector<std::string> keys; ///< Dict keys, parallel to items
    };
    /// `train_names`: run_program's name lists (RunnableProgram::Names in transform).
    struct TrainNames
    {
        std::vector<std::string> x;
        std::vector<std::string> param;
        std::vector<std::string> out;
        std::vector<std::string> xGrad;
        std::vector<std::string> paramGrad;
        std::vector<std::string> outGrad;
    };
    /// One of Paddle's values of the run (`intermediates.values[]`, export_paddle_trace.py
    /// --intermediates): result `resultIndex` of top-level op `opIndex` of intermediatesProgram().
    struct Intermediate
    {
        size_t opIndex = 0;
        size_t resultIndex = 0;
        std::string opName;
        std::string file; ///< .npy
    };
    /// Which file holds the origin program.
    enum class ProgramSource {
        Auto, ///< program.json when present and loadable, else program.txt
        Json,
        Text,
    };

    /// Opens a bundle by its folder or its manifest.json. Returns null when the manifest is
    /// missing or malformed; every problem is in `diagnostics`, naming the manifest and the JSON
    /// path (`.../manifest.json: at outputs[0].defined_by.op_index: error: ...`).
    static std::unique_ptr<TraceBundle> open(const std::string &path, DiagnosticList &diagnostics);
    /// A bundle from manifest text alone (no file is read or checked; for the manifest fuzzer and
    /// tests). Null with the problems in `diagnostics`.
    static std::unique_ptr<TraceBundle> fromManifestText(
        std::string_view json, const std::string &manifestPath, DiagnosticList &diagnostics);
    /// A folder holding manifest.json, or a file named manifest.json.
    static bool isBundlePath(const std::string &path);

    const std::string &dir() const { return m_dir; }
    const std::string &manifestPath() const { return m_manifest; }
    /// `relative` resolved against dir(); empty for an empty path.
    std::string filePath(const std::string &relative) const;

    const std::string &name() const { return m_name; }
    const std::string &description() const { return m_description; }
    const std::string &paddleVersion() const { return m_paddleVersion; }
    const std::string &paddleCommit() const { return m_paddleCommit; }
    /// The pipeline_flavour the bundle was made with (newest when the manifest has none).
    PipelineFlavour flavour() const { return m_flavour; }
    bool training() const { return m_training; }
    /// The fake value as the bundle's Paddle spells it ("Fake_var").
    const std::string &fakeValueName() const { return m_fakeValueName; }
    const std::string &status() const { return m_status; }
    /// The manifest's `errors`, as "stage: message".
    const std::vector<std::string> &errors() const { return m_errors; }

    const std::vector<Tensor> &inputs() const { return m_inputs; }
    const std::vector<Tensor> &parameters() const { return m_parameters; }
    const std::vector<Output> &outputs() const { return m_outputs; }
    /// From output_structure, or a list of every output when the manifest has none.
    const OutputNode &outputStructure() const { return m_outputStructure; }

    /// `train_names` (fake value spelled as fakeValueName()); absent for eval-mode bundles.
    const std::optional<TrainNames> &trainNames() const { return m_trainNames; }
    const std::vector<bool> &outStopGradients() const { return m_outStopGradients; }
    /// Half-open op ranges into train_program.txt's top block.
    std::optional<OpRange> forwardRange() const { return m_forwardRange; }
    std::optional<OpRange> backwardRange() const { return m_backwardRange; }
    /// `backward.output_grads`: output index → the ones Paddle seeded it with (.npy).
    const std::map<size_t, std::string> &outputGradFiles() const { return m_outputGradFiles; }
    /// Paddle's intermediate values, in program order; empty when the bundle has none.
    const std::vector<Intermediate> &intermediates() const { return m_intermediates; }
    /// The program they belong to: "train_program" or "infer_program" (its `files` keys with
    /// _json/_txt); empty without intermediates.
    const std::string &intermediatesProgram() const { return m_intermediatesProgram; }
    /// `files`: role → relative path ("program_json" → "program.json").
    const std::map<std::string, std::string> &files() const { return m_files; }

    /// Reads the origin program. With Auto a program.json that fails to load falls back to
    /// program.txt (with a warning in the result).
    LoadResult loadOrigin(ProgramSource source = ProgramSource::Auto) const;
    /// The file the origin program was read from: program.txt for text, else program.json.
    std::string originFile(const LoadResult &loaded) const;

private:
    friend class TraceBundleManifest;
    TraceBundle() = default;

    std::string m_dir;
    std::string m_manifest;
    std::string m_name;
    std::string m_description;
    std::string m_paddleVersion;
    std::string m_paddleCommit;
    PipelineFlavour m_flavour = PipelineFlavour::Newest;
    bool m_training = true;
    std::string m_fakeValueName = "Fake_var";
    std::string m_status;
    std::vector<std::string> m_errors;
    std::vector<Tensor> m_inputs;
    std::vector<Tensor> m_parameters;
    std::vector<Output> m_outputs;
    OutputNode m_outputStructure;
    std::optional<TrainNames> m_trainNames;
    std::vector<bool> m_outStopGradients;
    std::optional<OpRange> m_forwardRange;
    std::optional<OpRange> m_backwardRange;
    std::map<size_t, std::string> m_outputGradFiles;
    std::map<std::string, std::string> m_files;
    std::vector<Intermediate> m_intermediates;
    std::string m_intermediatesProgram;
};

} // namespace ps
