#pragma once

#include "core/ir/program.h" // pipelineresult.h needs Program complete
#include "core/transform/pipelineresult.h"

#include <map>
#include <memory>
#include <utility>
#include <vector>

namespace ps {

class Operation;

/// The ops of the program a pipeline was built from (the loaded program the Program tab shows)
/// and their clones in the pipeline's forward and backward programs, both ways: what lets a
/// breakpoint or Run to Cursor set on the loaded program stop a train step, and the step's stops
/// show on the loaded program. The whole train program starts with the loaded program's
/// top-level ops at the same indices (backward and shadow outputs are appended), and
/// PipelineResult::wholeToSplit follows each through split_program and the passes; a nested op
/// keeps its region path below its top-level op. An op maps only when its clone has its name
/// (a pass may have replaced it); the map is empty when the whole program does not start with the
/// loaded program's ops. Holds both programs alive; immutable.
class PipelineOpMap
{
public:
    PipelineOpMap() = default;
    PipelineOpMap(std::shared_ptr<const Program> loaded, std::shared_ptr<const PipelineResult> pipeline);

    bool empty() const { return m_toSplit.empty(); }
    const Program *loaded() const { return m_loaded.get(); }
    /// The clone of `op` (an op of the loaded program) in the forward or backward program; null
    /// when `op` is not the loaded program's or has no clone of its name.
    const Operation *toSplit(const Operation *op) const;
    /// The loaded program's op whose clone `op` (of the forward or backward program) is; null
    /// when none.
    const Operation *toLoaded(const Operation *op) const;

private:
    std::shared_ptr<const Program> m_loaded;
    std::shared_ptr<const PipelineResult> m_pipeline;
    /// Per top-level op of the loaded program.
    std::vector<SplitOpIndex> m_toSplit;
    /// (segment, top-level index) → top-level index in the loaded program.
    std::map<std::pair<int, size_t>, size_t> m_toLoaded;
};

} // namespace ps
