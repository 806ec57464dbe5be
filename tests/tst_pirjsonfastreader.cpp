#include "core/io/pirjsonfastreader.h"
#include "core/io/pirjsonreader.h"
#include "core/io/pirjsonwriter.h"
#include "core/io/programloader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "pirjsonfastreaderdata.h"

#include <QtTest>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace ps;

namespace {

std::string readAll(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string document(const std::string &ops, const std::string &blockArgs = "[]")
{
    return kDocumentHead + blockArgs + kDocumentOps + ops + "]}]}]}}";
}

/// The fast path's program, or null when it gives up.
std::unique_ptr<Program> fastRead(const std::string &json)
{
    const simdjson::padded_string padded(json);
    int version = 0;
    return PirJsonFastReader("test.json").read(padded, version);
}

LoadResult domRead(const std::string &json, const std::string &name = "test.json")
{
    PirJsonReader::Options options;
    options.fastPath = false;
    return PirJsonReader::readString(json, name, options);
}

/// Both readers' results, compared the way a user sees them: the printed program, the PIR JSON
/// written from it and every diagnostic.
void compareWithDom(const std::string &json, const std::string &name)
{
    const LoadResult dom = domRead(json, name);
    const LoadResult both = PirJsonReader::readString(json, name);
    QCOMPARE(QByteArray::fromStdString(both.diagnostics.toString()),
        QByteArray::fromStdString(dom.diagnostics.toString()));
    QCOMPARE(bool(both.program), bool(dom.program));
    if (!dom.program)
        return;
    QCOMPARE(both.program->serializationVersion, dom.program->serializationVersion);
    QCOMPARE(both.program->trainable, dom.program->trainable);
    QCOMPARE(QByteArray::fromStdString(PirPrinter::toString(*both.program)),
        QByteArray::fromStdString(PirPrinter::toString(*dom.program)));
    QCOMPARE(QByteArray::fromStdString(PirJsonWriter::write(*both.program)),
        QByteArray::fromStdString(PirJsonWriter::write(*dom.program)));
    // Read in place (a buffer with room for the padding, as InputFile::readAll gives it).
    std::string buffer(json.size() + PirJsonReader::paddingBytes(), ' ');
    buffer.resize(json.size());
    buffer.replace(0, json.size(), json);
    const LoadResult inPlace = loadProgramFromBuffer(buffer, name);
    QCOMPARE(QByteArray::fromStdString(inPlace.diagnostics.toString()),
        QByteArray::fromStdString(dom.diagnostics.toString()));
    QVERIFY(inPlace.program);
    QCOMPARE(QByteArray::fromStdString(PirPrinter::toString(*inPlace.program)),
        QByteArray::fromStdString(PirPrinter::toString(*dom.program)));
}

} // namespace

class TestPirJsonFastReader : public QObject
{
    Q_OBJECT

private slots:
    void readsWhatPaddleWrites()
    {
        const std::string json = document(kParameter + "," + kScale + "," + kScale);
        // The second scale redefines %2: left to the DOM reader, which warns.
        QVERIFY(!fastRead(json));
        const std::string ok = document(kParameter + "," + kScale);
        std::unique_ptr<Program> program = fastRead(ok);
        QVERIFY(program);
        QCOMPARE(program->numOps(), size_t(2));
        const Operation *scale = program->block().ops().back();
        QCOMPARE(scale->name(), std::string_view("pd_op.scale"));
        QCOMPARE(scale->numOperands(), 1u);
        QCOMPARE(scale->operand(0), program->block().ops().front()->result(0));
        QCOMPARE(scale->attributes().size(), size_t(3));
        QCOMPARE(scale->attribute("struct_name")->asString(), std::string("/Layer/"));
        const Operation *parameter = program->block().ops().front();
        QCOMPARE(parameter->attribute("parameter_name")->asString(), std::string("w"));
        QCOMPARE(parameter->attributes().size(), size_t(7));
        QCOMPARE(parameter->attributes().back().name, std::string("trainable"));
        compareWithDom(ok, "ok.json");
    }

    /// Anything unusual goes to the DOM reader, whose result (diagnostics included) is what the
    /// user gets.
    void givesUpOnTheUnusual_data()
    {
        QTest::addColumn<QByteArray>("json");
        const std::string ok = document(kParameter + "," + kScale);
        QTest::newRow("trailing content") << QByteArray::fromStdString(ok + " 1");
        QTest::newRow("syntax error") << QByteArray::fromStdString(ok.substr(0, ok.size() - 2));
        QTest::newRow("unknown op key") << QByteArray::fromStdString(document(kParameter + kUnknownOpKey));
        QTest::newRow("unsorted keys") << QByteArray::fromStdString(document(kParameter + kUnsortedKeys));
        QTest::newRow("undefined operand") << QByteArray::fromStdString(document(kUndefinedOperand));
        QTest::newRow("duplicate attribute") << QByteArray::fromStdString(document(kDuplicateAttribute));
        QTest::newRow("unknown attribute kind") << QByteArray::fromStdString(document(kUnknownAttributeKind));
        QTest::newRow("bad attribute") << QByteArray::fromStdString(document(kBadAttribute));
        QTest::newRow("block argument")
            << QByteArray::fromStdString(document(kBlockArgumentUse, kBlockArguments));
        QTest::newRow("escaped key") << QByteArray::fromStdString(document(kParameter + kEscapedKey));
        QTest::newRow("two blocks") << QByteArray::fromStdString(kTwoBlocks);
        QTest::newRow("wrong magic") << QByteArray::fromStdString(kWrongMagic);
        QTest::newRow("integral double id") << QByteArray::fromStdString(document(kParameter + kDoubleId));
        QTest::newRow("three parameter A") << QByteArray::fromStdString(document(kParameterThreeA));
        QTest::newRow("four parameter OA") << QByteArray::fromStdString(document(kParameterFourOA));
        QTest::newRow("double flag") << QByteArray::fromStdString(document(kParameterDoubleFlag));
    }

    void readsBooleanFlags()
    {
        const std::string json = document(kParameterBoolFlags + "," + kScale);
        std::unique_ptr<Program> program = fastRead(json);
        QVERIFY(program);
        const Operation *parameter = program->block().ops().front();
        QCOMPARE(parameter->attribute("is_distributed")->asArray().front().asBool(), false);
        QCOMPARE(parameter->attribute("is_parameter")->asArray().front().asBool(), true);
        QCOMPARE(parameter->attribute("persistable")->asArray().front().asBool(), true);
        QCOMPARE(parameter->attribute("stop_gradient")->asArray().front().asBool(), false);
        QCOMPARE(parameter->attribute("trainable")->asArray().front().asBool(), true);
        compareWithDom(json, "flags.json");
    }

    /// A buffer without room for the padding is copied first; the program is the same.
    void readsBuffersWithoutPadding()
    {
        const std::string json = document(kParameter + "," + kScale);
        std::string tight(json.data(), json.size());
        tight.shrink_to_fit();
        const LoadResult copied = loadProgramFromBuffer(tight, "tight.json");
        QVERIFY(copied.ok());
        QCOMPARE(QByteArray::fromStdString(PirPrinter::toString(*copied.program)),
            QByteArray::fromStdString(PirPrinter::toString(*domRead(json).program)));
    }
    void givesUpOnTheUnusual()
    {
        QFETCH(QByteArray, json);
        QVERIFY(!fastRead(json.toStdString()));
        compareWithDom(json.toStdString(), "unusual.json");
    }

    void nestedRegions()
    {
        const std::string inner = kRelu;
        const std::string yield = kYield;
        const std::string json = document(
            kParameter + kFull + kIfHead + inner + "," + yield + kIfSecondRegion + yield + "]}]}]}");
        std::unique_ptr<Program> program = fastRead(json);
        QVERIFY(program);
        QCOMPARE(program->numOpsTotal(), size_t(6));
        QCOMPARE(program->block().ops().back()->numRegions(), 2u);
        compareWithDom(json, "if.json");
    }

    /// A type or attribute text seen before in the same place (op name and ordinal) is jumped
    /// over by its token count; a text that only starts like it (`2.0` then `2.05`, `[2,3]` then
    /// `[2,3,4]`) must still be read as itself, and a known text followed by a broken op still
    /// sends the document to the DOM reader.
    void repeatedTextsInOnePlace()
    {
        auto scale = [](const std::string &factor, const std::string &dims, int in, int out) {
            return R"({"#":"1.scale","A":[{"AT":{"#":"0.a_f32","D":)" + factor
                + R"(},"N":"scale"}],"I":[{"%":)" + std::to_string(in) + R"(}],"O":[{"%":)"
                + std::to_string(out) + R"(,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[)" + dims
                + R"(],"NCHW",[],0]}}]})";
        };
        const std::string json
            = document(kParameter + "," + scale("2.0", "2,3", 1, 2) + "," + scale("2.0", "2,3", 2, 3) + ","
                + scale("2.05", "2,3,4", 3, 4) + "," + scale("2.0", "2,3", 4, 5));
        std::unique_ptr<Program> program = fastRead(json);
        QVERIFY(program);
        const auto &ops = program->block().ops();
        QCOMPARE(ops.size(), size_t(5));
        QCOMPARE(ops[3]->attribute("scale")->asDouble(), double(2.05f));
        QVERIFY(ops[3]->result(0).type() != ops[2]->result(0).type());
        QVERIFY(ops[4]->result(0).type() == ops[1]->result(0).type());
        QCOMPARE(ops[4]->attribute("scale")->asDouble(), 2.0);
        compareWithDom(json, "repeated.json");

        const std::string broken = document(kParameter + "," + scale("2.0", "2,3", 1, 2) + ","
            + scale("2.0", "2,3", 2, 3).substr(0, 60) + "]}");
        QVERIFY(!fastRead(broken));
        compareWithDom(broken, "broken.json");
    }

    /// Every PIR JSON fixture and sample reads the same through both paths.
    void fixturesAndSamples()
    {
        size_t files = 0, fast = 0;
        for (const char *root : { PIRSCOPE_SOURCE_DIR "/tests/fixtures", PIRSCOPE_SAMPLES_DIR "/json" }) {
            if (!std::filesystem::is_directory(root))
                continue;
            for (const auto &entry : std::filesystem::recursive_directory_iterator(root)) {
                if (!entry.is_regular_file() || entry.path().extension() != ".json")
                    continue;
                const std::string json = readAll(entry.path());
                if (json.empty() || json[0] != '{' || json.find("\"base_code\"") == std::string::npos)
                    continue;
                ++files;
                fast += fastRead(json) ? 1 : 0;
                compareWithDom(json, entry.path().string());
                if (QTest::currentTestFailed()) {
                    qWarning() << "in" << entry.path().c_str();
                    return;
                }
            }
        }
        qInfo() << files << "PIR JSON files," << fast << "read by the fast path";
        QVERIFY(files > 0);
        QVERIFY(fast > 0);
    }
};

QTEST_GUILESS_MAIN(TestPirJsonFastReader)
#include "tst_pirjsonfastreader.moc"
