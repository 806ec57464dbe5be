#pragma once

#include "core/graph/graphmodel.h"
#include "ui/common/nodemarks.h"

#include <QColor>
#include <QFont>
#include <QPainterPath>
#include <QPolygonF>
#include <QRectF>
#include <QStringList>

class QPainter;
class QPalette;

namespace ps {

/// One node as painted: its box, label and state.
struct NodeVisual
{
    QRectF rect;
    qreal labelHeight = 0; ///< the label is centred in the top `labelHeight` (chips below); 0: whole box
    QStringList lines; ///< the first is the title
    NodeKind kind = NodeKind::Compute;
    bool ghost = false;
    bool selected = false;
    bool highlighted = false;
    bool matched = false; ///< a search match
    NodeMarks marks;
    /// The label line showing a shape the run made (NodeMarks::runtimeShapes), drawn in
    /// runtimeColor() and shrunk to fit the box laid out for the program's type; -1: none.
    int runtimeLine = -1;
};

/// One layer group as painted: a collapsed box or an expanded frame with a title bar.
struct GroupVisual
{
    QRectF rect;
    QString title; ///< the group's label
    QString detail; ///< "17 ops"
    LayerGroupKind kind = LayerGroupKind::Layer;
    bool expanded = false;
    int depth = 0; ///< nesting depth, tints nested frames
    bool selected = false;
    bool highlighted = false;
    bool matched = false;
    NodeMarks marks; ///< the strongest marks of the ops inside (collapsed boxes)
};

/// One edge piece as painted.
struct EdgeVisual
{
    QPainterPath path;
    QPolygonF arrow; ///< empty: no head
    QString label;
    QRectF labelRect;
    bool dashed = false;
    bool highlighted = false;
    bool runtime = false; ///< the label is a shape the run made (drawn in runtimeColor())
};

/// How the graph looks: fonts, colours, paddings, the size of every box and the painting of
/// nodes, ghost chips, layer groups, regions and edges, by level of detail. Qt Gui only: the
/// scene's items (Widgets) and GraphExporter (pirscope-cli render) paint through it, and the
/// layout measures with it, so the window, the pictures and the boxes Graphviz places agree.
/// A value type; measuring is safe on any thread (fonts are reentrant).
class GraphStyle
{
public:
    explicit GraphStyle(bool dark = false);
    /// Dark when the palette's window colour is dark.
    static GraphStyle forPalette(const QPalette &palette);

    bool isDark() const { return m_dark; }
    const QFont &nodeFont() const { return m_nodeFont; }
    const QFont &ghostFont() const { return m_ghostFont; }
    const QFont &edgeFont() const { return m_edgeFont; }
    const QFont &groupFont() const { return m_groupFont; }

    /// The box of a node's own label (no chips), in points.
    QSizeF nodeSize(const GraphNode &node) const;
    /// The box of a collapsed group: title and op count.
    QSizeF collapsedGroupSize(const LayerGroup &group) const;
    /// An expanded group's frame around content of `content` size: wide enough for its title.
    QSizeF frameSize(const QSizeF &content, const LayerGroup &group) const;
    /// Offset of the content's top-left corner inside its frame.
    QPointF frameContentOffset() const;
    qreal frameTitleHeight() const;
    /// The "17 ops" line of a group box.
    static QString groupDetail(const LayerGroup &group);

    QColor background() const;
    QColor nodeFill(NodeKind kind, bool ghost) const;
    QColor textColor() const;
    QColor edgeColor() const;
    QColor selectionColor() const;
    QColor highlightColor() const;
    QColor matchColor() const;

    void paintNode(QPainter *painter, const NodeVisual &node, qreal lod) const;
    /// What a pass did to an op (NodeMarks::change): red removed, green added, amber changed;
    /// invalid for None and Kept.
    static QColor changeColor(NodeMarks::Change change);
    /// A run log's accuracy (NodeMarks::accuracy): grey not compared, green agrees, yellow
    /// close, red divergent; invalid for None.
    static QColor accuracyColor(NodeMarks::Accuracy accuracy);
    /// The bar of the bytes an op keeps for the backward (NodeMarks::keptBytes): purple.
    static QColor keptColor();
    /// The time overlay's colour of a share of the run (NodeMarks::timeShare), in four steps
    /// from pale yellow to dark red (kTimeShareSteps); invalid for a negative share.
    static QColor timeShareColor(float share);
    /// The lower bounds of the time overlay's steps, as shares of the run.
    static constexpr float kTimeShareSteps[4] = { 0.f, 0.01f, 0.05f, 0.2f };
    /// The colour of a label that shows what the run made rather than the program's type.
    QColor runtimeColor() const;
    /// The frame of an op whose results hold NaN or Inf.
    static QColor nonFiniteColor() { return QColor(0xf0, 0x8c, 0x00); }
    void paintGroup(QPainter *painter, const GroupVisual &group, qreal lod) const;
    void paintEdge(QPainter *painter, const EdgeVisual &edge, qreal lod) const;
    void paintCluster(QPainter *painter, const QRectF &rect, const QString &label, qreal lod) const;
    /// Where a group frame's collapse button is (scene coordinates), for hit tests.
    QRectF frameToggleRect(const QRectF &frame) const;

    /// The arrow head of an edge from Graphviz's arrow base to tip, as wide as `arrowsize=0.6`.
    static QPolygonF arrowHead(const QPointF &base, const QPointF &tip);
    /// The label box of an edge: beside the middle of its path.
    QRectF edgeLabelRect(const QPainterPath &path, const QString &label) const;

    /// On-screen scale below which a node is one filled rectangle.
    static constexpr qreal kFlatLod = 0.12;
    /// Below this only the title is drawn, enlarged to fill the box so it stays readable.
    static constexpr qreal kDetailLod = 0.6;
    /// Text smaller than this on screen (pixels) is not drawn.
    static constexpr qreal kMinTextPixels = 5.5;
    /// How far past its box's width an op's title may spread where the box is too small for it.
    static constexpr qreal kTitleOverflow = 1.4;
    static constexpr qreal kArrowLod = 0.25;
    static constexpr qreal kEdgeLabelLod = 0.75;

private:
    /// Draws `text` in `rect` with `font` enlarged by up to `maxScale`, as large as fits the box
    /// and never below kMinTextPixels on screen; a text too long for the box at that size spreads
    /// to `overflow` times its width, then is elided. False when it would be too small to read.
    bool drawFittedText(QPainter *painter, const QRectF &rect, const QString &text, QFont font, qreal lod,
        qreal maxScale, int flags, qreal overflow = 1) const;
    /// A closed layer's −/+/~ counts of what a pass did inside it, with a frame in `frame`.
    void paintChangeCounts(
        QPainter *painter, const QRectF &rect, const NodeMarks &marks, const QColor &frame, qreal lod) const;
    void paintMarks(
        QPainter *painter, const QRectF &rect, const NodeMarks &marks, qreal lod, bool ghost = false) const;

    bool m_dark;
    QFont m_nodeFont;
    QFont m_ghostFont;
    QFont m_edgeFont;
    QFont m_groupFont;
};

} // namespace ps
