#include "core/session/runlogmatcher.h"

#include "core/analysis/valuenames.h"
#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/io/paddlerunlog.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"
#include "core/runtime/programposition.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace ps {

namespace {

/// How far past the last match the position fallback looks (ops, pre-order).
constexpr size_t kPositionWindow = 64;

/// Lets byName be searched with a record's string_view, without a std::string per record.
struct NameHash
{
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
};

std::string_view withoutDialect(std::string_view name)
{
    const size_t dot = name.find('.');
    return dot == std::string_view::npos ? name : name.substr(dot + 1);
}

std::string_view withoutInplace(std::string_view name)
{
    return !name.empty() && name.back() == '_' ? name.substr(0, name.size() - 1) : name;
}

/// Inplace pairs of `op` or of its `_` variant (the form inplace_pass would give it).
std::vector<OpIndexPair> inplacePairs(const Operation &op)
{
    const OpRegistry &registry = OpRegistry::instance();
    std::vector<OpIndexPair> pairs = registry.inplaceInfo(op.name());
    if (pairs.empty() && !op.name().ends_with("_"))
        pairs = registry.inplaceInfo(std::string(op.name()) + "_");
    return pairs;
}

int64_t staticNumel(Value v)
{
    return v.type() ? v.type().numElements() : -1;
}

} // namespace

struct RunLogMatcher::Indexed
{
    const Program *program = nullptr;
    std::vector<Value> vars; ///< Paddle's scope variables of the top block, in creation order
    std::unordered_map<std::string, std::vector<Value>, NameHash, std::equal_to<>> byName;
    std::vector<const Operation *> ops; ///< pre-order
    std::unordered_map<const Operation *, size_t> opOrder;
    ValueNumbering numbering;

    explicit Indexed(const Program &p)
        : program(&p)
        , numbering(p)
    {
        const Block &top = p.block();
        vars = scopeVariables(p);
        auto name = [&](Value v) {
            for (std::string &n : ValueNames::allNameStrings(v))
                byName[std::move(n)].push_back(v);
        };
        for (Value v : vars)
            name(v);
        top.walk([&](Operation *op) {
            opOrder.emplace(op, ops.size());
            ops.push_back(op);
            if (op->parentBlock() != &top)
                for (unsigned i = 0; i < op->numResults(); ++i)
                    name(op->result(i));
        });
    }

    /// The op and result a record of kernel `kernel` shows when it names variable `v`: v's
    /// defining op, or an inplace user of v that overwrote it (its aliased result).
    std::optional<RunLogMatch> resolve(Value v, std::string_view kernel) const
    {
        if (!v)
            return std::nullopt;
        if (const Operation *def = v.definingOp(); def && sameKernel(kernel, def->name()))
            return RunLogMatch { RunLogMatch::How::Name, -1, def, v };
        for (OpOperand *use = v.firstUse(); use; use = use->nextUse()) {
            const Operation *user = use->owner();
            if (!sameKernel(kernel, user->name()))
                continue;
            for (const OpIndexPair &pair : inplacePairs(*user))
                if (unsigned(pair.input) == use->index() && unsigned(pair.output) < user->numResults())
                    return RunLogMatch { RunLogMatch::How::Name, -1, user, user->result(pair.output) };
        }
        return std::nullopt;
    }
};

RunLogMatcher::RunLogMatcher(std::vector<Input> programs)
    : m_inputs(std::move(programs))
{
    for (const Input &input : m_inputs)
        m_indexed.push_back(std::make_unique<Indexed>(*input.program));
}

RunLogMatcher::~RunLogMatcher() = default;

std::vector<Value> RunLogMatcher::scopeVariables(const Program &program)
{
    const Block &top = program.block();
    std::vector<Value> vars = top.kwargs();
    for (Value v : top.arguments())
        vars.push_back(v);
    for (const Operation *op : top.ops()) {
        if (ops::isBuiltinSplit(*op) || op->name() == "builtin.slice")
            continue; // their results alias the combine's variables
        for (unsigned i = 0; i < op->numResults(); ++i)
            if (op->result(i).type()) // a <<NULL TYPE>> result (a gradient nobody needs) gets no variable
                vars.push_back(op->result(i));
    }
    return vars;
}

bool RunLogMatcher::sameKernel(std::string_view kernel, std::string_view opName)
{
    return withoutInplace(kernel) == withoutInplace(withoutDialect(opName));
}

const std::string &RunLogMatcher::Result::reason(size_t record) const
{
    static const std::string none;
    const uint32_t r = record < reasonOf.size() ? reasonOf[record] : 0;
    return r == 0 ? none : reasonTexts[r - 1];
}

RunLogMatcher::Result RunLogMatcher::match(const PaddleRunLog &log) const
{
    Result result;
    result.matches.resize(log.records.size());
    std::unordered_map<std::string_view, int> prefixProgram;
    std::vector<size_t> lastOp(m_indexed.size(), 0); // pre-order index past the last match
    std::unordered_set<const ValueImpl *> positioned; // values taken by the position fallback
    std::unordered_set<std::string_view> kernels;
    for (const auto &indexed : m_indexed)
        for (const Operation *op : indexed->ops)
            kernels.insert(withoutInplace(withoutDialect(op->name())));
    int current = 0;
    std::vector<int> order; // programs to try for one record, reused

    result.reasonOf.assign(log.records.size(), 0);
    std::unordered_map<std::string, uint32_t> reasonIndex;
    auto unmatched = [&](size_t record, const std::string &reason) {
        Result::Unmatched &u = result.unmatchedReasons[reason];
        if (u.count++ == 0)
            u.firstRecord = record;
        auto [it, added] = reasonIndex.try_emplace(reason, uint32_t(result.reasonTexts.size() + 1));
        if (added)
            result.reasonTexts.push_back(reason);
        result.reasonOf[record] = it->second;
    };

    for (size_t i = 0; i < log.records.size(); ++i) {
        const PaddleRunLogRecord &r = log.records[i];
        std::optional<RunLogMatch> found;
        // Programs in the order to try: the one this prefix is bound to, the current one, later
        // ones, then earlier ones.
        order.clear();
        const std::string_view prefix = r.innerPrefix();
        const std::optional<int64_t> inner = r.innerIndex();
        if (auto it = prefixProgram.find(prefix); inner && it != prefixProgram.end())
            order.push_back(it->second);
        for (int p = current; p < int(m_indexed.size()); ++p)
            order.push_back(p);
        for (int p = 0; p < current; ++p)
            order.push_back(p);

        if (!r.tensor.empty()) {
            for (int p : order) {
                const Indexed &ix = *m_indexed[p];
                if (inner) {
                    if (*inner < int64_t(ix.vars.size()))
                        found = ix.resolve(ix.vars[size_t(*inner)], r.op);
                    if (found)
                        found->how = RunLogMatch::How::InnerIndex;
                } else if (auto it = ix.byName.find(r.tensor); it != ix.byName.end()) {
                    for (Value v : it->second)
                        if ((found = ix.resolve(v, r.op)))
                            break;
                }
                if (found) {
                    found->program = p;
                    if (inner && !prefixProgram.count(prefix))
                        prefixProgram.emplace(prefix, p);
                    break;
                }
            }
        }
        if (!found && !withoutInplace(r.op).empty() && kernels.count(withoutInplace(r.op))) {
            // Position: the next op of this kind after the last match, with an unclaimed float
            // result of the record's element count.
            const int p = inner && prefixProgram.count(prefix) ? prefixProgram[prefix] : current;
            const Indexed &ix = *m_indexed[size_t(p)];
            const size_t from
                = lastOp[size_t(p)] > kPositionWindow / 4 ? lastOp[size_t(p)] - kPositionWindow / 4 : 0;
            for (size_t k = from; !found && k < std::min(ix.ops.size(), from + kPositionWindow); ++k) {
                const Operation *op = ix.ops[k];
                if (!sameKernel(r.op, op->name()))
                    continue;
                for (unsigned j = 0; j < op->numResults(); ++j) {
                    const Value v = op->result(j);
                    const int64_t n = staticNumel(v);
                    if ((n >= 0 && n != r.stats.numel) || positioned.count(v.impl()))
                        continue;
                    found = RunLogMatch { RunLogMatch::How::Position, p, op, v };
                    positioned.insert(v.impl());
                    break;
                }
            }
        }
        if (!found) {
            if (r.tensor.empty())
                unmatched(i,
                    "no tensor name (an eager op outside the programs, e.g. the output gradient's "
                    "full_like)");
            else if (!kernels.count(withoutInplace(r.op)))
                unmatched(i, "no `" + std::string(r.op) + "` op in the programs");
            else if (inner)
                unmatched(i,
                    "internal variable not found: no `" + std::string(r.op)
                        + "` result or inplace operand at that scope index");
            else
                unmatched(i, "no `" + std::string(r.op) + "` op computes a variable of that name");
            continue;
        }
        ++result.matched;
        ++(found->how == RunLogMatch::How::Name              ? result.byName
                : found->how == RunLogMatch::How::InnerIndex ? result.byInnerIndex
                                                             : result.byPosition);
        current = std::max(current, found->program);
        const Indexed &ix = *m_indexed[size_t(found->program)];
        if (auto it = ix.opOrder.find(found->op); it != ix.opOrder.end())
            lastOp[size_t(found->program)] = std::max(lastOp[size_t(found->program)], it->second + 1);
        result.matches[i] = *found;
    }
    return result;
}

std::string RunLogMatcher::opLabel(const RunLogMatch &match) const
{
    if (match.program < 0 || !match.op)
        return {};
    const std::string position = ProgramPosition::of(match.op, 0).toString(); // "0:12", "0:12/0:3"
    return m_inputs[size_t(match.program)].label + ":" + position.substr(position.find(':') + 1);
}

std::string RunLogMatcher::valueLabel(const RunLogMatch &match) const
{
    if (match.program < 0 || !match.value)
        return {};
    return m_indexed[size_t(match.program)]->numbering.name(match.value);
}

} // namespace ps
