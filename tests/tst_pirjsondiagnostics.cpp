#include "core/io/pirjsonreader.h"
#include "core/ir/block.h"

#include <QtTest>
#include <string>

using namespace ps;

namespace {

std::string document(const std::string &ops, int version = 4, const std::string &blockExtra = {})
{
    return R"({"base_code":{"magic":"pir","trainable":true,"version":)" + std::to_string(version)
        + R"(},"program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":[])" + blockExtra
        + R"(,"ops":[)" + ops + "]}]}]}}";
}

/// One op `1.foo` with a single attribute `a`.
std::string attributeDocument(const std::string &at)
{
    return document(R"({"#":"1.foo","A":[{"AT":)" + at + R"(,"N":"a"}],"I":[],"O":[],"OA":[]})");
}

LoadResult read(const std::string &json)
{
    return PirJsonReader::readString(json, "test.json");
}

QByteArray diagnosticsText(const LoadResult &r)
{
    return QByteArray::fromStdString(r.diagnostics.toString());
}

} // namespace

/// PirJsonReader on broken input: every error names a JSON path or a byte offset, nothing
/// crashes.
class TestPirJsonDiagnostics : public QObject
{
    Q_OBJECT

private slots:
    void malformed_data();
    void malformed();
    void syntaxErrorLineAndColumn();
    void truncatedEverywhere();
    void flippedBytes();
    void deepNesting();
    void missingFile();
};

void TestPirJsonDiagnostics::malformed_data()
{
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("path"); ///< expected JSON path; "@": a syntax error with a byte offset

    const std::string t = R"({"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]})";
    const auto op = [&](const std::string &body) { return QString::fromStdString(document(body)); };
    QTest::newRow("empty") << ""
                           << "empty"
                           << "@";
    QTest::newRow("only brace") << "{"
                                << "end of input"
                                << "@";
    QTest::newRow("missing brace") << QString::fromStdString(document("").substr(1)) << "after the end"
                                   << "@";
    QTest::newRow("not an object") << "[1,2]"
                                   << "the document must be an object"
                                   << "";
    QTest::newRow("no base_code") << R"({"program":{}})"
                                  << "base_code"
                                  << "base_code";
    QTest::newRow("no version") << R"({"base_code":{"magic":"pir"},"program":{}})"
                                << "missing"
                                << "base_code.version";
    QTest::newRow("no regions") << R"({"base_code":{"magic":"pir","version":1},"program":{}})"
                                << "missing"
                                << "program.regions";
    QTest::newRow("wrong magic") << R"({"base_code":{"magic":"pdmodel","version":1},"program":{}})"
                                 << "wrong magic"
                                 << "base_code.magic";
    QTest::newRow("version 7") << R"({"base_code":{"magic":"pir","version":7},"program":{}})"
                               << "unsupported PIR serialization version 7"
                               << "base_code.version";
    QTest::newRow("version -1") << R"({"base_code":{"magic":"pir","version":-1},"program":{}})"
                                << "unsupported"
                                << "base_code.version";
    QTest::newRow("version string") << R"({"base_code":{"magic":"pir","version":"1"},"program":{}})"
                                    << "must be an integer"
                                    << "base_code.version";
    QTest::newRow("two regions")
        << R"({"base_code":{"magic":"pir","version":1},"program":{"regions":[{},{}]}})"
        << "exactly one region"
        << "program.regions";
    QTest::newRow("type id not a string")
        << op(R"({"#":"1.a","I":[],"O":[{"%":1,"TT":{"#":5}}]})") << "must be a string"
        << "program.regions[0].blocks[0].ops[0].O[0].TT.#";
    QTest::newRow("type without id") << op(R"({"#":"1.a","I":[],"O":[{"%":1,"TT":{"D":[]}}]})") << "no \"#\""
                                     << "program.regions[0].blocks[0].ops[0].O[0].TT";
    QTest::newRow("dtensor short") << op(
        R"({"#":"1.a","I":[],"O":[{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2]]}}]})")
                                   << "needs 5 entries"
                                   << "program.regions[0].blocks[0].ops[0].O[0].TT.D";
    QTest::newRow("bad dim") << op(
        R"({"#":"1.a","I":[],"O":[{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2,"x"],"NCHW",[],0]}}]})")
                             << "dimension"
                             << "program.regions[0].blocks[0].ops[0].O[0].TT.D[1][1]";
    QTest::newRow("undefined operand")
        << op(R"({"#":"1.a","I":[],"O":[{"%":1,"TT":)" + t + R"(}]},{"#":"1.relu","I":[{"%":42}],"O":[]})")
        << "op 'pd_op.relu' operand 0 refers to undefined value id 42"
        << "program.regions[0].blocks[0].ops[1].I[0]";
    QTest::newRow("operand without id") << op(R"({"#":"1.relu","I":[{"x":1}],"O":[]})") << "needs a value id"
                                        << "program.regions[0].blocks[0].ops[0].I[0]";
    QTest::newRow("op without name") << op(R"({"I":[],"O":[]})") << "name"
                                     << "program.regions[0].blocks[0].ops[0].#";
    QTest::newRow("i32 out of range")
        << QString::fromStdString(attributeDocument(R"({"#":"0.a_i32","D":3000000000})")) << "out of range"
        << "program.regions[0].blocks[0].ops[0].A[0].AT.D";
    QTest::newRow("bad VD") << QString::fromStdString(attributeDocument(R"({"#":"0.a_f32","VD":"huge"})"))
                            << "VD"
                            << "program.regions[0].blocks[0].ops[0].A[0].AT.VD";
    QTest::newRow("bad place") << QString::fromStdString(attributeDocument(R"({"#":"1.a_place","D":[1,0]})"))
                               << "place"
                               << "program.regions[0].blocks[0].ops[0].A[0].AT.D";
    QTest::newRow("bad bool") << QString::fromStdString(attributeDocument(R"({"#":"0.a_bool","D":1})"))
                              << "true or false"
                              << "program.regions[0].blocks[0].ops[0].A[0].AT.D";
    QTest::newRow("attribute without name") << QString::fromStdString(
        document(R"({"#":"1.a","A":[{"AT":{"#":"0.a_bool","D":true}}],"I":[],"O":[]})"))
                                            << "\"N\""
                                            << "program.regions[0].blocks[0].ops[0].A[0]";
    QTest::newRow("parameter A") << op(R"({"#":"p","A":[0,1,"w"],"O":{"%":1,"TT":)" + t + "}}")
                                 << "parameter_name"
                                 << "program.regions[0].blocks[0].ops[0].A";
    QTest::newRow("duplicate kwarg") << QString::fromStdString(document(
        "", 4, R"(,"kwargs":[{"#":-1,"TT":)" + t + R"(,"key":"a"},{"#":-2,"TT":)" + t + R"(,"key":"a"}])"))
                                     << "duplicate keyword argument 'a'"
                                     << "program.regions[0].blocks[0].kwargs[1]";
    QTest::newRow("kwarg without key")
        << QString::fromStdString(document("", 4, R"(,"kwargs":[{"#":-1,"TT":)" + t + "}]"))
        << "needs a \"key\""
        << "program.regions[0].blocks[0].kwargs[0]";
    QTest::newRow("big integer") << R"({"base_code":{"magic":"pir","version":123456789012345678901234}})"
                                 << "64 bits"
                                 << "@";
}

void TestPirJsonDiagnostics::malformed()
{
    QFETCH(QString, json);
    QFETCH(QString, message);
    QFETCH(QString, path);
    const std::string text = json.toStdString();
    const LoadResult r = read(text);
    QVERIFY(!r.ok());
    const Diagnostic *e = r.diagnostics.firstError();
    QVERIFY(e);
    QVERIFY2(e->message.find(message.toStdString()) != std::string::npos, e->toString().c_str());
    QCOMPARE(e->location.file, std::string("test.json"));
    if (path == "@") {
        QVERIFY(!r.program);
        QVERIFY2(e->location.byteOffset >= 0, e->toString().c_str());
        QVERIFY(e->location.line >= 1);
        QVERIFY(e->location.column >= 1);
        QVERIFY(size_t(e->location.byteOffset) <= text.size());
    } else {
        QCOMPARE(QString::fromStdString(e->location.jsonPath), path);
        if (path.isEmpty())
            QCOMPARE(e->location.byteOffset, 0LL); // the document root
    }
}

void TestPirJsonDiagnostics::syntaxErrorLineAndColumn()
{
    const std::string text = "{\n  \"base_code\": {\"magic\": \"pir\",\n    \"version\": 1,,\n  }\n}";
    const LoadResult r = read(text);
    QVERIFY(!r.ok());
    QVERIFY(!r.program);
    const Diagnostic *e = r.diagnostics.firstError();
    QCOMPARE(e->location.line, 3);
    QCOMPARE(e->location.column, 18);
    QCOMPARE(e->location.byteOffset, (long long)text.find(",,") + 1);
    QVERIFY2(e->toString().find("test.json:3:18") != std::string::npos, e->toString().c_str());

    const LoadResult bad = read("{\"base_code\":{\"magic\":\"p\x01ir\"}}");
    QCOMPARE(bad.diagnostics.firstError()->location.byteOffset, 24LL);
    QVERIFY(bad.diagnostics.firstError()->message.find("control character") != std::string::npos);
}

void TestPirJsonDiagnostics::truncatedEverywhere()
{
    const std::string ops
        = R"({"#":"p","A":[0,1,1,"w"],"DA":[],"O":{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]}},"OA":[1,0,1],"QA":[]},)"
          R"({"#":"1.scale","A":[{"AT":{"#":"0.a_f32","VD":"NaN"},"N":"bias"}],"I":[{"%":1},{"%":0}],"O":[{"%":2,"TT":{"#":"0.t_vec","D":[{"#":"0.t_i32"}]}}],"OA":[]})";
    const std::string full = document(ops);
    QVERIFY(read(full).ok());
    for (size_t n = 0; n < full.size(); ++n) {
        const LoadResult r = read(full.substr(0, n));
        QVERIFY2(!r.ok(), qPrintable(QString("prefix of %1 bytes was accepted").arg(n)));
        const Diagnostic *e = r.diagnostics.firstError();
        QVERIFY(e);
        QVERIFY2(e->location.byteOffset >= 0 && size_t(e->location.byteOffset) <= n, e->toString().c_str());
    }
}

void TestPirJsonDiagnostics::flippedBytes()
{
    const std::string ops
        = R"({"#":"p","A":[0,1,1,"w"],"DA":[],"O":{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[[0,1]],0]}},"OA":[1,0,1],"QA":[]},)"
          R"({"#":"1.cond","A":[{"AT":{"#":"1.a_place","D":[1,0,""]},"N":"p"}],"I":[{"%":1}],"O":[{"%":2,"TT":{"#":"0.t_bool"}}],)"
          R"("regions":[{"#":"region_1","blocks":[{"#":"block_1","args":[{"#":-1,"TT":{"#":"0.t_i64"}}],"kwargs":[{"#":-2,"TT":{"#":"0.t_i64"},"key":"k"}],)"
          R"("ops":[{"#":"2.yield","A":[],"I":[{"%":-1},{"%":-2},{"%":1}],"O":[]}]}]}]})";
    const std::string full = document(ops);
    QVERIFY(read(full).ok());
    const char replacements[] = { '"', '{', '}', '[', ']', '0', '-', ',', ':', 'x', '\0', char(0xff) };
    size_t failures = 0;
    for (size_t i = 0; i < full.size(); ++i) {
        for (char c : replacements) {
            if (full[i] == c)
                continue;
            std::string mutated = full;
            mutated[i] = c;
            const LoadResult r = read(mutated);
            if (r.ok())
                continue;
            ++failures;
            for (const Diagnostic &d : r.diagnostics.items()) {
                if (d.severity == Diagnostic::Severity::Error)
                    QVERIFY2(
                        d.location.byteOffset >= 0 || !d.location.jsonPath.empty(), d.toString().c_str());
            }
        }
    }
    QVERIFY(failures > full.size());
}

void TestPirJsonDiagnostics::deepNesting()
{
    const std::string deep = std::string(5000, '[') + std::string(5000, ']');
    LoadResult r = read(deep);
    QVERIFY(!r.ok());
    QVERIFY2(r.diagnostics.firstError()->message.find("nesting too deep") != std::string::npos,
        diagnosticsText(r).constData());

    // Deep but legal nesting inside an attribute and a type.
    std::string attr = R"({"#":"0.a_bool","D":true})";
    std::string type = R"({"#":"0.t_f32"})";
    for (int i = 0; i < 200; ++i) {
        attr = R"({"#":"0.a_array","D":[)" + attr + "]}";
        type = R"({"#":"0.t_vec","D":[)" + type + "]}";
    }
    r = read(document(
        R"({"#":"1.a","A":[{"AT":)" + attr + R"(,"N":"a"}],"I":[],"O":[{"%":1,"TT":)" + type + "}]}"));
    QVERIFY2(r.ok(), diagnosticsText(r).constData());
}

void TestPirJsonDiagnostics::missingFile()
{
    const LoadResult r = PirJsonReader::readFile("/nonexistent/dir/model.json");
    QVERIFY(!r.ok());
    QCOMPARE(r.diagnostics.firstError()->location.file, std::string("/nonexistent/dir/model.json"));
}

QTEST_GUILESS_MAIN(TestPirJsonDiagnostics)
#include "tst_pirjsondiagnostics.moc"
