#include "core/analysis/shapeinference.h"

#include "core/analysis/shaperules.h"
#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/ir/shapesize.h"

#include <algorithm>

namespace ps {

namespace {

using Info = ShapeInference::Info;

bool isStatic(const std::vector<int64_t> &dims)
{
    return std::all_of(dims.begin(), dims.end(), [](int64_t d) { return d >= 0; });
}

/// The declared type as an Info: known when fully static, else unknown with `why`.
Info declared(Type type, const std::string &why)
{
    Info info;
    info.visited = true;
    if (type && type.kind() == Type::Kind::Vector) {
        info.isVector = true;
        for (const Type &e : type.elements())
            info.elements.push_back(declared(e, why));
        return info;
    }
    if (type && type.isTensorLike()) {
        info.shape.dims = type.dims();
        if (!isStatic(info.shape.dims))
            info.shape.whyUnknown = why;
        return info;
    }
    info.shape.whyUnknown = "not a tensor";
    return info;
}

bool sameShapes(const Info &a, const Info &b)
{
    if (a.isVector != b.isVector || a.shape.known() != b.shape.known())
        return false;
    if (a.isVector) {
        if (a.elements.size() != b.elements.size())
            return false;
        for (size_t i = 0; i < a.elements.size(); ++i)
            if (!sameShapes(a.elements[i], b.elements[i]))
                return false;
        return true;
    }
    return a.shape.dims == b.shape.dims;
}

const Info &unvisited()
{
    static const Info info = [] {
        Info i;
        i.shape.whyUnknown = "defined outside the program";
        return i;
    }();
    return info;
}

} // namespace

ShapeInference ShapeInference::run(const Program &program, const InputDims &inputs,
    const std::unordered_map<const ValueImpl *, std::vector<int64_t>> &arguments)
{
    ShapeInference s;
    s.m_inputs = &inputs;
    auto seedArguments = [&](const Block &block) {
        auto seed = [&](Value v, const std::string &what) {
            if (auto it = arguments.find(v.impl()); it != arguments.end()) {
                Info info;
                info.visited = true;
                info.shape.dims = it->second;
                s.store(v, std::move(info));
            } else {
                s.store(v, declared(v.type(), what + " has dynamic dims and no shape"));
            }
        };
        for (size_t i = 0; i < block.numArguments(); ++i)
            seed(block.argument(i), "block argument " + std::to_string(i));
        for (size_t i = 0; i < block.numKwargs(); ++i)
            seed(block.kwargAt(i), "keyword argument " + block.kwargAt(i).keyword());
    };
    seedArguments(program.block());
    s.inferBlock(program.block());
    s.m_inputs = nullptr;
    return s;
}

void ShapeInference::store(Value v, Info info)
{
    const Type type = v.type();
    if (type && type.isTensorLike()) {
        ++m_tensorValues;
        if (info.shape.known() && !info.isVector)
            ++m_inferredValues;
    }
    m_info[v.impl()] = std::move(info);
}

const ShapeInference::Info &ShapeInference::info(Value v) const
{
    const auto it = m_info.find(v.impl());
    return it == m_info.end() ? unvisited() : it->second;
}

void ShapeInference::inferBlock(const Block &block)
{
    for (const Operation *op : block.ops()) {
        if (op->numRegions() > 0)
            inferControlFlow(*op);
        else
            inferOp(*op);
    }
}

void ShapeInference::inferOp(const Operation &op)
{
    const std::string name(op.name());
    if (ops::isData(op) || ops::isFeed(op)) {
        if (op.numResults() != 1)
            return;
        const std::string input = op.stringAttribute("name");
        if (auto it = m_inputs->find(input); it != m_inputs->end()) {
            Info info;
            info.visited = true;
            info.shape.dims = it->second;
            store(op.result(0), std::move(info));
        } else {
            store(op.result(0),
                declared(op.result(0).type(),
                    "input " + input + " has dynamic dims and no shape (--shape " + input + "=DIMS)"));
        }
        return;
    }
    std::vector<const Info *> operands(op.numOperands(), nullptr);
    for (unsigned i = 0; i < op.numOperands(); ++i)
        if (op.operand(i))
            operands[i] = &info(op.operand(i));

    if (ops::isCombine(op)) {
        Info v;
        v.visited = true;
        v.isVector = true;
        for (const Info *e : operands)
            v.elements.push_back(e ? *e : unvisited());
        store(op.result(0), std::move(v));
        return;
    }
    if (ops::isBuiltinSplit(op) || name == ops::kBuiltinSlice) {
        const Info *v = operands.empty() ? nullptr : operands[0];
        const int64_t index
            = name == ops::kBuiltinSlice && op.attribute("index") ? op.attribute("index")->asInt() : 0;
        for (unsigned r = 0; r < op.numResults(); ++r) {
            const size_t e = name == ops::kBuiltinSlice ? size_t(index) : r;
            if (v && v->isVector && e < v->elements.size())
                store(op.result(r), v->elements[e]);
            else
                store(op.result(r),
                    declared(op.result(r).type(),
                        v && !v->shape.known() ? v->shape.whyUnknown : name + ": no vector"));
        }
        return;
    }

    std::vector<Info> results(op.numResults());
    const bool ruled = ShapeRules::apply(op, operands, results);
    for (unsigned r = 0; r < op.numResults(); ++r) {
        const Value v = op.result(r);
        const Type type = v.type();
        Info &got = results[r];
        const std::string noRule = name + " has no shape rule";
        if (!ruled || !got.visited) {
            store(v,
                declared(
                    type, ruled ? name + ": result " + std::to_string(r) + " has no shape rule" : noRule));
            continue;
        }
        if (got.isVector || !type || !type.isTensorLike()) {
            store(v, std::move(got));
            continue;
        }
        const std::vector<int64_t> &decl = type.dims();
        if (!got.shape.known()) {
            // The rule could not tell; a static declared type still can.
            if (isStatic(decl)) {
                Info d = declared(type, {});
                store(v, std::move(d));
            } else {
                got.shape.dims = decl;
                store(v, std::move(got));
            }
            continue;
        }
        // Check the rule against the declared type: same rank, same static dims.
        bool agrees = decl.size() == got.shape.dims.size();
        for (size_t i = 0; agrees && i < decl.size(); ++i)
            agrees = decl[i] < 0 || decl[i] == got.shape.dims[i];
        if (!agrees) {
            ++m_conflictCount;
            if (m_conflicts.size() < 20)
                m_conflicts.push_back(name + " result " + std::to_string(r) + ": inferred "
                    + ShapeSize::shapeText(got.shape.dims) + ", declared " + ShapeSize::shapeText(decl));
            if (isStatic(decl)) {
                store(v, declared(type, {}));
            } else {
                got.shape.whyUnknown = name + ": the inferred " + ShapeSize::shapeText(got.shape.dims)
                    + " does not fit the declared " + ShapeSize::shapeText(decl);
                got.shape.dims = decl;
                got.data.reset();
                store(v, std::move(got));
            }
            continue;
        }
        store(v, std::move(got));
    }
}

void ShapeInference::inferControlFlow(const Operation &op)
{
    const std::string name(op.name());
    const bool isWhile = ops::isWhile(op);
    // A while body's arguments are its loop-carried values: the op's operands after the condition.
    for (unsigned g = 0; g < op.numRegions(); ++g) {
        const Region &region = op.region(g);
        for (size_t b = 0; b < region.numBlocks(); ++b) {
            const Block &block = region.block(b);
            for (size_t i = 0; i < block.numArguments(); ++i) {
                const Value arg = block.argument(i);
                const unsigned operand = unsigned(i) + 1;
                if (isWhile && operand < op.numOperands() && op.operand(operand)) {
                    Info carried = info(op.operand(operand));
                    carried.data.reset();
                    store(arg, std::move(carried));
                } else {
                    store(arg,
                        declared(arg.type(),
                            name + ": block argument " + std::to_string(i) + " has dynamic dims"));
                }
            }
            for (size_t i = 0; i < block.numKwargs(); ++i)
                store(block.kwargAt(i),
                    declared(block.kwargAt(i).type(), name + ": keyword argument has dynamic dims"));
            inferBlock(block);
        }
    }
    auto yieldOf = [&](unsigned g) -> const Operation * {
        if (g >= op.numRegions() || op.region(g).empty())
            return nullptr;
        const Block &block = op.region(g).block(0);
        const Operation *last = block.back();
        return last && ops::isYield(*last) ? last : nullptr;
    };
    for (unsigned r = 0; r < op.numResults(); ++r) {
        const Value v = op.result(r);
        Info result;
        bool have = false;
        std::string why;
        if (ops::isIf(op)) {
            const Operation *yes = yieldOf(0), *no = yieldOf(1);
            if (yes && no && r < yes->numOperands() && r < no->numOperands()) {
                const Info &a = info(yes->operand(r)), &b = info(no->operand(r));
                if (!a.shape.known() || !b.shape.known())
                    why = !a.shape.known() ? a.shape.whyUnknown : b.shape.whyUnknown;
                else if (sameShapes(a, b))
                    result = a, have = true;
                else
                    why = name + ": its branches give result " + std::to_string(r) + " different shapes";
            }
        } else if (isWhile) {
            const Operation *y = yieldOf(0);
            const unsigned operand = r + 1;
            if (y && operand < y->numOperands() && operand < op.numOperands()) {
                const Info &before = info(op.operand(operand)), &after = info(y->operand(operand));
                if (!before.shape.known())
                    why = before.shape.whyUnknown;
                else if (sameShapes(before, after))
                    result = before, have = true;
                else
                    why = name + ": the loop changes the shape of result " + std::to_string(r);
            }
        }
        if (have) {
            result.data.reset();
            result.visited = true;
            store(v, std::move(result));
        } else {
            store(v, declared(v.type(), why.empty() ? name + " has no shape rule" : why));
        }
    }
}

const InferredShape *ShapeInference::shape(Value v) const
{
    const auto it = m_info.find(v.impl());
    if (it == m_info.end() || it->second.isVector || !v.type() || !v.type().isTensorLike())
        return nullptr;
    return &it->second.shape;
}

std::optional<int64_t> ShapeInference::bytes(Value v) const
{
    const InferredShape *s = shape(v);
    if (!s || !s->known())
        return std::nullopt;
    const std::optional<uint64_t> b = ShapeSize::bytes(s->dims, v.type().dtype());
    if (!b || *b > uint64_t(INT64_MAX))
        return std::nullopt;
    return int64_t(*b);
}

std::string ShapeInference::whyUnknown(Value v) const
{
    const InferredShape *s = shape(v);
    return s ? s->whyUnknown : std::string();
}

std::optional<std::vector<int64_t>> ShapeInference::integerData(Value v) const
{
    const auto it = m_info.find(v.impl());
    if (it == m_info.end() || !it->second.data)
        return std::nullopt;
    std::vector<int64_t> out;
    for (double d : *it->second.data)
        out.push_back(int64_t(d));
    return out;
}

std::unordered_map<const ValueImpl *, int64_t> ShapeInference::knownBytes() const
{
    std::unordered_map<const ValueImpl *, int64_t> out;
    for (const auto &[impl, info] : m_info) {
        if (info.isVector || !info.shape.known())
            continue;
        const Value v(const_cast<ValueImpl *>(impl));
        if (const std::optional<int64_t> b = bytes(v))
            out.emplace(impl, *b);
    }
    return out;
}

} // namespace ps
