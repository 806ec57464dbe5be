#include "core/io/pirjsonreader.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/pirprinter.h"
#include "core/ir/program.h"
#include "core/ir/region.h"
#include "core/ir/valuenumbering.h"

#include <QtTest>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

using namespace ps;

Q_DECLARE_METATYPE(ps::Generation)

namespace {

// The next three programs were printed by Paddle 3.3.1 (`print(program)`, Gen C): a static
// while_loop + cond, and the whole / backward program of a to_static Linear + PyLayer.
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

const char *kPaddlePyLayer = R"pir({
    (%stack_0, %inlet_0, %outlet_0) = "cf.stack_create" () {} : () -> cf.stack, cf.inlet, cf.outlet
    (%0) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_0.b_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3xf32>
    (%1) = "builtin.parameter" () {is_distributed:[false],is_parameter:[true],need_clip:[true],parameter_name:"linear_0.w_0",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<3x3xf32>
    (%2) = "pd_op.data" () {dtype:float32,name:"_jst.0.x.0",place:Place(undefined:0),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%3) = "pd_op.matmul" (%2, %1) {stop_gradient:[false],struct_name:"/Linear/",transpose_x:false,transpose_y:false} : (tensor<2x3xf32>, tensor<3x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.add" (%3, %0) {stop_gradient:[false],struct_name:"/Linear/"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    (%5) = "pd_op.pylayer" (%4) {backward_function_id:19,stop_gradient:[false]} -> tensor<2x3xf32> {
        (%6) = "pd_op.tanh" (%4) {stop_gradient:[false]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
        () = "cf.tuple_push" (%inlet_0, %6) {} : (cf.inlet, tensor<2x3xf32>) -> 
        () = "cf.yield" (%6) {} : (tensor<2x3xf32>) -> 
    }
    (%7) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[]} : () -> tensor<0xi64>
    (%8) = "pd_op.mean" (%5, %7) {keepdim:false,stop_gradient:[false]} : (tensor<2x3xf32>, tensor<0xi64>) -> tensor<f32>
    () = "builtin.shadow_output" (%8) {output_name:"output_0"} : (tensor<f32>) -> 
    (%9) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%10) = "pd_op.full_like" (%8, %9) {dtype:float32,place:Place(undefined:0),stop_gradient:[false]} : (tensor<f32>, tensor<1xf32>) -> tensor<f32>
    () = "builtin.shadow_output" (%10) {output_name:"grad_input_0"} : (tensor<f32>) -> 
    (%11) = "pd_op.mean_grad" (%5, %10, %7) {keepdim:false,reduce_all:false,stop_gradient:[false]} : (tensor<2x3xf32>, tensor<f32>, tensor<0xi64>) -> tensor<2x3xf32>
    (%12) = "pd_op.pylayer" (%11) {backward_function_id:-1,stop_gradient:[false]} -> tensor<2x3xf32> {
        (%13) = "cf.tuple_pop" (%outlet_0) {} : (cf.outlet) -> tensor<2x3xf32>
        (%14) = "pd_op.square" (%13) {stop_gradient:[true]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
        (%15) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:-1} : () -> tensor<1xf32>
        (%16) = "pd_op.scale" (%14, %15) {bias:1,bias_after_scale:true,stop_gradient:[true]} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        (%17) = "pd_op.multiply" (%11, %16) {stop_gradient:[false]} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%17) {} : (tensor<2x3xf32>) -> 
    }
    (%18, %19) = "pd_op.add_grad" (%3, %0, %12) {axis:-1,stop_gradient:[false,false]} : (tensor<2x3xf32>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>, tensor<3xf32>
    (%20, %21) = "pd_op.matmul_grad" (%2, %1, %18) {stop_gradient:[false,false],transpose_x:false,transpose_y:false} : (tensor<2x3xf32>, tensor<3x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>, tensor<3x3xf32>
    () = "builtin.shadow_output" (%20) {output_name:"grad_output_0"} : (tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%19) {output_name:"grad_output_1"} : (tensor<3xf32>) -> 
    () = "builtin.shadow_output" (%21) {output_name:"grad_output_2"} : (tensor<3x3xf32>) -> 
}
)pir";

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

std::string readFile(const QString &path)
{
    std::ifstream in(path.toStdString(), std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

QStringList sampleTexts()
{
    return QDir(QStringLiteral(PIRSCOPE_SAMPLES_DIR "/text")).entryList({ "*.txt" }, QDir::Files, QDir::Name);
}

std::string print(const Program &p, Generation gen = Generation::C)
{
    return PirPrinter::toString(p, gen);
}

LoadResult parse(const std::string &text)
{
    return PirTextReader::readString(text, "printed.txt");
}

Type tensor(std::vector<int64_t> dims, DataType dt = DataType::Float32)
{
    return Type::denseTensor(dt, std::move(dims));
}

/// One op of every attribute and type spelling, in YAML (not sorted) attribute order.
std::unique_ptr<Program> buildSpellings()
{
    auto p = std::make_unique<Program>();
    Builder b(*p);
    b.setInsertionPointToEnd(p->block());
    const Attribute sgTrue = Attribute::array({ Attribute::boolean(true) });
    Operation *x = b.create("pd_op.data", {}, { tensor({ 2, 3 }) },
        { { "name", Attribute::string("x") }, { "shape", Attribute::intArray({ 2, 3 }) },
            { "dtype", Attribute::dataType(DataType::Float32) }, { "place", Attribute::place(Place {}) },
            { "stop_gradient", sgTrue } });
    Operation *full = b.create("pd_op.full", {}, { tensor({ 1 }) },
        { { "shape", Attribute::intArray({ 1 }) }, { "value", Attribute::f64(1) },
            { "dtype", Attribute::dataType(DataType::Float32) },
            { "place", Attribute::place(Place { Place::AllocType::Cpu, 0, {} }) },
            { "stop_gradient", sgTrue },
            { "op_callstack", Attribute::array({ Attribute::string("model.py:3") }) } });
    Operation *scale = b.create("pd_op.scale", { x->result(0), full->result(0) }, { tensor({ 2, 3 }) },
        { { "bias", Attribute::f32(0.899999976158f) }, { "bias_after_scale", Attribute::boolean(true) },
            { "struct_name", Attribute::string("/Layer/") } });
    Operation *ln = b.create("pd_op.layer_norm", { scale->result(0), Value(), Value() },
        { tensor({ 2, 3 }), tensor({ 2 }), tensor({ 2 }) },
        { { "epsilon", Attribute::f32(1e-05f) }, { "begin_norm_axis", Attribute::int32(1) } });
    const Type vec = Type::vector({ tensor({ 1 }), Type::selectedRows(DataType::Float32, { 2, 3 }),
        Type::denseTensorArray(DataType::Float32), Type::element(DataType::Float16), Type::opaque("cf.stack"),
        Type() });
    b.create("t.misc", {}, { vec },
        { { "unk", Attribute::unknown("Pointer", "0x10") }, { "i64", Attribute::int64(-1) },
            { "idx", Attribute::index(3) },
            { "arr", Attribute::array({ Attribute::int32(1), Attribute::array({}) }) },
            { "lay", Attribute::dataLayout("NHWC") }, { "ty", Attribute::type(tensor({ 1 })) },
            { "cx", Attribute::complex128({ 1, 2 }) }, { "nul", Attribute() },
            { "big", Attribute::f64(1e30) },
            { "ninf", Attribute::f32(-std::numeric_limits<float>::infinity()) },
            { "nan", Attribute::f64(std::numeric_limits<double>::quiet_NaN()) },
            { "d8", Attribute::dataType(DataType::Int8) } });
    b.create("builtin.shadow_output", { ln->result(0) }, {}, { { "output_name", Attribute::string("out") } });
    return p;
}

const char *kSpellingsC = R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[2,3],stop_gradient:[true]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:0.9,bias_after_scale:true,struct_name:"/Layer/"} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    (%3, %4, %5) = "pd_op.layer_norm" (%2, <<NULL VALUE>>, <<NULL VALUE>>) {begin_norm_axis:1,epsilon:1e-05} : (tensor<2x3xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>
    (%6) = "t.misc" () {arr:[1,[]],big:1e+30,cx:(1,2),d8:int8,i64:-1,idx:3,lay:NHWC,nan:nan,ninf:-inf,nul:<#AttrNull>,ty:tensor<1xf32>,unk:0x10} : () -> vec[tensor<1xf32>,pd_op.selectedrows<2x3xf32>,pd_op.tensor_array<f32>,f16,cf.stack,<<NULL TYPE>>]
    () = "builtin.shadow_output" (%3) {output_name:"out"} : (tensor<2x3xf32>) -> 
}
)pir";

const char *kSpellingsB = R"pir({
    (%0) = "pd_op.data" () {dtype:(pd_op.DataType)float32,name:"x",place:(pd_op.Place)Place(undefined:0),shape:(pd_op.IntArray)[2,3],stop_gradient:[true]} : () -> builtin.tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:(pd_op.DataType)float32,place:(pd_op.Place)Place(cpu),shape:(pd_op.IntArray)[1],stop_gradient:[true],value:(Double)1} : () -> builtin.tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:(Float)0.9,bias_after_scale:true,struct_name:"/Layer/"} : (builtin.tensor<2x3xf32>, builtin.tensor<1xf32>) -> builtin.tensor<2x3xf32>
    (%3, %4, %5) = "pd_op.layer_norm" (%2, <<NULL VALUE>>, <<NULL VALUE>>) {begin_norm_axis:(Int32)1,epsilon:(Float)1e-05} : (builtin.tensor<2x3xf32>, <<NULL TYPE>>, <<NULL TYPE>>) -> builtin.tensor<2x3xf32>, builtin.tensor<2xf32>, builtin.tensor<2xf32>
    (%6) = "t.misc" () {arr:[(Int32)1,[]],big:(Double)1e+30,cx:(1,2),d8:(pd_op.DataType)int8,i64:(Int64)-1,idx:(Index)3,lay:(pd_op.DataLayout)NHWC,nan:(Double)nan,ninf:(Float)-inf,nul:<#AttrNull>,ty:builtin.tensor<1xf32>,unk:(Pointer)0x10} : () -> vec[builtin.tensor<1xf32>,pd_op.selectedrows<2x3xf32>,pd_op.tensor_array<f32>,f16,cf.stack,<<NULL TYPE>>]
    () = "builtin.shadow_output" (%3) {output_name:"out"} : (builtin.tensor<2x3xf32>) -> 
}
)pir";

/// kwargs, cf stack, while, if, a generic region with arguments and kwargs, pylayer.
std::unique_ptr<Program> buildControlFlow()
{
    auto p = std::make_unique<Program>();
    const Type t1 = tensor({ 1 });
    Value kx = p->block().addKwarg("x", t1);
    Builder b(*p);
    b.setInsertionPointToEnd(p->block());
    Operation *stack = b.create("cf.stack_create", {},
        { Type::opaque("cf.stack"), Type::opaque("cf.inlet"), Type::opaque("cf.outlet") });
    Operation *cond
        = b.create("pd_op.full", {}, { tensor({ 1 }, DataType::Bool) }, { { "value", Attribute::f64(1) } });
    Operation *loop = b.create("pd_op.while", { cond->result(0), kx }, { t1 }, {}, 1);
    Block &body = loop->region(0).addBlock();
    Value arg = body.addArgument(t1);
    Builder inner(*p);
    inner.setInsertionPointToEnd(body);
    Operation *add = inner.create("pd_op.add", { arg, kx }, { t1 });
    inner.create("cf.yield", { cond->result(0), add->result(0) }, {});
    Operation *ifOp = b.create("pd_op.if", { cond->result(0) }, { t1 },
        { { "stop_gradient", Attribute::array({ Attribute::boolean(false) }) } }, 2);
    inner.setInsertionPointToEnd(ifOp->region(0).addBlock());
    inner.create("cf.yield", { loop->result(0) }, {});
    inner.setInsertionPointToEnd(ifOp->region(1).addBlock());
    inner.create("cf.yield", { kx }, {});
    Operation *generic = b.create("t.region", {}, {}, {}, 1);
    Block &gb = generic->region(0).addBlock();
    Value ga = gb.addArgument(t1);
    Value gk = gb.addKwarg("k", t1);
    inner.setInsertionPointToEnd(gb);
    inner.create("t.use", { ga, gk }, { t1 });
    Operation *py = b.create(
        "pd_op.pylayer", { ifOp->result(0) }, { t1 }, { { "backward_function_id", Attribute::int32(2) } }, 1);
    inner.setInsertionPointToEnd(py->region(0).addBlock());
    inner.create("cf.tuple_push", { stack->result(1), ifOp->result(0) }, {});
    inner.create("cf.yield", { ifOp->result(0) }, {});
    return p;
}

const char *kControlFlowC = R"pir({
    ^kw:
        %kwarg_x {}
    (%stack_0, %inlet_0, %outlet_0) = "cf.stack_create" () {} : () -> cf.stack, cf.inlet, cf.outlet
    (%0) = "pd_op.full" () {value:1} : () -> tensor<1xb>
    (%1) = "pd_op.while" (cond=%0, inputs=%kwarg_x) { 
    ^%arg_0 {}
        (%2) = "pd_op.add" (%arg_0, %kwarg_x) {} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
        () = "cf.yield" (%0, %2) {} : (tensor<1xb>, tensor<1xf32>) -> 
    }
    (%3) = "pd_op.if" (%0) {stop_gradient:[false]} -> tensor<1xf32> {
        () = "cf.yield" (%1) {} : (tensor<1xf32>) -> 
    } else {
        () = "cf.yield" (%kwarg_x) {} : (tensor<1xf32>) -> 
    }
    () = "t.region" () {} : () -> 
    {
        ^%arg_1 {}
        ^kw:
            %kwarg_k {}
        (%4) = "t.use" (%arg_1, %kwarg_k) {} : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
    }

    (%5) = "pd_op.pylayer" (%3) {backward_function_id:2} -> tensor<1xf32> {
        () = "cf.tuple_push" (%inlet_0, %3) {} : (cf.inlet, tensor<1xf32>) -> 
        () = "cf.yield" (%3) {} : (tensor<1xf32>) -> 
    }
}
)pir";

} // namespace

/// PirPrinter and ValueNumbering: Paddle's exact bytes per generation, custom control-flow
/// forms, and print → read → print fixed points for every sample.
class TestPirPrinter : public QObject
{
    Q_OBJECT

private slots:
    void fixedPoint_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<Generation>("generation");
        const std::pair<const char *, Generation> gens[]
            = { { "A", Generation::A }, { "B", Generation::B }, { "C", Generation::C } };
        for (const auto &[tag, gen] : gens) {
            QTest::addRow("paddle while/if %s", tag) << QString::fromUtf8(kPaddleWhileIf) << gen;
            QTest::addRow("paddle pylayer %s", tag) << QString::fromUtf8(kPaddlePyLayer) << gen;
            QTest::addRow("paddle backward %s", tag) << QString::fromUtf8(kPaddleBackward) << gen;
            QTest::addRow("spellings %s", tag) << QString::fromUtf8(kSpellingsC) << gen;
            QTest::addRow("control flow %s", tag) << QString::fromUtf8(kControlFlowC) << gen;
            if (!samplesAvailable())
                continue;
            for (const QString &file : sampleTexts()) {
                const std::string text = readFile(QStringLiteral(PIRSCOPE_SAMPLES_DIR "/text/") + file);
                QTest::addRow("%s %s", qPrintable(file), tag) << QString::fromStdString(text) << gen;
                if (file == "genA_docs_if_while_example.txt") {
                    const std::string loop = text.substr(text.find("# --- while op"));
                    QTest::addRow("%s while part %s", qPrintable(file), tag)
                        << QString::fromStdString(loop) << gen;
                }
            }
        }
    }

    void fixedPoint()
    {
        QFETCH(QString, text);
        QFETCH(Generation, generation);
        LoadResult first = parse(text.toStdString());
        QVERIFY(first.program);
        const std::string once = print(*first.program, generation);
        LoadResult second = parse(once);
        QVERIFY2(!second.diagnostics.hasErrors(), second.diagnostics.toString().c_str());
        QCOMPARE(second.program->numOpsTotal(), first.program->numOpsTotal());
        const std::string twice = print(*second.program, generation);
        QCOMPARE(twice, once);
    }

    void reproducesPaddleBytes()
    {
        // Block-argument attributes are kept (issue 9): `^%arg_0 {stop_gradient:true}` prints back.
        LoadResult whileIf = parse(kPaddleWhileIf);
        QCOMPARE(print(*whileIf.program), std::string(kPaddleWhileIf));
        QCOMPARE(print(*parse(kPaddlePyLayer).program), std::string(kPaddlePyLayer));
        QCOMPARE(print(*parse(kPaddleBackward).program), std::string(kPaddleBackward));
    }

    void reproducesGenBSamples_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("fc") << "genB_docs_fc_program.txt";
        QTest::newRow("visualdl if") << "genB_visualdl_if_program.txt";
        QTest::newRow("tensor fusion") << "genB_test_fixture_tensor_fusion.txt";
    }

    void reproducesGenBSamples()
    {
        if (!samplesAvailable())
            QSKIP("../shared/samples is not available");
        QFETCH(QString, file);
        const std::string text = readFile(QStringLiteral(PIRSCOPE_SAMPLES_DIR "/text/") + file);
        LoadResult r = parse(text);
        QVERIFY(r.diagnostics.empty());
        QCOMPARE(print(*r.program, Generation::B), text);
    }

    void spellings()
    {
        auto program = buildSpellings();
        QCOMPARE(print(*program, Generation::C), std::string(kSpellingsC));
        QCOMPARE(print(*program, Generation::B), std::string(kSpellingsB));
        const std::string a = print(*program, Generation::A);
        QVERIFY(a.find("stop_gradient:(Array)[true]") != std::string::npos);
        QVERIFY(a.find("arr:(Array)[(Int32)1,(Array)[]]") != std::string::npos);
        QVERIFY(a.find(") -> pd_op.tensor<2x3xf32>\n") != std::string::npos);
        QVERIFY(a.find("(pd_op.IntArray)[2,3]") != std::string::npos);
        // Gen B reads back into the same attribute kinds.
        LoadResult back = parse(kSpellingsB);
        QVERIFY2(back.diagnostics.empty(), back.diagnostics.toString().c_str());
        const Operation *misc = back.program->block().op(4);
        QCOMPARE(*misc->attribute("idx"), Attribute::index(3));
        QCOMPARE(*misc->attribute("i64"), Attribute::int64(-1));
        QCOMPARE(*back.program->block().op(2)->attribute("bias"), Attribute::f32(0.9f));
        QCOMPARE(misc->result(0).type(), program->block().op(4)->result(0).type());
    }

    void controlFlow()
    {
        auto program = buildControlFlow();
        QCOMPARE(print(*program), std::string(kControlFlowC));
        LoadResult back = parse(kControlFlowC);
        QVERIFY2(back.diagnostics.empty(), back.diagnostics.toString().c_str());
        const Block &top = back.program->block();
        QCOMPARE(top.numKwargs(), size_t(1));
        QCOMPARE(top.kwarg("x").type(), tensor({ 1 }));
        QCOMPARE(top.op(2)->region(0).block(0).numArguments(), size_t(1));
        QCOMPARE(top.op(2)->result(0).type(), tensor({ 1 }));
        QCOMPARE(top.op(3)->numRegions(), 2u);
        const Block &gb = top.op(4)->region(0).block(0);
        QCOMPARE(gb.numArguments(), size_t(1));
        QCOMPARE(gb.numKwargs(), size_t(1));
        QCOMPARE(gb.op(0)->operand(1), gb.kwarg("k"));
        QCOMPARE(top.op(5)->region(0).block(0).op(0)->operand(0), top.op(0)->result(1));
        QCOMPARE(print(*back.program), std::string(kControlFlowC));
    }

    void customFormsNeedPaddleShapes()
    {
        // An if whose block has arguments, or a while without operands, prints generically.
        auto p = std::make_unique<Program>();
        Builder b(*p);
        b.setInsertionPointToEnd(p->block());
        Operation *ifOp = b.create("pd_op.if", {}, {}, {}, 1);
        ifOp->region(0).addBlock().addArgument(tensor({}));
        b.create("pd_op.while", {}, {}, {}, 1)->region(0).addBlock();
        const std::string text = print(*p);
        QCOMPARE(text,
            std::string("{\n    () = \"pd_op.if\" () {} : () -> \n    {\n        ^%arg_0 {}\n    }\n\n"
                        "    () = \"pd_op.while\" () {} : () -> \n    {\n    }\n\n}\n"));
        QCOMPARE(print(*parse(text).program), text);
    }

    void numbers_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("text");
        QTest::newRow("float 0.9") << double(0.9f) << "0.9";
        QTest::newRow("1e-05") << 1e-05 << "1e-05";
        QTest::newRow("1e-06") << 1e-06 << "1e-06";
        QTest::newRow("0.0001") << 0.0001 << "0.0001";
        QTest::newRow("123456789") << 123456789.0 << "1.23457e+08";
        QTest::newRow("100000") << 100000.0 << "100000";
        QTest::newRow("1e6") << 1e6 << "1e+06";
        QTest::newRow("-2.5") << -2.5 << "-2.5";
        QTest::newRow("3.14159265") << 3.14159265 << "3.14159";
        QTest::newRow("-0") << -0.0 << "-0";
        QTest::newRow("inf") << std::numeric_limits<double>::infinity() << "inf";
        QTest::newRow("-inf") << -std::numeric_limits<double>::infinity() << "-inf";
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN() << "nan";
    }

    void numbers()
    {
        QFETCH(double, value);
        QFETCH(QString, text);
        std::string out;
        PirTextFormat::appendNumber(out, value);
        QCOMPARE(QString::fromStdString(out), text);
        std::ostringstream os;
        os << value;
        QCOMPARE(out, os.str()); // exactly what Paddle's `os << value` writes
    }

    void quoting()
    {
        std::string out;
        PirTextFormat::appendQuoted(out, "a\"b\\c\nd");
        QCOMPARE(out, std::string("\"a\\\"b\\c\nd\""));
        QCOMPARE(PirTextFormat::attributeText(Attribute::string("x\"y"), Generation::C),
            std::string("\"x\\\"y\""));
    }

    void valueNumbering()
    {
        auto program = buildControlFlow();
        const ValueNumbering names(*program);
        const Block &top = program->block();
        QCOMPARE(names.name(top.kwarg("x")), std::string("%kwarg_x"));
        QCOMPARE(names.name(top.op(0)->result(0)), std::string("%stack_0"));
        QCOMPARE(names.name(top.op(0)->result(2)), std::string("%outlet_0"));
        QCOMPARE(names.name(top.op(1)->result(0)), std::string("%0"));
        QCOMPARE(names.name(top.op(2)->region(0).block(0).argument(0)), std::string("%arg_0"));
        QCOMPARE(names.name(top.op(4)->region(0).block(0).argument(0)), std::string("%arg_1"));
        QCOMPARE(names.name(top.op(5)->result(0)), std::string("%5"));
        QCOMPARE(names.name(Value()), std::string("<<NULL VALUE>>"));
        QCOMPARE(names.lookup("%2"), top.op(2)->region(0).block(0).op(0)->result(0));
        QCOMPARE(names.lookup("%kwarg_k"), top.op(4)->region(0).block(0).kwarg("k"));
        QVERIFY(names.lookup("%99").isNull());
        QCOMPARE(names.size(), size_t(13)); // 3 stack + 6 results + 2 args + 2 kwargs
        auto other = buildSpellings();
        QCOMPARE(names.name(other->block().op(0)->result(0)), std::string("%?"));
        // Names follow first appearance: a use before the definition takes the lower number.
        LoadResult fwd = parse("(%1) = \"a.c\" (%0) {} : (f32) -> f32\n(%0) = \"a.b\" () {} : () -> f32\n");
        const ValueNumbering fwdNames(*fwd.program);
        QCOMPARE(fwdNames.name(fwd.program->block().op(1)->result(0)), std::string("%1"));
        // An argument the printer never shows still gets a name.
        auto unused = std::make_unique<Program>();
        Builder b(*unused);
        b.setInsertionPointToEnd(unused->block());
        Operation *ifOp = b.create("pd_op.if", {}, {}, {}, 1);
        Value hidden = ifOp->region(0).addBlock().addArgument(tensor({}));
        QCOMPARE(ValueNumbering(*unused).name(hidden), std::string("%arg_0"));
    }

    void opText()
    {
        auto program = buildControlFlow();
        const ValueNumbering names(*program);
        const std::string line = PirPrinter::opText(*program->block().op(1), names);
        QCOMPARE(line, std::string("(%0) = \"pd_op.full\" () {value:1} : () -> tensor<1xb>"));
        const std::string ifText = PirPrinter::opText(*program->block().op(3), names, Generation::B, 4);
        QVERIFY(ifText.starts_with(
            "    (%3) = \"pd_op.if\" (%0) {stop_gradient:[false]} -> builtin.tensor<1xf32> {\n"));
        QVERIFY(ifText.ends_with("    }"));
    }

    void streamMatchesString()
    {
        // Larger than the 1 MiB flush chunk.
        auto p = std::make_unique<Program>();
        Builder b(*p);
        b.setInsertionPointToEnd(p->block());
        Value prev = b.create("pd_op.full", {}, { tensor({ 1 }) })->result(0);
        for (int i = 0; i < 12000; ++i)
            prev = b.create("pd_op.relu", { prev }, { tensor({ 1 }) },
                        { { "struct_name", Attribute::string("/Model/Stage/Block/ConvBNAct/Conv2D/") } })
                       ->result(0);
        std::ostringstream os;
        PirPrinter::print(*p, os, Generation::B);
        const std::string s = print(*p, Generation::B);
        QVERIFY(s.size() > (1u << 20));
        QCOMPARE(os.str(), s);
        QCOMPARE(parse(s).program->numOps(), size_t(12001));
    }

    void jsonSamples_data()
    {
        QTest::addColumn<QString>("file");
        const QDir dir(QStringLiteral(PIRSCOPE_SAMPLES_DIR "/json"));
        for (const QString &f : dir.entryList({ "*.json" }, QDir::Files, QDir::Name))
            QTest::newRow(qPrintable(f)) << dir.filePath(f);
    }

    void jsonSamples()
    {
        QFETCH(QString, file);
        LoadResult json = PirJsonReader::readFile(file.toStdString());
        QVERIFY(json.program);
        for (Generation gen : { Generation::C, Generation::B }) {
            const std::string text = print(*json.program, gen);
            LoadResult back = parse(text);
            QVERIFY2(back.diagnostics.empty(), back.diagnostics.toString().substr(0, 2000).c_str());
            QCOMPARE(back.program->numOps(), json.program->numOps());
            QCOMPARE(back.program->numOpsTotal(), json.program->numOpsTotal());
            QCOMPARE(back.program->numValues(), json.program->numValues());
            QCOMPARE(print(*back.program, gen), text);
        }
    }
};

QTEST_GUILESS_MAIN(TestPirPrinter)
#include "tst_pirprinter.moc"
