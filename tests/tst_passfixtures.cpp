#include "core/analysis/programdiff.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/backend.h"
#include "core/runtime/parameterstore.h"
#include "core/session/parameterstoreevaluator.h"
#include "core/transform/constantfolding.h"
#include "core/transform/passregistry.h"

#include <QtTest>
#include <algorithm>
#include <map>

using namespace ps;

namespace {

const QString kDir = QStringLiteral(PIRSCOPE_FIXTURES_DIR "/pipeline_passes");
const std::string kFolded = "constant_folding@_";

std::unique_ptr<Program> load(const QString &path)
{
    LoadResult r = PirTextReader::readFile(path.toStdString());
    return r.ok() ? std::move(r.program) : nullptr;
}

QJsonObject manifest(const QString &caseDir)
{
    QFile f(caseDir + "/manifest.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

/// Renames constant_folding_pass's tensors `constant_folding@_#k` by creation order. Paddle's
/// names are a clock reading followed by a counter (both grow), PIRScope's the counter alone:
/// ordered as numbers, both give the creation order.
void normalizeFoldedNames(Program &program)
{
    auto attributeOf = [](Operation *op) -> Attribute * {
        if (op->name() == "builtin.parameter")
            return op->mutableAttribute("parameter_name");
        if (op->name() == "builtin.constant")
            return op->mutableAttribute("value");
        return nullptr;
    };
    std::vector<std::string> names;
    program.block().walk([&](Operation *op) {
        if (Attribute *a = attributeOf(op); a && a->asString().starts_with(kFolded))
            names.push_back(a->asString());
    });
    std::sort(names.begin(), names.end(), [](const std::string &a, const std::string &b) {
        return a.size() != b.size() ? a.size() < b.size() : a < b;
    });
    names.erase(std::unique(names.begin(), names.end()), names.end());
    program.block().walk([&](Operation *op) {
        Attribute *a = attributeOf(op);
        if (!a || !a->asString().starts_with(kFolded))
            return;
        const size_t rank = size_t(std::find(names.begin(), names.end(), a->asString()) - names.begin());
        const std::string name = kFolded + "#" + std::to_string(rank);
        *a = a->kind() == Attribute::Kind::TensorName ? Attribute::tensorName(name) : Attribute::string(name);
    });
}

} // namespace

/// Each implemented pass against Paddle 3.3.1 on the golden before/after programs of
/// tests/fixtures/pipeline_passes (tools/make_pipeline_pass_fixtures.py): the pass applied to Paddle's
/// program before it gives Paddle's program after it.
class TestPassFixtures : public QObject
{
    Q_OBJECT

private slots:
    void matchesPaddle_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("pass");
        const QStringList cases = QDir(kDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
        QVERIFY2(!cases.isEmpty(), "no fixtures in tests/fixtures/pipeline_passes");
        for (const QString &c : cases) {
            const QJsonObject passes = manifest(kDir + "/" + c).value("passes").toObject();
            for (const QString &pass : passes.keys())
                if (PassRegistry::isImplemented(pass.toStdString()))
                    QTest::newRow(qPrintable(c + "/" + pass)) << c << pass;
        }
    }

    void matchesPaddle()
    {
        QFETCH(QString, caseName);
        QFETCH(QString, pass);
        const QString dir = kDir + "/" + caseName;
        auto before = load(dir + "/" + pass + ".before.txt");
        const QString afterFile = dir + "/" + pass + ".after.txt";
        auto expected = load(QFileInfo::exists(afterFile) ? afterFile : dir + "/" + pass + ".before.txt");
        QVERIFY(before && expected);

        PassOptions options;
        options.place.type = Place::AllocType::Cpu; // the fixtures come from a CPU predictor
        std::unique_ptr<Backend> cpu = createCpuBackend();
        auto store = std::make_shared<ParameterStore>();
        if (pass == "constant_folding_pass") {
            auto input = load(dir + "/input.txt");
            QVERIFY(input);
            std::string error;
            const QString params = dir + "/model.pdiparams";
            const TensorSource source = QFileInfo::exists(params)
                ? TensorSource::pdiparams(params.toStdString())
                : TensorSource::zeros();
            QVERIFY2(store->load(*input, source, error), error.c_str());
            QVERIFY2(store->load(*before, TensorSource::zeros(), error),
                error.c_str()); // constants of earlier passes
            options.evaluator = std::make_shared<ParameterStoreEvaluator>(store, *cpu);
        }
        std::unique_ptr<Pass> p = PassRegistry::create(pass.toStdString(), options);
        QVERIFY(p && p->implemented());
        const size_t rewrites = p->run(*before);
        if (pass == "constant_folding_pass") {
            const auto *folding = static_cast<const ConstantFolding *>(p.get());
            const std::string failures
                = folding->failures().empty() ? std::string() : folding->failures().front();
            QVERIFY2(folding->failures().empty(), failures.c_str());
            // Every tensor it made has a value.
            for (const std::string &name : folding->createdNames())
                QVERIFY2(store->get(name).defined(), name.c_str());
            normalizeFoldedNames(*before);
            normalizeFoldedNames(*expected);
        }
        const ProgramDifference d = ProgramDiff::compare(*before, *expected);
        QVERIFY2(d.equal, d.toString("pirscope", "paddle").c_str());
        qInfo("%s %s: %zu rewrites, equal to Paddle's", qPrintable(caseName), qPrintable(pass), rewrites);
    }
};

QTEST_GUILESS_MAIN(TestPassFixtures)
#include "tst_passfixtures.moc"
