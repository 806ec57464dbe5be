// Which ops the CUDA backend has kernels for: every forward op of the real samples in
// ../shared/samples/json, every forward and grad op of the golden bundles (tests/fixtures/paddle)
// and of the vision models (tests/fixtures/models, their backward built as dy2static would). The
// registry checked is cuda-sim's, which is the CUDA backend's own sources (a CUDA build
// registers the same kernels). The test prints the gap list and fails while it is not empty;
// ops without a CUDA kernel still run, on the CPU fallback.

#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/runtime/backend.h"
#include "core/runtime/interpreter.h"
#include "core/transform/backwardappender.h"

#include <QtTest>
#include <map>
#include <set>

using namespace ps;

namespace {

/// Kernel op names of `program` (builtins, control flow and region terminators left out).
void collectOps(const Program &program, std::set<std::string> &ops)
{
    program.block().walk([&](Operation *op) {
        const std::string name(op->name());
        if (Interpreter::isBuiltinOp(name) || name == "pd_op.if" || name == "pd_op.while" || name.starts_with("cf."))
            return;
        ops.insert(name);
    });
}

/// The ops of `path` plus those of its backward (data ops as inputs, parameters as parameters,
/// fetch/shadow_output operands as outputs), as dy2static's append_backward builds it.
bool collectWithBackward(const QString &path, std::set<std::string> &ops, QString &error)
{
    LoadResult loaded = loadProgram(path.toStdString());
    if (!loaded.ok()) {
        error = path + ": " + QString::fromStdString(loaded.diagnostics.toString());
        return false;
    }
    collectOps(*loaded.program, ops);
    std::vector<Value> inputs, params, outputs;
    for (Operation *op : loaded.program->block().ops()) {
        if (op->name() == "pd_op.data")
            inputs.push_back(op->result(0));
        else if (op->name() == "builtin.parameter")
            params.push_back(op->result(0));
        else if ((op->name() == "pd_op.fetch" || op->name() == "builtin.shadow_output") && op->numOperands() > 0)
            outputs.push_back(op->operand(0));
    }
    const TrainProgram train = BackwardAppender::fromOrigin(*loaded.program, inputs, params, outputs);
    if (!train.ok() || !train.program) {
        error = path + ": no backward: " + QString::fromStdString(train.diagnostics.toString());
        return false;
    }
    collectOps(*train.program, ops);
    return true;
}

} // namespace

class TestCudaCoverage : public QObject
{
    Q_OBJECT

private slots:
    void everyNeededOpHasACudaKernel()
    {
        std::string reason;
        std::unique_ptr<Backend> cuda = createCudaSimBackend(reason);
        if (!cuda)
            cuda = createCudaBackend(0, reason);
        if (!cuda)
            QSKIP(("no CUDA backend in this build: " + reason).c_str());

        // op -> where it is needed
        std::map<std::string, std::set<std::string>> needed;
        const auto need = [&](const std::set<std::string> &ops, const std::string &where) {
            for (const std::string &op : ops)
                needed[op].insert(where);
        };

        const QDir samples(QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json"));
        if (!samples.exists())
            qWarning("../shared/samples is absent: the real samples are not checked");
        for (const QString &file : samples.entryList({ "*.json" }, QDir::Files, QDir::Name)) {
            LoadResult loaded = loadProgram(samples.filePath(file).toStdString());
            QVERIFY2(loaded.ok(), qPrintable(file));
            std::set<std::string> ops;
            collectOps(*loaded.program, ops);
            need(ops, "sample " + file.toStdString());
        }

        const QDir bundles(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/paddle"));
        for (const QString &b : bundles.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            for (const char *name : { "train_program.txt", "infer_program.txt" }) {
                const QString path = bundles.filePath(b + "/" + name);
                if (!QFile::exists(path))
                    continue;
                LoadResult loaded = loadProgram(path.toStdString());
                QVERIFY2(loaded.ok(), qPrintable(path));
                std::set<std::string> ops;
                collectOps(*loaded.program, ops);
                need(ops, "bundle " + b.toStdString());
            }
        }

        const QDir models(QStringLiteral(PIRSCOPE_FIXTURES_DIR "/models"));
        for (const QString &m : models.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            std::set<std::string> ops;
            QString error;
            QVERIFY2(collectWithBackward(models.filePath(m + "/model.json"), ops, error), qPrintable(error));
            need(ops, "vision model " + m.toStdString() + " (forward + backward)");
        }

        QVERIFY(needed.size() > 50);
        QStringList gaps;
        for (const auto &[op, where] : needed) {
            if (cuda->kernels().has(op))
                continue;
            std::string list;
            for (const std::string &w : where)
                list += (list.empty() ? "" : ", ") + w;
            gaps << QString::fromStdString(op + " (" + list + ")");
        }
        qInfo("%zu ops needed, %lld without a CUDA kernel", needed.size(), qlonglong(gaps.size()));
        for (const QString &g : gaps)
            qInfo("  no CUDA kernel: %s", qPrintable(g));
        QVERIFY2(gaps.isEmpty(), qPrintable("ops without a CUDA kernel: " + gaps.join("; ")));
    }
};

QTEST_GUILESS_MAIN(TestCudaCoverage)
#include "tst_cudacoverage.moc"
