#include "core/analysis/inplacegroups.h"

#include "core/analysis/unionfind.h"
#include "core/analysis/valuenamemap.h"
#include "core/analysis/valuenames.h"
#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <algorithm>
#include <limits>
#include <set>

namespace ps {

namespace {

/// Position of every top-level value of `program` in program order: kwargs, positional
/// arguments, then op results in op order. The null value comes first.
std::unordered_map<Value, size_t> programOrder(const Program &program)
{
    std::unordered_map<Value, size_t> pos;
    pos.emplace(Value(), 0);
    if (program.region().numBlocks() == 0)
        return pos;
    const Block &block = program.block();
    for (Value v : block.kwargs())
        pos.emplace(v, pos.size());
    for (Value v : block.arguments())
        pos.emplace(v, pos.size());
    for (const Operation *op : block.ops())
        for (unsigned i = 0; i < op->numResults(); ++i)
            pos.emplace(op->result(i), pos.size());
    return pos;
}

} // namespace

std::vector<OpIndexPair> InplaceGroups::registryInplaceInfo(const Operation *op)
{
    const OpRegistry &registry = OpRegistry::instance();
    std::vector<OpIndexPair> pairs = registry.inplaceInfo(op->name());
    if (pairs.empty()) {
        const Attribute *a = op->attribute("op_name");
        if (a && a->kind() == Attribute::Kind::String)
            pairs = registry.inplaceInfo(a->asString());
    }
    return pairs;
}

InplaceGroups::InplaceGroups(const Program &program1, const Program *program2, InplaceInfoFn inplaceInfo)
    : m_program1(&program1)
    , m_program2(program2)
{
    if (!inplaceInfo)
        inplaceInfo = &InplaceGroups::registryInplaceInfo;
    if (program1.region().numBlocks() == 0)
        return;
    const Block &block = program1.block();

    // _get_name_defining_op: the first top-level op naming the value.
    for (Operation *op : block.ops()) {
        const std::string_view name = op->name();
        if ((name == ops::kSetParameter || name == ops::kShadowOutput) && op->numOperands() > 0)
            m_nameDefiningOp.emplace(op->operand(0), op);
        else if ((name == ops::kParameter || name == ops::kData) && op->numResults() > 0)
            m_nameDefiningOp.emplace(op->result(0), op);
    }

    UnionFind uf;
    std::vector<InplaceEdge> edges;
    for (const Operation *op : block.ops()) {
        for (const OpIndexPair &pair : inplaceInfo(op)) {
            if (pair.output < 0 || unsigned(pair.output) >= op->numResults() || pair.input < 0
                || unsigned(pair.input) >= op->numOperands())
                continue;
            const Value left = op->result(unsigned(pair.output));
            const Value right = op->operand(unsigned(pair.input));
            if (hasName(left))
                uf.unite(right, left);
            else
                uf.unite(left, right);
            edges.push_back({ op, pair.output, pair.input });
        }
    }

    const ValueNameMap value2name(program1);

    // Renames, in iter_elements order.
    for (Value value : uf.elements()) {
        const Value root = uf.find(value);
        if (!hasName(root))
            continue;
        auto it = m_nameDefiningOp.find(value);
        if (it == m_nameDefiningOp.end() || !ops::isShadowOutput(*it->second))
            continue;
        const Attribute *a = it->second->attribute("output_name");
        if (!a || a->kind() != Attribute::Kind::String)
            continue;
        std::string newName = value2name.name(root).value_or(std::string());
        if (a->asString() == newName)
            continue;
        m_renames.push_back({ value, it->second, a->asString(), std::move(newName) });
    }

    if (program2 && program2->region().numBlocks() != 0) {
        std::set<std::string> kwargs;
        for (Value kw : program2->block().kwargs())
            kwargs.insert(kw.keyword());
        for (const ShadowOutputRename &r : m_renames) {
            if (!kwargs.count(r.from))
                continue;
            const bool created = kwargs.insert(r.to).second;
            kwargs.erase(r.from);
            m_kwargMoves.push_back({ r.from, r.to, created });
        }
    }

    // Groups, ordered by their first member in program order.
    const std::unordered_map<Value, size_t> order = programOrder(program1);
    const size_t unknown = std::numeric_limits<size_t>::max();
    auto position = [&](Value v) {
        auto it = order.find(v);
        return it == order.end() ? unknown : it->second;
    };
    std::unordered_map<Value, size_t> groupOfRoot;
    for (Value v : uf.elements()) {
        const Value root = uf.find(v);
        auto [it, inserted] = groupOfRoot.emplace(root, m_groups.size());
        if (inserted) {
            InplaceGroup g;
            g.root = root;
            if (hasName(root))
                g.rootName = value2name.name(root);
            g.rootFirstName = ValueNames::firstName(root);
            m_groups.push_back(std::move(g));
        }
        m_groups[it->second].members.push_back(v);
    }
    for (const InplaceEdge &e : edges)
        m_groups[groupOfRoot.at(uf.find(e.op->result(unsigned(e.output))))].edges.push_back(e);
    for (InplaceGroup &g : m_groups)
        std::stable_sort(
            g.members.begin(), g.members.end(), [&](Value a, Value b) { return position(a) < position(b); });
    std::stable_sort(m_groups.begin(), m_groups.end(), [&](const InplaceGroup &a, const InplaceGroup &b) {
        return position(a.members.front()) < position(b.members.front());
    });
    for (size_t i = 0; i < m_groups.size(); ++i)
        for (Value v : m_groups[i].members)
            m_groupOf.emplace(v, i);
}

const InplaceGroup *InplaceGroups::groupOf(Value value) const
{
    auto it = m_groupOf.find(value);
    return it == m_groupOf.end() ? nullptr : &m_groups[it->second];
}

const Operation *InplaceGroups::nameDefiningOp(Value value) const
{
    auto it = m_nameDefiningOp.find(value);
    return it == m_nameDefiningOp.end() ? nullptr : it->second;
}

bool InplaceGroups::apply(Program &program1, Program *program2) const
{
    if (&program1 != m_program1 || program2 != m_program2)
        return false;
    for (const ShadowOutputRename &r : m_renames) {
        r.op->setAttribute("output_name", Attribute::string(r.to));
        if (!program2 || program2->region().numBlocks() == 0)
            continue;
        Block &block = program2->block();
        const Value oldKw = block.kwarg(r.from);
        if (oldKw.isNull())
            continue;
        Value newKw = block.kwarg(r.to);
        if (newKw.isNull())
            newKw = block.addKwarg(r.to, oldKw.type());
        oldKw.replaceAllUsesWith(newKw);
        block.eraseKwarg(r.from);
    }
    return true;
}

} // namespace ps
