#include "core/io/pirjsonreader.h"
#include "core/io/pirtextreader.h"
#include "core/io/typekeycache.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"

#include <QtTest>

using namespace ps;

namespace {

std::string jsonProgram(const std::string &resultTypes)
{
    return "{\"base_code\":{\"magic\":\"pir\",\"trainable\":true,\"version\":4},\"program\":{\"regions\":[{"
           "\"#\":\"region_0\",\"blocks\":[{\"#\":\"block_0\",\"args\":[],\"ops\":[{\"#\":\"1.foo\",\"A\":[],"
           "\"I\":[],\"O\":["
        + resultTypes + "],\"OA\":[]}]}]}]}}";
}

std::string denseTensor(const std::string &dims)
{
    return "{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"}," + dims + ",\"NCHW\",[],0]}";
}

std::string result(int id, const std::string &type)
{
    return "{\"%\":" + std::to_string(id) + ",\"TT\":" + type + "}";
}

size_t warnings(const LoadResult &r)
{
    size_t n = 0;
    for (const Diagnostic &d : r.diagnostics.items())
        n += d.severity == Diagnostic::Severity::Warning ? 1 : 0;
    return n;
}

TypeKeyCache &jsonKeys()
{
    return TypeKeyCache::forThread(TypeKeyCache::Format::PirJson);
}

TypeKeyCache &textKeys()
{
    return TypeKeyCache::forThread(TypeKeyCache::Format::PirText);
}

} // namespace

class TestTypeKeyCache : public QObject
{
    Q_OBJECT

private slots:
    void addAndFind()
    {
        TypeKeyCache cache;
        QVERIFY(!cache.find("tensor<2xf32>"));
        const Type t = Type::denseTensor(DataType::Float32, { 2 });
        cache.add("tensor<2xf32>", t);
        QVERIFY(cache.find("tensor<2xf32>"));
        QCOMPARE(*cache.find("tensor<2xf32>"), t);
        QCOMPARE(cache.size(), size_t(1));
        QVERIFY(&TypeKeyCache::forThread(TypeKeyCache::Format::PirJson)
            != &TypeKeyCache::forThread(TypeKeyCache::Format::PirText));
    }

    void jsonProgramsShareTypeKeys()
    {
        const std::string a = denseTensor("[7,3]");
        const std::string b = denseTensor("[7,4]");
        const LoadResult first
            = PirJsonReader::readString(jsonProgram(result(1, a) + "," + result(2, b)), "a.json");
        QVERIFY(first.ok());
        const size_t known = jsonKeys().size();
        QVERIFY(jsonKeys().find(std::string_view()) == nullptr);

        // Another program with the same types adds no key and gets the same (interned) types.
        const LoadResult second
            = PirJsonReader::readString(jsonProgram(result(5, b) + "," + result(6, a)), "b.json");
        QVERIFY(second.ok());
        QCOMPARE(jsonKeys().size(), known);
        QCOMPARE(
            second.program->block().op(0)->result(0).type(), first.program->block().op(0)->result(1).type());
        QCOMPARE(second.program->block().op(0)->result(1).type().dims(), (std::vector<int64_t> { 7, 3 }));

        // A new type adds one key.
        const LoadResult third
            = PirJsonReader::readString(jsonProgram(result(1, denseTensor("[7,5]"))), "c.json");
        QVERIFY(third.ok());
        QCOMPARE(jsonKeys().size(), known + 1);
    }

    void jsonTypeWarningAtEveryLoad()
    {
        // An unknown type id is kept verbatim with a warning: once per load (its repeats in the
        // same load are quiet), and again at the next load, so it is never a known key.
        const std::string odd = "{\"#\":\"9.t_mystery\",\"D\":[1]}";
        const std::string json = jsonProgram(result(1, odd) + "," + result(2, odd));
        const size_t known = jsonKeys().size();
        for (int load = 0; load < 2; ++load) {
            const LoadResult r = PirJsonReader::readString(json, "odd.json");
            QVERIFY(r.ok());
            QCOMPARE(warnings(r), size_t(1));
            QCOMPARE(r.program->block().op(0)->result(1).type().kind(), Type::Kind::Opaque);
        }
        QCOMPARE(jsonKeys().size(), known);
    }

    void jsonTypeErrorNamesItsPath()
    {
        // A known spelling with bad data still fails with its JSON path, also after a good load.
        QVERIFY(PirJsonReader::readString(jsonProgram(result(1, denseTensor("[2]"))), "good.json").ok());
        const LoadResult r
            = PirJsonReader::readString(jsonProgram(result(1, denseTensor("[2,\"x\"]"))), "bad.json");
        QVERIFY(!r.ok());
        const std::string text = r.diagnostics.toString();
        QVERIFY2(text.find("program.regions[0].blocks[0].ops[0].O[0].TT.D[1][1]") != std::string::npos,
            text.c_str());
    }

    void textProgramsShareTypeKeys()
    {
        const std::string a = "{\n    (%0) = \"pd_op.data\" () {name:\"x\"} : () -> tensor<9x3xf32>\n"
                              "    (%1) = \"pd_op.relu\" (%0) {} : (tensor<9x3xf32>) -> tensor<9x3xf32>\n}\n";
        const LoadResult first = PirTextReader::readString(a, "a.txt");
        QVERIFY(first.ok());
        const size_t known = textKeys().size();
        QVERIFY(textKeys().find("tensor<9x3xf32>"));
        const LoadResult second = PirTextReader::readString(a, "b.txt");
        QVERIFY(second.ok());
        QCOMPARE(textKeys().size(), known);
        QCOMPARE(
            second.program->block().op(1)->result(0).type(), first.program->block().op(1)->result(0).type());

        // A malformed type is reported at every load and never becomes a key.
        const std::string bad = "{\n    (%0) = \"pd_op.data\" () {name:\"x\"} : () -> tensor<9x3xf32>>\n}\n";
        for (int load = 0; load < 2; ++load) {
            const LoadResult r = PirTextReader::readString(bad, "bad.txt");
            QVERIFY(!r.diagnostics.items().empty());
        }
        QVERIFY(!textKeys().find("tensor<9x3xf32>>"));
    }
};

QTEST_GUILESS_MAIN(TestTypeKeyCache)
#include "tst_typekeycache.moc"
