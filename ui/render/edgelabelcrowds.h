#pragma once

#include <QRectF>
#include <vector>

namespace ps {

/// Edge labels that would be drawn on one another (the values of parallel edges between two
/// layers, labelled at their nearly equal midpoints): the first of each crowd, by position, is
/// drawn with a count of the others ("?x96x?x?xf32  +3"), moved right to where the rightmost of
/// the crowd starts (clear of the crowd's edges), the others are not drawn. Shared by
/// the scene and GraphExporter so the window and the pictures agree.
struct EdgeLabelCrowds
{
    struct Placement
    {
        bool hidden = false;
        int others = 0; ///< labels this one stands for (drawn labels only)
        qreal left = 0; ///< where a drawn label starts
    };

    /// One placement per rect (null rects: not drawn, not counted). O(n log n + n x overlap
    /// window).
    static std::vector<Placement> place(const std::vector<QRectF> &labels);
    /// The text a crowd's drawn label shows.
    static QString text(const QString &label, int others);
};

} // namespace ps
