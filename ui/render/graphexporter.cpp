#include "ui/render/graphexporter.h"

#include "ui/render/edgelabelcrowds.h"

#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QPainter>
#include <QSvgGenerator>
#include <algorithm>

namespace ps {

namespace {

/// The strongest marks of the ops inside a collapsed group: where the debugger is, failed or
/// stopped, a collapsed layer shows it.
NodeMarks marksInside(const GraphModel &model, const GraphLayout &layout, int group, const OpMarks &marks)
{
    NodeMarks out;
    for (const auto &[op, m] : marks) {
        const int node = model.nodeOf(op);
        if (node < 0 || layout.shows(node))
            continue;
        for (int g = model.nodes[size_t(node)].group; g >= 0; g = model.groups[size_t(g)].parent) {
            if (g != group)
                continue;
            out.current = out.current || m.current;
            out.error = out.error || m.error;
            out.nonFinite = out.nonFinite || m.nonFinite;
            out.breakpoint = out.breakpoint || (m.breakpoint && !m.breakpointDisabled);
            break;
        }
    }
    return out;
}

} // namespace

void GraphExporter::paint(QPainter *painter, const GraphModel &model, const GraphLayout &layout,
    const GraphStyle &style, const Decorations &decorations, const QRectF &exposed)
{
    const qreal lod = painter->worldTransform().m11();
    auto visible = [&exposed](const QRectF &r) { return exposed.isNull() || exposed.intersects(r); };
    painter->setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);

    // Frames, outer first; collapsed boxes go with the nodes.
    std::vector<int> frames;
    for (size_t g = 0; g < layout.groups.size(); ++g)
        if (layout.groups[g].state == GraphLayout::GroupState::Expanded)
            frames.push_back(int(g));
    std::stable_sort(frames.begin(), frames.end(),
        [&](int a, int b) { return layout.groups[size_t(a)].depth < layout.groups[size_t(b)].depth; });
    auto groupVisual = [&](int g) {
        const LayerGroup &group = model.groups[size_t(g)];
        GroupVisual v;
        v.rect = layout.groups[size_t(g)].rect;
        v.title = QString::fromStdString(group.label);
        v.detail = GraphStyle::groupDetail(group);
        v.kind = group.kind;
        v.depth = layout.groups[size_t(g)].depth;
        v.expanded = layout.groups[size_t(g)].state == GraphLayout::GroupState::Expanded;
        v.selected = decorations.selectedGroups.count(g) > 0;
        if (!v.expanded)
            v.marks = marksInside(model, layout, g, decorations.marks);
        return v;
    };
    for (int g : frames)
        if (visible(layout.groups[size_t(g)].rect))
            style.paintGroup(painter, groupVisual(g), lod);
    for (size_t c = 0; c < layout.clusters.size(); ++c)
        if (!layout.clusters[c].isNull() && visible(layout.clusters[c]))
            style.paintCluster(painter, layout.clusters[c], layout.clusterLabels[c], lod);

    std::vector<QString> labels(layout.segments.size());
    std::vector<QRectF> labelRects(layout.segments.size());
    for (size_t i = 0; i < layout.segments.size(); ++i) {
        const GraphLayout::Segment &s = layout.segments[i];
        if (s.labelled && s.modelEdge >= 0) {
            labels[i] = QString::fromStdString(model.edges[size_t(s.modelEdge)].label);
            labelRects[i] = style.edgeLabelRect(s.geometry.path, labels[i]);
        }
    }
    const std::vector<EdgeLabelCrowds::Placement> crowds = EdgeLabelCrowds::place(labelRects);
    for (size_t i = 0; i < layout.segments.size(); ++i) {
        const GraphLayout::Segment &s = layout.segments[i];
        if (!visible(s.geometry.path.controlPointRect().adjusted(-4, -4, 4, 4)))
            continue;
        EdgeVisual e;
        e.path = s.geometry.path;
        if (s.geometry.hasArrow)
            e.arrow = GraphStyle::arrowHead(s.geometry.arrowBase, s.geometry.arrowTip);
        if (!labelRects[i].isNull() && !crowds[i].hidden) {
            e.label = EdgeLabelCrowds::text(labels[i], crowds[i].others);
            e.labelRect = style.edgeLabelRect(e.path, e.label);
            e.labelRect.moveLeft(crowds[i].left);
        }
        e.dashed = s.dashed;
        style.paintEdge(painter, e, lod);
    }

    for (size_t g = 0; g < layout.groups.size(); ++g)
        if (layout.groups[g].state == GraphLayout::GroupState::Collapsed && visible(layout.groups[g].rect))
            style.paintGroup(painter, groupVisual(int(g)), lod);
    // Nodes, then the chips inside them.
    for (int pass = 0; pass < 2; ++pass) {
        for (const GraphNode &node : model.nodes) {
            if (node.ghost != (pass == 1) || !layout.shows(node.id)
                || !visible(layout.nodes[size_t(node.id)]))
                continue;
            NodeVisual v;
            v.rect = layout.nodes[size_t(node.id)];
            v.labelHeight = layout.labelHeights[size_t(node.id)];
            for (const std::string &line : node.lines)
                v.lines << QString::fromStdString(line);
            v.kind = node.kind;
            v.ghost = node.ghost;
            v.selected = decorations.selectedNodes.count(node.id) > 0;
            v.highlighted = decorations.highlightedNodes.count(node.id) > 0;
            if (node.op && !node.ghost)
                if (auto it = decorations.marks.find(node.op); it != decorations.marks.end())
                    v.marks = it->second;
            style.paintNode(painter, v, lod);
        }
    }
}

bool GraphExporter::writeSvg(const QString &path, const GraphModel &model, const GraphLayout &layout,
    const GraphStyle &style, const Decorations &decorations, const QString &title, QString *error)
{
    const QRectF area = layout.bounds.adjusted(-kMargin, -kMargin, kMargin, kMargin);
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(area.size().toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), area.size()));
    generator.setResolution(72); // one SVG unit per point
    generator.setTitle(title);
    generator.setDescription(QStringLiteral("PIRScope graph"));
    QPainter painter;
    if (!painter.begin(&generator)) {
        if (error)
            *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    painter.fillRect(QRectF(QPointF(0, 0), area.size()), style.background());
    painter.translate(-area.topLeft());
    paint(&painter, model, layout, style, decorations);
    if (!painter.end() || !QFileInfo(path).isFile()) {
        if (error)
            *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

bool GraphExporter::writePng(const QString &path, const GraphModel &model, const GraphLayout &layout,
    const GraphStyle &style, const Decorations &decorations, double scale, int maxSide, QSize *size,
    QString *error)
{
    const QRectF area = layout.bounds.adjusted(-kMargin, -kMargin, kMargin, kMargin);
    const double longest = std::max(area.width(), area.height());
    if (longest * scale > maxSide)
        scale = maxSide / longest;
    const QSize pixels(
        std::max(1, int(area.width() * scale + 0.5)), std::max(1, int(area.height() * scale + 0.5)));
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) {
        if (error)
            *error = QStringLiteral("not enough memory for a %1x%2 image")
                         .arg(pixels.width())
                         .arg(pixels.height());
        return false;
    }
    image.fill(style.background());
    QPainter painter(&image);
    painter.scale(scale, scale);
    painter.translate(-area.topLeft());
    paint(&painter, model, layout, style, decorations);
    painter.end();
    if (size)
        *size = pixels;
    QImageWriter writer(path, "png");
    if (!writer.write(image)) {
        if (error)
            *error = QStringLiteral("cannot write %1: %2").arg(path, writer.errorString());
        return false;
    }
    return true;
}

} // namespace ps
