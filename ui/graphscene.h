#pragma once

#include "core/graph/dotwriter.h"
#include "core/graph/graphmodel.h"
#include "core/ir/operation.h" // complete type for the signal's meta type
#include "ui/layoutresult.h"
#include "ui/nodemarks.h"

#include <QFont>
#include <QGraphicsScene>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ps {

class GraphEdgeItem;
class GraphNodeItem;

/// The items of one laid-out GraphModel. Selecting a node reports its op (or, for argument
/// nodes, its value); highlight() marks a set of ops and values without selecting them.
class GraphScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit GraphScene(QObject *parent = nullptr);
    /// Destroys the items silently: deleting a selected item would report a selection change
    /// to panels that may be gone already.
    ~GraphScene() override;

    /// Box sizes (points) for every node, measured with the fonts the items paint with, to be
    /// passed to DotWriter so Graphviz lays out exactly the boxes that are drawn.
    std::vector<NodeSize> measureNodes(const GraphModel &model) const;

    /// Replaces all items. `layout` must come from the DOT of `model`; ghosts it did not place
    /// are drawn as chips inside their consumer's box.
    void setGraph(std::shared_ptr<const GraphModel> model, std::shared_ptr<const LayoutResult> layout);
    void clearGraph();
    const GraphModel *model() const { return m_model.get(); }
    QRectF graphBounds() const { return m_layout ? m_layout->bounds : QRectF(); }

    /// The node of `op`, or (for ops drawn only as ghosts) its first ghost; nullptr if none.
    GraphNodeItem *itemForOp(const Operation *op) const;
    /// The node standing for a block argument, or the producer's node; nullptr if none.
    GraphNodeItem *itemForValue(Value value) const;
    const std::vector<GraphNodeItem *> &nodeItems() const { return m_nodeItems; }
    const std::vector<GraphEdgeItem *> &edgeItems() const { return m_edgeItems; }

    /// Selects the node of `op` (null clears) without emitting opSelected().
    void selectOp(const Operation *op);
    /// Selects the node standing for `value` without emitting.
    void selectValue(Value value);
    /// Marks these ops' nodes (ghosts included) and these values' nodes and edges.
    void highlight(const std::vector<const Operation *> &ops, const std::vector<Value> &values);
    void clearHighlight();

    /// Debugger marks on op nodes (an op drawn only as ghosts: its first ghost); replaces the previous marks
    /// and survives setGraph().
    void setOpMarks(const OpMarks &marks);
    const OpMarks &opMarks() const { return m_opMarks; }

    QFont nodeFont() const { return m_nodeFont; }
    QFont ghostFont() const { return m_ghostFont; }

signals:
    /// The user selected an op node or a ghost with a producer; null when selection cleared.
    void opSelected(ps::Operation *op);
    /// The user selected a block-argument node or ghost.
    void valueSelected(ps::Value value);

private:
    void onSelectionChanged();
    void applyOpMarks();

    std::shared_ptr<const GraphModel> m_model;
    std::shared_ptr<const LayoutResult> m_layout;
    std::vector<GraphNodeItem *> m_nodeItems; ///< by node id (null where not laid out)
    std::vector<GraphEdgeItem *> m_edgeItems;
    std::unordered_map<Value, std::vector<GraphEdgeItem *>> m_edgesOfValue;
    std::vector<QGraphicsItem *> m_highlighted;
    OpMarks m_opMarks;
    std::vector<GraphNodeItem *> m_marked;
    QFont m_nodeFont;
    QFont m_ghostFont;
    QFont m_edgeFont;
    bool m_silent = false;
};

} // namespace ps
