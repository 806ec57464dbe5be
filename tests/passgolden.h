#pragma once

// Helpers shared by the tests that compare PIRScope's passes with Paddle 3.3.1's on the golden
// pass fixtures (tests/fixtures/passes/, written by tools/make_pass_fixtures.py; see its
// docstring for the layout).

#include "core/analysis/programequality.h"
#include "core/dialect/opregistry.h"
#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/passregistry.h"
#include "core/transform/pass.h"

#include <QtTest>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace passgolden {

inline QString fixtureDir()
{
    return QStringLiteral(PIRSCOPE_FIXTURES_DIR "/passes");
}

inline QJsonObject manifest()
{
    QFile f(fixtureDir() + "/manifest.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// The cases of the manifest, sorted.
inline QStringList cases()
{
    QStringList names = manifest().value("cases").toObject().keys();
    names.sort();
    return names;
}

inline std::unique_ptr<ps::Program> load(const QString &path)
{
    ps::LoadResult r = ps::loadProgram(path.toStdString());
    if (!r.ok())
        qWarning().noquote() << path << QString::fromStdString(r.diagnostics.toString());
    return r.ok() ? std::move(r.program) : nullptr;
}

/// Op name → count over the whole program (nested ops included).
inline std::map<std::string, int> opCounts(const ps::Program &program)
{
    std::map<std::string, int> counts;
    program.block().walk([&counts](ps::Operation *op) { ++counts[std::string(op->name())]; });
    return counts;
}

/// Top-level op counts as the manifest records them.
inline std::map<std::string, int> manifestCounts(const QJsonObject &ops)
{
    std::map<std::string, int> counts;
    for (auto it = ops.begin(); it != ops.end(); ++it)
        counts[it.key().toStdString()] = it.value().toInt();
    return counts;
}

inline std::map<std::string, int> topLevelCounts(const ps::Program &program)
{
    std::map<std::string, int> counts;
    for (const ps::Operation *op : program.block().ops())
        ++counts[std::string(op->name())];
    return counts;
}

inline QString describeCounts(const std::map<std::string, int> &counts)
{
    QStringList parts;
    for (const auto &[name, n] : counts)
        parts << QString("%1:%2").arg(QString::fromStdString(name)).arg(n);
    return parts.join(' ');
}

/// Drops the attributes Paddle's JSON writer does not write, so a program rewritten here compares
/// with one Paddle rewrote and saved: a registered pd_op op keeps its YAML attributes plus
/// `struct_name`, `op_dist_attr`, `op_role` and the result flags `stop_gradient` and
/// `persistable`; other ops lose only `op_callstack`.
inline void keepSerializedAttributes(ps::Program &program)
{
    program.block().walk([](ps::Operation *op) {
        const ps::OpInfo *info
            = op->dialect() == "pd_op" ? ps::OpRegistry::instance().lookup(op->name()) : nullptr;
        std::vector<std::string> drop;
        for (const ps::NamedAttribute &a : op->attributes()) {
            if (a.name == "op_callstack") {
                drop.push_back(a.name);
                continue;
            }
            if (!info || a.name == "struct_name" || a.name == "op_dist_attr" || a.name == "op_role"
                || a.name == "stop_gradient" || a.name == "persistable")
                continue;
            bool declared = false;
            for (int i = 0; i < info->numAttributes; ++i)
                declared |= info->attributes[i].name == a.name;
            if (!declared)
                drop.push_back(a.name);
        }
        for (const std::string &name : drop)
            op->removeAttribute(name);
    });
}

/// Runs `run` on `<case>/before.json` and compares the result with what Paddle's run of the
/// same manifest entry gave (`<case>/<entry>.json`, or the unchanged program). Fails the
/// current test with the first difference.
using RunPasses = std::function<size_t(ps::Program &)>;

inline void checkAgainstPaddle(const RunPasses &run, const QString &caseName, const QString &entry)
{
    const QJsonObject record
        = manifest()["cases"].toObject()[caseName].toObject()["results"].toObject()[entry].toObject();
    QVERIFY2(!record.isEmpty(), qPrintable("no manifest result for " + caseName + " / " + entry));
    std::unique_ptr<ps::Program> program = load(fixtureDir() + "/" + caseName + "/before.json");
    QVERIFY(program);
    const bool changed = record["changed"].toBool();
    std::unique_ptr<ps::Program> expected
        = load(fixtureDir() + "/" + caseName + "/" + (changed ? entry : QString("before")) + ".json");
    QVERIFY(expected);

    const size_t rewrites = run(*program);
    QCOMPARE(rewrites != 0, changed);
    keepSerializedAttributes(*program);
    QCOMPARE(
        describeCounts(topLevelCounts(*program)), describeCounts(manifestCounts(record["ops"].toObject())));
    std::string difference;
    QVERIFY2(ps::programsEqual(*program, *expected, &difference), difference.c_str());
}

} // namespace passgolden

namespace passgolden {

/// A real sample under ../shared/samples/json, or an empty string when absent.
inline QString samplePath(const QString &name)
{
    const QString path = QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/") + name;
    return QFileInfo::exists(path) ? path : QString();
}

/// The real samples the pass tests run on.
inline const char *const kSamples[] = { "PP-OCRv5_mobile_det_infer.inference.json",
    "PP-OCRv5_server_det_infer.inference.json", "PP-OCRv5_server_rec_infer.inference.json",
    "korean_PP-OCRv5_mobile_rec_infer.inference.json", "PP-DocLayout_plus-L.inference.json" };

/// Adds one data row per golden case that has a result for `entry`.
inline void addCaseRows(const QString &entry)
{
    QTest::addColumn<QString>("caseName");
    for (const QString &c : cases())
        if (manifest()["cases"].toObject()[c].toObject()["results"].toObject().contains(entry))
            QTest::newRow(qPrintable(c)) << c;
}

/// Adds one data row per real sample.
inline void addSampleRows()
{
    QTest::addColumn<QString>("sample");
    for (const char *s : kSamples)
        QTest::newRow(s) << QString(s);
}

/// Count of `opName` at top level.
inline int countOf(const ps::Program &program, std::string_view opName)
{
    int n = 0;
    for (const ps::Operation *op : program.block().ops())
        n += op->name() == opName;
    return n;
}

} // namespace passgolden

namespace passgolden {

/// One line per top-level op, `name(operands)results`, each operand `P:R`, `-` (null) or `?`
/// (defined elsewhere): tools/make_pass_fixtures.py's structure_lines().
inline QStringList structureLines(const ps::Program &program)
{
    std::unordered_map<const ps::Operation *, int> index;
    const auto &ops = program.block().ops();
    for (size_t i = 0; i < ops.size(); ++i)
        index.emplace(ops[i], int(i));
    QStringList lines;
    for (const ps::Operation *op : ops) {
        QStringList operands;
        for (unsigned i = 0; i < op->numOperands(); ++i) {
            const ps::Value v = op->operand(i);
            const auto it = index.find(v.definingOp());
            if (v.isNull())
                operands << "-";
            else if (it == index.end())
                operands << "?";
            else
                operands << QString("%1:%2").arg(it->second).arg(v.index());
        }
        lines << QString("%1(%2)%3")
                     .arg(QString::fromStdString(std::string(op->name())), operands.join(','))
                     .arg(op->numResults());
    }
    return lines;
}

inline QString structureHash(const ps::Program &program)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(structureLines(program).join('\n').toUtf8(), QCryptographicHash::Sha256)
            .toHex());
}

/// Runs `run` on a real sample and compares op counts and structure with what Paddle's run of
/// manifest entry `entry` recorded. Skips when the sample or its record is absent.
inline void checkSampleAgainstPaddle(const RunPasses &run, const QString &sample, const QString &entry)
{
    const QString path = samplePath(sample);
    if (path.isEmpty())
        QSKIP("../shared/samples is absent");
    const QJsonObject record = manifest()["samples"].toObject()[sample].toObject();
    const QJsonObject result = record["results"].toObject()[entry].toObject();
    if (result.isEmpty())
        QSKIP("the manifest has no Paddle result for this sample");
    std::unique_ptr<ps::Program> program = load(path);
    QVERIFY(program);
    QCOMPARE(structureHash(*program), record["structure"].toString());
    const size_t opsBefore = program->numOps();
    const size_t rewrites = run(*program);
    qInfo().noquote() << sample << entry << "ops" << opsBefore << "->" << program->numOps() << "rewrites"
                      << rewrites;
    if (structureHash(*program) != result["structure"].toString()) {
        // For debugging: compare with tools/make_pass_fixtures.py's structure_lines() of Paddle's result.
        QFile dump(
            QDir::temp().filePath(QFileInfo(sample).completeBaseName() + "." + entry + ".structure.txt"));
        if (dump.open(QIODevice::WriteOnly))
            dump.write(structureLines(*program).join('\n').toUtf8());
        qWarning().noquote() << "structure written to" << dump.fileName();
    }
    QCOMPARE(rewrites != 0, result["changed"].toBool());
    QCOMPARE(
        describeCounts(topLevelCounts(*program)), describeCounts(manifestCounts(result["ops"].toObject())));
    QCOMPARE(structureHash(*program), result["structure"].toString());
}

} // namespace passgolden

namespace passgolden {

/// The manifest entries the fusion tests check: each fusion pass, then the whole chain.
inline QStringList fusionEntries()
{
    QStringList out;
    for (std::string_view name : ps::PassRegistry::fusionPassNames())
        out << QString::fromLatin1(name.data(), int(name.size()));
    out << "fusion_chain";
    return out;
}

/// Rows (entry, caseName) for every fusion entry and golden case.
inline void addEntryCaseRows()
{
    QTest::addColumn<QString>("entry");
    QTest::addColumn<QString>("caseName");
    for (const QString &entry : fusionEntries())
        for (const QString &c : cases())
            QTest::newRow(qPrintable(entry + "/" + c)) << entry << c;
}

/// Rows (entry, sample) for every fusion entry and real sample.
inline void addEntrySampleRows()
{
    QTest::addColumn<QString>("entry");
    QTest::addColumn<QString>("sample");
    for (const QString &entry : fusionEntries())
        for (const char *s : kSamples)
            QTest::newRow(qPrintable(entry + "/" + s)) << entry << QString(s);
}

/// The Paddle passes of manifest entry `entry`, in order.
inline QStringList entryPasses(const QString &entry)
{
    QStringList out;
    for (const QJsonValue &v : manifest()["entries"].toObject()[entry].toObject()["passes"].toArray())
        out << v.toString();
    return out;
}

} // namespace passgolden
