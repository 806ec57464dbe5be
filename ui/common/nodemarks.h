#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps {

class Operation;

/// What a debugger shows on one op's node: the op it is paused at, a breakpoint, a failure, a
/// NaN/Inf result and the time of its latest execution; and what a pass did to the op (the pass
/// view's graph diff).
struct NodeMarks
{
    /// What a pass did to the op: removed ops are drawn red, added ones green, changed ones
    /// amber; None (the default) draws the op as usual.
    enum class Change : unsigned char { None, Kept, Changed, Removed, Added };

    bool current = false;
    bool breakpoint = false;
    /// The breakpoint exists but is switched off (drawn hollow).
    bool breakpointDisabled = false;
    bool error = false;
    bool nonFinite = false;
    /// Wall time of the latest execution in milliseconds; negative when not executed.
    double milliseconds = -1;
    double deviceMilliseconds = -1;
    Change change = Change::None;
    /// Drawn faint: not part of the program shown (a removed op in the picture after the pass).
    bool faded = false;
    /// How a Paddle run log's statistics of the op's results compare with PIRScope's run (the
    /// worst record of the op), in increasing severity: a collapsed layer shows its worst op.
    enum class Accuracy : unsigned char {
        None, ///< no record of the op (or no log loaded)
        NotCompared, ///< records matched the op but PIRScope's run did not compute it (grey)
        Agrees, ///< within a tenth of the tolerance (green)
        Close, ///< within the tolerance (yellow)
        Divergent, ///< beyond the tolerance (red)
    };
    Accuracy accuracy = Accuracy::None;
    /// Bytes of the op's results the forward keeps for the backward (the memory model; a
    /// collapsed layer: its ops' sum), and their share of all the forward keeps (0 to 1).
    int64_t keptBytes = 0;
    float keptShare = 0;
    /// A collapsed layer in a pass diff: how many ops inside it the pass removed, added and
    /// changed (drawn as a −/+/~ badge on the closed box).
    int removedInside = 0;
    int addedInside = 0;
    int changedInside = 0;
    /// The shape of each result as the latest execution made it (empty for a result that is not
    /// a tensor, or a 0-d one): the labels show it where the program's type differs (dynamic
    /// dims). Empty when the op did not run.
    std::vector<std::vector<int64_t>> runtimeShapes;
    /// The shape of each result inferred from the input shapes (ShapeInference), for an op
    /// whose results have dynamic dims: the labels show it until a run gives runtimeShapes. An
    /// empty entry for a result that stays unknown; `shapeUnknown` then says why (the first one).
    std::vector<std::vector<int64_t>> inferredShapes;
    std::string shapeUnknown;
    /// The time overlay: the op's share (0 to 1) of the run's device time, all its executions
    /// summed (a collapsed layer: its ops' sum); negative when the overlay is off or it did not
    /// run.
    float timeShare = -1;

    /// Nothing marked; the inferred shapes only relabel a node (hasInferredShapes()).
    bool empty() const
    {
        return !current && !breakpoint && !error && !nonFinite && milliseconds < 0 && change == Change::None
            && !faded && accuracy == Accuracy::None && keptBytes == 0 && removedInside == 0
            && addedInside == 0 && changedInside == 0 && runtimeShapes.empty() && timeShare < 0;
    }
    bool hasInferredShapes() const { return !inferredShapes.empty() || !shapeUnknown.empty(); }
    friend bool operator==(const NodeMarks &, const NodeMarks &) = default;
};

/// Marks by op; ops without an entry have none.
using OpMarks = std::unordered_map<const Operation *, NodeMarks>;
/// A run log's colours by op (GraphScene::setOpAccuracy); ops without an entry have none.
using OpAccuracy = std::unordered_map<const Operation *, NodeMarks::Accuracy>;
/// Bytes kept for the backward by op (GraphScene::setOpKeptBytes).
using OpKeptBytes = std::unordered_map<const Operation *, int64_t>;

} // namespace ps
