#include "core/session/intermediatescheck.h"

#include "core/analysis/valuenames.h"
#include "core/analysis/verifier.h"
#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/io/programloader.h"
#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/valuenumbering.h"
#include "core/runtime/backend.h"
#include "core/runtime/hostcopy.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/interpreterobserver.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/kernelregistry.h"
#include "core/runtime/npyio.h"
#include "core/runtime/tensorcomparison.h"
#include "core/transform/pipelineresult.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace ps {

namespace {

constexpr size_t kWorst = 10;

/// Compares results as ops execute; optionally reruns each op on Paddle's operand values.
class Comparer : public InterpreterObserver
{
public:
    Comparer(const TraceBundle &bundle, const Program &program, Interpreter &interpreter, Backend &cpu,
        IntermediatesCheck::Tolerance tolerance, bool isolate, IntermediatesReport &report,
        const std::vector<SplitOpIndex> *wholeToSplit)
        : m_bundle(bundle)
        , m_wholeToSplit(wholeToSplit)
        , m_interpreter(interpreter)
        , m_cpu(cpu)
        , m_tolerance(tolerance)
        , m_isolate(isolate)
        , m_report(report)
        , m_numbering(program)
    {
        const std::vector<Operation *> &ops = program.block().ops();
        for (size_t i = 0; i < bundle.intermediates().size(); ++i) {
            const TraceBundle::Intermediate &v = bundle.intermediates()[i];
            if (v.opIndex < ops.size() && v.resultIndex < ops[v.opIndex]->numResults())
                m_paddle[ops[v.opIndex]->result(unsigned(v.resultIndex)).impl()] = i;
        }
        for (size_t i = 0; i < ops.size(); ++i)
            m_opIndex[ops[i]] = i;
    }

    void opExecuted(const OpRecord &record) override
    {
        const Operation *op = record.op;
        auto at = m_opIndex.find(op);
        if (!op || at == m_opIndex.end())
            return; // nested ops: their region op's results are compared
        bool any = false;
        for (unsigned r = 0; r < op->numResults(); ++r)
            any = any || m_paddle.count(op->result(r).impl());
        if (!any)
            return;
        bool inherited = false;
        for (unsigned i = 0; i < op->numOperands(); ++i)
            inherited = inherited || differed(op->operand(i));
        for (unsigned r = 0; r < op->numResults(); ++r) {
            auto it = m_paddle.find(op->result(r).impl());
            if (it == m_paddle.end())
                continue;
            const RuntimeValue *v = m_interpreter.valueOf(op->result(r));
            if (!v || !v->isTensor() || !v->tensor().defined()) {
                ++m_report.notComputed;
                continue;
            }
            IntermediateDifference d = difference(it->second, *op, r, deepHostCopy(m_cpu, v->tensor()));
            ++m_report.compared;
            if (d.mismatches > 0 || !d.problem.empty()) {
                d.operandsAlreadyDiffered = inherited;
                m_differed.insert(op->result(r).impl());
                ++m_report.divergent;
                if (!m_report.firstDivergent)
                    m_report.firstDivergent = d;
                m_report.worst.push_back(d);
            }
            m_report.differences.push_back(std::move(d));
        }
        if (m_isolate)
            isolate(*op);
    }

    void finish()
    {
        auto &worst = m_report.worst;
        std::stable_sort(
            worst.begin(), worst.end(), [](const IntermediateDifference &a, const IntermediateDifference &b) {
                return !a.problem.empty() != !b.problem.empty() ? !a.problem.empty() : a.maxAbs > b.maxAbs;
            });
        if (worst.size() > kWorst)
            worst.resize(kWorst);
    }

private:
    bool differed(Value v) const
    {
        if (!v)
            return false;
        if (m_differed.count(v.impl()))
            return true;
        const Operation *def = v.definingOp();
        if (def && ops::isCombine(*def)) // a list: its elements
            for (unsigned i = 0; i < def->numOperands(); ++i)
                if (m_differed.count(def->operand(i).impl()))
                    return true;
        return false;
    }

    Tensor paddleValue(size_t i, std::string &error) const
    {
        return NpyIO::read(m_bundle.filePath(m_bundle.intermediates()[i].file), error);
    }

    IntermediateDifference difference(
        size_t i, const Operation &op, unsigned result, const Tensor &actual) const
    {
        const TraceBundle::Intermediate &v = m_bundle.intermediates()[i];
        IntermediateDifference d;
        d.value = i;
        d.opIndex = v.opIndex;
        d.resultIndex = result;
        d.opName = std::string(op.name());
        d.valueId = m_numbering.name(op.result(result));
        if (m_wholeToSplit && v.opIndex < m_wholeToSplit->size()
            && (*m_wholeToSplit)[v.opIndex].segment >= 0) {
            const SplitOpIndex &at = (*m_wholeToSplit)[v.opIndex];
            d.splitOp = (at.segment == 0 ? "fwd:" : "bwd:") + std::to_string(at.index);
        }
        if (auto f = m_bundle.forwardRange(); f && v.opIndex >= f->begin && v.opIndex < f->end)
            d.part = "forward";
        else if (auto b = m_bundle.backwardRange(); b && v.opIndex >= b->begin && v.opIndex < b->end)
            d.part = "backward";
        std::string error;
        const Tensor expected = paddleValue(i, error);
        if (!expected.defined()) {
            d.problem = "cannot read Paddle's value: " + error;
            d.error = INFINITY;
            return d;
        }
        const TensorComparison c
            = TensorComparison::compare(actual, expected, m_tolerance.rtol, m_tolerance.atol);
        if (!c.shapesMatch || !c.dtypesMatch)
            d.problem = "PIRScope " + actual.describe() + ", Paddle " + expected.describe();
        d.maxAbs = c.maxAbsError;
        d.maxRel = c.maxRelError;
        d.error = d.problem.empty() ? c.maxToleranceRatio : INFINITY;
        d.worstIndex = c.worstIndex;
        d.mismatches = c.mismatches;
        return d;
    }

    /// Paddle's value of `v`: its intermediate, the bundle's input or parameter, else PIRScope's;
    /// a combine's list element by element.
    std::optional<RuntimeValue> operandValue(Value v, std::string &why) const
    {
        if (!v)
            return RuntimeValue();
        if (auto it = m_paddle.find(v.impl()); it != m_paddle.end()) {
            std::string error;
            Tensor t = paddleValue(it->second, error);
            if (!t.defined()) {
                why = "Paddle's value unreadable";
                return std::nullopt;
            }
            return RuntimeValue(std::move(t));
        }
        if (std::optional<ValueName> name = ValueNames::inputName(v);
            name && (name->source == NameSource::Parameter || name->source == NameSource::Data)) {
            // The bundle's value before the run (an inplace op such as batch_norm_ has already
            // overwritten the running statistics by the time it reports).
            const auto &list
                = name->source == NameSource::Parameter ? m_bundle.parameters() : m_bundle.inputs();
            for (const TraceBundle::Tensor &t : list)
                if (t.name == name->name && !t.file.empty()) {
                    std::string error;
                    Tensor value = NpyIO::read(m_bundle.filePath(t.file), error);
                    if (value.defined())
                        return RuntimeValue(std::move(value));
                }
        }
        const Operation *def = v.definingOp();
        if (def && ops::isCombine(*def)) {
            std::vector<Tensor> list;
            for (unsigned i = 0; i < def->numOperands(); ++i) {
                std::optional<RuntimeValue> e = operandValue(def->operand(i), why);
                if (!e || !e->isTensor())
                    return std::nullopt;
                list.push_back(e->tensor());
            }
            return RuntimeValue(std::move(list));
        }
        const RuntimeValue *mine = m_interpreter.valueOf(v);
        if (!mine) {
            why = "an operand has no value";
            return std::nullopt;
        }
        return deepHostCopy(m_cpu, *mine);
    }

    void isolate(const Operation &op)
    {
        if (!m_cpu.kernels().find(op.name())) {
            ++m_report.notIsolated["no kernel of its own (composed or built in)"];
            return;
        }
        // PIRScope's value of an operand the op overwrote is already the op's output.
        for (const OpIndexPair &pair : OpRegistry::instance().inplaceInfo(op.name()))
            if (unsigned(pair.input) < op.numOperands()
                && !m_paddle.count(op.operand(unsigned(pair.input)).impl())
                && !ValueNames::inputName(op.operand(unsigned(pair.input)))) {
                ++m_report.notIsolated["an operand it overwrites in place has no Paddle value"];
                return;
            }
        std::vector<RuntimeValue> operands;
        std::string why;
        for (unsigned i = 0; i < op.numOperands(); ++i) {
            std::optional<RuntimeValue> v = operandValue(op.operand(i), why);
            if (!v) {
                ++m_report.notIsolated[why];
                return;
            }
            operands.push_back(std::move(*v));
        }
        std::string error;
        const std::optional<std::vector<RuntimeValue>> results
            = KernelContext::runAlone(op, operands, m_cpu, error);
        if (!results) {
            ++m_report.notIsolated["the kernel failed on Paddle's operands"];
            return;
        }
        for (unsigned r = 0; r < op.numResults() && r < results->size(); ++r) {
            auto it = m_paddle.find(op.result(r).impl());
            if (it == m_paddle.end() || !(*results)[r].isTensor())
                continue;
            IntermediateDifference d = difference(it->second, op, r, (*results)[r].tensor());
            ++m_report.isolatedCompared;
            if (d.mismatches > 0 || !d.problem.empty()) {
                ++m_report.isolatedDivergent;
                if (!m_report.firstIsolatedDivergent)
                    m_report.firstIsolatedDivergent = d;
            }
        }
    }

    const TraceBundle &m_bundle;
    const std::vector<SplitOpIndex> *m_wholeToSplit;
    Interpreter &m_interpreter;
    Backend &m_cpu;
    IntermediatesCheck::Tolerance m_tolerance;
    bool m_isolate;
    IntermediatesReport &m_report;
    ValueNumbering m_numbering;
    std::unordered_map<const ValueImpl *, size_t> m_paddle; ///< value → its intermediate
    std::unordered_map<const Operation *, size_t> m_opIndex;
    std::unordered_set<const ValueImpl *> m_differed;
};

} // namespace

std::shared_ptr<const Program> IntermediatesCheck::program(const TraceBundle &bundle, std::string &error)
{
    std::string file;
    for (const char *suffix : { "_json", "_txt" })
        if (auto it = bundle.files().find(bundle.intermediatesProgram() + suffix);
            file.empty() && it != bundle.files().end())
            file = bundle.filePath(it->second);
    if (bundle.intermediatesProgram().empty() || file.empty()) {
        error = bundle.dir() + ": the manifest names no file of the intermediates' program";
        return nullptr;
    }
    LoadResult loaded = loadProgram(file);
    DiagnosticList refused;
    if (!loaded.program || !verifyBeforeUse(*loaded.program, file, refused)) {
        const Diagnostic *first = loaded.program ? refused.firstError() : loaded.diagnostics.firstError();
        error = first ? first->toString() : file + ": cannot be read";
        return nullptr;
    }
    return std::shared_ptr<const Program>(std::move(loaded.program));
}

bool IntermediatesCheck::run(const TraceBundle &bundle, const ProgramRunner::Options &options,
    Tolerance tolerance, bool isolate, IntermediatesReport &report, std::string &error,
    const PipelineResult *pipeline)
{
    if (bundle.intermediates().empty()) {
        error = bundle.dir()
            + ": the bundle has no Paddle intermediates (python3 tools/export_paddle_trace.py "
              "--write-intermediates BUNDLE adds them)";
        return false;
    }
    report = {};
    report.program = bundle.intermediatesProgram();
    report.values = bundle.intermediates().size();
    report.isolated = isolate;
    std::shared_ptr<const Program> program = IntermediatesCheck::program(bundle, error);
    if (!program)
        return false;
    auto cpu = createCpuBackend();
    ProgramRunner runner(program, *cpu);
    if (!runner.prepare(options, error))
        return false;
    const bool train = report.program == "train_program" && pipeline && pipeline->training;
    Comparer comparer(bundle, *program, runner.interpreter(), *cpu, tolerance, isolate, report,
        train && !pipeline->wholeToSplit.empty() ? &pipeline->wholeToSplit : nullptr);
    runner.interpreter().addObserver(&comparer);
    const StopInfo stop = runner.run();
    runner.interpreter().removeObserver(&comparer);
    if (stop.reason == StopReason::Error)
        report.runProblem = runner.interpreter().error()->toString();
    else if (stop.reason != StopReason::Finished)
        report.runProblem = std::string(stopReasonText(stop.reason)) + ": " + stop.message;
    comparer.finish();
    return true;
}

} // namespace ps
