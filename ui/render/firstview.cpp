#include "ui/render/firstview.h"

#include <algorithm>

namespace ps {

double FirstView::fitZoom(const QRectF &bounds, const QSizeF &viewport)
{
    if (bounds.isEmpty() || viewport.isEmpty())
        return kMaxFitZoom;
    return std::min({ viewport.width() / (bounds.width() + 20), viewport.height() / (bounds.height() + 20),
        kMaxFitZoom });
}

bool FirstView::closeDeepest(const GraphModel &model, GroupExpansion &expansion)
{
    std::vector<int> depth(model.groups.size(), 0);
    int deepest = -1;
    for (const LayerGroup &g : model.groups) { // parents come before their children
        depth[size_t(g.id)] = g.parent >= 0 ? depth[size_t(g.parent)] + 1 : 0;
        if (expansion.isExpanded(g.id) && expansion.isShown(model, g.id))
            deepest = std::max(deepest, depth[size_t(g.id)]);
    }
    if (deepest < 0)
        return false;
    for (const LayerGroup &g : model.groups)
        if (depth[size_t(g.id)] == deepest)
            expansion.setExpanded(g.id, false);
    return true;
}

bool FirstView::closeTowardsLegible(const GraphModel &model, GroupExpansion &expansion, double fitZoom)
{
    const double shown = double(expansion.visibleItemCount(model));
    const double target = shown * std::clamp(fitZoom / kUsableZoom, 0.0, 1.0);
    bool closed = false;
    do {
        GroupExpansion next = expansion;
        if (!closeDeepest(model, next) || showsOnlyRanges(model, next))
            break;
        expansion = std::move(next);
        closed = true;
    } while (double(expansion.visibleItemCount(model)) > target);
    if (closed || !showsOnlyRanges(model, expansion))
        return closed;
    int first = -1;
    for (const LayerGroup &g : model.groups)
        if (!expansion.isExpanded(g.id) && expansion.isShown(model, g.id)
            && (first < 0 || g.firstNode < model.groups[size_t(first)].firstNode))
            first = g.id;
    if (first < 0)
        return false;
    expansion.setExpanded(first, true);
    return true;
}

bool FirstView::showsOnlyRanges(const GraphModel &model, const GroupExpansion &expansion)
{
    for (int n : model.topNodes)
        if (!model.nodes[size_t(n)].op || model.nodes[size_t(n)].kind != NodeKind::Data)
            return false; // the program's inputs, kept beside the ranges, say nothing either
    for (const LayerGroup &g : model.groups) {
        if (!expansion.isShown(model, g.id))
            continue;
        if (expansion.isExpanded(g.id) ? !g.nodes.empty() : g.kind != LayerGroupKind::Range)
            return false;
    }
    return true;
}

} // namespace ps
