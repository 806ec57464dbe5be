#include "core/analysis/programequality.h"
#include "core/io/jsonemitter.h"
#include "core/io/pirjsonreader.h"
#include "core/io/pirjsonwriter.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/region.h"

#include <QtTest>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace ps;

namespace {

/// A program written by Paddle 3.3.1 (`serialize_pir_program`, compact): a while loop with two
/// block arguments and an if with two regions, NaN and +inf float attributes.
/// (Plain string literals: moc's tokenizer does not understand raw strings.)
const char *const kPaddleControlFlow
    = "{\"base_code\":{\"magic\":\"pir\",\"trainable\":true,\"version\":4},\"program\":{\"regions\":[{\"#\":"
      "\"region_0\","
      "\"blocks\":[{\"#\":\"block_0\",\"args\":[],\"ops\":[{\"#\":\"1.data\",\"A\":[{\"AT\":{\"#\":\"0.a_"
      "str\","
      "\"D\":\"x\"},\"N\":\"name\"},{\"AT\":{\"#\":\"1.a_intarray\",\"D\":[2]},\"N\":\"shape\"}"
      ",{\"AT\":{\"#\":\"1.a_dtype\",\"D\":\"float32\"},\"N\":\"dtype\"},{\"AT\":{\"#\":\"1.a_place\","
      "\"D\":[0,0,\"\"]},\"N\":\"place\"}],\"I\":[],\"O\":[{\"%\":1,\"TT\":{\"#\":\"0.t_dtensor\","
      "\"D\":[{\"#\":\"0.t_f32\"},[2],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\","
      "\"D\":[{\"#\":\"0.a_bool\",\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.full\","
      "\"A\":[{\"AT\":{\"#\":\"1.a_intarray\",\"D\":[1]},\"N\":\"shape\"},{\"AT\":{\"#\":\"0.a_f64\","
      "\"D\":0.0},\"N\":\"value\"},{\"AT\":{\"#\":\"1.a_dtype\",\"D\":\"int64\"},\"N\":\"dtype\"}"
      ",{\"AT\":{\"#\":\"1.a_place\",\"D\":[0,0,\"\"]},\"N\":\"place\"}],\"I\":[],\"O\":[{\"%\":2,"
      "\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_i64\"},[1],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":"
      "\"0.a_array\","
      "\"D\":[{\"#\":\"0.a_bool\",\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.full\","
      "\"A\":[{\"AT\":{\"#\":\"1.a_intarray\",\"D\":[]},\"N\":\"shape\"},{\"AT\":{\"#\":\"0.a_f64\","
      "\"D\":3.0},\"N\":\"value\"},{\"AT\":{\"#\":\"1.a_dtype\",\"D\":\"int64\"},\"N\":\"dtype\"}"
      ",{\"AT\":{\"#\":\"1.a_place\",\"D\":[0,0,\"\"]},\"N\":\"place\"}],\"I\":[],\"O\":[{\"%\":3,"
      "\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_i64\"},[],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":"
      "\"0.a_array\","
      "\"D\":[{\"#\":\"0.a_bool\",\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.less_than\","
      "\"A\":[],\"I\":[{\"%\":2},{\"%\":3}],\"O\":[{\"%\":4,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0."
      "t_bool\"}"
      ",[1],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.while\",\"A\":[],\"I\":[{\"%\":4}"
      ",{\"%\":2},{\"%\":1}],\"O\":[{\"%\":5,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_i64\"}"
      ",[1],\"NCHW\",[],0]}},{\"%\":6,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"}"
      ",[2],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true},{\"#\":\"0.a_bool\",\"D\":true}]},\"N\":\"stop_gradient\"}],\"regions\":[{\"#\":\"region_"
      "1\","
      "\"blocks\":[{\"#\":\"block_1\",\"args\":[{\"#\":-1,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_"
      "i64\"}"
      ",[1],\"NCHW\",[],0]}},{\"#\":-2,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"}"
      ",[2],\"NCHW\",[],0]}}],\"ops\":[{\"#\":\"1.full\",\"A\":[{\"AT\":{\"#\":\"1.a_intarray\","
      "\"D\":[1]},\"N\":\"shape\"},{\"AT\":{\"#\":\"0.a_f64\",\"D\":1.0},\"N\":\"value\"},{\"AT\":{\"#\":\"1."
      "a_dtype\","
      "\"D\":\"float32\"},\"N\":\"dtype\"},{\"AT\":{\"#\":\"1.a_place\",\"D\":[1,0,\"\"]},\"N\":\"place\"}"
      "],\"I\":[],\"O\":[{\"%\":7,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"},"
      "[1],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.scale\",\"A\":[{\"AT\":{\"#\":\"0.a_f32\","
      "\"D\":1.0},\"N\":\"bias\"},{\"AT\":{\"#\":\"0.a_bool\",\"D\":true},\"N\":\"bias_after_scale\"}"
      "],\"I\":[{\"%\":-1},{\"%\":7}],\"O\":[{\"%\":8,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_"
      "i64\"}"
      ",[1],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.full\",\"A\":[{\"AT\":{\"#\":\"1.a_intarray\","
      "\"D\":[1]},\"N\":\"shape\"},{\"AT\":{\"#\":\"0.a_f64\",\"D\":2.0},\"N\":\"value\"},{\"AT\":{\"#\":\"1."
      "a_dtype\","
      "\"D\":\"float32\"},\"N\":\"dtype\"},{\"AT\":{\"#\":\"1.a_place\",\"D\":[1,0,\"\"]},\"N\":\"place\"}"
      "],\"I\":[],\"O\":[{\"%\":9,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"},"
      "[1],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.scale\",\"A\":[{\"AT\":{\"#\":\"0.a_f32\","
      "\"D\":0.0},\"N\":\"bias\"},{\"AT\":{\"#\":\"0.a_bool\",\"D\":true},\"N\":\"bias_after_scale\"}"
      "],\"I\":[{\"%\":-2},{\"%\":9}],\"O\":[{\"%\":10,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_"
      "f32\"}"
      ",[2],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.full\",\"A\":[{\"AT\":{\"#\":\"1.a_intarray\","
      "\"D\":[]},\"N\":\"shape\"},{\"AT\":{\"#\":\"0.a_f64\",\"D\":3.0},\"N\":\"value\"},{\"AT\":{\"#\":\"1."
      "a_dtype\","
      "\"D\":\"int64\"},\"N\":\"dtype\"},{\"AT\":{\"#\":\"1.a_place\",\"D\":[0,0,\"\"]},\"N\":\"place\"}"
      "],\"I\":[],\"O\":[{\"%\":11,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_i64\"}"
      ",[],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.less_than\",\"A\":[],\"I\":[{\"%\":8}"
      ",{\"%\":11}],\"O\":[{\"%\":12,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_bool\"}"
      ",[1],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"2.yield\",\"A\":[],\"I\":[{\"%\":12}"
      ",{\"%\":8},{\"%\":10}],\"O\":[],\"OA\":[]}]}]}]},{\"#\":\"1.full\",\"A\":[{\"AT\":{\"#\":\"1.a_"
      "intarray\","
      "\"D\":[]},\"N\":\"shape\"},{\"AT\":{\"#\":\"0.a_f64\",\"D\":2.0},\"N\":\"value\"},{\"AT\":{\"#\":\"1."
      "a_dtype\","
      "\"D\":\"int64\"},\"N\":\"dtype\"},{\"AT\":{\"#\":\"1.a_place\",\"D\":[0,0,\"\"]},\"N\":\"place\"}"
      "],\"I\":[],\"O\":[{\"%\":13,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_i64\"}"
      ",[],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.greater_than\",\"A\":[],\"I\":[{\"%\":5}"
      ",{\"%\":13}],\"O\":[{\"%\":14,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_bool\"}"
      ",[1],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.if\",\"A\":[],\"I\":[{\"%\":14}]"
      ",\"O\":[{\"%\":15,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"},[2],\"NCHW\","
      "[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\",\"D\":true}"
      "]},\"N\":\"stop_gradient\"}],\"regions\":[{\"#\":\"region_2\",\"blocks\":[{\"#\":\"block_2\","
      "\"args\":[],\"ops\":[{\"#\":\"1.full\",\"A\":[{\"AT\":{\"#\":\"1.a_intarray\",\"D\":[1]"
      "},\"N\":\"shape\"},{\"AT\":{\"#\":\"0.a_f64\",\"D\":1.0},\"N\":\"value\"},{\"AT\":{\"#\":\"1.a_"
      "dtype\","
      "\"D\":\"float32\"},\"N\":\"dtype\"},{\"AT\":{\"#\":\"1.a_place\",\"D\":[1,0,\"\"]},\"N\":\"place\"}"
      "],\"I\":[],\"O\":[{\"%\":16,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"}"
      ",[1],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.scale\",\"A\":[{\"AT\":{\"#\":\"0.a_f32\","
      "\"VD\":\"INF\"},\"N\":\"bias\"},{\"AT\":{\"#\":\"0.a_bool\",\"D\":true},\"N\":\"bias_after_scale\"}"
      "],\"I\":[{\"%\":6},{\"%\":16}],\"O\":[{\"%\":17,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_"
      "f32\"}"
      ",[2],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"2.yield\",\"A\":[],\"I\":[{\"%\":17}"
      "],\"O\":[],\"OA\":[]}]}]},{\"#\":\"region_3\",\"blocks\":[{\"#\":\"block_3\",\"args\":[]"
      ",\"ops\":[{\"#\":\"1.full\",\"A\":[{\"AT\":{\"#\":\"1.a_intarray\",\"D\":[1]},\"N\":\"shape\"}"
      ",{\"AT\":{\"#\":\"0.a_f64\",\"D\":1.0},\"N\":\"value\"},{\"AT\":{\"#\":\"1.a_dtype\","
      "\"D\":\"float32\"},\"N\":\"dtype\"},{\"AT\":{\"#\":\"1.a_place\",\"D\":[1,0,\"\"]},\"N\":\"place\"}"
      "],\"I\":[],\"O\":[{\"%\":18,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_f32\"}"
      ",[1],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"1.scale\",\"A\":[{\"AT\":{\"#\":\"0.a_f32\","
      "\"VD\":\"NaN\"},\"N\":\"bias\"},{\"AT\":{\"#\":\"0.a_bool\",\"D\":true},\"N\":\"bias_after_scale\"}"
      "],\"I\":[{\"%\":6},{\"%\":18}],\"O\":[{\"%\":19,\"TT\":{\"#\":\"0.t_dtensor\",\"D\":[{\"#\":\"0.t_"
      "f32\"}"
      ",[2],\"NCHW\",[],0]}}],\"OA\":[{\"AT\":{\"#\":\"0.a_array\",\"D\":[{\"#\":\"0.a_bool\","
      "\"D\":true}]},\"N\":\"stop_gradient\"}]},{\"#\":\"2.yield\",\"A\":[],\"I\":[{\"%\":19}"
      "],\"O\":[],\"OA\":[]}]}]}]}]}]}]}}";

QString samplePath(const QString &name)
{
    return QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/") + name;
}

std::string readAll(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

LoadResult read(const std::string &json, bool upgrade = true)
{
    PirJsonReader::Options options;
    options.upgrade = upgrade;
    return PirJsonReader::readString(json, "written.json", options);
}

std::string write(const Program &p, bool pretty = false)
{
    PirJsonWriter::Options options;
    options.pretty = pretty;
    return PirJsonWriter::write(p, options);
}

Attribute oneBool(bool v)
{
    return Attribute::array({ Attribute::boolean(v) });
}

/// Checks write → read → equal (compact and pretty) and that writing again is stable.
void checkRoundTrip(const Program &program)
{
    for (bool pretty : { false, true }) {
        const std::string json = write(program, pretty);
        const LoadResult back = read(json);
        QVERIFY2(back.ok(), back.diagnostics.toString().c_str());
        std::string difference;
        QVERIFY2(programsEqual(program, *back.program, &difference), difference.c_str());
        QCOMPARE(write(*back.program, pretty), json);
    }
}

} // namespace

class TestPirJsonWriter : public QObject
{
    Q_OBJECT

private slots:
    void samples_data();
    void samples();
    void paddleControlFlow();
    void handBuiltProgram();
    void idsRegionsArgsAndKwargs();
    void parameterCompression();
    void notTrainable();
    void versionOption();
    void floatFormatting_data();
    void floatFormatting();
    void stringEscaping();
    void prettyLayout();
    void reportFormat();
};

void TestPirJsonWriter::samples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("byteIdentical");
    QTest::newRow("mobile_det") << "PP-OCRv5_mobile_det_infer.inference.json" << true;
    QTest::newRow("server_det") << "PP-OCRv5_server_det_infer.inference.json" << true;
    QTest::newRow("server_det.v3") << "PP-OCRv5_server_det.v3.inference.json" << true;
    QTest::newRow("server_rec") << "PP-OCRv5_server_rec_infer.inference.json" << true;
    QTest::newRow("korean_rec") << "korean_PP-OCRv5_mobile_rec_infer.inference.json" << true;
    QTest::newRow("doclayout") << "PP-DocLayout_plus-L.inference.json" << true;
    // Hand-formatted in Paddle's docs (line breaks, no DA/QA keys): equal in meaning only.
    QTest::newRow("fc_example") << "docs_pir_save_load_fc_example.v1.json" << false;
}

void TestPirJsonWriter::samples()
{
    QFETCH(QString, file);
    QFETCH(bool, byteIdentical);
    const QString path = samplePath(file);
    if (!QFileInfo::exists(path))
        QSKIP("../shared/samples is not available");
    const std::string original = readAll(path);

    const LoadResult upgraded = read(original);
    QVERIFY(upgraded.ok());
    checkRoundTrip(*upgraded.program);

    // Without upgrades the IR is exactly what the file says, and so is the output.
    const LoadResult raw = read(original, false);
    QVERIFY(raw.ok());
    const std::string written = write(*raw.program);
    if (byteIdentical) {
        QCOMPARE(written.size(), original.size());
        QVERIFY(written == original);
    } else {
        const LoadResult back = read(written, false);
        std::string difference;
        QVERIFY2(programsEqual(*raw.program, *back.program, &difference), difference.c_str());
        QVERIFY(written.find("\"DA\":[]") != std::string::npos);
    }
}

void TestPirJsonWriter::paddleControlFlow()
{
    const std::string original = kPaddleControlFlow;
    const LoadResult r = read(original, false);
    QVERIFY2(r.ok(), r.diagnostics.toString().c_str());
    const Program &p = *r.program;
    QCOMPARE(p.serializationVersion.value_or(-1), 4);
    QCOMPARE(p.numOps(), size_t(8));
    QCOMPARE(p.numOpsTotal(), size_t(21));
    const Operation *loop = p.block().op(4);
    QCOMPARE(std::string(loop->name()), std::string("pd_op.while"));
    QCOMPARE(loop->numResults(), 2u);
    QCOMPARE(loop->region(0).block(0).numArguments(), size_t(2));
    const Operation *yield = loop->region(0).block(0).back();
    QCOMPARE(std::string(yield->name()), std::string("cf.yield"));
    QVERIFY(yield->operand(2).definingOp()->operand(0) == loop->region(0).block(0).argument(1));
    const Operation *cond = p.block().op(7);
    QCOMPARE(std::string(cond->name()), std::string("pd_op.if"));
    QCOMPARE(cond->numRegions(), 2u);
    const Attribute *inf = cond->region(0).block(0).op(1)->attribute("bias");
    const Attribute *nan = cond->region(1).block(0).op(1)->attribute("bias");
    QCOMPARE(inf->kind(), Attribute::Kind::Float);
    QVERIFY(std::isinf(inf->asDouble()) && inf->asDouble() > 0);
    QVERIFY(std::isnan(nan->asDouble()));
    // Operands inside the if refer to the while's second result.
    QVERIFY(cond->region(0).block(0).op(1)->operand(0) == loop->result(1));

    QCOMPARE(write(p), original);
    checkRoundTrip(p);
}

void TestPirJsonWriter::handBuiltProgram()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    const Type f32x2 = Type::denseTensor(DataType::Float32, { 2, -1 });
    const Type lodTensor = Type::denseTensor(DataType::Float64, { 4 }, "NHWC", { { 0, 1, 4 } }, 2);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();

    Operation *param = b.create("builtin.parameter", {}, { f32x2 },
        { { "is_distributed", oneBool(false) }, { "is_parameter", oneBool(true) },
            { "need_clip", oneBool(false) }, { "parameter_name", Attribute::string("w_0") },
            { "struct_name", Attribute::string("/Net/Linear/") }, { "persistable", oneBool(true) },
            { "stop_gradient", oneBool(false) }, { "trainable", oneBool(true) } });
    std::vector<NamedAttribute> all {
        { "b", Attribute::boolean(true) },
        { "i32", Attribute::int32(-5) },
        { "i64", Attribute::int64(int64_t(1) << 40) },
        { "index", Attribute::index(7) },
        { "f32", Attribute::f32(0.1f) },
        { "f32nan", Attribute::f32(float(nan)) },
        { "f32inf", Attribute::f32(float(inf)) },
        { "f64", Attribute::f64(1e-300) },
        { "f64ninf", Attribute::f64(-inf) },
        { "f64nan", Attribute::f64(nan) },
        { "str", Attribute::string("tab\there \"quoted\" \xc3\xa9") },
        { "tname", Attribute::tensorName("t") },
        { "arr", Attribute::array({ Attribute::int32(1), Attribute::array({}), Attribute::f64(2.5) }) },
        { "type", Attribute::type(Type::vector({ f32x2, Type::element(DataType::Bool) })) },
        { "c64", Attribute::complex64({ 1.5, -2.0 }) },
        { "c128", Attribute::complex128({ 0.1, 1e100 }) },
        { "ia", Attribute::intArray({ -1, 0, 1 }) },
        { "dt", Attribute::dataType(DataType::BFloat16) },
        { "dtu", Attribute::dataType(DataType::Undefined) },
        { "pl", Attribute::place({ Place::AllocType::Gpu, 1, "" }) },
        { "plc", Attribute::place({ Place::AllocType::Custom, 0, "npu" }) },
        { "lay", Attribute::dataLayout("NHWC") },
        { "sf", Attribute::scalar(DataType::Float32, 0.5) },
        { "si", Attribute::scalar(DataType::Int64, -3) },
        { "sb", Attribute::scalar(DataType::Bool, 1) },
        { "null", Attribute() },
        { "mesh",
            Attribute::unknown("4.a_process_mesh", R"({"#":"4.a_process_mesh","D":[[2],[0,1],["x"]]})") },
        { "stop_gradient", oneBool(false) },
    };
    const std::string coo
        = R"({"#":"1.t_sparse_coo_tensor","D":[{"#":"0.t_f32"},[4,4],[3],"NCHW",{"#":"0.t_dtensor","D":[{"#":"0.t_i64"},[2,3],"NCHW",[],0]},{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[3],"NCHW",[],0]}]})";
    const std::vector<Type> resultTypes {
        lodTensor,
        Type::selectedRows(DataType::Int32, { 10, 4 }),
        Type::denseTensorArray(DataType::Float16, { -1 }, "NCHW"),
        Type::vector({}),
        Type::element(DataType::Complex128),
        Type::element(DataType::UInt16),
        Type::opaque("cf.stack"),
        Type::opaque(R"({"#":"4.t_dist_dense_tensor","D":[1,[2]]})"),
        Type::sparseCoo(DataType::Float32, { 4, 4 }, coo),
        Type::null(),
    };
    const Value operands[] = { param->result(0), Value() };
    Operation *kitchen = b.create("custom_op.kitchen_sink", operands, resultTypes, all);

    Operation *loop = b.create("pd_op.while", { kitchen->result(0) }, { lodTensor }, {}, 2);
    Block &body = loop->region(0).addBlock();
    const Value arg = body.addArgument(lodTensor);
    const Value lr = body.addKwarg("learning_rate", Type::element(DataType::Float32));
    const Value extra = body.addKwarg("beta", Type::opaque("cf.inlet"));
    Builder inner(program);
    inner.setInsertionPointToEnd(body);
    Operation *add = inner.create("pd_op.add", { arg, lr }, { lodTensor });
    Operation *nested = inner.create("pd_op.if", { add->result(0) }, {}, {}, 1);
    Block &thenBlock = nested->region(0).addBlock();
    const Value nestedArg = thenBlock.addArgument(Type::element(DataType::Int8));
    Builder innermost(program);
    innermost.setInsertionPointToEnd(thenBlock);
    innermost.create("cf.yield", { nestedArg, add->result(0), param->result(0), extra }, {});
    inner.create("cf.yield", { add->result(0) }, {});
    loop->region(1).addBlock();
    loop->region(1).addBlock().addArgument(f32x2);
    b.create("pd_op.fetch", { loop->result(0) }, { lodTensor },
        { { "name", Attribute::string("fetch_name_0") }, { "col", Attribute::int32(0) },
            { "persistable", oneBool(true) }, { "stop_gradient", oneBool(false) } });
    b.create("unknown_dialect.thing", {}, {});

    checkRoundTrip(program);

    const std::string json = write(program);
    QVERIFY(json.find(R"("#":"3.kitchen_sink")") != std::string::npos);
    QVERIFY(json.find(R"("#":"unknown_dialect.thing")") != std::string::npos);
    QVERIFY(json.find(R"({"#":"2.t_stack"})") != std::string::npos);
    QVERIFY(json.find(R"({"#":"0.a_f32","VD":"NaN"})") != std::string::npos);
    QVERIFY(json.find(R"({"#":"0.a_f32","VD":"INF"})") != std::string::npos);
    QVERIFY(json.find(R"({"#":"0.a_f64","VD":"-INF"})") != std::string::npos);
    QVERIFY(json.find(R"("I":[{"%":1},{"%":0}])") != std::string::npos);
    QVERIFY(json.find(R"j({"#":"1.a_dtype","D":"Undefined(ALL_DTYPE)"})j") != std::string::npos);
    QVERIFY(json.find(R"("key":"learning_rate")") != std::string::npos);
    QVERIFY(json.find(coo) != std::string::npos);
}

void TestPirJsonWriter::idsRegionsArgsAndKwargs()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    const Type t = Type::denseTensor(DataType::Float32, { 1 });
    Operation *full = b.create(
        "pd_op.full", {}, { t }, { { "value", Attribute::f32(1.0f) }, { "stop_gradient", oneBool(true) } });
    Operation *loop = b.create("pd_op.while", { full->result(0) }, { t }, {}, 1);
    Block &body = loop->region(0).addBlock();
    const Value arg = body.addArgument(t);
    const Value k = body.addKwarg("k", Type::element(DataType::Int64));
    Builder inner(program);
    inner.setInsertionPointToEnd(body);
    inner.create("cf.yield", { arg, k }, {});
    b.create("pd_op.relu", { loop->result(0) }, { t });

    const std::string T = R"({"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[1],"NCHW",[],0]})";
    const std::string expected
        = R"({"base_code":{"magic":"pir","trainable":true,"version":4},"program":{"regions":[)"
          R"({"#":"region_0","blocks":[{"#":"block_0","args":[],"ops":[)"
          R"({"#":"1.full","A":[{"AT":{"#":"0.a_f32","D":1.0},"N":"value"}],"I":[],"O":[{"%":1,"TT":)"
        + T
        + R"(}],"OA":[{"AT":{"#":"0.a_array","D":[{"#":"0.a_bool","D":true}]},"N":"stop_gradient"}]},)"
          R"({"#":"1.while","A":[],"I":[{"%":1}],"O":[{"%":2,"TT":)"
        + T + R"(}],"OA":[],"regions":[{"#":"region_1","blocks":[{"#":"block_1","args":[{"#":-1,"TT":)" + T
        + R"(}],"kwargs":[{"#":-2,"TT":{"#":"0.t_i64"},"key":"k"}],"ops":[)"
          R"({"#":"2.yield","A":[],"I":[{"%":-1},{"%":-2}],"O":[],"OA":[]}]}]}]},)"
          R"({"#":"1.relu","A":[],"I":[{"%":2}],"O":[{"%":3,"TT":)"
        + T + R"(}],"OA":[]}]}]}]}})";
    QCOMPARE(write(program), expected);
    checkRoundTrip(program);
}

void TestPirJsonWriter::parameterCompression()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    const Type t = Type::denseTensor(DataType::Float32, { 3 });
    b.create("builtin.parameter", {}, { t },
        { { "parameter_name", Attribute::string("w") },
            { "op_dist_attr", Attribute::unknown("4.a_op_dist", R"({"#":"4.a_op_dist","D":[]})") },
            { "struct_name", Attribute::string("/L/") },
            { "op_callstack", Attribute::array({ Attribute::string("file.py:1") }) } });
    b.create("builtin.parameter", {}, { t }, { { "is_parameter", oneBool(true) } });
    const std::string json = write(program);
    QVERIFY2(
        json.find(
            R"({"#":"p","A":[0,1,0,"w"],"DA":[{"AT":{"#":"4.a_op_dist","D":[]},"N":"op_dist_attr"}],"O":{"%":1,"TT":)")
            != std::string::npos,
        json.c_str());
    QVERIFY(json.find(R"("OA":[1,1,1],"QA":[{"AT":{"#":"0.a_str","D":"/L/"},"N":"struct_name"}]})")
        != std::string::npos);
    QVERIFY(json.find("op_callstack") == std::string::npos);
    // Without parameter_name the op cannot be compressed and is written like any other op.
    QVERIFY(json.find(R"({"#":"0.parameter","A":[{"AT":{"#":"0.a_array")") != std::string::npos);

    const LoadResult back = read(json);
    QVERIFY2(back.ok(), back.diagnostics.toString().c_str());
    const Operation *p = back.program->block().op(0);
    QCOMPARE(std::string(p->name()), std::string("builtin.parameter"));
    QVERIFY(*p->attribute("is_parameter") == oneBool(true));
    QVERIFY(*p->attribute("trainable") == oneBool(true));
    QCOMPARE(p->stringAttribute("struct_name"), std::string("/L/"));
    QCOMPARE(p->attribute("op_dist_attr")->kind(), Attribute::Kind::Unknown);
}

void TestPirJsonWriter::notTrainable()
{
    Program program;
    program.trainable = false;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    const Type t = Type::denseTensor(DataType::Float32, { 3 });
    b.create("builtin.parameter", {}, { t }, { { "parameter_name", Attribute::string("w") } });
    b.create("pd_op.relu", {}, { t }, { { "stop_gradient", oneBool(true) } });
    const std::string json = write(program);
    QVERIFY(json.find("\"trainable\":false") != std::string::npos);
    QVERIFY(json.find("\"OA\"") == std::string::npos);
    QVERIFY(json.find("stop_gradient") == std::string::npos);
    const LoadResult back = read(json);
    QVERIFY(back.ok());
    QVERIFY(!back.program->trainable);
    QVERIFY(!back.program->block().op(1)->hasAttribute("stop_gradient"));
    QVERIFY(!back.program->block().op(0)->hasAttribute("persistable"));
}

void TestPirJsonWriter::versionOption()
{
    Program program;
    QVERIFY(write(program).find("\"version\":4") != std::string::npos);
    program.serializationVersion = 1;
    QVERIFY(write(program).find("\"version\":1") != std::string::npos);
    PirJsonWriter::Options options;
    options.version = 3;
    QVERIFY(PirJsonWriter::write(program, options).find("\"version\":3") != std::string::npos);
    QCOMPARE(write(program),
        std::string(
            R"({"base_code":{"magic":"pir","trainable":true,"version":1},)"
            R"("program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":[],"ops":[]}]}]}})"));
}

void TestPirJsonWriter::floatFormatting_data()
{
    QTest::addColumn<double>("value");
    QTest::addColumn<QString>("expected");
    // Expected strings are what Paddle 3.3.1 (nlohmann::json) writes for these values.
    QTest::newRow("1e15") << 1e15 << "1e+15";
    QTest::newRow("1e14") << 1e14 << "100000000000000.0";
    QTest::newRow("1e16") << 1e16 << "1e+16";
    QTest::newRow("123456.789") << 123456.789 << "123456.789";
    QTest::newRow("1e-4") << 1e-4 << "0.0001";
    QTest::newRow("1e-5") << 1e-5 << "1e-05";
    QTest::newRow("0.00012") << 0.00012 << "0.00012";
    QTest::newRow("-0.0") << -0.0 << "-0.0";
    QTest::newRow("0.0") << 0.0 << "0.0";
    QTest::newRow("1.5e300") << 1.5e300 << "1.5e+300";
    QTest::newRow("denormal") << 5e-324 << "5e-324";
    QTest::newRow("2.5e-07") << 2.5e-07 << "2.5e-07";
    QTest::newRow("1/3") << 1.0 / 3 << "0.3333333333333333";
    QTest::newRow("100") << 100.0 << "100.0";
    QTest::newRow("1234567890123456") << 1234567890123456.0 << "1.234567890123456e+15";
    QTest::newRow("0.1") << 0.1 << "0.1";
    QTest::newRow("-2.5") << -2.5 << "-2.5";
    QTest::newRow("1e21") << 1e21 << "1e+21";
    QTest::newRow("float 1e-5") << double(1e-5f) << "9.999999747378752e-06";
    QTest::newRow("float 0.9") << double(0.9f) << "0.8999999761581421";
    QTest::newRow("float max") << double(3.4028234663852886e+38) << "3.4028234663852886e+38";
}

void TestPirJsonWriter::floatFormatting()
{
    QFETCH(double, value);
    QFETCH(QString, expected);
    std::string out;
    JsonEmitter::appendDouble(out, value);
    QCOMPARE(QString::fromStdString(out), expected);
}

void TestPirJsonWriter::stringEscaping()
{
    std::string out;
    JsonEmitter::appendString(out, "a\"b\\c\n\t\x01\x1f\x7f \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
    QCOMPARE(
        out, std::string("\"a\\\"b\\\\c\\n\\t\\u0001\\u001f\x7f \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\""));
    out.clear();
    // Invalid UTF-8 (a lone continuation byte, a truncated sequence, an overlong form).
    JsonEmitter::appendString(out, "x\x80y\xe2\x82z\xc0\xaf");
    QCOMPARE(out, std::string("\"x\\ufffdy\\ufffd\\ufffdz\\ufffd\\ufffd\""));

    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    b.create("pd_op.data", {}, {}, { { "name", Attribute::string(std::string("in\0put\r", 7)) } });
    checkRoundTrip(program);
}

void TestPirJsonWriter::reportFormat()
{
    // pirscope-cli's --json layout: two-space indent, doubles as %.6g, written to the stream as
    // each call returns (so it interleaves with other output).
    std::ostringstream out;
    JsonEmitter json(out, JsonEmitter::Format::Report);
    json.beginObject().key("ops").value(12).key("ratio");
    QCOMPARE(out.str(), std::string("{\n  \"ops\": 12,\n  \"ratio\": "));
    json.value(1.0);
    json.key("values").beginArray().value(0.5).value(1e-6).value(1234567.0).value(std::nan("")).endArray();
    json.key("empty").beginObject().endObject();
    json.key("name").value("a\"b").key("count").value(size_t(3)).key("ok").value(true);
    json.endObject();
    json.finish();
    QCOMPARE(out.str(),
        std::string("{\n"
                    "  \"ops\": 12,\n"
                    "  \"ratio\": 1,\n"
                    "  \"values\": [\n"
                    "    0.5,\n"
                    "    1e-06,\n"
                    "    1.23457e+06,\n"
                    "    null\n"
                    "  ],\n"
                    "  \"empty\": {},\n"
                    "  \"name\": \"a\\\"b\",\n"
                    "  \"count\": 3,\n"
                    "  \"ok\": true\n"
                    "}\n"));
}

void TestPirJsonWriter::prettyLayout()
{
    Program program;
    Builder b(program);
    b.setInsertionPointToEnd(program.block());
    b.create(
        "pd_op.full", {}, { Type::element(DataType::Float32) }, { { "shape", Attribute::intArray({ 1 }) } });
    // nlohmann dump(4) layout, as Paddle writes with readable=true.
    const std::string expected = "{\n"
                                 "    \"base_code\": {\n"
                                 "        \"magic\": \"pir\",\n"
                                 "        \"trainable\": true,\n"
                                 "        \"version\": 4\n"
                                 "    },\n"
                                 "    \"program\": {\n"
                                 "        \"regions\": [\n"
                                 "            {\n"
                                 "                \"#\": \"region_0\",\n"
                                 "                \"blocks\": [\n"
                                 "                    {\n"
                                 "                        \"#\": \"block_0\",\n"
                                 "                        \"args\": [],\n"
                                 "                        \"ops\": [\n"
                                 "                            {\n"
                                 "                                \"#\": \"1.full\",\n"
                                 "                                \"A\": [\n"
                                 "                                    {\n"
                                 "                                        \"AT\": {\n"
                                 "                                            \"#\": \"1.a_intarray\",\n"
                                 "                                            \"D\": [\n"
                                 "                                                1\n"
                                 "                                            ]\n"
                                 "                                        },\n"
                                 "                                        \"N\": \"shape\"\n"
                                 "                                    }\n"
                                 "                                ],\n"
                                 "                                \"I\": [],\n"
                                 "                                \"O\": [\n"
                                 "                                    {\n"
                                 "                                        \"%\": 1,\n"
                                 "                                        \"TT\": {\n"
                                 "                                            \"#\": \"0.t_f32\"\n"
                                 "                                        }\n"
                                 "                                    }\n"
                                 "                                ],\n"
                                 "                                \"OA\": []\n"
                                 "                            }\n"
                                 "                        ]\n"
                                 "                    }\n"
                                 "                ]\n"
                                 "            }\n"
                                 "        ]\n"
                                 "    }\n"
                                 "}";
    QCOMPARE(write(program, true), expected);
}

QTEST_GUILESS_MAIN(TestPirJsonWriter)
#include "tst_pirjsonwriter.moc"
