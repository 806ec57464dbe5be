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
};

} // namespace ps
