#pragma once

#include <QRgb>
#include <array>

namespace ps {

/// Computed colour maps for tensor heatmaps, built in OKLab (perceptually uniform lightness):
/// a sequential dark-violet → teal → yellow ramp (viridis-like) and a symmetric diverging
/// blue → near-white → red map for signed data. Non-finite values have fixed colours.
class ColorMap
{
public:
    enum class Kind { Sequential, Diverging };
    static constexpr int Size = 256;
    static constexpr QRgb NanColor = qRgb(255, 0, 255);
    static constexpr QRgb PosInfColor = qRgb(255, 255, 255);
    static constexpr QRgb NegInfColor = qRgb(0, 0, 0);

    /// The colour at t in [0, 1] (clamped; NaN gives NanColor): entry round(t * 255) of the table.
    static QRgb color(Kind kind, double t);
    /// The 256 entries, computed once.
    static const std::array<QRgb, Size> &table(Kind kind);
};

} // namespace ps
