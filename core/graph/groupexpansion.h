#pragma once

#include "core/graph/graphmodel.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ps {

/// Which layer groups of a GraphModel are expanded (drawn as a frame around their items) and
/// which collapsed (one box). The top level (-1) is always expanded. A value type: views keep
/// one per model, the layout is a function of (model, expansion).
class GroupExpansion
{
public:
    /// Items shown at most by defaults(): about what Graphviz lays out in well under a second
    /// as a handful of group layouts.
    static constexpr size_t kDefaultBudget = 320;

    GroupExpansion() = default;
    /// Every group collapsed.
    explicit GroupExpansion(const GraphModel &model);
    /// Every group expanded: the whole graph (what an export draws).
    static GroupExpansion all(const GraphModel &model);
    /// Expands groups breadth-first (outer layers first, then in program order) while the
    /// number of visible items stays within `budget`; the unused group stays collapsed. A
    /// graph with fewer items than the budget opens fully expanded.
    static GroupExpansion defaults(const GraphModel &model, size_t budget = kDefaultBudget);
    /// Expands the groups whose paths are in `paths` (those of another model of the same
    /// program: a pass toggled, the pipeline recomputed); unknown paths are ignored.
    static GroupExpansion fromPaths(const GraphModel &model, const std::vector<std::string> &paths);

    bool isExpanded(int group) const
    {
        return group < 0 || (size_t(group) < m_expanded.size() && m_expanded[size_t(group)]);
    }
    void setExpanded(int group, bool expanded);
    /// Expands or collapses `group` and every group inside it.
    void setSubtreeExpanded(const GraphModel &model, int group, bool expanded);
    /// Expands every group enclosing `node` so that it is drawn itself.
    void reveal(const GraphModel &model, int node);
    /// True when every group enclosing `group` is expanded (the group is drawn, as a box or a
    /// frame).
    bool isShown(const GraphModel &model, int group) const;
    /// What stands for `node` on screen: the node (a ghost: its consumer) when every group
    /// around it is expanded, otherwise the outermost collapsed group around it.
    GroupItem visibleItem(const GraphModel &model, int node) const;
    /// Boxes drawn: nodes and collapsed groups (frames and ghost chips aside). defaults() keeps
    /// this within its budget.
    size_t visibleItemCount(const GraphModel &model) const;
    std::vector<std::string> expandedPaths(const GraphModel &model) const;

    friend bool operator==(const GroupExpansion &, const GroupExpansion &) = default;

private:
    std::vector<char> m_expanded;
};

} // namespace ps
