#pragma once

#include "core/analysis/inplacegroups.h"
#include "core/analysis/valuenamemap.h"
#include "core/graph/graphbuilder.h"
#include "core/graph/graphmodel.h"
#include "core/io/loadresult.h"
#include "core/ir/block.h" // region.h (via loadresult.h) needs Block complete
#include "core/ir/valuenumbering.h"

#include <QString>
#include <memory>
#include <unordered_map>
#include <vector>

namespace ps {

/// A loaded program with everything the panels show about it: value ids, the value-name map,
/// inplace groups, the op list in walk order and the graph model. Immutable once built; the
/// UI shares it through std::shared_ptr<const ProgramDocument>.
class ProgramDocument
{
public:
    /// Takes the program of a successful load. O(ops + uses).
    ProgramDocument(
        std::unique_ptr<Program> program, QString path, LoadResult::Format format, double loadSeconds);
    /// Shares a program that nobody mutates (a PipelineResult's, a pipeline source's): the
    /// document can be built on a worker thread while other threads read the program too.
    /// `graph` shapes the graph model (a split backward's grad-op links, for its layers); what
    /// it points to is read during construction only.
    ProgramDocument(std::shared_ptr<const Program> program, QString path,
        LoadResult::Format format = LoadResult::Format::Unknown, double loadSeconds = 0,
        const GraphBuilderOptions &graph = {});

    const Program &program() const { return *m_program; }
    std::shared_ptr<const Program> sharedProgram() const { return m_program; }
    const QString &path() const { return m_path; }
    LoadResult::Format format() const { return m_format; }
    double loadSeconds() const { return m_loadSeconds; }

    const ValueNumbering &numbering() const { return m_numbering; }
    /// "%3", "%arg_0", ... as QString.
    QString valueId(Value v) const { return QString::fromStdString(m_numbering.name(v)); }
    const ValueNameMap &nameMap() const { return m_nameMap; }
    const InplaceGroups &inplaceGroups() const { return m_inplace; }
    std::shared_ptr<const GraphModel> graph() const { return m_graph; }

    /// Every op, nested ones included, in pre-order walk order.
    const std::vector<Operation *> &ops() const { return m_ops; }
    /// Row of `op` in ops(), or -1.
    int indexOf(const Operation *op) const;
    /// Number of ops per kind of the graph ("compute" ...), for the status bar.
    size_t countOps(NodeKind kind) const;

private:
    std::shared_ptr<const Program> m_program;
    QString m_path;
    LoadResult::Format m_format;
    double m_loadSeconds;
    ValueNumbering m_numbering;
    ValueNameMap m_nameMap;
    InplaceGroups m_inplace;
    std::shared_ptr<const GraphModel> m_graph;
    std::vector<Operation *> m_ops;
    std::unordered_map<const Operation *, int> m_indexOf;
};

} // namespace ps
