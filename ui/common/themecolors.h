#pragma once

#include "core/graph/graphmodel.h"

#include <QColor>
#include <QPalette>
#include <array>

namespace ps {

/// The colours PIRScope paints with beyond the palette's own roles, all derived from a palette,
/// so that a dark palette (the system's, or `pirscope --dark`) gives a dark graph and status
/// colours that stay readable on it. Status hues (error red, warning orange, success green,
/// accent orange) are fixed; how light they are follows the palette. Shared by every ui library.
struct ThemeColors
{
    bool dark = false;
    QColor background; ///< the graph's background (Base)
    QColor text; ///< labels on nodes and boxes
    QColor mutedText; ///< secondary text, freed or no-need-buffer rows
    QColor outline; ///< node outlines
    QColor selection; ///< the selected node (Highlight)
    QColor accent; ///< highlighted nodes and edges (linked ops, a value's edges)
    QColor edge;
    QColor labelBackground; ///< behind edge labels and badges
    QColor clusterBorder;
    QColor clusterFill;
    QColor error;
    QColor warning;
    QColor success;
    QColor errorBackground;
    QColor warningBackground;
    QColor successBackground;
    QColor noticeBackground; ///< informative banners (the split view's notice)

    /// Box fill of a node kind: the DOT palette (nodeKindFillColor) on a light background, the
    /// same hue toned down on a dark one.
    QColor kindFill(NodeKind kind) const { return kindFills[size_t(kind)]; }
    std::array<QColor, size_t(NodeKind::Constant) + 1> kindFills;

    static ThemeColors of(const QPalette &palette);
    /// Of the application's palette now (cached until it changes; UI thread only).
    static const ThemeColors &current();
    /// Window text lighter than the window: a dark theme.
    static bool isDark(const QPalette &palette);
    /// The palette of `pirscope --dark` (Fusion colours).
    static QPalette darkPalette();
    /// `a` blended over `b` with weight `t` of `a`.
    static QColor mix(const QColor &a, const QColor &b, double t);
    /// "#rrggbb" for style sheets and rich text.
    static QString css(const QColor &color) { return color.name(QColor::HexRgb); }
};

} // namespace ps
