#pragma once

#include "core/graph/dotwriter.h"
#include "core/graph/graphmodel.h"
#include "core/graph/groupdotwriter.h"
#include "core/graph/groupexpansion.h"
#include "ui/render/graphlayout.h"
#include "ui/render/graphstyle.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <functional>
#include <memory>

namespace ps {

/// Lays out a grouped GraphModel the way Model Explorer does: each expanded group's items (its
/// ops, its child groups as boxes, ports for what enters and leaves it) get a Graphviz layout
/// of their own, innermost first so that a frame's size is known before its parent is laid
/// out; the layouts are then nested and the edges joined through the ports. A group's layout
/// is cached by its DOT text, so expanding or collapsing a group lays out only that group and
/// its ancestors (each a handful of items), and going back is free.
///
/// Not thread safe: one engine per GraphvizLayout, used only on its Graphviz thread. Node
/// sizes are measured once per model with the style's fonts.
class GroupLayoutEngine
{
public:
    struct Request
    {
        std::shared_ptr<const GraphModel> model;
        GroupExpansion expansion;
        int rootGroup = -1;
        GraphStyle style;
        DotWriterOptions dot;
    };

    explicit GroupLayoutEngine(int cacheCapacity = 4096);
    ~GroupLayoutEngine();

    /// `gvc`: the Graphviz thread's context. `canceled` is asked between group layouts (a
    /// canceled layout returns null with an empty error); `progress` gets (done, total).
    std::shared_ptr<GraphLayout> layout(void *gvc, const Request &request,
        const std::function<bool()> &canceled, const std::function<void(int, int)> &progress, QString *error);
    void clearCache();
    int cachedLayouts() const { return int(m_cache.size()); }

private:
    struct Local;
    class Composer;

    void prepare(const Request &request);
    void measureGroup(int group, const GraphStyle &style);
    /// A cached layout of `dot`, else Graphviz's, `elements` (boxes + edges) reserved in the
    /// MemoryBudget while it runs: a graph whose estimate does not fit is refused before Graphviz
    /// allocates (a 10,000-op fan-out took 330 MB, a 200,000-op one 2.9 GB).
    std::shared_ptr<const LayoutResult> cachedOrRun(
        void *gvc, const QByteArray &dot, size_t elements, GraphLayout &stats, QString *error);
    /// Graphviz's memory per box or edge of a graph, with the margin of the fan-outs measured.
    static constexpr uint64_t kBytesPerElement = 16 << 10;
    static std::shared_ptr<const LayoutResult> gridLayout(const std::vector<GroupItem> &items,
        const std::vector<NodeSize> &nodeSizes, const std::vector<NodeSize> &groupSizes);
    /// A group whose items form one chain in program order (values enter its first item and
    /// leave its last): stacked without Graphviz. Null when the group is not such a chain.
    static std::shared_ptr<const LayoutResult> chainLayout(const GroupDotWriter::Graph &graph,
        const std::vector<NodeSize> &nodeSizes, const std::vector<NodeSize> &groupSizes,
        const GroupExpansion &expansion);

    std::shared_ptr<const GraphModel> m_model;
    QString m_fontKey;
    std::unique_ptr<GroupDotWriter> m_writer;
    std::vector<std::vector<int>> m_nodesOfGroup; ///< group + 1 → every node drawn in it
    std::vector<std::vector<int>> m_ghosts; ///< attached ghosts per consumer
    std::vector<char> m_measuredGroup; ///< group + 1 → sizes of its nodes known
    std::vector<NodeSize> m_ownSizes; ///< by node id: label box without chips
    std::vector<NodeSize> m_boxSizes; ///< by node id: with chips

    QHash<QByteArray, std::shared_ptr<const LayoutResult>> m_cache;
    QList<QByteArray> m_cacheOrder; ///< most recently used last
    int m_cacheCapacity;
};

} // namespace ps
