#pragma once

// Helpers shared by the tests that read the golden Paddle 3.3.1 trace bundles
// (tests/fixtures/paddle/<model>/, see tools/README.md).

#include "core/analysis/programdiff.h"
#include "core/io/pirtextreader.h"
#include "core/io/tracebundle.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/session/bundleprograms.h"
#include "core/transform/partialprogram.h"
#include "core/transform/runnableprogram.h"
#include "core/transform/splitprogram.h"

#include <QtTest>
#include <algorithm>
#include <memory>
#include <optional>

namespace bundle {

inline const char *const kModels[] = { "mlp_ce", "lenet", "conv_bn_relu", "transformer_encoder",
    "inplace_chain", "pruned_param", "nested_output", "control_flow", "control_flow_if", "embedding_mean" };

inline QString dir(const QString &model)
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle/") + model;
}

inline QJsonObject readJson(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

inline std::unique_ptr<ps::Program> loadText(const QString &path)
{
    ps::LoadResult r = ps::PirTextReader::readFile(path.toStdString());
    return r.ok() ? std::move(r.program) : nullptr;
}

/// A value by the name Paddle gives it: "Fake_var" → null, a `pd_op.data` name, a parameter name
/// or the name of a `builtin.shadow_output` (its operand). Top-level ops only.
inline std::optional<ps::Value> findByName(const ps::Program &program, const std::string &name)
{
    if (name == "Fake_var")
        return ps::Value();
    for (const ps::Operation *op : program.block().ops()) {
        const std::string_view n = op->name();
        if (n == "pd_op.data" && op->stringAttribute("name") == name)
            return op->result(0);
        if (n == "builtin.parameter" && op->stringAttribute("parameter_name") == name)
            return op->result(0);
        if (n == "builtin.shadow_output" && op->stringAttribute("output_name") == name)
            return op->operand(0);
    }
    return std::nullopt;
}

inline std::vector<std::string> strings(const QJsonArray &a)
{
    std::vector<std::string> out;
    for (const QJsonValue &v : a)
        out.push_back(v.toString().toStdString());
    return out;
}

inline QString joined(const std::vector<std::string> &names)
{
    QStringList l;
    for (const std::string &n : names)
        l << QString::fromStdString(n);
    return l.join(QLatin1String(", "));
}

/// Whether Paddle's text lost something the reader cannot restore: the `pd_op.while` form prints
/// no attributes, and kwargs, `pd_op.if` conditions and `pd_op.while` operands/results print no
/// types (the reader infers them from other uses and finds none in some control-flow programs).
inline bool hasLossyText(const ps::Program &p)
{
    bool lossy = false;
    for (ps::Value kw : p.block().kwargs())
        lossy = lossy || kw.type().isNull();
    p.block().walk([&lossy](ps::Operation *op) {
        lossy = lossy || op->name() == "pd_op.while";
        for (unsigned i = 0; i < op->numResults(); ++i)
            lossy = lossy || op->result(i).type().isNull();
    });
    return lossy;
}

/// Compares `ours` with Paddle's `paddle` structurally: directly when Paddle's text is lossless,
/// else as the text carries it (ours printed and read back, so the losses are the same on both
/// sides).
inline ps::ProgramDifference compareWithPaddle(const ps::Program &ours, const ps::Program &paddle)
{
    if (!hasLossyText(paddle))
        return ps::ProgramDiff::compare(ours, paddle);
    auto reread = ps::PirTextReader::readString(ps::PirPrinter::toString(ours), "ours").program;
    if (!reread) {
        ps::ProgramDifference d;
        d.equal = false;
        d.message = "our program does not read back";
        return d;
    }
    return ps::ProgramDiff::compare(*reread, paddle);
}

/// Printed lines, trimmed and sorted: kwarg lines come in Paddle's hash-map order, so texts are
/// compared as multisets of lines (op order still shows in the value ids). Block-argument
/// attributes (`^%arg_0 {stop_gradient:false}`) are blanked: PIRScope's own transforms do not
/// set them on the block arguments they create (the reader and printer keep them since issue 9).
inline QStringList sortedLines(const QString &text)
{
    static const QRegularExpression argAttributes(QStringLiteral("\\{[^}]*\\}"));
    QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (QString &l : lines) {
        l = l.trimmed();
        if (l.startsWith(QLatin1String("^%arg")))
            l.replace(argAttributes, QStringLiteral("{}"));
    }
    lines.sort();
    return lines;
}

inline QStringList printedSorted(const ps::Program &p)
{
    return sortedLines(QString::fromStdString(ps::PirPrinter::toString(p)));
}

inline QStringList fileSorted(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return sortedLines(QString::fromUtf8(f.readAll()));
}

inline ps::OpRange rangeOf(const QJsonValue &v)
{
    const QJsonArray a = v.toArray();
    return { size_t(a.at(0).toInt()), size_t(a.at(1).toInt()) };
}

/// The train RunnableProgram Paddle built, from the bundle's train_program.txt and manifest.
inline std::optional<ps::RunnableProgram> trainFromBundle(const QString &dir)
{
    ps::DiagnosticList diagnostics;
    auto b = ps::TraceBundle::open(dir.toStdString(), diagnostics);
    return b ? ps::BundlePrograms::paddleTrainProgram(*b, diagnostics) : std::nullopt;
}

/// Names per key against a program_attributes.json (no_need_buffers compared as a set).
inline QString attributeMismatch(const ps::SplitNames &got, const QJsonObject &expected)
{
    if (expected.size() != int(ps::kSplitKeyCount))
        return "the json does not have 12 keys";
    for (ps::SplitKey key : ps::allSplitKeys()) {
        std::vector<std::string> want
            = strings(expected.value(QString::fromLatin1(ps::splitKeyName(key))).toArray());
        std::vector<std::string> have = got[key];
        if (key == ps::SplitKey::NoNeedBuffers) {
            std::sort(want.begin(), want.end());
            std::sort(have.begin(), have.end());
        }
        if (have != want)
            return QString::fromLatin1(ps::splitKeyName(key)) + ": " + joined(have) + " vs " + joined(want);
    }
    return {};
}

/// A PartialProgramLayer over the bundle's program.txt, as Paddle built it (ps::TraceBundle).
inline std::unique_ptr<ps::PartialProgramLayer> layerFromBundle(
    const QString &dir, ps::PipelineFlavour flavour = ps::PipelineFlavour::Newest)
{
    ps::DiagnosticList diagnostics;
    auto b = ps::TraceBundle::open(dir.toStdString(), diagnostics);
    return b ? ps::BundlePrograms::makeLayer(*b, diagnostics, flavour, ps::TraceBundle::ProgramSource::Text)
             : nullptr;
}

} // namespace bundle
