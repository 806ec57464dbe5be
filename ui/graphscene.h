#pragma once

#include "core/graph/graphmodel.h"
#include "core/ir/operation.h" // complete type for the signal's meta type
#include "ui/common/nodemarks.h"
#include "ui/render/graphlayout.h"
#include "ui/render/graphstyle.h"

#include <QGraphicsScene>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ps {

class GraphEdgeItem;
class GraphGroupItem;
class GraphNodeItem;

/// The items of one laid-out GraphModel: nodes and ghost chips, layer groups (boxes and frames),
/// regions and edge pieces, all painted by one GraphStyle. Selecting a node reports its op (or,
/// for argument nodes, its value); highlight() marks ops and values without selecting them.
/// The selection, highlights, search matches and debugger marks survive a new layout of the
/// same model (a group opened or closed); an op inside a collapsed group is represented by
/// that group's box.
class GraphScene : public QGraphicsScene
{
    Q_OBJECT

public:
    explicit GraphScene(QObject *parent = nullptr);
    /// Destroys the items silently: deleting a selected item would report a selection change
    /// to panels that may be gone already.
    ~GraphScene() override;

    void setStyle(const GraphStyle &style);
    const GraphStyle &style() const { return m_style; }

    /// Replaces all items. `layout` must come from `model`.
    void setGraph(std::shared_ptr<const GraphModel> model, std::shared_ptr<const GraphLayout> layout);
    void clearGraph();
    const GraphModel *model() const { return m_model.get(); }
    std::shared_ptr<const GraphModel> sharedModel() const { return m_model; }
    const GraphLayout *graphLayout() const { return m_layout.get(); }
    std::shared_ptr<const GraphLayout> sharedLayout() const { return m_layout; }
    QRectF graphBounds() const { return m_layout ? m_layout->bounds : QRectF(); }

    /// The node of `op`, or (for ops drawn only as ghosts) its first ghost; nullptr if none is
    /// drawn (also when it is inside a collapsed group).
    GraphNodeItem *itemForOp(const Operation *op) const;
    /// The node standing for a block argument, or the producer's node; nullptr if none.
    GraphNodeItem *itemForValue(Value value) const;
    /// The node id of `op` (its first ghost for ghost-only ops), -1 when not in the graph.
    int nodeOfOp(const Operation *op) const;
    /// What shows `node` now: its item, or the collapsed group box it is inside.
    QGraphicsItem *visibleItemForNode(int node) const;
    const std::vector<GraphNodeItem *> &nodeItems() const { return m_nodeItems; }
    const std::vector<GraphEdgeItem *> &edgeItems() const { return m_edgeItems; }
    /// By group id; null for groups inside collapsed ones.
    const std::vector<GraphGroupItem *> &groupItems() const { return m_groupItems; }

    /// Selects the node of `op` (null clears), or the box of the collapsed group it is in,
    /// without emitting opSelected().
    void selectOp(const Operation *op);
    /// Selects `node`'s item (a ghost chip, an argument or an op) as a click would: opSelected()
    /// or valueSelected() is emitted.
    void selectNode(int node);
    /// Selects the node standing for `value` without emitting.
    void selectValue(Value value);
    const Operation *selectedOp() const { return m_selectedOp; }
    /// Marks these ops' nodes (ghosts included) and these values' nodes and edges.
    void highlight(const std::vector<const Operation *> &ops, const std::vector<Value> &values);
    void clearHighlight();
    /// Marks search matches (node ids); a collapsed group holding one is marked too.
    void setMatches(const std::vector<int> &nodes);

    /// Debugger marks on op nodes (an op drawn only as ghosts: its first ghost; an op inside a
    /// collapsed group: the group's box); replaces the previous marks and survives setGraph().
    void setOpMarks(const OpMarks &marks);
    const OpMarks &opMarks() const { return m_opMarks; }
    /// A Paddle run log's verdict per op (NodeMarks::accuracy), drawn with the debugger's marks
    /// and kept apart from them; an empty map removes the colours. Survives setGraph().
    void setOpAccuracy(const OpAccuracy &accuracy);
    const OpAccuracy &opAccuracy() const { return m_opAccuracy; }
    /// The bytes each op's results keep for the backward (the Memory dock's "show on the graph"),
    /// drawn as a bar under the node whose length is its share of the total; a collapsed layer
    /// shows its ops' sum. An empty map removes the bars. Survives setGraph().
    void setOpKeptBytes(const OpKeptBytes &kept);
    const OpKeptBytes &opKeptBytes() const { return m_opKept; }

    /// Asks the view to open or close `group` (a double-click on a group, its [−] button).
    void requestGroupToggle(int group) { emit groupToggleRequested(group); }

    /// The tooltip of a hovered node or edge (a GraphNodeItem or GraphEdgeItem); an empty
    /// answer keeps the item's own tooltip. The window describes values with it (type, names,
    /// the debugger's live statistics), which the items cannot know.
    using ToolTipProvider = std::function<QString(const QGraphicsItem *item)>;
    void setToolTipProvider(ToolTipProvider provider) { m_toolTipProvider = std::move(provider); }
    /// The topmost node, else edge with a value, at `scenePos` (edges are hit along their path).
    QGraphicsItem *itemAtPoint(const QPointF &scenePos) const;

signals:
    /// The user selected an op node or a ghost with a producer; null when selection cleared.
    void opSelected(ps::Operation *op);
    /// The user selected a block-argument node or ghost, or clicked an edge (its value).
    void valueSelected(ps::Value value);
    void groupToggleRequested(int group);

protected:
    void helpEvent(QGraphicsSceneHelpEvent *event) override;
    void mouseReleaseEvent(QGraphicsSceneMouseEvent *event) override;

private:
    void onSelectionChanged();
    void applySelection();
    void applyHighlight();
    void applyMatches();
    void applyOpMarks();
    /// Labels of parallel edges that would fall on one another: the first is drawn with a count
    /// of the others, which are hidden (GraphEdgeItem::setLabelCrowd).
    void spreadEdgeLabels();
    GraphGroupItem *collapsedGroupOf(int node) const;

    GraphStyle m_style;
    std::shared_ptr<const GraphModel> m_model;
    std::shared_ptr<const GraphLayout> m_layout;
    std::vector<GraphNodeItem *> m_nodeItems; ///< by node id (null where not shown)
    std::vector<GraphEdgeItem *> m_edgeItems;
    std::vector<GraphGroupItem *> m_groupItems; ///< by group id (null where not shown)
    std::unordered_map<Value, std::vector<GraphEdgeItem *>> m_edgesOfValue;
    // What survives a new layout of the same model.
    const Operation *m_selectedOp = nullptr;
    Value m_selectedValue;
    std::vector<const Operation *> m_highlightOps;
    std::vector<Value> m_highlightValues;
    std::vector<int> m_matches;
    OpMarks m_opMarks;
    OpAccuracy m_opAccuracy;
    OpKeptBytes m_opKept;
    std::vector<QGraphicsItem *> m_decorated; ///< items with a highlight or match to clear
    std::vector<QGraphicsItem *> m_marked;
    bool m_silent = false;
    QGraphicsItem *m_lastSelected = nullptr; ///< the node selected before the change now reported
    ToolTipProvider m_toolTipProvider;
};

} // namespace ps
