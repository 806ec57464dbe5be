#include "core/transform/runnableprogram.h"

#include "core/analysis/inplacegroups.h"
#include "core/analysis/valuenamemap.h"
#include "core/analysis/valuenames.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/valuerename.h"

#include <algorithm>

namespace ps {

static_assert(ValueNameMap::kFakeName == std::string_view("FakeVar"),
    "fakeValueName (core/ir/pipelineflavour.cpp) spells the seed's fake value as ValueNameMap does");

RunnableProgram::RunnableProgram(std::unique_ptr<Program> program, Names names,
    std::optional<OpRange> forwardRange, std::optional<OpRange> backwardRange, PipelineFlavour flavour)
    : m_program(std::move(program))
    , m_names(std::move(names))
    , m_flavour(flavour)
{
    const size_t n = m_program->numOps();
    m_forwardRange = forwardRange.value_or(OpRange { 0, n });
    m_backwardRange = backwardRange.value_or(OpRange { n, n });
    rememberBoundaryOps();
}

RunnableProgram::RunnableProgram(RunnableProgram &&) noexcept = default;
RunnableProgram &RunnableProgram::operator=(RunnableProgram &&) noexcept = default;
RunnableProgram::~RunnableProgram() = default;

RunnableProgram RunnableProgram::fromValues(std::unique_ptr<Program> program, const std::vector<Value> &x,
    const std::vector<Value> &params, const std::vector<Value> &outs, const std::vector<Value> &xGrads,
    const std::vector<Value> &paramGrads, const std::vector<Value> &outGrads,
    std::optional<OpRange> forwardRange, std::optional<OpRange> backwardRange, PipelineFlavour flavour)
{
    RunnableProgram rp(std::move(program), {}, forwardRange, backwardRange, flavour);
    auto convert = [&rp](const std::vector<Value> &values) {
        std::vector<std::string> names;
        for (const Value &v : values)
            names.push_back(rp.valueName(v));
        return names;
    };
    rp.m_names = { convert(x), convert(params), convert(outs), convert(xGrads), convert(paramGrads),
        convert(outGrads) };
    return rp;
}

void RunnableProgram::rememberBoundaryOps()
{
    const Block &block = m_program->block();
    const size_t n = block.size();
    m_fwdEndNextOp = m_forwardRange.end < n ? block.op(m_forwardRange.end) : nullptr;
    m_bwdStartPrevOp = m_backwardRange.begin > 0 && m_backwardRange.begin - 1 < n
        ? block.op(m_backwardRange.begin - 1)
        : nullptr;
    m_bwdEndNextOp = m_backwardRange.end < n ? block.op(m_backwardRange.end) : nullptr;
}

void RunnableProgram::updateOpRange()
{
    if (m_flavour != PipelineFlavour::Newest)
        return;
    const Block &block = m_program->block();
    const size_t n = block.size();
    if (!m_fwdEndNextOp || !m_bwdStartPrevOp) {
        m_forwardRange = { 0, n };
        m_backwardRange = { n, n };
        return;
    }
    // The remembered ops are compared by address only; the arena never reuses an erased op's memory.
    OpRange fwd = m_forwardRange;
    OpRange bwd = m_backwardRange;
    for (size_t i = 0; i < n; ++i) {
        const Operation *op = block.op(i);
        if (op == m_fwdEndNextOp)
            fwd.end = i;
        if (op == m_bwdStartPrevOp)
            bwd.begin = i + 1;
        if (op == m_bwdEndNextOp)
            bwd.end = i;
    }
    if (!m_bwdEndNextOp)
        bwd.end = n;
    m_forwardRange = fwd;
    m_backwardRange = bwd;
}

std::unordered_map<std::string, Value> RunnableProgram::nameValueMap(
    const Program &program, std::string_view fakeName)
{
    std::unordered_map<std::string, Value> map;
    map[std::string(fakeName)] = Value();
    // ValueNames::allNameStrings' order (input name, then output names) without its copies.
    for (const Value &v : programAllValues(program)) {
        if (std::optional<ValueName> in = ValueNames::inputName(v))
            map[std::move(in->name)] = v;
        if (v.hasUses())
            for (ValueName &out : ValueNames::outputNames(v))
                map[std::move(out.name)] = v;
    }
    return map;
}

std::string RunnableProgram::valueName(Value value) const
{
    if (m_flavour == PipelineFlavour::Newest)
        return value.isNull() ? std::string(fakeValueName(m_flavour)) : valueNameOrEmpty(value);
    return ValueNameMap(*m_program).name(value).value_or(std::string());
}

std::optional<Value> RunnableProgram::valueByName(std::string_view name) const
{
    if (m_flavour == PipelineFlavour::Newest) {
        const auto map = nameValueMap(*m_program, fakeValueName(m_flavour));
        const auto it = map.find(std::string(name));
        return it == map.end() ? std::nullopt : std::optional<Value>(it->second);
    }
    return ValueNameMap(*m_program).lookup(name);
}

std::vector<Value> RunnableProgram::resolve(
    const std::vector<std::string> &names, std::vector<std::string> *missing) const
{
    std::vector<Value> values;
    values.reserve(names.size());
    auto add = [&](const std::string &name, std::optional<Value> v) {
        if (!v && missing)
            missing->push_back(name);
        values.push_back(v.value_or(Value()));
    };
    if (m_flavour == PipelineFlavour::Newest) {
        const auto map = nameValueMap(*m_program, fakeValueName(m_flavour));
        for (const std::string &name : names) {
            const auto it = map.find(name);
            add(name, it == map.end() ? std::nullopt : std::optional<Value>(it->second));
        }
    } else {
        const ValueNameMap map(*m_program);
        for (const std::string &name : names)
            add(name, map.lookup(name));
    }
    return values;
}

RunnableProgram::ForwardValues RunnableProgram::forwardValues() const
{
    std::vector<std::string> all = m_names.x;
    all.insert(all.end(), m_names.param.begin(), m_names.param.end());
    all.insert(all.end(), m_names.out.begin(), m_names.out.end());
    const std::vector<Value> values = resolve(all);
    const auto x = values.begin() + long(m_names.x.size());
    const auto params = x + long(m_names.param.size());
    return { { values.begin(), x }, { x, params }, { params, values.end() } };
}

const SplitResult &RunnableProgram::splitForwardBackward()
{
    if (m_split)
        return *m_split;
    updateOpRange();
    // One name lookup for all six lists (a map per lookup would be quadratic).
    std::vector<std::string> all;
    for (const auto *list :
        { &m_names.x, &m_names.param, &m_names.out, &m_names.xGrad, &m_names.paramGrad, &m_names.outGrad })
        all.insert(all.end(), list->begin(), list->end());
    std::vector<std::string> missing;
    const std::vector<Value> values = resolve(all, &missing);
    for (const std::string &name : missing)
        m_diagnostics.push_back("no value named '" + name + "' in the program (Paddle raises KeyError)");
    SplitRequest request;
    auto next = values.begin();
    for (auto [list, out] : { std::pair(&m_names.x, &request.fx), std::pair(&m_names.param, &request.fp),
             std::pair(&m_names.out, &request.fo), std::pair(&m_names.xGrad, &request.fxGrad),
             std::pair(&m_names.paramGrad, &request.fpGrad), std::pair(&m_names.outGrad, &request.foGrad) }) {
        out->assign(next, next + long(list->size()));
        next += long(list->size());
    }
    request.forwardRange = m_forwardRange;
    request.backwardRange = m_backwardRange;
    m_split = std::make_unique<SplitResult>(SplitProgram::split(*m_program, request));
    m_diagnostics.insert(m_diagnostics.end(), m_split->diagnostics.begin(), m_split->diagnostics.end());
    return *m_split;
}

Program &RunnableProgram::forwardProgram()
{
    splitForwardBackward();
    return *m_split->forward;
}

Program &RunnableProgram::backwardProgram()
{
    splitForwardBackward();
    return *m_split->backward;
}

const SplitNames &RunnableProgram::programNameAttr()
{
    if (m_nameAttr)
        return *m_nameAttr;
    const SplitResult &split = splitForwardBackward();
    if (m_flavour == PipelineFlavour::Newest) {
        m_nameAttr = std::make_unique<SplitNames>(
            SplitProgram::valueNames(split.attributes, fakeValueName(m_flavour)));
        return *m_nameAttr;
    }
    const ValueNameMap forwardMap(*split.forward);
    const ValueNameMap backwardMap(*split.backward);
    m_nameAttr = std::make_unique<SplitNames>();
    for (SplitKey key : allSplitKeys()) {
        const ValueNameMap &map = isForwardKey(key) ? forwardMap : backwardMap;
        for (const Value &v : split.attributes[key]) {
            std::optional<std::string> name = map.name(v);
            if (!name)
                m_diagnostics.push_back("a '" + std::string(splitKeyName(key))
                    + "' value has no entry in the value-name map (Paddle raises KeyError)");
            (*m_nameAttr)[key].push_back(name.value_or(std::string()));
        }
    }
    return *m_nameAttr;
}

bool RunnableProgram::applyPass(const PassFn &fn)
{
    if (m_attr) {
        m_diagnostics.push_back("apply_pir_program_pass after program_attr: refused");
        return false;
    }
    const SplitNames &names = programNameAttr();
    fn(*m_split->forward, *m_split->backward, names);
    return true;
}

const ProgramAttributes &RunnableProgram::programAttr()
{
    if (!m_attr) {
        programNameAttr();
        m_attr = std::make_unique<ProgramAttributes>(
            m_flavour == PipelineFlavour::Newest ? newestProgramAttr() : inplaceProgramAttr());
    }
    return *m_attr;
}

ProgramAttributes RunnableProgram::newestProgramAttr()
{
    Program &forward = *m_split->forward;
    Program &backward = *m_split->backward;
    const std::string fake(fakeValueName(m_flavour));
    const auto forwardMapBefore = nameValueMap(forward, fake);

    ProgramAttributes attr;
    attr.names = *m_nameAttr;
    RenameMapping mapping = unifyValueNames(forward, {}, &m_diagnostics);
    mapping = unifyValueNames(backward, mapping, &m_diagnostics);

    // As Paddle: a rename touching no_need_buffers drops both names from it (first occurrence).
    std::vector<std::string> &noNeed = attr.names[SplitKey::NoNeedBuffers];
    for (const auto &[from, to] : mapping.items()) {
        auto has = [&noNeed](const std::string &n) {
            return std::find(noNeed.begin(), noNeed.end(), n) != noNeed.end();
        };
        if (!has(from) && !has(to))
            continue;
        for (const std::string *name : { &from, &to }) {
            auto it = std::find(noNeed.begin(), noNeed.end(), *name);
            if (it != noNeed.end())
                noNeed.erase(it);
        }
    }
    for (SplitKey key : allSplitKeys())
        for (std::string &name : attr.names[key])
            name = mapping.map(name);
    attr.renames = mapping.items();

    const auto forwardMap = nameValueMap(forward, fake);
    const auto backwardMap = nameValueMap(backward, fake);
    for (SplitKey key : allSplitKeys()) {
        // Paddle resolves fo against the forward map taken before the renames.
        const auto &map = key == SplitKey::Fo ? forwardMapBefore
            : isForwardKey(key)               ? forwardMap
                                              : backwardMap;
        for (const std::string &name : attr.names[key]) {
            const auto it = map.find(name);
            attr.values[key].push_back(it == map.end() ? Value() : it->second);
        }
    }
    return attr;
}

ProgramAttributes RunnableProgram::inplaceProgramAttr()
{
    Program &forward = *m_split->forward;
    Program &backward = *m_split->backward;
    ProgramAttributes attr;
    attr.names = *m_nameAttr;
    {
        const ValueNameMap forwardMap(forward);
        const ValueNameMap backwardMap(backward);
        for (SplitKey key : allSplitKeys()) {
            const ValueNameMap &map = isForwardKey(key) ? forwardMap : backwardMap;
            for (const std::string &name : attr.names[key]) {
                const std::optional<Value> v = map.lookup(name);
                if (!v)
                    m_diagnostics.push_back(
                        "program_attr: no value named '" + name + "' (Paddle raises KeyError)");
                attr.values[key].push_back(v.value_or(Value()));
            }
        }
    }
    // Seed: deal_inplace_values(fwd) and (bwd) separately; 3.0-era: (fwd, bwd) moves kwargs too.
    const bool carry = m_flavour == PipelineFlavour::Paddle30;
    const InplaceGroups forwardGroups(forward, carry ? &backward : nullptr);
    for (const ShadowOutputRename &r : forwardGroups.renames())
        attr.renames.emplace_back(r.from, r.to);
    forwardGroups.apply(forward, carry ? &backward : nullptr);
    const InplaceGroups backwardGroups(backward);
    for (const ShadowOutputRename &r : backwardGroups.renames())
        attr.renames.emplace_back(r.from, r.to);
    backwardGroups.apply(backward);
    return attr;
}

RunnableProgram RunnableProgram::clone() const
{
    Names names { m_names.x, m_names.param, m_names.out, {}, {}, {} };
    return RunnableProgram(m_program->clone(), std::move(names), m_forwardRange, m_backwardRange, m_flavour);
}

} // namespace ps
