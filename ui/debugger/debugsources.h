#pragma once

#include <QString>
#include <QtGlobal>

namespace ps {

/// Where a debug session takes its inputs and parameters from.
struct DebugSources
{
    enum class Kind {
        Bundle, ///< the trace bundle's inputs/ and params/ (.npy), and its output gradients
        Pdiparams, ///< parameters from the `.pdiparams` file next to the program
        Random, ///< seeded random tensors (TensorSource::random)
    };

    Kind inputs = Kind::Random;
    Kind params = Kind::Random;
    quint64 seed = 0;

    /// "bundle .npy", ".pdiparams", "random".
    static QString kindText(Kind kind);
    friend bool operator==(const DebugSources &, const DebugSources &) = default;
};

} // namespace ps
