#pragma once

#include "core/graph/graphmodel.h"
#include "core/graph/groupexpansion.h"

#include <QRectF>
#include <QSizeF>

namespace ps {

/// What a graph opens as: GroupExpansion::defaults(), then, while the whole picture fitted into
/// the viewport would be too small to read (a long chain of open layers), the deepest open
/// layers closed again, so that Fit shows a usable picture. The GUI and `bench layout` share it.
class FirstView
{
public:
    /// A fitted picture at least this large has legible titles (GraphStyle draws them enlarged).
    static constexpr double kUsableZoom = 0.22;
    /// Fit never zooms in further than this.
    static constexpr double kMaxFitZoom = 1.5;

    /// The zoom at which `bounds` (with a small margin) fits `viewport`.
    static double fitZoom(const QRectF &bounds, const QSizeF &viewport);
    /// Closes the deepest open groups; false when none is open.
    static bool closeDeepest(const GraphModel &model, GroupExpansion &expansion);
    /// After a layout that fits only at `fitZoom` (< kUsableZoom): closes the deepest open level,
    /// then more levels until the shown items are at most fitZoom / kUsableZoom of what they
    /// were, so one more layout is likely legible instead of one per level (each of which can
    /// cost a second on a 20,000-op program). A picture grows at least linearly in one direction
    /// with its items, so this never closes more than needed for a chain, less for a grid.
    /// It stops before a level whose closing would leave only ranges (the "ops 1–5000" boxes
    /// a flat program is cut into, which say nothing about it): the view then shows the top of
    /// the graph at a readable zoom instead; when only ranges are shown already, the first one
    /// is opened (the start of the program). False when nothing changed.
    static bool closeTowardsLegible(const GraphModel &model, GroupExpansion &expansion, double fitZoom);
    /// Whether everything `expansion` shows is a closed range box, or a program input (a data
    /// op, kept at the top level beside the ranges).
    static bool showsOnlyRanges(const GraphModel &model, const GroupExpansion &expansion);
};

} // namespace ps
