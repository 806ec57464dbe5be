#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/pirtextformat.h"
#include "core/ir/program.h"
#include "core/ir/region.h"

#include <QtTest>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

using namespace ps;

Q_DECLARE_METATYPE(ps::Attribute)
Q_DECLARE_METATYPE(ps::Type)

namespace {

// Printed by Paddle 3.3.1 (`print(program)` of a static while_loop + cond), Gen C.
const char *kPaddleWhileIf = R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:int64,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:0} : () -> tensor<1xi64>
    (%2) = "pd_op.full" () {dtype:int64,place:Place(undefined:0),shape:[1],stop_gradient:[true],value:10} : () -> tensor<1xi64>
    (%3) = "pd_op.less_than" (%1, %2) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%4, %5) = "pd_op.while" (cond=%3, inputs=%1, %0) { 
    ^%arg_0 {stop_gradient:true}, %arg_1 {stop_gradient:true}
        (%6) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%7) = "pd_op.scale" (%arg_0, %6) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%8) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>
        (%9) = "pd_op.scale" (%arg_1, %8) {bias:0,bias_after_scale:true,stop_gradient:[true]} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        (%10) = "pd_op.less_than" (%7, %2) {stop_gradient:[true]} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%10, %7, %9) {} : (tensor<1xb>, tensor<1xi64>, tensor<2x3xf32>) -> 
    }
    (%11) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%12) = "pd_op.mean" (%5, %11) {keepdim:false,stop_gradient:[true]} : (tensor<2x3xf32>, tensor<0xi64>) -> tensor<f32>
    (%13) = "pd_op.full" () {dtype:float32,place:Place(undefined:0),shape:[],stop_gradient:[true],value:1} : () -> tensor<f32>
    (%14) = "pd_op.greater_than" (%12, %13) {stop_gradient:[true]} : (tensor<f32>, tensor<f32>) -> tensor<b>
    (%15) = "pd_op.if" (%14) {stop_gradient:[true]} -> tensor<2x3xf32> {
        (%16) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%17) = "pd_op.scale" (%5, %16) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%17) {} : (tensor<2x3xf32>) -> 
    } else {
        (%18) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
        (%19) = "pd_op.scale" (%5, %18) {bias:-1,bias_after_scale:true,stop_gradient:[true]} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%19) {} : (tensor<2x3xf32>) -> 
    }
}
)pir";

// Printed by Paddle 3.3.1: backward program of a to_static Linear + PyLayer (kwargs, cf ops).
const char *kPaddleBackward = R"pir({
    ^kw:
        %kwarg_output_grad_0 {}
        %kwarg_middle_2 {}
        %kwarg_middle_0 {}
        %kwarg_middle_3 {}
        %kwarg_middle_1 {}
        %kwarg_linear_0.w_0 {}
        %kwarg_linear_0.b_0 {}
        %kwarg__jst.0.x.0 {}
    (%0) = "pd_op.mean_grad" (%kwarg_middle_2, %kwarg_output_grad_0, %kwarg_middle_3) {keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<2x3xf32>, tensor<f32>, tensor<0xi64>) -> tensor<2x3xf32>
    (%1) = "pd_op.pylayer" (%0) {backward_function_id:-1,stop_gradient:[false]} -> tensor<2x3xf32> {
        (%2) = "cf.tuple_pop" (%kwarg_middle_0) {} : (cf.outlet) -> tensor<2x3xf32>
        (%3) = "pd_op.square" (%2) {stop_gradient:[true]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
        (%4) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:-1} : () -> tensor<1xf32>
        (%5) = "pd_op.scale" (%3, %4) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        (%6) = "pd_op.multiply" (%0, %5) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%6) {} : (tensor<2x3xf32>) -> 
    }
    (%7, %8) = "pd_op.add_grad" (%kwarg_middle_1, %kwarg_linear_0.b_0, %1) {axis:-1,stop_gradient:[false,false]} : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>, tensor<3xf32>
    (%9, %10) = "pd_op.matmul_grad" (%kwarg__jst.0.x.0, %kwarg_linear_0.w_0, %7) {stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x3xf32>, tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>, tensor<3x3xf32>
    () = "builtin.shadow_output" (%9) {output_name:"input_grad_0"} : (tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%8) {output_name:"param_grad_0"} : (tensor<3xf32>) -> 
    () = "builtin.shadow_output" (%10) {output_name:"param_grad_1"} : (tensor<3x3xf32>) -> 
}
)pir";

bool samplesAvailable()
{
    return QFileInfo::exists(QStringLiteral(PIRSCOPE_SAMPLES_DIR "/text"));
}

std::string readSample(const QString &name)
{
    std::ifstream in((QStringLiteral(PIRSCOPE_SAMPLES_DIR "/text/") + name).toStdString(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

LoadResult read(std::string_view text)
{
    return PirTextReader::readString(text, "t.txt");
}

size_t countSeverity(const LoadResult &r, Diagnostic::Severity s)
{
    size_t n = 0;
    for (const Diagnostic &d : r.diagnostics.items())
        n += d.severity == s;
    return n;
}

QByteArray diagText(const LoadResult &r)
{
    return QByteArray::fromStdString(r.diagnostics.toString());
}

std::string nameOf(const Operation *op)
{
    return op ? std::string(op->name()) : std::string("<no op>");
}

const Operation *nthOp(const Program &p, std::string_view name, int nth = 0)
{
    const Operation *found = nullptr;
    p.block().walk([&](Operation *op) {
        if (!found && op->name() == name && nth-- == 0)
            found = op;
    });
    return found;
}

/// A one-op program `(%0) = "t.op" () {a:<value>} : () -> tensor<f32>` read back.
LoadResult readAttribute(const std::string &value, const std::string &op = "t.op")
{
    return read("(%0) = \"" + op + "\" () {a:" + value + "} : () -> tensor<f32>\n");
}

Type readType(const std::string &type, LoadResult *keep = nullptr)
{
    LoadResult r = read("(%0) = \"t.op\" () {} : () -> " + type + "\n");
    const Type t
        = r.program && r.program->block().size() == 1 ? r.program->block().op(0)->result(0).type() : Type();
    if (keep)
        *keep = std::move(r);
    return t;
}

} // namespace

/// PirTextReader: every sample, all three print generations, control flow, attribute kinds,
/// types and positioned diagnostics (damaged input: tst_pirtextrecovery).
class TestPirTextReader : public QObject
{
    Q_OBJECT

private slots:
    void sampleFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("topOps");
        QTest::addColumn<int>("totalOps");
        QTest::addColumn<int>("errors");
        QTest::addColumn<int>("warnings");
        // Counted by hand from the files.
        QTest::newRow("A TestParserText") << "genA_TestParserText.txt" << 3 << 3 << 0 << 1; // text after `}`
        QTest::newRow("A if/while doc") << "genA_docs_if_while_example.txt" << 6 << 10 << 0 << 1;
        QTest::newRow("B auto_layout")
            << "genB_auto_layout_program.txt" << 12 << 12 << 0 << 3; // hand-edited types
        QTest::newRow("B fc") << "genB_docs_fc_program.txt" << 9 << 9 << 0 << 0;
        QTest::newRow("B split partial") << "genB_pr69428_split_forward_partial.txt" << 5 << 5 << 1 << 0;
        QTest::newRow("B reducescatter") << "genB_test_fixture_c_reducescatter.txt" << 6 << 6 << 0 << 0;
        QTest::newRow("B tensor_fusion") << "genB_test_fixture_tensor_fusion.txt" << 10 << 10 << 0 << 0;
        QTest::newRow("B translate_to_pir") << "genB_translate_to_pir_docstring.txt" << 4 << 4 << 0 << 0;
        QTest::newRow("B visualdl if") << "genB_visualdl_if_program.txt" << 7 << 11 << 0 << 0;
        QTest::newRow("C layernorm partial")
            << "genC_adaptive_layernorm_comment_partial.txt" << 9 << 9 << 5 << 0;
        QTest::newRow("C shape dialect") << "genC_shape_dialect_data_line.txt" << 1 << 1 << 1 << 0;
    }

    void sampleFiles()
    {
        if (!samplesAvailable())
            QSKIP("../shared/samples is not available");
        QFETCH(QString, file);
        QFETCH(int, topOps);
        QFETCH(int, totalOps);
        QFETCH(int, errors);
        QFETCH(int, warnings);
        const std::string path = (QStringLiteral(PIRSCOPE_SAMPLES_DIR "/text/") + file).toStdString();
        LoadResult r = PirTextReader::readFile(path);
        QVERIFY(r.program);
        QCOMPARE(r.format, LoadResult::Format::PirText);
        QCOMPARE(int(r.program->numOps()), topOps);
        QCOMPARE(int(r.program->numOpsTotal()), totalOps);
        QVERIFY2(int(r.diagnostics.errorCount()) == errors, diagText(r));
        QVERIFY2(int(countSeverity(r, Diagnostic::Severity::Warning)) == warnings, diagText(r));
        for (const Diagnostic &d : r.diagnostics.items()) {
            QCOMPARE(d.location.file, path);
            QVERIFY(d.location.line > 0 && d.location.column > 0);
        }
    }

    void partialSamplesArePositioned()
    {
        if (!samplesAvailable())
            QSKIP("../shared/samples is not available");
        LoadResult split = read(readSample("genB_pr69428_split_forward_partial.txt"));
        QCOMPARE(split.diagnostics.firstError()->location.line, 8); // end of input
        QVERIFY(split.diagnostics.firstError()->message.find("missing '}'") != std::string::npos);
        QCOMPARE(nameOf(nthOp(*split.program, "pd_op.reshape")->operand(1).definingOp()),
            std::string("pd_op.full_int_array"));

        LoadResult ln = read(readSample("genC_adaptive_layernorm_comment_partial.txt"));
        const Diagnostic *first = ln.diagnostics.firstError();
        QCOMPARE(first->location.line, 1);
        QCOMPARE(first->location.column, 45);
        QCOMPARE(first->message, std::string("undefined value %1192"));
        QCOMPARE(ln.diagnostics[4].location.line, 8);
        QVERIFY(ln.program->block().op(0)->operand(0).isNull());
        QCOMPARE(ln.program->block().op(0)->numResults(), 3u);

        LoadResult shape = read(readSample("genC_shape_dialect_data_line.txt"));
        QCOMPARE(shape.diagnostics.firstError()->location.line, 1);
        QCOMPARE(shape.diagnostics.firstError()->location.column, 25);
        QCOMPARE(
            shape.program->block().op(0)->result(0).type().dims(), (std::vector<int64_t> { -1, 72, -1, -1 }));
        QCOMPARE(countSeverity(shape, Diagnostic::Severity::Note), size_t(1)); // the shape annotation line
    }

    void handEditedTypesWarnBothPositions()
    {
        if (!samplesAvailable())
            QSKIP("../shared/samples is not available");
        LoadResult r = read(readSample("genB_auto_layout_program.txt"));
        const Diagnostic &d = r.diagnostics[0];
        QCOMPARE(d.severity, Diagnostic::Severity::Warning);
        QCOMPARE(d.location.line, 10);
        QVERIFY2(d.message.find("builtin.tensor<-1x3x224x224xf32>") != std::string::npos, d.message.c_str());
        QVERIFY2(d.message.find("builtin.tensor<-1x8x224x224xf32>") != std::string::npos, d.message.c_str());
        QVERIFY2(d.message.find("t.txt:9:") != std::string::npos, d.message.c_str());
        // The defining op's type wins.
        QCOMPARE(nthOp(*r.program, "pd_op.conv2d")->operand(0).type().dims()[1], int64_t(8));
    }

    void genATestParserSections()
    {
        if (!samplesAvailable())
            QSKIP("../shared/samples is not available");
        const std::string file = readSample("genA_TestParserText.txt");
        std::vector<std::pair<std::string, std::string>> sections;
        for (size_t pos = file.find("//CHECK "); pos != std::string::npos;
             pos = file.find("//CHECK ", pos + 1)) {
            const size_t eol = file.find('\n', pos);
            const size_t end = file.find("//END", eol);
            sections.emplace_back(file.substr(pos + 8, eol - pos - 8), file.substr(eol + 1, end - eol - 1));
        }
        QCOMPARE(sections.size(), size_t(9));
        int programs = 0;
        for (const auto &[kind, body] : sections) {
            if (kind == "program") {
                ++programs;
                LoadResult r = read(body);
                QVERIFY2(r.diagnostics.empty(), diagText(r));
                QCOMPARE(r.program->numOps(), size_t(3));
                const Operation *conv = nthOp(*r.program, "pd_op.conv2d");
                QCOMPARE(conv->attribute("groups")->kind(), Attribute::Kind::Int32);
                QCOMPARE(conv->attribute("strides")->asArray()[0], Attribute::int32(2));
                QCOMPARE(nameOf(conv->operand(1).definingOp()), std::string("builtin.get_parameter"));
                QCOMPARE(nthOp(*r.program, "pd_op.feed")->attribute("is_persisable")->asArray()[0],
                    Attribute::boolean(false));
            } else if (kind == "type") {
                LoadResult keep;
                const Type t = readType(body.substr(0, body.find('\n')), &keep);
                QVERIFY2(keep.diagnostics.empty(), diagText(keep));
                QVERIFY(t.kind() == Type::Kind::Element || t.kind() == Type::Kind::DenseTensor
                    || t.kind() == Type::Kind::Vector);
            } else {
                LoadResult r = readAttribute(body);
                QVERIFY2(!r.diagnostics.hasErrors(), diagText(r));
                QCOMPARE(r.program->block().op(0)->attribute("a")->kind(), Attribute::Kind::Array);
            }
        }
        QCOMPARE(programs, 1);
        // Spot checks of the attribute sections.
        const Attribute traceback = *readAttribute(sections[0].second).program->block().op(0)->attribute("a");
        QCOMPARE(traceback.asArray().size(), size_t(20));
        QCOMPARE(
            traceback.asArray()[0].asString(), std::string("  File \"train.py\", line 225, in <module>"));
        const Attribute dtypes = *readAttribute(sections[4].second).program->block().op(0)->attribute("a");
        QCOMPARE(dtypes.asArray().size(), size_t(18));
        QCOMPARE(dtypes.asArray()[9], Attribute::dataType(DataType::BFloat16));
        LoadResult places = readAttribute(sections[5].second);
        QCOMPARE(places.program->block().op(0)->attribute("a")->asArray()[0].asPlace().type,
            Place::AllocType::Gpu);
        QCOMPARE(places.program->block().op(0)->attribute("a")->asArray()[5].kind(),
            Attribute::Kind::Unknown); // Place(:0)
        QCOMPARE(countSeverity(places, Diagnostic::Severity::Warning), size_t(1));
        const Attribute layouts = *readAttribute(sections[6].second).program->block().op(0)->attribute("a");
        QCOMPARE(layouts.asArray()[3], Attribute::dataLayout("Undefined(AnyLayout)"));
        const Attribute mixed = *readAttribute(sections[7].second).program->block().op(0)->attribute("a");
        QCOMPARE(mixed, Attribute::array({ Attribute::f64(1), Attribute::int64(0), Attribute::string("1") }));
        QCOMPARE(readType(sections[2].second.substr(0, sections[2].second.find('\n'))),
            Type::denseTensor(DataType::Float32, { 256 }));
        QCOMPARE(readType(sections[8].second.substr(0, sections[8].second.find('\n'))).elements().size(),
            size_t(8));
    }

    void ifWhileDoc()
    {
        if (!samplesAvailable())
            QSKIP("../shared/samples is not available");
        const std::string doc = readSample("genA_docs_if_while_example.txt");
        LoadResult ifPart = read(doc);
        const Operation *ifOp = nthOp(*ifPart.program, "pd_op.if");
        QVERIFY(ifOp);
        QCOMPARE(ifOp->numRegions(), 2u);
        QCOMPARE(ifOp->region(0).block(0).size(), size_t(2));
        QCOMPARE(nameOf(ifOp->region(1).block(0).back()), std::string("cf.yield"));
        QCOMPARE(ifOp->result(0).type(), Type::denseTensor(DataType::Float32, { 1 }));
        QCOMPARE(nameOf(ifOp->operand(0).definingOp()), std::string("pd_op.greater_equal"));
        QCOMPARE(nthOp(*ifPart.program, "pd_op.mean")->operand(0), ifOp->result(0));

        LoadResult whilePart = read(doc.substr(doc.find("# --- while op")));
        QVERIFY2(whilePart.diagnostics.empty(), diagText(whilePart));
        QCOMPARE(whilePart.program->numOps(), size_t(5));
        const Operation *loop = nthOp(*whilePart.program, "pd_op.while");
        QCOMPARE(loop->numOperands(), 2u);
        QCOMPARE(loop->result(0).type(), Type::denseTensor(DataType::Int64, { 1 }));
        const Block &body = loop->region(0).block(0);
        QCOMPARE(body.numArguments(), size_t(1));
        QCOMPARE(body.argument(0).type(), Type::denseTensor(DataType::Int64, { 1 }));
        QCOMPARE(body.op(0)->operand(0), body.argument(0));
        QCOMPARE(body.back()->operand(1), body.op(0)->result(0));
    }

    void paddleGenCPrograms()
    {
        LoadResult r = read(kPaddleWhileIf);
        QVERIFY2(r.diagnostics.empty(), diagText(r));
        QCOMPARE(r.program->numOps(), size_t(10));
        QCOMPARE(r.program->numOpsTotal(), size_t(22));
        const Operation *loop = nthOp(*r.program, "pd_op.while");
        QCOMPARE(loop->numResults(), 2u);
        QCOMPARE(loop->result(1).type(), Type::denseTensor(DataType::Float32, { 2, 3 }));
        QCOMPARE(loop->region(0).block(0).argument(1).type(), Type::denseTensor(DataType::Float32, { 2, 3 }));
        const Operation *full = nthOp(*r.program, "pd_op.full", 1);
        QCOMPARE(*full->attribute("value"), Attribute::f64(10)); // YAML Scalar(double)
        QCOMPARE(*full->attribute("shape"), Attribute::intArray({ 1 }));
        QCOMPARE(*full->attribute("dtype"), Attribute::dataType(DataType::Int64));
        QCOMPARE(full->attribute("place")->asPlace().type, Place::AllocType::Undefined);
        QCOMPARE(*nthOp(*r.program, "pd_op.scale")->attribute("bias"), Attribute::f32(1)); // YAML Scalar
        QCOMPARE(nthOp(*r.program, "pd_op.if")->region(1).block(0).size(), size_t(3));
        QCOMPARE(
            nthOp(*r.program, "pd_op.greater_than")->result(0).type(), Type::denseTensor(DataType::Bool, {}));

        LoadResult bwd = read(kPaddleBackward);
        QVERIFY2(bwd.diagnostics.empty(), diagText(bwd));
        const Block &top = bwd.program->block();
        QCOMPARE(top.numKwargs(), size_t(8));
        QCOMPARE(top.kwargAt(5).keyword(), std::string("linear_0.w_0"));
        QCOMPARE(
            top.kwarg("_jst.0.x.0").type(), Type::denseTensor(DataType::Float32, { 2, 3 })); // from its use
        QCOMPARE(top.kwarg("middle_0").type(), Type::opaque("cf.outlet"));
        QCOMPARE(top.kwarg("middle_3").type(), Type::denseTensor(DataType::Int64, { 0 }));
        const Operation *pylayer = nthOp(*bwd.program, "pd_op.pylayer");
        QCOMPARE(*pylayer->attribute("backward_function_id"), Attribute::int32(-1));
        QCOMPARE(pylayer->region(0).block(0).op(0)->operand(0), top.kwarg("middle_0"));
        QCOMPARE(nthOp(*bwd.program, "pd_op.add_grad")->operand(2), pylayer->result(0));
    }

    void syntaxFeatures_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("topOps");
        QTest::addColumn<int>("totalOps");
        QTest::newRow("op id") << R"((%0) = "pd_op.data" [id:33] () {} : () -> builtin.tensor<3x4xf32>)" << 1
                               << 1;
        QTest::newRow("null value and type") << "(%0) = \"a.b\" () {} : () -> f32\n(%1) = \"a.c\" (%0, "
                                                "<<NULL VALUE>>) {} : (f32, <<NULL TYPE>>) -> "
                                                "<<NULL TYPE>>"
                                             << 2 << 2;
        QTest::newRow("no results, no types") << "() = \"cf.yield\" () {} : () -> " << 1 << 1;
        QTest::newRow("trailing arrow without space") << "{\n () = \"cf.yield\" () {} : () ->\n}" << 1 << 1;
        QTest::newRow("gen A unquoted if, brace on next line")
            << "(%0) = \"a.c\" () {} : () -> pd_op.tensor<b>\n(%1) = pd_op.if (%0) {} -> "
               "pd_op.tensor<f32>\n{\n"
               "  (%2) = \"a.x\" () {} : () -> pd_op.tensor<f32>\n  () = \"cf.yield\" (%2) {} : "
               "(pd_op.tensor<f32>) ->\n"
               "} else {\n  () = \"cf.yield\" (%2) {} : (pd_op.tensor<f32>) ->\n}\n"
            << 2 << 5;
        QTest::newRow("if without results")
            << "(%0) = \"a.c\" () {} : () -> tensor<b>\n() = \"pd_op.if\" (%0) {} ->  {\n} else {\n}" << 2
            << 2;
        QTest::newRow("pylayer")
            << "(%0) = \"a.c\" () {} : () -> tensor<2xf32>\n(%1) = \"pd_op.pylayer\" (%0) "
               "{backward_function_id:2} -> tensor<2xf32> {\n    () = \"cf.yield\" (%0) {} : "
               "(tensor<2xf32>) -> \n}"
            << 2 << 3;
        QTest::newRow("while without space, bare args")
            << "(%0) = \"a.c\" () {} : () -> tensor<b>\n(%1) = \"pd_op.while\"(cond=%0, inputs=%0) "
               "{\n^%arg_0\n"
               "    () = \"cf.yield\" (%arg_0, %arg_0) {} : (tensor<b>, tensor<b>) ->\n}"
            << 2 << 3;
        QTest::newRow("2023 while: (cond) [inputs]")
            << "(%0) = \"a.c\" () {} : () -> pd_op.tensor<b>\n(%1) = \"pd_op.while\"(%0) [%0] { \n ^%arg_0\n "
               " () = "
               "\"cf.yield\" (%arg_0, %arg_0) {} : (pd_op.tensor<b>, pd_op.tensor<b>) -> \n }"
            << 2 << 3;
        QTest::newRow("2023 while: cond and body blocks")
            << "(%0) = \"a.c\" () {} : () -> pd_op.tensor<b>\n(%1) \"pd_op.while\" (%0) -> "
               "pd_op.tensor<b>{\n  () = "
               "\"cf.yield\" (%0) {} : (pd_op.tensor<b>) -> \n } do {\n  () = \"cf.yield\" (%0) {} : "
               "(pd_op.tensor<b>) -> \n }"
            << 2 << 4;
        QTest::newRow("2023 if: no attributes, no space before {")
            << "(%0) = \"a.c\" () {} : () -> pd_op.tensor<b>\n(%1) = pd_op.if (%0) -> pd_op.tensor<b>{\n  () "
               "= "
               "\"cf.yield\" (%0) {} : (pd_op.tensor<b>) -> \n } else {\n  () = \"cf.yield\" (%0) {} : "
               "(pd_op.tensor<b>) -> \n }"
            << 2 << 4;
        QTest::newRow("generic regions") << "{\n    (%0) = \"t.region\" () {} : () -> tensor<f32>\n    {\n   "
                                            "     ^%arg_0 {}\n        () = \"t.use\" "
                                            "(%arg_0) {} : (tensor<f32>) -> \n    }\n    {\n    }\n\n    () "
                                            "= \"t.use\" (%0) {} : (tensor<f32>) -> \n}\n"
                                         << 2 << 3;
        QTest::newRow("kwargs")
            << "{\n    ^kw:\n        %kwarg_x {}\n        %kwarg_y.z {stop_gradient:false}\n    () "
               "= \"t.use\" (%kwarg_x, %kwarg_y.z) {} : (tensor<f32>, tensor<i64>) -> \n}"
            << 1 << 1;
        QTest::newRow("first-use argument suffix") << "(%0) = \"t.region\" () {} : () -> tensor<f32>\n{\n  "
                                                      "() = \"t.use\" (%arg_0 {stop_gradient:true}, "
                                                      "%arg_0) {} : (f32, f32) -> \n}"
                                                   << 1 << 2;
        QTest::newRow("cf stack names")
            << "(%stack_0, %inlet_0, %outlet_0) = \"cf.stack_create\" () {} : () -> "
               "cf.stack, cf.inlet, cf.outlet\n() = \"cf.tuple_push\" (%inlet_0) {} : "
               "(cf.inlet) -> "
            << 2 << 2;
        QTest::newRow("any indentation, tabs, CRLF, comments")
            << "# leading comment\r\n{\r\n\t(%0) = \"a.b\" () {} : () -> f32\r\n\r\n// another\r\n          "
               "(%1) = "
               "\"a.c\" (%0) {} : (f32) -> f32\r\n}\r\n"
            << 2 << 2;
        QTest::newRow("preamble")
            << "Splited Program (fwd | bwd): \nForwardProgram is :\n{\n    () = \"a.b\" () {} : () "
               "-> \n}\n"
            << 1 << 1;
        QTest::newRow("utf-8 BOM") << "\xEF\xBB\xBF(%0) = \"a.b\" () {} : () -> f32" << 1 << 1;
        QTest::newRow("one-line program") << "{ (%0) = \"a.b\" () {} : () -> f32 }" << 1 << 1;
        QTest::newRow("kernel dialect name")
            << "(%0) = \"data(phi_kernel)\" () {kernel_key:<#AttrNull>} : () -> "
               "undefined_tensor<1xf32>"
            << 1 << 1;
    }

    void syntaxFeatures()
    {
        QFETCH(QString, text);
        QFETCH(int, topOps);
        QFETCH(int, totalOps);
        LoadResult r = read(text.toStdString());
        QVERIFY2(!r.diagnostics.hasErrors(), diagText(r));
        QVERIFY2(countSeverity(r, Diagnostic::Severity::Warning) == 0, diagText(r));
        QCOMPARE(int(r.program->numOps()), topOps);
        QCOMPARE(int(r.program->numOpsTotal()), totalOps);
    }

    void structureDetails()
    {
        LoadResult kw
            = read("{\n ^kw:\n  %kwarg_x {}\n  %kwarg_y.z {stop_gradient:false}\n () = \"t.use\" (%kwarg_x, "
                   "%kwarg_y.z) {} : (tensor<f32>, tensor<i64>) -> \n}");
        QCOMPARE(kw.program->block().kwarg("y.z").type(), Type::denseTensor(DataType::Int64, {}));
        LoadResult gen
            = read("(%0) = \"t.region\" () {} : () -> f32\n{\n  ^%arg_0 {}, %arg_1\n  () = \"t.use\" "
                   "(%arg_1) {} : (f32) -> \n}\n{\n}\n() = \"t.after\" () {} : () -> ");
        const Operation *region = gen.program->block().op(0);
        QCOMPARE(region->numRegions(), 2u);
        QCOMPARE(region->region(0).block(0).numArguments(), size_t(2));
        QCOMPARE(region->region(0).block(0).argument(1).type(), Type::element(DataType::Float32));
        QCOMPARE(nameOf(gen.program->block().op(1)), std::string("t.after"));
        LoadResult nulls
            = read("(%0) = \"a.b\" () {} : () -> f32\n(%1) = \"a.c\" (%0, <<NULL VALUE>>) {} : (f32, "
                   "<<NULL TYPE>>) -> <<NULL TYPE>>");
        QVERIFY(nulls.program->block().op(1)->operand(1).isNull());
        QVERIFY(nulls.program->block().op(1)->result(0).type().isNull());
        LoadResult ids = read(R"((%0) = "pd_op.data" [id:33] () {} : () -> builtin.tensor<3x4xf32>)");
        QCOMPARE(
            ids.program->block().op(0)->result(0).type(), Type::denseTensor(DataType::Float32, { 3, 4 }));
    }

    void scalarPrefixes()
    {
        LoadResult r = read(
            R"((%0) = "t.op" () {a:(Int32)-7,b:(Int64)9000000000,c:(Float)0.9,d:(Double)1e-05,e:(Index)3,f:(Pointer)0x7f12,g:(Array)[(Int32)1,(Array)[]],h:(pd_op.DataType)bfloat16,i:(pd_op.IntArray)[2,-1],j:(pd_op.Place)Place(gpu:1),k:(pd_op.DataLayout)NHWC,l:(pd_op.DataLayout)Undefined(AnyLayout),m:(Float)-inf,n:(Double)nan,o:(pd_op.DataType)Undefined(ALL_DTYPE)} : () -> f32)");
        QVERIFY2(r.diagnostics.empty(), diagText(r));
        const Operation *op = r.program->block().op(0);
        QCOMPARE(*op->attribute("a"), Attribute::int32(-7));
        QCOMPARE(*op->attribute("b"), Attribute::int64(9000000000LL));
        QCOMPARE(*op->attribute("c"), Attribute::f32(0.9f));
        QCOMPARE(*op->attribute("d"), Attribute::f64(1e-05));
        QCOMPARE(*op->attribute("e"), Attribute::index(3));
        QCOMPARE(*op->attribute("f"), Attribute::unknown("Pointer", "0x7f12"));
        QCOMPARE(*op->attribute("g"), Attribute::array({ Attribute::int32(1), Attribute::array({}) }));
        QCOMPARE(*op->attribute("h"), Attribute::dataType(DataType::BFloat16));
        QCOMPARE(*op->attribute("i"), Attribute::intArray({ 2, -1 }));
        QCOMPARE(op->attribute("j")->asPlace().deviceId, 1);
        QCOMPARE(*op->attribute("k"), Attribute::dataLayout("NHWC"));
        QCOMPARE(*op->attribute("l"), Attribute::dataLayout("Undefined(AnyLayout)"));
        QVERIFY(std::isinf(op->attribute("m")->asDouble()) && op->attribute("m")->asDouble() < 0);
        QVERIFY(std::isnan(op->attribute("n")->asDouble()));
        QCOMPARE(*op->attribute("o"), Attribute::dataType(DataType::Undefined));
    }

    void attributeValues_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Attribute>("expected");
        QTest::newRow("true") << "true" << Attribute::boolean(true);
        QTest::newRow("false") << "false" << Attribute::boolean(false);
        QTest::newRow("escaped string") << "\"say \\\"hi\\\"\"" << Attribute::string("say \"hi\"");
        QTest::newRow("multi-line string") << "\"a\nb\"" << Attribute::string("a\nb");
        QTest::newRow("int") << "-3" << Attribute::int32(-3);
        QTest::newRow("int64 by size") << "3000000000" << Attribute::int64(3000000000LL);
        QTest::newRow("float") << "0.5" << Attribute::f64(0.5);
        QTest::newRow("exponent") << "1e-06" << Attribute::f64(1e-06);
        QTest::newRow("positive exponent") << "1.23457e+08" << Attribute::f64(1.23457e+08);
        QTest::newRow("inf") << "inf" << Attribute::f64(std::numeric_limits<double>::infinity());
        QTest::newRow("-inf") << "-inf" << Attribute::f64(-std::numeric_limits<double>::infinity());
        QTest::newRow("nested array")
            << "[[1,2],[],[true]]"
            << Attribute::array({ Attribute::array({ Attribute::int32(1), Attribute::int32(2) }),
                   Attribute::array({}), Attribute::array({ Attribute::boolean(true) }) });
        QTest::newRow("arrays in arrays")
            << "[[1,[2,3,4,5,6,7]],[true,true,true,true,true,true],[[[]]]]"
            << Attribute::array(
                   { Attribute::array({ Attribute::int32(1),
                         Attribute::array({ Attribute::int32(2), Attribute::int32(3), Attribute::int32(4),
                             Attribute::int32(5), Attribute::int32(6), Attribute::int32(7) }) }),
                       Attribute::array(std::vector<Attribute>(6, Attribute::boolean(true))),
                       Attribute::array({ Attribute::array({ Attribute::array({}) }) }) });
        QTest::newRow("place cpu") << "Place(cpu)"
                                   << Attribute::place(Place { Place::AllocType::Cpu, 0, {} });
        QTest::newRow("place gpu_pinned")
            << "Place(gpu_pinned)" << Attribute::place(Place { Place::AllocType::GpuPinned, 0, {} });
        QTest::newRow("dtype word") << "float16" << Attribute::dataType(DataType::Float16);
        QTest::newRow("dtype Undefined") << "Undefined" << Attribute::dataType(DataType::Undefined);
        QTest::newRow("layout word") << "NCDHW" << Attribute::dataLayout("NCDHW");
        QTest::newRow("layout Undefined")
            << "Undefined(AnyLayout)" << Attribute::dataLayout("Undefined(AnyLayout)");
        QTest::newRow("type") << "tensor<2xf32>"
                              << Attribute::type(Type::denseTensor(DataType::Float32, { 2 }));
        QTest::newRow("element type") << "i64" << Attribute::type(Type::element(DataType::Int64));
        QTest::newRow("complex") << "(1,-2)" << Attribute::complex128({ 1, -2 });
        QTest::newRow("null") << "<#AttrNull>" << Attribute();
        QTest::newRow("hex pointer") << "0x55d0" << Attribute::unknown("Pointer", "0x55d0");
    }

    void attributeValues()
    {
        QFETCH(QString, text);
        QFETCH(Attribute, expected);
        LoadResult r = readAttribute(text.toStdString());
        QVERIFY2(r.diagnostics.empty(), diagText(r));
        QCOMPARE(*r.program->block().op(0)->attribute("a"), expected);
    }

    void genCKindInference()
    {
        auto attr = [](const std::string &op, const std::string &value) {
            LoadResult r = readAttribute(value, op);
            return *r.program->block().op(0)->attribute("a");
        };
        auto named = [](const std::string &op, const std::string &name, const std::string &value) {
            LoadResult r
                = read("(%0) = \"" + op + "\" () {" + name + ":" + value + "} : () -> tensor<f32>\n");
            return *r.program->block().op(0)->attribute(name);
        };
        // Registry (YAML) types.
        QCOMPARE(named("pd_op.full", "value", "1"), Attribute::f64(1));
        QCOMPARE(named("pd_op.full", "shape", "[2,3]"), Attribute::intArray({ 2, 3 }));
        QCOMPARE(named("pd_op.scale", "bias", "0"), Attribute::f32(0));
        QCOMPARE(named("pd_op.layer_norm", "epsilon", "1e-05"), Attribute::f32(1e-05f));
        QCOMPARE(named("pd_op.layer_norm", "begin_norm_axis", "2"), Attribute::int32(2));
        QCOMPARE(named("pd_op.full_int_array", "value", "[2,6]"),
            Attribute::array({ Attribute::int64(2), Attribute::int64(6) }));
        QCOMPARE(named("pd_op.data", "shape", "[-1,3]"), Attribute::intArray({ -1, 3 }));
        QCOMPARE(named("pd_op.conv2d", "strides", "[1,1]"),
            Attribute::array({ Attribute::int32(1), Attribute::int32(1) }));
        QCOMPARE(named("pd_op.assign_value_", "shape", "[1,2]"),
            Attribute::array({ Attribute::int32(1), Attribute::int32(2) }));
        QCOMPARE(named("pd_op.assign_value_", "values", "[1.5,2]"),
            Attribute::array({ Attribute::f64(1.5), Attribute::f64(2) }));
        QCOMPARE(named("pd_op.mean", "keepdim", "false"), Attribute::boolean(false));
        // Heuristics for ops the registry does not know.
        QCOMPARE(attr("foo.bar", "7"), Attribute::int32(7));
        QCOMPARE(attr("foo.bar", "7.5"), Attribute::f64(7.5));
        QCOMPARE(named("pd_op.not_an_op", "shape", "[4]"), Attribute::intArray({ 4 }));
        QCOMPARE(named("foo.bar", "shape", "[4]"), Attribute::array({ Attribute::int32(4) }));
        // Prefixes always win over the registry.
        QCOMPARE(named("pd_op.full", "value", "(Float)1"), Attribute::f32(1));
    }

    void types_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Type>("expected");
        const Type f23 = Type::denseTensor(DataType::Float32, { 2, 3 });
        QTest::newRow("gen C") << "tensor<2x3xf32>" << f23;
        QTest::newRow("gen B") << "builtin.tensor<2x3xf32>" << f23;
        QTest::newRow("gen A") << "pd_op.tensor<2x3xf32>" << f23;
        QTest::newRow("dynamic") << "tensor<-1x3x224x224xf32>"
                                 << Type::denseTensor(DataType::Float32, { -1, 3, 224, 224 });
        QTest::newRow("0-d") << "tensor<f32>" << Type::denseTensor(DataType::Float32, {});
        QTest::newRow("empty dim") << "tensor<0xi64>" << Type::denseTensor(DataType::Int64, { 0 });
        QTest::newRow("layout word") << "builtin.tensor<2x3xf32 NHWC>"
                                     << Type::denseTensor(DataType::Float32, { 2, 3 }, "NHWC");
        QTest::newRow("vec") << "vec[tensor<2x3xf32>,tensor<f16>]"
                             << Type::vector({ f23, Type::denseTensor(DataType::Float16, {}) });
        QTest::newRow("empty vec") << "vec[]" << Type::vector({});
        QTest::newRow("selected rows")
            << "pd_op.selectedrows<2x3xf32>" << Type::selectedRows(DataType::Float32, { 2, 3 });
        QTest::newRow("tensor array")
            << "pd_op.tensor_array<f32>" << Type::denseTensorArray(DataType::Float32);
        QTest::newRow("element") << "bf16" << Type::element(DataType::BFloat16);
        QTest::newRow("bool, u8") << "vec[b,u8]"
                                  << Type::vector(
                                         { Type::element(DataType::Bool), Type::element(DataType::UInt8) });
        QTest::newRow("opaque") << "cf.stack" << Type::opaque("cf.stack");
        QTest::newRow("opaque with body")
            << "dist.tensor<2x3xf32, mesh[0,1]>" << Type::opaque("dist.tensor<2x3xf32, mesh[0,1]>");
        QTest::newRow("sparse") << "pd_op.sparsecootensor<4x4xf32>"
                                << Type::sparseCoo(
                                       DataType::Float32, { 4, 4 }, "pd_op.sparsecootensor<4x4xf32>");
    }

    void types()
    {
        QFETCH(QString, text);
        QFETCH(Type, expected);
        LoadResult r;
        QCOMPARE(readType(text.toStdString(), &r), expected);
        QVERIFY2(r.diagnostics.empty(), diagText(r));
    }

    void unknownAttributes()
    {
        // c: the placeholder Paddle prints for an attribute kind it cannot print, as the printer
        // writes it for an unknown attribute without text.
        const std::string unprintable
            = PirTextFormat::attributeText(Attribute::unknown("", ""), Generation::C);
        QVERIFY(unprintable.starts_with("<#Attr"));
        LoadResult r = read(R"((%0) = "t.op" () {a:(Foo)1,b:@@,c:)" + unprintable
            + R"(,d:Place(:0),e:whatever(1, 2)} : () -> f32)");
        QVERIFY2(!r.diagnostics.hasErrors(), diagText(r));
        QCOMPARE(countSeverity(r, Diagnostic::Severity::Warning), size_t(5));
        const Operation *op = r.program->block().op(0);
        QCOMPARE(*op->attribute("a"), Attribute::unknown("Foo", "1"));
        QCOMPARE(*op->attribute("b"), Attribute::unknown("", "@@"));
        QCOMPARE(op->attribute("c")->kind(), Attribute::Kind::Unknown);
        bool named = false;
        for (const Diagnostic &d : r.diagnostics.items())
            named = named
                || d.message.find("'c' has no value: Paddle printed it as <#Attr") != std::string::npos;
        QVERIFY2(named, diagText(r));
        QCOMPARE(*op->attribute("e"), Attribute::unknown("", "whatever(1, 2)"));
        QCOMPARE(r.diagnostics[0].location.column, 26); // the value after `(Foo)`
    }

    void detectsGeneration()
    {
        QCOMPARE(PirTextReader::detectGeneration("-> pd_op.tensor<1xf32>"), Generation::A);
        QCOMPARE(
            PirTextReader::detectGeneration("{col:(Int32)0} : () -> builtin.tensor<1xf32>"), Generation::B);
        QCOMPARE(PirTextReader::detectGeneration(kPaddleWhileIf), Generation::C);
        // Generation A's spellings win wherever they are; B's need no A spelling anywhere.
        QCOMPARE(PirTextReader::detectGeneration("(Double)1 -> builtin.tensor<1xf32> {a:(Array)[]}"),
            Generation::A);
        QCOMPARE(PirTextReader::detectGeneration("(pd_op.x) -> pd_op.tensor<f32>"), Generation::A);
        QCOMPARE(PirTextReader::detectGeneration("(Int64)1"), Generation::B);
        QCOMPARE(PirTextReader::detectGeneration("x = (pd_op.full)"), Generation::B);
        QCOMPARE(PirTextReader::detectGeneration("<tensor<2xf32> (Int3) (Arra"), Generation::C);
        QCOMPARE(PirTextReader::detectGeneration(""), Generation::C);
        QCOMPARE(PirTextReader::detectGeneration("("), Generation::C);
        QCOMPARE(PirTextReader::detectGeneration("<tensor<"), Generation::C);
        QCOMPARE(PirTextReader::detectGeneration("(%0) (Float)1.5 (p"), Generation::B);
        QCOMPARE(PirTextReader::detectGeneration("(Arr) -> builtin.tensor<f32>"), Generation::B);
        QCOMPARE(PirTextReader::detectGeneration("x builtin.tensor<f32> (Array)[]"), Generation::A);
    }
};

QTEST_GUILESS_MAIN(TestPirTextReader)
#include "tst_pirtextreader.moc"
