#include "core/analysis/programequality.h"
#include "core/io/pirjsonreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/region.h"

#include <QtTest>
#include <cmath>
#include <fstream>
#include <sstream>

using namespace ps;

Q_DECLARE_METATYPE(ps::Attribute)

namespace {

QString samplePath(const char *name)
{
    return QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json/") + QString::fromLatin1(name);
}

std::string readAll(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string document(const std::string &ops, int version = 4, const std::string &blockExtra = {})
{
    return R"({"base_code":{"magic":"pir","trainable":true,"version":)" + std::to_string(version)
        + R"(},"program":{"regions":[{"#":"region_0","blocks":[{"#":"block_0","args":[])" + blockExtra
        + R"(,"ops":[)" + ops + "]}]}]}}";
}

/// One op `1.foo` whose single result has the given type.
std::string typeDocument(const std::string &tt)
{
    return document(R"({"#":"1.foo","A":[],"I":[],"O":[{"%":1,"TT":)" + tt + "}],\"OA\":[]}");
}

/// One op `1.foo` with a single attribute `a`.
std::string attributeDocument(const std::string &at)
{
    return document(R"({"#":"1.foo","A":[{"AT":)" + at + R"(,"N":"a"}],"I":[],"O":[],"OA":[]})");
}

LoadResult read(const std::string &json, bool upgrade = true)
{
    PirJsonReader::Options options;
    options.upgrade = upgrade;
    return PirJsonReader::readString(json, "test.json", options);
}

QByteArray diagnosticsText(const LoadResult &r)
{
    return QByteArray::fromStdString(r.diagnostics.toString());
}

const Operation *firstOp(const Program &p, std::string_view name)
{
    for (const Operation *op : p.block().ops()) {
        if (op->name() == name)
            return op;
    }
    return nullptr;
}

size_t countOps(const Program &p, std::string_view name)
{
    size_t n = 0;
    for (const Operation *op : p.block().ops())
        n += op->name() == name ? 1 : 0;
    return n;
}

bool hasWarning(const LoadResult &r, const std::string &pathPart)
{
    for (const Diagnostic &d : r.diagnostics.items()) {
        if (d.severity == Diagnostic::Severity::Warning
            && d.location.jsonPath.find(pathPart) != std::string::npos)
            return true;
    }
    return false;
}

Attribute boolArray(bool v)
{
    return Attribute::array({ Attribute::boolean(v) });
}

} // namespace

class TestPirJsonReader : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void samples_data();
    void samples();
    void dataOp();
    void dropoutNullOperand();
    void batchNormResults();
    void parameterAndFetch();
    void v1AndV3AreEqualAfterUpgrade();
    void types_data();
    void types();
    void typeDetails();
    void unknownTypeIsOpaque();
    void attributes_data();
    void attributes();
    void unknownAttributeKinds();
    void parameterDistAndQuantAttributes();
    void nestedRegionsArgsAndKwargs();
    void upgrades();
    void benchmarkDocLayout();

private:
    bool m_haveSamples = false;
};

void TestPirJsonReader::initTestCase()
{
    m_haveSamples = QFileInfo::exists(samplePath("PP-OCRv5_mobile_det_infer.inference.json"));
}

void TestPirJsonReader::samples_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("ops");
    QTest::addColumn<int>("parameters");
    QTest::addColumn<int>("version");
    QTest::newRow("mobile_det") << "PP-OCRv5_mobile_det_infer.inference.json" << 668 << 234 << 1;
    QTest::newRow("server_det") << "PP-OCRv5_server_det_infer.inference.json" << 1052 << 539 << 1;
    QTest::newRow("server_det.v3") << "PP-OCRv5_server_det.v3.inference.json" << 1052 << 539 << 3;
    QTest::newRow("server_rec") << "PP-OCRv5_server_rec_infer.inference.json" << 825 << 458 << 1;
    QTest::newRow("korean_rec") << "korean_PP-OCRv5_mobile_rec_infer.inference.json" << 641 << 234 << 1;
    QTest::newRow("doclayout") << "PP-DocLayout_plus-L.inference.json" << 2641 << 728 << 1;
    QTest::newRow("fc_example") << "docs_pir_save_load_fc_example.v1.json" << 9 << 2 << 1;
}

void TestPirJsonReader::samples()
{
    QFETCH(QString, file);
    QFETCH(int, ops);
    QFETCH(int, parameters);
    QFETCH(int, version);
    if (!m_haveSamples)
        QSKIP("../shared/samples is not available");
    const LoadResult r = PirJsonReader::readFile(samplePath(file.toLatin1().constData()).toStdString());
    QVERIFY2(r.ok(), diagnosticsText(r).constData());
    QVERIFY2(r.diagnostics.empty(), diagnosticsText(r).constData());
    QCOMPARE(r.format, LoadResult::Format::PirJson);
    QCOMPARE(int(r.program->numOps()), ops);
    QCOMPARE(int(r.program->numOpsTotal()), ops);
    QCOMPARE(int(countOps(*r.program, "builtin.parameter")), parameters);
    QCOMPARE(r.program->serializationVersion.value_or(-1), version);
    QVERIFY(r.program->trainable);
    QVERIFY(countOps(*r.program, "pd_op.data") >= 1);
    QVERIFY(countOps(*r.program, "pd_op.fetch") >= 1);
}

void TestPirJsonReader::dataOp()
{
    if (!m_haveSamples)
        QSKIP("../shared/samples is not available");
    const LoadResult r
        = PirJsonReader::readFile(samplePath("PP-OCRv5_server_rec_infer.inference.json").toStdString());
    QVERIFY(r.ok());
    const Operation *data = firstOp(*r.program, "pd_op.data");
    QVERIFY(data);
    QCOMPARE(r.program->block().indexOf(data), 458L);
    QCOMPARE(data->stringAttribute("name"), std::string("x"));
    const std::vector<int64_t> shape { -1, 3, 48, -1 };
    QVERIFY(data->attribute("shape"));
    QCOMPARE(data->attribute("shape")->kind(), Attribute::Kind::IntArray);
    QVERIFY(data->attribute("shape")->asIntArray() == shape);
    QCOMPARE(data->attribute("dtype")->asDataType(), DataType::Float32);
    QCOMPARE(data->attribute("place")->asPlace().type, Place::AllocType::Undefined);
    QCOMPARE(data->numResults(), 1u);
    const Type t = data->result(0).type();
    QCOMPARE(t.kind(), Type::Kind::DenseTensor);
    QCOMPARE(t.dtype(), DataType::Float32);
    QVERIFY(t.dims() == shape);
    QCOMPARE(t.layout(), std::string("NCHW"));
    QVERIFY(*data->attribute("stop_gradient") == boolArray(false));
}

void TestPirJsonReader::dropoutNullOperand()
{
    if (!m_haveSamples)
        QSKIP("../shared/samples is not available");
    const LoadResult r
        = PirJsonReader::readFile(samplePath("PP-OCRv5_server_rec_infer.inference.json").toStdString());
    QVERIFY(r.ok());
    const Operation *dropout = firstOp(*r.program, "pd_op.dropout");
    QVERIFY(dropout);
    QCOMPARE(dropout->numOperands(), 3u);
    QVERIFY(!dropout->operand(0).isNull());
    QVERIFY(dropout->operand(1).isNull());
    QVERIFY(!dropout->operand(2).isNull());
    QCOMPARE(dropout->numResults(), 2u);
    QCOMPARE(dropout->result(1).type().dtype(), DataType::UInt8);
    QVERIFY(*dropout->attribute("stop_gradient")
        == Attribute::array({ Attribute::boolean(false), Attribute::boolean(false) }));
}

void TestPirJsonReader::batchNormResults()
{
    if (!m_haveSamples)
        QSKIP("../shared/samples is not available");
    const LoadResult r
        = PirJsonReader::readFile(samplePath("PP-OCRv5_server_rec_infer.inference.json").toStdString());
    QVERIFY(r.ok());
    const Operation *bn = firstOp(*r.program, "pd_op.batch_norm_");
    QVERIFY(bn);
    QCOMPARE(bn->numOperands(), 5u);
    QCOMPARE(bn->numResults(), 6u);
    for (unsigned i = 0; i < 5; ++i)
        QCOMPARE(bn->result(i).type().dtype(), DataType::Float32);
    QCOMPARE(bn->result(5).type().dtype(), DataType::UInt8);
    QVERIFY(bn->result(5).type().dims() == std::vector<int64_t> { -1 });
    QCOMPARE(bn->attribute("epsilon")->kind(), Attribute::Kind::Float);
    QCOMPARE(bn->attribute("epsilon")->asDouble(), double(1e-05f));
    QCOMPARE(bn->stringAttribute("struct_name"), std::string("/PPHGNetV2/StemBlock/ConvBNAct/BatchNorm2D/"));
    // The operands are the data op's result and four parameters.
    QCOMPARE(std::string(bn->operand(1).definingOp()->name()), std::string("builtin.parameter"));
}

void TestPirJsonReader::parameterAndFetch()
{
    if (!m_haveSamples)
        QSKIP("../shared/samples is not available");
    const LoadResult r
        = PirJsonReader::readFile(samplePath("PP-OCRv5_mobile_det_infer.inference.json").toStdString());
    QVERIFY(r.ok());
    const Operation *p = r.program->block().op(0);
    QCOMPARE(std::string(p->name()), std::string("builtin.parameter"));
    QCOMPARE(p->stringAttribute("parameter_name"), std::string("conv2d_transpose_1.b_0"));
    QVERIFY(*p->attribute("is_distributed") == boolArray(false));
    QVERIFY(*p->attribute("is_parameter") == boolArray(true));
    QVERIFY(*p->attribute("need_clip") == boolArray(true));
    QVERIFY(*p->attribute("persistable") == boolArray(true));
    QVERIFY(*p->attribute("stop_gradient") == boolArray(false));
    QVERIFY(*p->attribute("trainable") == boolArray(true));
    QCOMPARE(p->attributes().size(), size_t(7));
    QVERIFY(p->result(0).type() == Type::denseTensor(DataType::Float32, { 1 }));
    // batch_norm statistics are not trainable
    QVERIFY(*r.program->block().op(2)->attribute("trainable") == boolArray(false));

    const Operation *fetch = r.program->block().back();
    QCOMPARE(std::string(fetch->name()), std::string("pd_op.fetch"));
    QCOMPARE(fetch->stringAttribute("name"), std::string("fetch_name_0"));
    QVERIFY(*fetch->attribute("col") == Attribute::int32(0));
    QVERIFY(*fetch->attribute("persistable") == boolArray(true));
    QVERIFY(*fetch->attribute("stop_gradient") == boolArray(false));
    QCOMPARE(std::string(fetch->operand(0).definingOp()->name()), std::string("pd_op.sigmoid"));
}

void TestPirJsonReader::v1AndV3AreEqualAfterUpgrade()
{
    if (!m_haveSamples)
        QSKIP("../shared/samples is not available");
    const std::string v1Path = samplePath("PP-OCRv5_server_det_infer.inference.json").toStdString();
    const std::string v3Path = samplePath("PP-OCRv5_server_det.v3.inference.json").toStdString();
    const LoadResult v1 = PirJsonReader::readFile(v1Path);
    const LoadResult v3 = PirJsonReader::readFile(v3Path);
    QVERIFY(v1.ok() && v3.ok());
    std::string difference;
    QVERIFY2(programsEqual(*v1.program, *v3.program, &difference), difference.c_str());
    const Operation *pool = firstOp(*v1.program, "pd_op.pool2d");
    QVERIFY(pool);
    QCOMPARE(pool->attribute("strides")->asArray().front().kind(), Attribute::Kind::Int64);
    // 4.yaml: nearest_interp.scale elements become Double in both.
    const Operation *interp = firstOp(*v3.program, "pd_op.nearest_interp");
    QCOMPARE(interp->attribute("scale")->asArray().front().kind(), Attribute::Kind::Double);

    PirJsonReader::Options raw;
    raw.upgrade = false;
    const LoadResult v1Raw = PirJsonReader::readFile(v1Path, raw);
    const LoadResult v3Raw = PirJsonReader::readFile(v3Path, raw);
    QVERIFY(!programsEqual(*v1Raw.program, *v3Raw.program, &difference));
    QVERIFY2(difference.find("pd_op.pool2d") != std::string::npos, difference.c_str());
    QVERIFY2(difference.find("strides") != std::string::npos, difference.c_str());
}

void TestPirJsonReader::types_data()
{
    QTest::addColumn<QString>("tt");
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("dtype");

    const auto element = [](const char *id, DataType dt) {
        QTest::newRow(id) << QString("{\"#\":\"%1\"}").arg(id) << int(Type::Kind::Element) << int(dt);
    };
    element("0.t_bool", DataType::Bool);
    element("0.t_bf16", DataType::BFloat16);
    element("0.t_f16", DataType::Float16);
    element("0.t_f32", DataType::Float32);
    element("0.t_f64", DataType::Float64);
    element("0.t_i8", DataType::Int8);
    element("0.t_ui8", DataType::UInt8);
    element("0.t_i16", DataType::Int16);
    element("0.t_i32", DataType::Int32);
    element("0.t_i64", DataType::Int64);
    element("0.t_index", DataType::Index);
    element("0.t_c64", DataType::Complex64);
    element("0.t_c128", DataType::Complex128);
    QTest::newRow("null") << R"({"#":"NULL"})" << int(Type::Kind::Null) << int(DataType::Undefined);
    QTest::newRow("dtensor") << R"({"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1,3,48,-1],"NCHW",[],0]})"
                             << int(Type::Kind::DenseTensor) << int(DataType::Float32);
    QTest::newRow("dtensor 0-d") << R"({"#":"0.t_dtensor","D":[{"#":"0.t_i64"},[],"NCHW",[],0]})"
                                 << int(Type::Kind::DenseTensor) << int(DataType::Int64);
    QTest::newRow("selected rows") << R"({"#":"1.t_selected_rows","D":[{"#":"0.t_f32"},[10,4],"NCHW",[],0]})"
                                   << int(Type::Kind::SelectedRows) << int(DataType::Float32);
    QTest::newRow("tensor array") << R"({"#":"1.t_dense_tensor_array","D":[{"#":"0.t_f16"},[-1,8],"NCHW"]})"
                                  << int(Type::Kind::DenseTensorArray) << int(DataType::Float16);
    QTest::newRow("vec")
        << R"({"#":"0.t_vec","D":[{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]},{"#":"0.t_i32"}]})"
        << int(Type::Kind::Vector) << int(DataType::Undefined);
    QTest::newRow("sparse coo")
        << R"({"#":"1.t_sparse_coo_tensor","D":[{"#":"0.t_f32"},[4,4],[3],"NCHW",{"#":"0.t_dtensor","D":[{"#":"0.t_i64"},[2,3],"NCHW",[],0]},{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[3],"NCHW",[],0]}]})"
        << int(Type::Kind::SparseCoo) << int(DataType::Float32);
    QTest::newRow("sparse csr")
        << R"({"#":"1.t_sparse_csr_tensor","D":[{"#":"0.t_f64"},[4,4],"NCHW",{"#":"0.t_dtensor","D":[{"#":"0.t_i64"},[5],"NCHW",[],0]},{"#":"0.t_dtensor","D":[{"#":"0.t_i64"},[3],"NCHW",[],0]},{"#":"0.t_dtensor","D":[{"#":"0.t_f64"},[3],"NCHW",[],0]}]})"
        << int(Type::Kind::SparseCsr) << int(DataType::Float64);
    QTest::newRow("cf stack") << R"({"#":"2.t_stack"})" << int(Type::Kind::Opaque)
                              << int(DataType::Undefined);
    QTest::newRow("cf inlet") << R"({"#":"2.t_inlet"})" << int(Type::Kind::Opaque)
                              << int(DataType::Undefined);
    QTest::newRow("cf outlet") << R"({"#":"2.t_outlet"})" << int(Type::Kind::Opaque)
                               << int(DataType::Undefined);
}

void TestPirJsonReader::types()
{
    QFETCH(QString, tt);
    QFETCH(int, kind);
    QFETCH(int, dtype);
    const LoadResult r = read(typeDocument(tt.toStdString()));
    QVERIFY2(r.ok(), diagnosticsText(r).constData());
    QVERIFY2(r.diagnostics.empty(), diagnosticsText(r).constData());
    const Type t = r.program->block().op(0)->result(0).type();
    QCOMPARE(int(t.kind()), kind);
    QCOMPARE(int(t.dtype()), dtype);
}

void TestPirJsonReader::typeDetails()
{
    LoadResult r
        = read(typeDocument(R"({"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[-1,8],"NHWC",[[0,2,5],[0,1]],3]})"));
    QVERIFY(r.ok());
    Type t = r.program->block().op(0)->result(0).type();
    QVERIFY(t == Type::denseTensor(DataType::Float32, { -1, 8 }, "NHWC", { { 0, 2, 5 }, { 0, 1 } }, 3));

    r = read(typeDocument(
        R"({"#":"0.t_vec","D":[{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]},{"#":"0.t_vec","D":[]}]})"));
    QVERIFY(r.ok());
    t = r.program->block().op(0)->result(0).type();
    QVERIFY(t == Type::vector({ Type::denseTensor(DataType::Float32, { 2 }), Type::vector({}) }));

    r = read(typeDocument(R"({"#":"1.t_dense_tensor_array","D":[{"#":"0.t_f16"},[-1,8],"NHWC"]})"));
    QVERIFY(r.program->block().op(0)->result(0).type()
        == Type::denseTensorArray(DataType::Float16, { -1, 8 }, "NHWC"));

    r = read(typeDocument(R"({"#":"2.t_stack"})"));
    QCOMPARE(r.program->block().op(0)->result(0).type().text(), std::string("cf.stack"));

    // A type attribute holds a full type object.
    r = read(attributeDocument(
        R"({"#":"0.a_type","D":{"#":"0.t_dtensor","D":[{"#":"0.t_i32"},[3],"NCHW",[],0]}})"));
    QVERIFY(r.ok());
    QVERIFY(r.program->block().op(0)->attribute("a")->asType() == Type::denseTensor(DataType::Int32, { 3 }));

    // The same type text twice gives the same interned type (and the cache returns it).
    r = read(document(
        R"({"#":"1.a","A":[],"I":[],"O":[{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[7],"NCHW",[],0]}}]},
                         {"#":"1.b","A":[],"I":[{"%":1}],"O":[{"%":2,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[7],"NCHW",[],0]}}]})"));
    QVERIFY(r.ok());
    QVERIFY(r.program->block().op(0)->result(0).type() == r.program->block().op(1)->result(0).type());
}

void TestPirJsonReader::unknownTypeIsOpaque()
{
    const std::string tt
        = R"({"#":"4.t_dist_dense_tensor","D":[{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[4],"NCHW",[],0]},{"#":"4.a_tensor_dist","D":[]},[2]]})";
    const LoadResult r = read(typeDocument(tt));
    QVERIFY2(r.ok(), diagnosticsText(r).constData());
    const Type t = r.program->block().op(0)->result(0).type();
    QCOMPARE(t.kind(), Type::Kind::Opaque);
    QCOMPARE(t.text(), tt);
    QVERIFY2(hasWarning(r, "ops[0].O[0].TT"), diagnosticsText(r).constData());

    // An unknown element type inside a dense tensor keeps the whole tensor type verbatim.
    const std::string f8 = R"({"#":"0.t_dtensor","D":[{"#":"0.t_f8e3"},[4],"NCHW",[],0]})";
    const LoadResult r2 = read(typeDocument(f8));
    QVERIFY(r2.ok());
    QCOMPARE(r2.program->block().op(0)->result(0).type().kind(), Type::Kind::Opaque);
    QCOMPARE(r2.program->block().op(0)->result(0).type().text(), f8);
    QVERIFY(hasWarning(r2, "TT.D[0]"));
}

void TestPirJsonReader::attributes_data()
{
    QTest::addColumn<QString>("at");
    QTest::addColumn<Attribute>("expected");

    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    QTest::newRow("bool") << R"({"#":"0.a_bool","D":true})" << Attribute::boolean(true);
    QTest::newRow("i32") << R"({"#":"0.a_i32","D":-7})" << Attribute::int32(-7);
    QTest::newRow("i64") << R"({"#":"0.a_i64","D":9007199254740993})" << Attribute::int64(9007199254740993LL);
    QTest::newRow("index") << R"({"#":"0.a_index","D":3})" << Attribute::index(3);
    QTest::newRow("f32") << R"({"#":"0.a_f32","D":0.8999999761581421})" << Attribute::f32(0.9f);
    QTest::newRow("f32 integral") << R"({"#":"0.a_f32","D":2})" << Attribute::f32(2.0f);
    QTest::newRow("f32 NaN") << R"({"#":"0.a_f32","VD":"NaN"})" << Attribute::f32(float(nan));
    QTest::newRow("f32 NAN") << R"({"#":"0.a_f32","VD":"NAN"})" << Attribute::f32(float(nan));
    QTest::newRow("f32 INF") << R"({"#":"0.a_f32","VD":"INF"})" << Attribute::f32(float(inf));
    QTest::newRow("f32 -INF") << R"({"#":"0.a_f32","VD":"-INF"})" << Attribute::f32(float(-inf));
    QTest::newRow("f64") << R"({"#":"0.a_f64","D":3.4028234663852886e+38})"
                         << Attribute::f64(3.4028234663852886e+38);
    QTest::newRow("f64 NaN") << R"({"#":"0.a_f64","VD":"NaN"})" << Attribute::f64(nan);
    QTest::newRow("f64 -INF") << R"({"#":"0.a_f64","VD":"-INF"})" << Attribute::f64(-inf);
    QTest::newRow("str") << R"({"#":"0.a_str","D":"a\"b\\c\u00e9"})" << Attribute::string("a\"b\\c\xc3\xa9");
    QTest::newRow("tensorname") << R"({"#":"0.a_tensorname","D":"x_0"})" << Attribute::tensorName("x_0");
    QTest::newRow("array")
        << R"({"#":"0.a_array","D":[{"#":"0.a_i32","D":1},{"#":"0.a_array","D":[{"#":"0.a_str","D":"s"}]}]})"
        << Attribute::array({ Attribute::int32(1), Attribute::array({ Attribute::string("s") }) });
    QTest::newRow("empty array") << R"({"#":"0.a_array","D":[]})" << Attribute::array({});
    QTest::newRow("type") << R"({"#":"0.a_type","D":{"#":"0.t_i64"}})"
                          << Attribute::type(Type::element(DataType::Int64));
    QTest::newRow("c64") << R"({"#":"0.a_c64","D":[1.5,-2.0]})" << Attribute::complex64({ 1.5, -2.0 });
    QTest::newRow("c128") << R"({"#":"0.a_c128","D":[0.1,0.2]})" << Attribute::complex128({ 0.1, 0.2 });
    QTest::newRow("intarray") << R"({"#":"1.a_intarray","D":[-1,3,48,-1]})"
                              << Attribute::intArray({ -1, 3, 48, -1 });
    QTest::newRow("dtype") << R"({"#":"1.a_dtype","D":"bfloat16"})"
                           << Attribute::dataType(DataType::BFloat16);
    QTest::newRow("dtype undefined") << R"j({"#":"1.a_dtype","D":"Undefined(ALL_DTYPE)"})j"
                                     << Attribute::dataType(DataType::Undefined);
    QTest::newRow("place cpu") << R"({"#":"1.a_place","D":[1,0,""]})"
                               << Attribute::place({ Place::AllocType::Cpu, 0, "" });
    QTest::newRow("place gpu1") << R"({"#":"1.a_place","D":[2,1,""]})"
                                << Attribute::place({ Place::AllocType::Gpu, 1, "" });
    QTest::newRow("place custom") << R"({"#":"1.a_place","D":[9,0,"npu"]})"
                                  << Attribute::place({ Place::AllocType::Custom, 0, "npu" });
    QTest::newRow("layout") << R"({"#":"1.a_layout","D":"NHWC"})" << Attribute::dataLayout("NHWC");
    QTest::newRow("scalar f32") << R"({"#":"1.a_scalar","D":["float32",0.5]})"
                                << Attribute::scalar(DataType::Float32, 0.5);
    QTest::newRow("scalar i64") << R"({"#":"1.a_scalar","D":["int64",-3]})"
                                << Attribute::scalar(DataType::Int64, -3);
    QTest::newRow("scalar bool") << R"({"#":"1.a_scalar","D":["bool",true]})"
                                 << Attribute::scalar(DataType::Bool, 1);
    QTest::newRow("null") << R"({"#":"NULL"})" << Attribute();
}

void TestPirJsonReader::attributes()
{
    QFETCH(QString, at);
    QFETCH(Attribute, expected);
    const LoadResult r = read(attributeDocument(at.toStdString()));
    QVERIFY2(r.ok(), diagnosticsText(r).constData());
    QVERIFY2(r.diagnostics.empty(), diagnosticsText(r).constData());
    const Attribute *a = r.program->block().op(0)->attribute("a");
    QVERIFY(a);
    QCOMPARE(int(a->kind()), int(expected.kind()));
    QVERIFY(*a == expected);
}

void TestPirJsonReader::unknownAttributeKinds()
{
    const std::string mesh = R"({"#":"4.a_process_mesh","D":[[2,2],[0,1,2,3],["x","y"]]})";
    LoadResult r = read(attributeDocument(mesh));
    QVERIFY2(r.ok(), diagnosticsText(r).constData());
    const Attribute *a = r.program->block().op(0)->attribute("a");
    QCOMPARE(a->kind(), Attribute::Kind::Unknown);
    QCOMPARE(a->unknownKindId(), std::string("4.a_process_mesh"));
    QCOMPARE(a->asString(), mesh);
    QVERIFY2(hasWarning(r, "ops[0].A[0].AT"), diagnosticsText(r).constData());

    // Unknown kinds nested in arrays, and a dtype this tool does not know, are kept too.
    r = read(attributeDocument(R"({"#":"0.a_array","D":[{"#":"9.a_new","D":{"k":[1,2.5,null,false]}}]})"));
    QVERIFY(r.ok());
    a = r.program->block().op(0)->attribute("a");
    QCOMPARE(a->asArray().front().asString(), std::string(R"({"#":"9.a_new","D":{"k":[1,2.5,null,false]}})"));
    r = read(attributeDocument(R"({"#":"1.a_dtype","D":"float4"})"));
    QVERIFY(r.ok());
    QCOMPARE(r.program->block().op(0)->attribute("a")->kind(), Attribute::Kind::Unknown);
    QVERIFY(hasWarning(r, "ops[0].A[0].AT.D"));
}

void TestPirJsonReader::parameterDistAndQuantAttributes()
{
    const std::string ops
        = R"({"#":"p","A":[1,0,0,"w"],"DA":[{"AT":{"#":"4.a_op_dist","D":[1]},"N":"op_dist_attr"},{"AT":{"#":"0.a_i32","D":2},"N":"op_role"}],)"
          R"("O":{"%":1,"TT":{"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[3],"NCHW",[],0]}},"OA":[0,1,0],)"
          R"("QA":[{"AT":{"#":"0.a_str","D":"/Layer/"},"N":"struct_name"}]})";
    const LoadResult r = read(document(ops));
    QVERIFY2(r.ok(), diagnosticsText(r).constData());
    const Operation *p = r.program->block().op(0);
    QCOMPARE(std::string(p->name()), std::string("builtin.parameter"));
    QVERIFY(*p->attribute("is_distributed") == boolArray(true));
    QVERIFY(*p->attribute("is_parameter") == boolArray(false));
    QVERIFY(*p->attribute("persistable") == boolArray(false));
    QVERIFY(*p->attribute("stop_gradient") == boolArray(true));
    QVERIFY(*p->attribute("trainable") == boolArray(false));
    QCOMPARE(p->attribute("op_dist_attr")->kind(), Attribute::Kind::Unknown);
    QVERIFY(*p->attribute("op_role") == Attribute::int32(2));
    QCOMPARE(p->stringAttribute("struct_name"), std::string("/Layer/"));
    QCOMPARE(p->attributes().size(), size_t(10));
}

void TestPirJsonReader::nestedRegionsArgsAndKwargs()
{
    const std::string tensor = R"({"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]})";
    const std::string ops = R"({"#":"1.data","A":[],"I":[],"O":[{"%":1,"TT":)" + tensor
        + R"(}]},)"
          R"({"#":"1.while","A":[],"I":[{"%":1}],"O":[{"%":2,"TT":)"
        + tensor
        + R"(}],"OA":[],"regions":[)"
          R"({"#":"region_1","blocks":[{"#":"block_1","args":[{"#":-1,"TT":)"
        + tensor
        + R"(}],)"
          R"("kwargs":[{"#":-2,"TT":)"
        + tensor
        + R"(,"key":"lr"}],"ops":[)"
          R"({"#":"1.add","A":[],"I":[{"%":-1},{"%":-2}],"O":[{"%":3,"TT":)"
        + tensor
        + R"(}]},)"
          R"({"#":"1.if","A":[],"I":[{"%":3}],"O":[],"regions":[{"#":"region_2","blocks":[{"#":"block_2","args":[],"ops":[)"
          R"({"#":"2.yield","A":[],"I":[{"%":3},{"%":-1},{"%":1}],"O":[]}]}]},)"
          R"({"#":"region_3","blocks":[{"#":"block_3","args":[],"ops":[]},{"#":"block_4","args":[{"#":-3,"TT":{"#":"0.t_i32"}}],"ops":[]}]}]},)"
          R"({"#":"2.yield","A":[],"I":[{"%":3}],"O":[]}]}]}]},)"
          R"({"#":"1.relu","A":[],"I":[{"%":2}],"O":[{"%":4,"TT":)"
        + tensor + R"(}]})";
    const LoadResult r = read(document(ops));
    QVERIFY2(r.ok(), diagnosticsText(r).constData());
    const Program &p = *r.program;
    QCOMPARE(p.numOps(), size_t(3));
    QCOMPARE(p.numOpsTotal(), size_t(7));
    const Operation *loop = p.block().op(1);
    QCOMPARE(std::string(loop->name()), std::string("pd_op.while"));
    QCOMPARE(loop->numRegions(), 1u);
    const Block &body = loop->region(0).block(0);
    QCOMPARE(body.numArguments(), size_t(1));
    QCOMPARE(body.numKwargs(), size_t(1));
    QVERIFY(body.kwarg("lr"));
    QVERIFY(body.kwarg("lr").isKeywordArgument());
    QCOMPARE(body.size(), size_t(3));
    const Operation *add = body.op(0);
    QVERIFY(add->operand(0) == body.argument(0));
    QVERIFY(add->operand(1) == body.kwarg("lr"));
    const Operation *cond = body.op(1);
    QCOMPARE(std::string(cond->name()), std::string("pd_op.if"));
    QCOMPARE(cond->numRegions(), 2u);
    const Operation *innerYield = cond->region(0).block(0).op(0);
    QCOMPARE(std::string(innerYield->name()), std::string("cf.yield"));
    QVERIFY(innerYield->operand(0) == add->result(0));
    QVERIFY(innerYield->operand(1) == body.argument(0));
    QVERIFY(innerYield->operand(2) == p.block().op(0)->result(0));
    QCOMPARE(cond->region(1).numBlocks(), size_t(2));
    QCOMPARE(cond->region(1).block(1).numArguments(), size_t(1));
    QVERIFY(p.block().op(2)->operand(0) == loop->result(0));
    QVERIFY(innerYield->parentOp() == cond);
}

void TestPirJsonReader::upgrades()
{
    const std::string tensor = R"({"#":"0.t_dtensor","D":[{"#":"0.t_f32"},[2],"NCHW",[],0]})";
    const std::string ops
        = R"({"#":"1.pool2d","A":[{"AT":{"#":"0.a_array","D":[{"#":"0.a_i32","D":2},{"#":"0.a_i32","D":2}]},"N":"strides"}],"I":[],"O":[]},)"
          R"({"#":"1.kthvalue","A":[{"AT":{"#":"0.a_i32","D":3},"N":"k"}],"I":[],"O":[]},)"
          R"({"#":"1.repeat_interleave","A":[{"AT":{"#":"0.a_i32","D":1},"N":"repeats"}],"I":[],"O":[]},)"
          R"({"#":"1.leaky_relu","A":[{"AT":{"#":"0.a_f32","D":0.10000000149011612},"N":"negative_slope"}],"I":[],"O":[]},)"
          R"({"#":"1.bilinear_interp","A":[{"AT":{"#":"0.a_array","D":[{"#":"0.a_f32","D":2.0}]},"N":"scale"}],"I":[],"O":[]},)"
          R"({"#":"1.slogdet","A":[],"I":[],"O":[{"%":1,"TT":)"
        + tensor
        + R"(}]},)"
          R"({"#":"1.relu","A":[],"I":[{"%":1}],"O":[]})";
    const LoadResult v1 = read(document(ops, 1));
    QVERIFY2(v1.ok(), diagnosticsText(v1).constData());
    const Block &b = v1.program->block();
    QVERIFY(*b.op(0)->attribute("strides") == Attribute::array({ Attribute::int64(2), Attribute::int64(2) }));
    QVERIFY(*b.op(1)->attribute("k") == Attribute::int64(3));
    QVERIFY(*b.op(2)->attribute("output_size") == Attribute::int64(-1));
    QVERIFY(*b.op(3)->attribute("negative_slope") == Attribute::f64(double(0.1f)));
    QVERIFY(*b.op(4)->attribute("scale") == Attribute::array({ Attribute::f64(2.0) }));
    QCOMPARE(b.op(5)->numResults(), 2u);
    QVERIFY(b.op(5)->result(1).type() == Type::denseTensor(DataType::Float32, { -1 }));
    QVERIFY(b.op(6)->operand(0) == b.op(5)->result(0));

    // A version 4 file already has the v2/v3 forms; 4.yaml still applies (Paddle applies the
    // file's own version too), a version 5 file is left alone.
    const LoadResult v4 = read(document(ops, 4));
    QVERIFY(*v4.program->block().op(0)->attribute("strides")
        == Attribute::array({ Attribute::int32(2), Attribute::int32(2) }));
    QVERIFY(*v4.program->block().op(3)->attribute("negative_slope") == Attribute::f64(double(0.1f)));
    QCOMPARE(v4.program->block().op(5)->numResults(), 1u);
    const LoadResult v5 = read(document(ops, 5));
    QCOMPARE(v5.program->block().op(3)->attribute("negative_slope")->kind(), Attribute::Kind::Float);
    QVERIFY(!v5.program->block().op(2)->hasAttribute("output_size"));

    const LoadResult raw = read(document(ops, 1), false);
    QCOMPARE(raw.program->block().op(1)->attribute("k")->kind(), Attribute::Kind::Int32);
    QCOMPARE(raw.program->block().op(5)->numResults(), 1u);
    QCOMPARE(raw.program->serializationVersion.value_or(-1), 1);
}

void TestPirJsonReader::benchmarkDocLayout()
{
    if (!m_haveSamples)
        QSKIP("../shared/samples is not available");
    const std::string json = readAll(samplePath("PP-DocLayout_plus-L.inference.json"));
    QVERIFY(json.size() > 1000000);
    size_t ops = 0;
    QBENCHMARK
    {
        const LoadResult r = PirJsonReader::readString(json, "doclayout.json");
        ops = r.program->numOps();
    }
    QCOMPARE(ops, size_t(2641));
}

QTEST_GUILESS_MAIN(TestPirJsonReader)
#include "tst_pirjsonreader.moc"
