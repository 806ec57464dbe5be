#include "core/runtime/programrunner.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/npyio.h"

#include <algorithm>
#include <set>

namespace ps {
namespace {

/// `trainable:[false]` on a parameter op.
bool trainable(const Operation &op)
{
    const Attribute *a = op.attribute("trainable");
    if (!a || a->kind() != Attribute::Kind::Array || a->asArray().empty())
        return true;
    const Attribute &first = a->asArray().front();
    return first.kind() != Attribute::Kind::Bool || first.asBool();
}

/// The tensor a `builtin.constant` names (constant_folding_pass makes them); empty for other ops.
std::string constantTensorName(const Operation &op)
{
    if (!ops::isConstant(op))
        return {};
    const Attribute *value = op.attribute("value");
    return value && value->kind() == Attribute::Kind::TensorName ? value->asString() : std::string();
}

struct Declared
{
    Type type;
    bool trainable = true;
};

/// Input and parameter names of the program's top block with their declared types.
std::map<std::string, Declared> declaredTensors(const Program &program)
{
    std::map<std::string, Declared> out;
    for (const Operation *op : program.block().ops()) {
        if (op->numResults() != 1)
            continue;
        if (ops::isData(*op) || ops::isFeed(*op))
            out.emplace(op->stringAttribute("name"), Declared { op->result(0).type(), true });
        else if (ops::isParameter(*op))
            out.emplace(
                op->stringAttribute("parameter_name"), Declared { op->result(0).type(), trainable(*op) });
        else if (const std::string name = constantTensorName(*op); !name.empty())
            out.emplace(name, Declared { op->result(0).type(), false });
    }
    return out;
}

Tensor onesLike(const Tensor &t)
{
    std::vector<double> ones(size_t(t.numElements()), 1.0);
    return Tensor::fromDoubles(t.shape(), t.dtype(), ones);
}

} // namespace

ProgramRunner::ProgramRunner(Split split, Backend &backend)
    : m_backend(backend)
    , m_forward(std::move(split.forward))
    , m_fakeName(std::move(split.fakeName))
    , m_inputNames(std::move(split.inputs))
    , m_paramNames(std::move(split.parameters))
    , m_outputNames(std::move(split.outputs))
{
    if (split.backward && split.backward->numOps() > 0) {
        m_backward = std::move(split.backward);
        m_outputGradNames = std::move(split.outputGrads);
        m_inputGradNames = std::move(split.inputGrads);
        m_paramGradNames = std::move(split.parameterGrads);
        m_noNeedBuffers = std::move(split.noNeedBuffers);
    }
}

ProgramRunner::ProgramRunner(std::shared_ptr<const Program> program, Backend &backend)
    : m_backend(backend)
    , m_forward(std::move(program))
{
    std::set<std::string> params;
    for (const Operation *op : m_forward->block().ops()) {
        if (ops::isData(*op) || ops::isFeed(*op))
            m_inputNames.push_back(op->stringAttribute("name"));
        else if (ops::isParameter(*op))
            params.insert(op->stringAttribute("parameter_name"));
        else if (const std::string constant = constantTensorName(*op); !constant.empty())
            params.insert(constant); // read from the parameter source like a parameter
        else if (ops::isShadowOutput(*op))
            m_outputNames.push_back(op->stringAttribute("output_name"));
        else if (ops::isFetch(*op))
            m_outputNames.push_back(op->stringAttribute("name"));
    }
    m_paramNames.assign(params.begin(), params.end());
}

ProgramRunner::~ProgramRunner() = default;

bool ProgramRunner::isFake(const std::string &name) const
{
    return name.empty() || (!m_fakeName.empty() && name == m_fakeName);
}

bool ProgramRunner::prepare(const Options &options, std::string &error)
{
    m_interpreter.reset();
    m_scope.clear();
    m_forwardFrees.clear();
    const std::map<std::string, Declared> declared = declaredTensors(*m_forward);
    TensorSource inputs = options.inputs;
    TensorSource params = options.params;
    inputs.setDynamicDim(options.dynamicDim);
    params.setDynamicDim(options.dynamicDim);
    if (!inputs.prepare(*m_forward, error) || !params.prepare(*m_forward, error))
        return false;
    auto put = [&](const std::vector<std::string> &names, const TensorSource &source, const char *what) {
        for (const std::string &name : names) {
            if (isFake(name) || m_scope.contains(name))
                continue;
            auto it = declared.find(name);
            Declared d = it == declared.end() ? Declared {} : it->second;
            if (auto shape = options.inputShapes.find(name); shape != options.inputShapes.end()
                && &source == &inputs && d.type && d.type.kind() == Type::Kind::DenseTensor)
                d.type = Type::denseTensor(d.type.dtype(), shape->second, d.type.layout());
            std::string why;
            Tensor t = source.get(name, d.type, d.trainable, why);
            if (!t.defined()) {
                error = std::string(what) + " " + why;
                return false;
            }
            m_scope.set(name, RuntimeValue(m_backend.toDevice(t)));
        }
        return true;
    };
    if (!put(m_inputNames, inputs, "input") || !put(m_paramNames, params, "parameter"))
        return false;
    m_inputSource = inputs;
    m_paramSource = params;

    m_outputGradFiles.assign(m_outputGradNames.size(), Tensor());
    for (const auto &[k, file] : options.outputGradFiles) {
        if (k >= m_outputGradNames.size() || isFake(m_outputGradNames[k]))
            continue;
        m_outputGradFiles[k] = NpyIO::read(file, error);
        if (!m_outputGradFiles[k].defined())
            return false;
    }

    std::vector<Interpreter::Segment> segments;
    Interpreter::Segment forward { m_backward ? "forward" : "program", m_forward, {}, {} };
    if (m_backward) {
        // run_program's skip-GC set: backward kwargs − no_need_buffers, plus the forward outputs.
        std::set<std::string> keep;
        for (Value kw : m_backward->block().kwargs())
            keep.insert(kw.keyword());
        const std::set<std::string> noNeed(m_noNeedBuffers.begin(), m_noNeedBuffers.end());
        for (const std::string &n : noNeed)
            keep.erase(n);
        keep.insert(m_outputNames.begin(), m_outputNames.end());
        std::vector<std::string> written;
        for (const Operation *op : m_forward->block().ops()) {
            if (ops::isData(*op) || ops::isFeed(*op) || ops::isFetch(*op))
                written.push_back(op->stringAttribute("name"));
            else if (ops::isParameter(*op))
                written.push_back(op->stringAttribute("parameter_name"));
            else if (ops::isShadowOutput(*op))
                written.push_back(op->stringAttribute("output_name"));
        }
        std::set<std::string> seen;
        for (const std::string &n : written) {
            if (n.empty() || keep.count(n) || !seen.insert(n).second)
                continue;
            m_forwardFrees.emplace_back(
                n, noNeed.count(n) ? FreeReason::NoNeedBuffer : FreeReason::NotNeededLater);
        }
        forward.freeAfter = m_forwardFrees;
    }
    forward.runInplace = options.runInplace;
    segments.push_back(std::move(forward));
    if (m_backward) {
        Interpreter::Segment backward { "backward", m_backward, {}, {} };
        backward.prologue = [this](Scope &scope) { putOutputGrads(scope); };
        // What the caller keeps: parameters, inputs and outputs; every other kwarg is collectable.
        std::set<std::string> callers(m_paramNames.begin(), m_paramNames.end());
        callers.insert(m_inputNames.begin(), m_inputNames.end());
        callers.insert(m_outputNames.begin(), m_outputNames.end());
        for (Value kw : m_backward->block().kwargs())
            if (!callers.count(kw.keyword()))
                backward.collectable.push_back(kw.keyword());
        backward.runInplace = options.runInplace;
        segments.push_back(std::move(backward));
    }
    m_interpreter
        = std::make_unique<Interpreter>(std::move(segments), m_backend, m_scope, options.interpreter);
    return true;
}

void ProgramRunner::putOutputGrads(Scope &scope)
{
    for (size_t k = 0; k < m_outputGradNames.size() && k < m_outputNames.size(); ++k) {
        const std::string &gradName = m_outputGradNames[k];
        if (isFake(gradName))
            continue;
        if (k < m_outputGradFiles.size() && m_outputGradFiles[k].defined()) {
            scope.set(gradName, RuntimeValue(m_backend.toDevice(m_outputGradFiles[k])));
            continue;
        }
        const RuntimeValue *out = scope.find(m_outputNames[k]);
        if (!out || !out->isTensor() || !out->tensor().defined())
            continue;
        scope.set(gradName, RuntimeValue(m_backend.toDevice(onesLike(out->tensor()))));
    }
}

std::vector<ProgramRunner::NamedTensor> ProgramRunner::read(
    const std::vector<std::string> &names, const std::vector<std::string> &scopeNames) const
{
    std::vector<NamedTensor> out;
    for (size_t i = 0; i < names.size(); ++i) {
        NamedTensor n;
        n.name = names[i];
        n.scopeName = i < scopeNames.size() && !isFake(scopeNames[i]) ? scopeNames[i] : std::string();
        if (!n.scopeName.empty()) {
            const RuntimeValue *v = m_scope.find(n.scopeName);
            if (v && v->isTensor() && v->tensor().defined() && !m_scope.isFreed(n.scopeName))
                n.tensor = m_backend.toHost(v->tensor());
        }
        out.push_back(std::move(n));
    }
    return out;
}

std::vector<ProgramRunner::NamedTensor> ProgramRunner::outputs() const
{
    return read(m_outputNames, m_outputNames);
}

std::vector<ProgramRunner::NamedTensor> ProgramRunner::inputGrads() const
{
    return read(m_inputNames, m_inputGradNames);
}

std::vector<ProgramRunner::NamedTensor> ProgramRunner::parameterGrads() const
{
    return read(m_paramNames, m_paramGradNames);
}

std::vector<ProgramRunner::NamedTensor> ProgramRunner::parameterValues() const
{
    std::map<std::string, Value> byName;
    for (const Operation *op : m_forward->block().ops())
        if (ops::isParameter(*op) && op->numResults() == 1)
            byName.emplace(op->stringAttribute("parameter_name"), op->result(0));
    std::vector<NamedTensor> out;
    for (const std::string &name : m_paramNames) {
        NamedTensor n;
        n.name = name;
        auto it = byName.find(name);
        const RuntimeValue *v
            = it != byName.end() && m_interpreter ? m_interpreter->valueOf(it->second) : nullptr;
        if (v && v->isTensor() && v->tensor().defined())
            n.tensor = m_backend.toHost(v->tensor());
        out.push_back(std::move(n));
    }
    return out;
}

} // namespace ps
