#pragma once

#include <QString>
#include <QtGlobal>

namespace ps {

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
    quint64 seed = 0;
    /// NpyDirectory or Image inputs.
    QString inputsPath;
    /// NpyDirectory or PdiparamsFile parameters.
    QString paramsPath;
    /// Image inputs: ImageNet mean/std after scaling to [0, 1] (else [0, 1] only).
    bool imageNetNormalization = true;

    /// "bundle .npy", ".pdiparams next to the program", "random", "zeros", "ones", ".npy folder",
    /// ".pdiparams file", "image file".
    static QString kindText(Kind kind);
    /// Kinds that need a path chosen by the user.
    static bool needsPath(Kind kind);
    static bool forInputs(Kind kind);
    static bool forParams(Kind kind);
    /// Short, for the toolbar: "random (seed 0)", "image cat.png", "zeros".
    QString inputsText() const;
    QString paramsText() const;
    friend bool operator==(const DebugSources &, const DebugSources &) = default;
};

} // namespace ps
