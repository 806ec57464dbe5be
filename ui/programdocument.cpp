#include "ui/programdocument.h"

#include "core/graph/graphbuilder.h"
#include "core/ir/block.h"
#include "core/ir/program.h"

namespace ps {

ProgramDocument::ProgramDocument(
    std::unique_ptr<Program> program, QString path, LoadResult::Format format, double loadSeconds)
    : ProgramDocument(
        std::shared_ptr<const Program>(std::move(program)), std::move(path), format, loadSeconds)
{
}

ProgramDocument::ProgramDocument(std::shared_ptr<const Program> program, QString path,
    LoadResult::Format format, double loadSeconds, const GraphBuilderOptions &graph)
    : m_program(std::move(program))
    , m_path(std::move(path))
    , m_format(format)
    , m_loadSeconds(loadSeconds)
    , m_numbering(*m_program)
    , m_nameMap(*m_program)
    , m_inplace(*m_program)
    , m_graph(std::make_shared<GraphModel>(GraphBuilder(graph).build(*m_program)))
{
    m_program->block().walk([this](Operation *op) {
        m_indexOf.emplace(op, int(m_ops.size()));
        m_ops.push_back(op);
    });
}

int ProgramDocument::indexOf(const Operation *op) const
{
    auto it = m_indexOf.find(op);
    return it == m_indexOf.end() ? -1 : it->second;
}

size_t ProgramDocument::countOps(NodeKind kind) const
{
    size_t n = 0;
    for (const Operation *op : m_ops)
        n += GraphBuilder::kindOf(*op) == kind ? 1 : 0;
    return n;
}

} // namespace ps
