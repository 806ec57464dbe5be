#pragma once

#include "core/runtime/image.h"
#include "core/runtime/programrunner.h"
#include "core/session/inputshapes.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ps {

struct DebugTarget;

/// Where a debug session takes its inputs and parameters from; applied when a session starts.
struct DebugSources
{
    enum class Kind {
        Bundle, ///< the trace bundle's inputs/ and params/ (.npy), and its output gradients
        Pdiparams, ///< parameters from the `.pdiparams` file next to the program
        Random, ///< seeded random tensors (TensorSource::random)
        Zeros, ///< inputs only
        Ones, ///< inputs only
        NpyDirectory, ///< `<name>.npy` files in the chosen folder (path)
        PdiparamsFile, ///< parameters from a chosen `.pdiparams` file (path)
        Image, ///< inputs only: an image file (path) for the image-shaped input, the rest random
    };

    Kind inputs = Kind::Random;
    Kind params = Kind::Random;
    uint64_t seed = 0;
    /// NpyDirectory or Image inputs.
    std::string inputsPath;
    /// NpyDirectory or PdiparamsFile parameters.
    std::string paramsPath;
    /// Image inputs: ImageNet mean/std after scaling to [0, 1] (else [0, 1] only).
    bool imageNetNormalization = true;
    /// Input name → the shape the user chose (--shape, the sources dialog); inputs not listed
    /// take their defaults (InputShapes::resolve). Kept across targets: inputs keep their names.
    std::map<std::string, std::vector<int64_t>> shapes;

    /// "bundle .npy", ".pdiparams next to the program", "random", "zeros", "ones", ".npy folder",
    /// ".pdiparams file", "image file".
    static std::string kindText(Kind kind);
    /// Kinds that need a path chosen by the user.
    static bool needsPath(Kind kind);
    static bool forInputs(Kind kind);
    static bool forParams(Kind kind);
    /// Short, for the toolbar: "random (seed 0)", "image cat.png", "zeros".
    std::string inputsText() const;
    std::string paramsText() const;
    friend bool operator==(const DebugSources &, const DebugSources &) = default;

    /// The command line's spelling (`--inputs` / `--params` of pirscope-cli run): "random",
    /// "zeros", "ones", an image file, a folder of `.npy` files or a `.pdiparams` file, as
    /// TensorSource::fromText reads it (the image is decoded, netpbm only, to check it). False
    /// with `error` when the path does not exist or the image cannot be read.
    bool setFromText(bool forParams, const std::string &text, std::string &error);
    /// The inputs or parameters from `source` as TensorSource::fromText made it (its kind, path
    /// and, for an image, normalisation). False with `error` for a Named source, which no
    /// spelling names.
    bool setSource(bool forParams, const TensorSource &source, std::string &error);

    /// Whether `target` can offer `kind`: Bundle needs a trace bundle, Pdiparams a `.pdiparams`
    /// next to the program; the other kinds always (their files are checked at the start).
    static bool available(Kind kind, const DebugTarget &target);
    /// The target's own files: the bundle's .npy, else random inputs and the .pdiparams next to
    /// the program (random parameters without one).
    static DebugSources defaultsFor(const DebugTarget &target);

    /// The target's inputs with the shapes a run gives them and why (InputShapes::resolve with
    /// `shapes` and the target's `.yml`), for this choice of inputs: inputs read from files
    /// (bundle, .npy folder) keep only a chosen shape and are otherwise Files; the image input's
    /// unresolved dims are Image (the image's size). What stays Unresolved needs a shape before
    /// a run. `errors` receives the chosen shapes that do not fit ("x=1x3: rank 2, ...").
    std::vector<InputShape> inputShapes(const DebugTarget &target, std::vector<std::string> &errors) const;

    /// The runner's input and parameter sources (and a bundle's output gradients) in `options`,
    /// with the input shapes of inputShapes() that shape the run (files must match a chosen
    /// shape); an image is decoded here (netpbm by the core, other formats by `decoder`). False with
    /// `error` naming the bad file, the missing bundle, a chosen shape that does not fit or the
    /// inputs that still need a shape.
    bool applyTo(const DebugTarget &target, const ImageDecoder &decoder, ProgramRunner::Options &options,
        std::string &error) const;
};

} // namespace ps
