#include "ui/inspector/colormap.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace ps {

namespace {

struct Rgb
{
    double r, g, b;
};

/// OKLab to linear sRGB (Björn Ottosson's published matrices).
Rgb oklabToLinearSrgb(double L, double a, double b)
{
    const double l = std::pow(L + 0.3963377774 * a + 0.2158037573 * b, 3);
    const double m = std::pow(L - 0.1055613458 * a - 0.0638541728 * b, 3);
    const double s = std::pow(L - 0.0894841775 * a - 1.2914855480 * b, 3);
    return { 4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
        -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
        -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s };
}

bool inGamut(const Rgb &c)
{
    constexpr double eps = 1e-4;
    return c.r >= -eps && c.r <= 1 + eps && c.g >= -eps && c.g <= 1 + eps && c.b >= -eps && c.b <= 1 + eps;
}

int encodeSrgb(double x)
{
    x = std::clamp(x, 0.0, 1.0);
    const double v = x <= 0.0031308 ? 12.92 * x : 1.055 * std::pow(x, 1 / 2.4) - 0.055;
    return std::clamp(int(std::lround(v * 255)), 0, 255);
}

/// OKLCh (hue in degrees) to sRGB; the chroma is reduced until the colour fits the gamut, so the
/// lightness ramp stays exact.
QRgb fromOklch(double L, double C, double hueDegrees)
{
    const double h = hueDegrees * std::numbers::pi / 180;
    auto at = [&](double c) { return oklabToLinearSrgb(L, c * std::cos(h), c * std::sin(h)); };
    double lo = 0, hi = C;
    if (inGamut(at(C)))
        lo = C;
    else
        for (int i = 0; i < 30; ++i) {
            const double mid = (lo + hi) / 2;
            (inGamut(at(mid)) ? lo : hi) = mid;
        }
    const Rgb c = at(lo);
    return qRgb(encodeSrgb(c.r), encodeSrgb(c.g), encodeSrgb(c.b));
}

std::array<QRgb, ColorMap::Size> build(ColorMap::Kind kind)
{
    std::array<QRgb, ColorMap::Size> table {};
    for (int i = 0; i < ColorMap::Size; ++i) {
        const double t = double(i) / (ColorMap::Size - 1);
        if (kind == ColorMap::Kind::Sequential) {
            table[size_t(i)] = fromOklch(0.27 + 0.68 * t, 0.11 + 0.07 * t * t, 305 - 200 * t);
        } else {
            const double s = std::abs(2 * t - 1);
            table[size_t(i)] = fromOklch(0.96 - 0.56 * s, 0.17 * s, t < 0.5 ? 255 : 30);
        }
    }
    return table;
}

} // namespace

const std::array<QRgb, ColorMap::Size> &ColorMap::table(Kind kind)
{
    static const std::array<QRgb, Size> sequential = build(Kind::Sequential);
    static const std::array<QRgb, Size> diverging = build(Kind::Diverging);
    return kind == Kind::Sequential ? sequential : diverging;
}

QRgb ColorMap::color(Kind kind, double t)
{
    if (std::isnan(t))
        return NanColor;
    const int i = int(std::lround(std::clamp(t, 0.0, 1.0) * (Size - 1)));
    return table(kind)[size_t(i)];
}

} // namespace ps
