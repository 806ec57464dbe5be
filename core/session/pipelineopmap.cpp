#include "core/session/pipelineopmap.h"

#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/programposition.h"

namespace ps {

namespace {

const Program *segmentProgram(const PipelineResult &pipeline, int segment)
{
    return segment == 0 ? pipeline.forward.get() : segment == 1 ? pipeline.backward.get() : nullptr;
}

/// `op` at the same region path below the top-level op `top` of `to`, when it has `op`'s name.
const Operation *samePath(const Operation *op, const Program &from, size_t top, const Program &to)
{
    if (!op || !op->parentBlock() || op->parentBlock()->program() != &from)
        return nullptr;
    ProgramPosition position = ProgramPosition::of(op, 0);
    if (!position.valid())
        return nullptr;
    position.path[0] = top;
    const Operation *found = position.resolve(to);
    return found && found->name() == op->name() ? found : nullptr;
}

} // namespace

PipelineOpMap::PipelineOpMap(
    std::shared_ptr<const Program> loaded, std::shared_ptr<const PipelineResult> pipeline)
    : m_loaded(std::move(loaded))
    , m_pipeline(std::move(pipeline))
{
    if (!m_loaded || !m_pipeline || !m_pipeline->ok() || !m_pipeline->whole)
        return;
    const Block &origin = m_loaded->block();
    const Block &whole = m_pipeline->whole->block();
    const std::vector<SplitOpIndex> &at = m_pipeline->wholeToSplit;
    if (origin.size() > whole.size() || origin.size() > at.size())
        return;
    for (size_t i = 0; i < origin.size(); ++i)
        if (origin.op(i)->name() != whole.op(i)->name())
            return; // not the loaded program's ops at the same indices
    m_toSplit.assign(at.begin(), at.begin() + long(origin.size()));
    for (size_t i = 0; i < m_toSplit.size(); ++i) {
        const SplitOpIndex &split = m_toSplit[i];
        const Program *program = segmentProgram(*m_pipeline, split.segment);
        if (!program || split.index >= program->block().size()
            || program->block().op(split.index)->name() != origin.op(i)->name()) {
            m_toSplit[i] = SplitOpIndex {};
            continue;
        }
        m_toLoaded.emplace(std::make_pair(split.segment, split.index), i);
    }
}

const Operation *PipelineOpMap::toSplit(const Operation *op) const
{
    if (empty() || !op || !op->parentBlock() || op->parentBlock()->program() != m_loaded.get())
        return nullptr;
    const ProgramPosition position = ProgramPosition::of(op, 0);
    if (!position.valid() || position.path[0] >= m_toSplit.size())
        return nullptr;
    const SplitOpIndex &split = m_toSplit[position.path[0]];
    const Program *program = segmentProgram(*m_pipeline, split.segment);
    return program ? samePath(op, *m_loaded, split.index, *program) : nullptr;
}

const Operation *PipelineOpMap::toLoaded(const Operation *op) const
{
    if (empty() || !op || !op->parentBlock())
        return nullptr;
    const Program *program = op->parentBlock()->program();
    for (int segment = 0; segment < 2; ++segment) {
        if (program != segmentProgram(*m_pipeline, segment))
            continue;
        const ProgramPosition position = ProgramPosition::of(op, size_t(segment));
        if (!position.valid())
            return nullptr;
        const auto it = m_toLoaded.find({ segment, position.path[0] });
        return it == m_toLoaded.end() ? nullptr : samePath(op, *program, it->second, *m_loaded);
    }
    return nullptr;
}

} // namespace ps
