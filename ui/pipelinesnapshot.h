#pragma once

#include "core/ir/program.h" // runnableprogram.h needs Program complete
#include "core/session/memorymodel.h"
#include "core/session/pipelinesource.h"
#include "core/transform/forwardbackwardcut.h"
#include "core/transform/pipelineresult.h"

#include <QString>
#include <QStringList>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ps {

class Operation;
class ProgramDocument;

/// One computed dy2static pipeline (train or infer) with everything the views show: the core
/// PipelineResult, a ProgramDocument per split program, the forward/backward cut and the
/// grad-op links as op pointers. Built on a worker thread by compute(); immutable afterwards,
/// and the UI only reads it.
struct PipelineSnapshot
{
    bool training = false;
    PipelineResult result;
    /// Null when the pipeline failed (see notice and diagnostics).
    std::shared_ptr<const ProgramDocument> forward;
    std::shared_ptr<const ProgramDocument> backward;
    std::vector<CrossingValue> cut;
    int64_t keptBytes = 0; ///< ForwardBackwardCut::keptBytes
    size_t dynamicValues = 0; ///< crossing values without a static size
    /// The memory model of the step (train: forward then backward; infer: the forward) on the
    /// CPU: what the Memory dock charts and the cut's "kept" figure. Null when the pipeline failed.
    std::shared_ptr<const MemoryReport> memory;
    /// From result.splitGradOps: forward op → the grad ops made from it, and back.
    std::unordered_map<const Operation *, std::vector<const Operation *>> gradOpsOf;
    std::unordered_map<const Operation *, const Operation *> forwardOpOf;
    std::vector<PassInfo> passes;
    /// One sentence for the UI about the backward side: why it is empty (infer mode, nothing
    /// needs a gradient) or why the pipeline failed; empty for a train snapshot with a backward.
    QString notice;
    QStringList diagnostics;
    double seconds = 0;

    bool ok() const { return forward != nullptr && backward != nullptr; }

    /// PipelineSource::buildPipeline with the passes switched as `passes`, then the views' data.
    /// Thread-safe: reads `source` only. O(pipeline) plus two graph models.
    static std::shared_ptr<const PipelineSnapshot> compute(
        const PipelineSource &source, bool training, const PassSwitches &passes);
};

} // namespace ps
