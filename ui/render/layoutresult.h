#pragma once

#include "ui/render/idrects.h"

#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <vector>

namespace ps {

/// Geometry of one finished Graphviz layout (one DOT text: a flat graph or one layer group's
/// graph, GroupDotWriter), in its own coordinates (points, y pointing down, origin at the
/// top-left of `bounds`), copied out of Graphviz so no Graphviz object outlives the layout call.
struct LayoutResult
{
    /// One routed edge: the spline and, when it has one, the arrow head from `arrowBase` to
    /// `arrowTip`.
    struct Edge
    {
        QPainterPath path;
        QPointF arrowBase;
        QPointF arrowTip;
        bool hasArrow = false;
        bool valid = false;
    };

    QRectF bounds;
    /// By GraphNode::id ("n<id>"); a null rect where the node was not laid out.
    IdRects nodes;
    /// Indexed by GraphEdge::id ("e<id>").
    std::vector<Edge> edges;
    /// Indexed by GraphCluster::id ("cluster_<id>").
    std::vector<QRectF> clusters;
    /// Op → region edges, indexed by cluster id (the edge into anchor "a<id>").
    std::vector<Edge> clusterEdges;
    /// Child group boxes, by LayerGroup::id ("g<id>").
    IdRects groups;
    /// Centres of a group graph's entry ("pi<k>") and exit ("po<k>") ports.
    std::vector<QPointF> entryPorts;
    std::vector<QPointF> exitPorts;
    double seconds = 0; ///< time spent in agmemread + gvLayout + copying
};

} // namespace ps
