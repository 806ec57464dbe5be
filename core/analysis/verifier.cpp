#include "core/analysis/verifier.h"

#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirtextformat.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/ir/valuenumbering.h"

#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace ps {

namespace {

std::string plural(size_t n, const char *word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

std::string typeText(Type t)
{
    return PirTextFormat::typeText(t, Generation::C);
}

/// A rank-0 or rank-1 type with exactly one element: Paddle spells a scalar both ways.
bool isScalarLike(const std::vector<int64_t> &dims)
{
    return dims.empty() || (dims.size() == 1 && dims[0] == 1);
}

class Verifier
{
public:
    Verifier(const Program &program, const VerifyOptions &options)
        : m_program(program)
        , m_options(options)
        , m_registry(OpRegistry::instance())
    {
    }

    DiagnosticList run()
    {
        if (m_program.region().numBlocks() == 0) {
            m_diags.error(location(nullptr), "program has no top-level block");
            return std::move(m_diags);
        }
        m_ids.emplace(m_program);
        index(m_program.block(), "");
        for (const auto &[op, path] : m_order)
            verifyOp(op, path);
        return std::move(m_diags);
    }

private:
    void index(const Block &block, const std::string &prefix)
    {
        m_blocks.insert(&block);
        for (size_t i = 0; i < block.size(); ++i) {
            Operation *op = block.op(i);
            m_position.emplace(op, i);
            const std::string path = prefix + "#" + std::to_string(i);
            m_orderIndex.emplace(op, m_order.size());
            m_order.emplace_back(op, path);
            for (unsigned r = 0; r < op->numRegions(); ++r) {
                const Region &region = op->region(r);
                for (size_t b = 0; b < region.numBlocks(); ++b)
                    index(region.block(b),
                        path + "/r" + std::to_string(r) + (b ? "b" + std::to_string(b) : "") + "/");
            }
        }
    }

    void error(const Operation *op, const std::string &path, const std::string &message)
    {
        m_diags.error(location(op), label(op, path) + ": " + message);
    }

    void warning(const Operation *op, const std::string &path, const std::string &message)
    {
        m_diags.warning(location(op), label(op, path) + ": " + message);
    }

    SourceLocation location(const Operation *op) const
    {
        if (m_options.locator && op)
            return m_options.locator(op);
        SourceLocation loc;
        loc.file = m_options.file;
        return loc;
    }

    static std::string label(const Operation *op, const std::string &path)
    {
        return "op " + path + " (" + std::string(op->name()) + ")";
    }

    std::string opLabel(const Operation *op) const
    {
        auto it = m_orderIndex.find(op);
        return it == m_orderIndex.end() ? std::string(op->name()) : label(op, m_order[it->second].second);
    }

    void verifyOp(const Operation *op, const std::string &path)
    {
        const OpInfo *info = m_registry.lookup(op->name());
        verifyOperands(op, path, info);
        if (m_options.checkArity && info)
            verifyArity(op, path, *info);
        verifyRegions(op, path, info);
    }

    /// Registry inputs that are operands of `op`, in operand order: all inputs except mutable
    /// attributes that the op carries as attributes (older Paddle kept e.g. `mean`'s IntArray
    /// `axis` as an attribute; newer ones make it an operand).
    static std::vector<const OpInputInfo *> operandInputs(const Operation *op, const OpInfo &info)
    {
        std::vector<const OpInputInfo *> inputs;
        for (int k = 0; k < info.numInputs; ++k) {
            const OpInputInfo &in = info.inputs[k];
            if (!(in.mutableAttribute && op->hasAttribute(in.name)))
                inputs.push_back(&in);
        }
        return inputs;
    }

    void verifyOperands(const Operation *op, const std::string &path, const OpInfo *info)
    {
        std::vector<const OpInputInfo *> inputs;
        if (info && !info->variadicOperands)
            inputs = operandInputs(op, *info);
        for (unsigned i = 0; i < op->numOperands(); ++i) {
            const Value v = op->operand(i);
            if (v.isNull()) {
                if (!m_options.checkNullOperands)
                    continue;
                const OpInputInfo *input = i < inputs.size() ? inputs[i] : nullptr;
                if (input && input->optional)
                    continue;
                std::string what = "operand #" + std::to_string(i);
                if (input)
                    what += " (" + std::string(input->name) + ")";
                warning(op, path, what + " is null but the input is not optional");
                continue;
            }
            checkDefined(op, path, i, v);
        }
    }

    void checkDefined(const Operation *op, const std::string &path, unsigned i, Value v)
    {
        const std::string what = "operand #" + std::to_string(i) + " uses " + m_ids->name(v);
        if (v.isOpResult()) {
            const Operation *def = v.definingOp();
            if (!def || !m_position.count(def)) {
                error(op, path, what + ", whose defining op is not in the program");
                return;
            }
            const Block *defBlock = def->parentBlock();
            // Climb from the user to the ancestor op that sits in the defining block.
            const Operation *cur = op;
            while (cur && cur->parentBlock() != defBlock) {
                const Block *b = cur->parentBlock();
                cur = b ? b->parentOp() : nullptr;
            }
            if (!cur) {
                error(op, path,
                    what + ", defined by " + opLabel(def) + " in a region that does not enclose it");
                return;
            }
            if (m_position.at(def) >= m_position.at(cur))
                error(op, path, what + " before its definition by " + opLabel(def));
            return;
        }
        const Block *argBlock = v.parentBlock();
        if (!argBlock || !m_blocks.count(argBlock)) {
            error(op, path, what + ", a block argument of a block that is not in the program");
            return;
        }
        const Block *b = op->parentBlock();
        while (b && b != argBlock) {
            const Operation *parent = b->parentOp();
            b = parent ? parent->parentBlock() : nullptr;
        }
        if (!b)
            error(op, path, what + ", a block argument of a block that does not enclose it");
    }

    void verifyArity(const Operation *op, const std::string &path, const OpInfo &info)
    {
        const std::vector<const OpInputInfo *> inputs = operandInputs(op, info);
        if (!info.variadicOperands && op->numOperands() != inputs.size()) {
            std::string names;
            for (const OpInputInfo *in : inputs)
                names += (names.empty() ? "" : ", ") + std::string(in->name);
            error(op, path,
                "has " + plural(op->numOperands(), "operand") + ", expected " + std::to_string(inputs.size())
                    + (names.empty() ? "" : " (" + names + ")"));
        }
        if (!info.variadicResults && int(op->numResults()) != info.numOutputs) {
            std::string names;
            for (int k = 0; k < info.numOutputs; ++k)
                names += (k ? ", " : "") + std::string(info.outputs[k].name);
            error(op, path,
                "has " + plural(op->numResults(), "result") + ", expected " + std::to_string(info.numOutputs)
                    + (names.empty() ? "" : " (" + names + ")"));
        }
        if (int(op->numRegions()) != info.numRegions)
            error(op, path,
                "has " + plural(op->numRegions(), "region") + ", expected "
                    + std::to_string(info.numRegions));
    }

    void verifyRegions(const Operation *op, const std::string &path, const OpInfo *info)
    {
        for (unsigned r = 0; r < op->numRegions(); ++r)
            if (op->region(r).empty())
                error(op, path, "region #" + std::to_string(r) + " has no block");
        if (ops::isIf(*op))
            verifyIf(op, path, info);
        else if (ops::isWhile(*op))
            verifyWhile(op, path, info);
    }

    /// The single block of region `r`, or nullptr (after reporting) when it has another count.
    const Block *singleBlock(const Operation *op, const std::string &path, unsigned r)
    {
        const Region &region = op->region(r);
        if (region.numBlocks() > 1)
            error(op, path,
                "region #" + std::to_string(r) + " has " + plural(region.numBlocks(), "block")
                    + ", expected 1");
        return region.numBlocks() == 1 ? &region.block(0) : nullptr;
    }

    /// True when `block` ends with a `cf.yield` of `expected` values.
    bool checkYield(
        const Operation *op, const std::string &path, const Block &block, unsigned r, unsigned expected)
    {
        const Operation *last = block.back();
        const std::string where = "region #" + std::to_string(r);
        if (!last) {
            error(op, path, where + " is empty; it must end with cf.yield");
            return false;
        }
        if (!ops::isYield(*last)) {
            error(op, path, where + " ends with " + std::string(last->name()) + ", not cf.yield");
            return false;
        }
        if (last->numOperands() != expected) {
            error(op, path,
                where + " yields " + plural(last->numOperands(), "value") + ", expected "
                    + std::to_string(expected));
            return false;
        }
        return true;
    }

    /// Whether a value of type `actual` may stand for one declared `declared`: the same kind,
    /// dtype and rank, and equal dims where both are static (-1 is dynamic); a scalar may be
    /// rank 0 or [1] on either side. Null or unknown (undefined dtype) types are not judged.
    static bool compatible(Type declared, Type actual)
    {
        if (!declared || !actual)
            return true;
        if (declared.kind() != actual.kind())
            return false;
        switch (declared.kind()) {
        case Type::Kind::Vector: {
            const std::vector<Type> &a = declared.elements();
            const std::vector<Type> &b = actual.elements();
            if (a.size() != b.size())
                return false;
            for (size_t i = 0; i < a.size(); ++i)
                if (!compatible(a[i], b[i]))
                    return false;
            return true;
        }
        case Type::Kind::DenseTensor:
        case Type::Kind::SelectedRows:
        case Type::Kind::DenseTensorArray: {
            if (declared.dtype() != DataType::Undefined && actual.dtype() != DataType::Undefined
                && declared.dtype() != actual.dtype())
                return false;
            if (declared.kind() == Type::Kind::DenseTensorArray)
                return true;
            const std::vector<int64_t> &d = declared.dims();
            const std::vector<int64_t> &a = actual.dims();
            if (isScalarLike(d) && isScalarLike(a))
                return true;
            if (d.size() != a.size())
                return false;
            for (size_t i = 0; i < d.size(); ++i)
                if (d[i] >= 0 && a[i] >= 0 && d[i] != a[i])
                    return false;
            return true;
        }
        default:
            return true;
        }
    }

    /// Operand `operand` of `yield` (the terminator of region `r`) against result `result` of
    /// the region's op.
    void checkYieldType(const Operation *op, const std::string &path, const Operation &yield, unsigned r,
        unsigned operand, unsigned result)
    {
        const Value v = yield.operand(operand);
        if (v.isNull())
            return;
        const Type declared = op->result(result).type();
        if (!compatible(declared, v.type()))
            error(op, path,
                "region #" + std::to_string(r) + " yields " + typeText(v.type()) + " (" + m_ids->name(v)
                    + ") for result #" + std::to_string(result) + " (" + m_ids->name(op->result(result))
                    + "), declared " + typeText(declared));
    }

    /// A `pd_op.if`/`pd_op.while` condition must be a one-element bool tensor (Paddle's
    /// IfOp/WhileOp take `cond` as a bool scalar); dynamic dims are accepted.
    void checkCondition(const Operation *op, const std::string &path, Value cond, const std::string &what)
    {
        if (cond.isNull())
            return;
        const Type t = cond.type();
        if (!t)
            return;
        const bool tensor = t.kind() == Type::Kind::DenseTensor;
        const bool boolean = tensor && (t.dtype() == DataType::Bool || t.dtype() == DataType::Undefined);
        const int64_t n = tensor ? t.numElements() : 0;
        if (!boolean || (n != 1 && n != -1))
            error(op, path,
                what + " " + m_ids->name(cond) + " is " + typeText(t)
                    + ", expected a one-element bool tensor");
    }

    void verifyIf(const Operation *op, const std::string &path, const OpInfo *info)
    {
        // With the registry's arity check on, the operand and region counts are reported there.
        const bool reported = m_options.checkArity && info;
        if (!reported && op->numOperands() != 1)
            error(op, path, "has " + plural(op->numOperands(), "operand") + ", expected 1 (cond)");
        if (op->numRegions() != 2) {
            if (!reported)
                error(op, path, "has " + plural(op->numRegions(), "region") + ", expected 2");
            return;
        }
        if (op->numOperands() >= 1)
            checkCondition(op, path, op->operand(0), "the condition");
        for (unsigned r = 0; r < 2; ++r) {
            const Block *block = singleBlock(op, path, r);
            if (block && op->numResults() != 0 && checkYield(op, path, *block, r, op->numResults()))
                for (unsigned i = 0; i < op->numResults(); ++i)
                    checkYieldType(op, path, *block->back(), r, i, i);
        }
    }

    void verifyWhile(const Operation *op, const std::string &path, const OpInfo *info)
    {
        const bool reported = m_options.checkArity && info;
        if (op->numOperands() != op->numResults() + 1)
            error(op, path,
                "has " + plural(op->numOperands(), "operand") + " and " + plural(op->numResults(), "result")
                    + "; a while takes the condition plus one operand per result");
        if (op->numOperands() >= 1)
            checkCondition(op, path, op->operand(0), "the condition");
        if (op->numRegions() != 1) {
            if (!reported)
                error(op, path, "has " + plural(op->numRegions(), "region") + ", expected 1");
            return;
        }
        const Block *body = singleBlock(op, path, 0);
        if (!body)
            return;
        if (body->numArguments() != op->numResults())
            error(op, path,
                "body block has " + plural(body->numArguments(), "argument") + ", expected "
                    + std::to_string(op->numResults()) + " (one per loop variable)");
        if (!checkYield(op, path, *body, 0, op->numOperands()) || op->numOperands() == 0)
            return;
        const Operation &yield = *body->back();
        checkCondition(op, path, yield.operand(0), "region #0's yielded condition");
        if (op->numOperands() == op->numResults() + 1)
            for (unsigned i = 0; i < op->numResults(); ++i)
                checkYieldType(op, path, yield, 0, i + 1, i);
    }

    const Program &m_program;
    const VerifyOptions &m_options;
    std::optional<ValueNumbering> m_ids;
    const OpRegistry &m_registry;
    DiagnosticList m_diags;
    std::unordered_map<const Operation *, size_t> m_position;
    std::unordered_set<const Block *> m_blocks;
    std::vector<std::pair<const Operation *, std::string>> m_order; ///< pre-order, with paths
    std::unordered_map<const Operation *, size_t> m_orderIndex;
};

} // namespace

DiagnosticList verify(const Program &program, const VerifyOptions &options)
{
    return Verifier(program, options).run();
}

bool verifyBeforeUse(const Program &program, const std::string &file, DiagnosticList &diagnostics)
{
    VerifyOptions options;
    options.file = file;
    const DiagnosticList found = verify(program, options);
    if (!found.hasErrors())
        return true;
    for (const Diagnostic &d : found.items())
        if (d.severity == Diagnostic::Severity::Error)
            diagnostics.add(d);
    SourceLocation loc;
    loc.file = file;
    diagnostics.note(loc,
        "the program does not verify (" + plural(found.errorCount(), "error")
            + "); it is not run, split, passed or drawn");
    return false;
}

std::string opPath(const Operation *op)
{
    std::string path;
    const Operation *cur = op;
    while (cur) {
        const Block *block = cur->parentBlock();
        if (!block)
            return "op " + (path.empty() ? std::string("#?") : path) + " (" + std::string(op->name()) + ")";
        std::string step = "#" + std::to_string(block->indexOf(cur));
        const Operation *parent = block->parentOp();
        if (parent) {
            unsigned r = 0;
            size_t b = 0;
            for (unsigned k = 0; k < parent->numRegions(); ++k) {
                const Region &region = parent->region(k);
                for (size_t j = 0; j < region.numBlocks(); ++j)
                    if (&region.block(j) == block) {
                        r = k;
                        b = j;
                    }
            }
            step = "r" + std::to_string(r) + (b ? "b" + std::to_string(b) : "") + "/" + step;
            step = "/" + step;
        }
        path = step + path;
        cur = parent;
    }
    return "op " + path + " (" + std::string(op->name()) + ")";
}

} // namespace ps
