#pragma once

#include "core/graph/graphmodel.h"
#include "ui/common/nodemarks.h"
#include "ui/render/graphlayout.h"
#include "ui/render/graphstyle.h"

#include <QSize>
#include <QString>
#include <unordered_set>

class QPainter;

namespace ps {

/// Pictures of a whole laid-out graph (not of a view of it), painted with GraphStyle exactly as
/// the scene paints it: PNG, or SVG where every label stays text (searchable, selectable). Used
/// by the GUI's Export and by `pirscope-cli render`; Qt Gui only.
class GraphExporter
{
public:
    /// What the picture marks besides the graph.
    struct Decorations
    {
        std::unordered_set<int> selectedNodes;
        std::unordered_set<int> highlightedNodes;
        std::unordered_set<int> selectedGroups;
        OpMarks marks;
    };

    /// Paints `layout` in its own coordinates (`layout.bounds`), with the level of detail of the
    /// painter's scale; only what meets `exposed` when it is not null (as a view repaints).
    static void paint(QPainter *painter, const GraphModel &model, const GraphLayout &layout,
        const GraphStyle &style, const Decorations &decorations = {}, const QRectF &exposed = QRectF());

    /// The graph at one SVG unit per point, titled `title`.
    static bool writeSvg(const QString &path, const GraphModel &model, const GraphLayout &layout,
        const GraphStyle &style, const Decorations &decorations, const QString &title, QString *error);
    /// The graph at `scale` pixels per point, reduced where the image would be wider or taller
    /// than `maxSide` pixels; `size` gets the image size.
    static bool writePng(const QString &path, const GraphModel &model, const GraphLayout &layout,
        const GraphStyle &style, const Decorations &decorations, double scale, int maxSide, QSize *size,
        QString *error);

    /// PNG side cap of the GUI and the CLI.
    static constexpr int kMaxPngSide = 16000;
    /// Margin around the graph, in points.
    static constexpr double kMargin = 16;
};

} // namespace ps
