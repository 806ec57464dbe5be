#pragma once

// Runs one kernel test case written by tests/fixtures/kernels/kernelcases.py: reads program.txt,
// feeds every `pd_op.data` op its `<name>.npy`, builds `builtin.combine` lists, runs every other
// op through the backend's kernel, and compares the last op's results with expected_<r>.npy (a
// vector result, e.g. split's, with expected_<r>_<j>.npy per element).

#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/kernelcontext.h"
#include "core/runtime/npyio.h"
#include "core/runtime/runtimeerror.h"

#include <QtTest>
#include <cmath>
#include <unordered_map>

namespace kernelcase {

inline QString root()
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/kernels");
}

/// Case folders of one family (`elementwise`, `shape`, `nn`, `grad`), sorted.
inline QStringList cases(const QString &family)
{
    return QDir(root() + "/" + family).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
}

struct Outcome
{
    QString error; ///< empty when every compared result matched
    int compared = 0;
    /// Host copies of the compared results, in the order they were compared.
    std::vector<ps::Tensor> results;
};

/// Elementwise |got - want| <= atol + rtol * |want|, NaN matching NaN and infinities matching
/// exactly; integer and bool tensors compare exactly. Returns a message naming the first mismatch.
inline QString compareTensors(const ps::Tensor &got, const ps::Tensor &want, double rtol, double atol)
{
    if (got.shape() != want.shape())
        return QString::fromStdString("shape " + got.describe() + " vs expected " + want.describe());
    if (got.dtype() != want.dtype())
        return QString::fromStdString("dtype " + got.describe() + " vs expected " + want.describe());
    const bool exact = want.dtype() != ps::DataType::Float32 && want.dtype() != ps::DataType::Float64
        && want.dtype() != ps::DataType::Float16 && want.dtype() != ps::DataType::BFloat16;
    for (int64_t i = 0; i < want.numElements(); ++i) {
        const double g = got.valueAsDouble(i), w = want.valueAsDouble(i);
        const bool ok = exact ? g == w
                              : (std::isnan(w) ? std::isnan(g)
                                               : (std::isinf(w) ? g == w : std::abs(g - w) <= atol + rtol * std::abs(w)));
        if (!ok)
            return QStringLiteral("element %1: %2 vs expected %3").arg(i).arg(g, 0, 'g', 9).arg(w, 0, 'g', 9);
    }
    return {};
}

inline Outcome run(const QString &dir, ps::Backend &backend)
{
    Outcome outcome;
    const QJsonObject meta = [&] {
        QFile f(dir + "/case.json");
        return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
    }();
    ps::LoadResult loaded = ps::PirTextReader::readFile((dir + "/program.txt").toStdString());
    if (!loaded.ok()) {
        outcome.error = QStringLiteral("program.txt does not load");
        return outcome;
    }
    std::unordered_map<ps::ValueImpl *, ps::RuntimeValue> values;
    const ps::Operation *last = nullptr;
    try {
        for (const ps::Operation *op : loaded.program->block().ops()) {
            last = op;
            if (op->name() == "pd_op.data") {
                std::string error;
                ps::Tensor t = ps::NpyIO::read(dir.toStdString() + "/" + op->stringAttribute("name") + ".npy", error);
                if (!t.defined()) {
                    outcome.error = QString::fromStdString(error);
                    return outcome;
                }
                values[op->result(0).impl()] = backend.toDevice(t);
                continue;
            }
            if (op->name() == "builtin.combine") {
                std::vector<ps::Tensor> list;
                for (unsigned i = 0; i < op->numOperands(); ++i)
                    list.push_back(values.at(op->operand(i).impl()).tensor());
                values[op->result(0).impl()] = ps::RuntimeValue(std::move(list));
                continue;
            }
            ps::KernelFn kernel = backend.kernels().find(op->name());
            if (!kernel) {
                outcome.error = QStringLiteral("no %1 kernel for %2")
                                    .arg(QString::fromStdString(backend.name()), QString::fromUtf8(op->name()));
                return outcome;
            }
            std::vector<const ps::RuntimeValue *> inputs;
            for (unsigned i = 0; i < op->numOperands(); ++i)
                inputs.push_back(op->operand(i) ? &values.at(op->operand(i).impl()) : nullptr);
            ps::KernelContext ctx(*op, std::move(inputs), backend);
            kernel(ctx);
            std::vector<ps::RuntimeValue> outs = ctx.takeOutputs();
            for (unsigned r = 0; r < op->numResults(); ++r)
                values[op->result(r).impl()] = std::move(outs[r]);
        }
    } catch (const ps::RuntimeError &e) {
        outcome.error = QStringLiteral("%1 threw: %2").arg(QString::fromUtf8(last->name()), QString::fromUtf8(e.what()));
        return outcome;
    }
    const double rtol = meta.value("rtol").toDouble(1e-5), atol = meta.value("atol").toDouble(1e-6);
    for (unsigned r = 0; r < last->numResults(); ++r) {
        const QString file = dir + QStringLiteral("/expected_%1.npy").arg(r);
        const ps::RuntimeValue &got = values[last->result(r).impl()];
        if (!QFile::exists(file)) {
            // A vector result (split): expected_<r>_<j>.npy per element.
            const auto elementFile
                = [&](int j) { return dir + QStringLiteral("/expected_%1_%2.npy").arg(r).arg(j); };
            int expected = 0;
            while (QFile::exists(elementFile(expected)))
                ++expected;
            if (expected == 0)
                continue;
            if (!got.isList() || got.list().size() != size_t(expected)) {
                outcome.error = QStringLiteral("result %1 is not a list of %2 tensors").arg(r).arg(expected);
                return outcome;
            }
            for (int j = 0; j < expected; ++j) {
                std::string error;
                const ps::Tensor want = ps::NpyIO::read(elementFile(j).toStdString(), error);
                outcome.results.push_back(backend.toHost(got.list()[size_t(j)]));
                const QString mismatch = compareTensors(outcome.results.back(), want, rtol, atol);
                if (!mismatch.isEmpty()) {
                    outcome.error = QStringLiteral("result %1 element %2: %3").arg(r).arg(j).arg(mismatch);
                    return outcome;
                }
                ++outcome.compared;
            }
            continue;
        }
        std::string error;
        const ps::Tensor want = ps::NpyIO::read(file.toStdString(), error);
        if (!got.isTensor() || !got.tensor().defined()) {
            outcome.error = QStringLiteral("result %1 was not produced").arg(r);
            return outcome;
        }
        outcome.results.push_back(backend.toHost(got.tensor()));
        const QString mismatch = compareTensors(outcome.results.back(), want, rtol, atol);
        if (!mismatch.isEmpty()) {
            outcome.error = QStringLiteral("result %1: %2").arg(r).arg(mismatch);
            return outcome;
        }
        ++outcome.compared;
    }
    if (outcome.compared == 0)
        outcome.error = QStringLiteral("no expected_<r>.npy compared");
    return outcome;
}

} // namespace kernelcase
