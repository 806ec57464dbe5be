#pragma once

#include "core/runtime/image.h"
#include "core/runtime/programrunner.h"

#include <cstdint>
#include <string>

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

    /// Whether `target` can offer `kind`: Bundle needs a trace bundle, Pdiparams a `.pdiparams`
    /// next to the program; the other kinds always (their files are checked at the start).
    static bool available(Kind kind, const DebugTarget &target);
    /// The target's own files: the bundle's .npy, else random inputs and the .pdiparams next to
    /// the program (random parameters without one).
    static DebugSources defaultsFor(const DebugTarget &target);

    /// The runner's input and parameter sources (and a bundle's output gradients) in `options`;
    /// an image is decoded here (netpbm by the core, other formats by `decoder`). False with
    /// `error` naming the bad file or the missing bundle.
    bool applyTo(const DebugTarget &target, const ImageDecoder &decoder, ProgramRunner::Options &options,
        std::string &error) const;
};

} // namespace ps
