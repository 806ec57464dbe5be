#pragma once

// The interpreter tests' programs and helpers (tst_interpreter, tst_interpreterlimits): hand-written
// PIR text, a fixture of one program over a scope with x = float32[2, 3], and an event counter.

#include "core/io/memorybudget.h"
#include "core/io/pirtextreader.h"
#include "core/ir/block.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/runtime/allocator.h"
#include "core/runtime/interpreter.h"
#include "core/runtime/tensorstack.h"
#include "interpretertestbackend.h"

#include <QtTest>
#include <atomic>
#include <cmath>
#include <memory>
#include <thread>

using namespace ps;

namespace {

// 0 data, 1 full, 2 scale (x * -1), 3 log, 4 add, 5 shadow_output "out".
const char *const kLogProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:-1} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
    (%3) = "pd_op.log" (%2) {} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    (%4) = "pd_op.add" (%3, %0) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    () = "builtin.shadow_output" (%4) {output_name:"out"} : (tensor<2x3xf32>) -> 
}
)";

// 0 data, 1 mean, 2 full, 3 greater_than, 4 if (x*2 | x*-1), 5 full 0, 6 full 3, 7 less_than,
// 8 while (3 iterations: v*2, i+1), 9 shadow_output "y", 10 shadow_output "i".
const char *const kControlFlowProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "pd_op.mean" (%0) {} : (tensor<2x3xf32>) -> tensor<f32>
    (%2) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[],value:0} : () -> tensor<f32>
    (%3) = "pd_op.greater_than" (%1, %2) {} : (tensor<f32>, tensor<f32>) -> tensor<b>
    (%4) = "pd_op.if" (%3) {} -> tensor<2x3xf32> {
        (%5) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:2} : () -> tensor<1xf32>
        (%6) = "pd_op.scale" (%0, %5) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%6) {} : (tensor<2x3xf32>) -> 
    } else {
        (%7) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:-1} : () -> tensor<1xf32>
        (%8) = "pd_op.scale" (%0, %7) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        () = "cf.yield" (%8) {} : (tensor<2x3xf32>) -> 
    }
    (%9) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],value:0} : () -> tensor<1xi64>
    (%10) = "pd_op.full" () {dtype:int64,place:Place(cpu),shape:[1],value:3} : () -> tensor<1xi64>
    (%11) = "pd_op.less_than" (%9, %10) {} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
    (%12, %13) = "pd_op.while" (cond=%11, inputs=%4, %9) { 
    ^%arg_0 {stop_gradient:false}, %arg_1 {stop_gradient:true}
        (%14) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:2} : () -> tensor<1xf32>
        (%15) = "pd_op.scale" (%arg_0, %14) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, tensor<1xf32>) -> tensor<2x3xf32>
        (%16) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],value:1} : () -> tensor<1xf32>
        (%17) = "pd_op.scale" (%arg_1, %16) {bias:1,bias_after_scale:true} : (tensor<1xi64>, tensor<1xf32>) -> tensor<1xi64>
        (%18) = "pd_op.less_than" (%17, %10) {} : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xb>
        () = "cf.yield" (%18, %15, %17) {} : (tensor<1xb>, tensor<2x3xf32>, tensor<1xi64>) -> 
    }
    () = "builtin.shadow_output" (%12) {output_name:"y"} : (tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%13) {output_name:"i"} : (tensor<1xi64>) -> 
}
)";

// Forward/backward pair communicating through the scope, with stacks as in a while grad.
const char *const kForward = R"({
    (%stack_0, %inlet_0, %outlet_0) = "cf.stack_create" () {} : () -> cf.stack, cf.inlet, cf.outlet
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,3],stop_gradient:[false]} : () -> tensor<2x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false],trainable:[true]} : () -> tensor<2x3xf32>
    (%2) = "pd_op.multiply" (%0, %1) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "builtin.combine" (%0, %2) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> vec[tensor<2x3xf32>,tensor<2x3xf32>]
    (%4, %5) = "builtin.split" (%3) {} : (vec[tensor<2x3xf32>,tensor<2x3xf32>]) -> tensor<2x3xf32>, tensor<2x3xf32>
    () = "cf.tuple_push" (%inlet_0, %5) {} : (cf.inlet, tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%outlet_0) {output_name:"middle_0"} : (cf.outlet) -> 
    () = "builtin.shadow_output" (%stack_0) {output_name:"middle_1"} : (cf.stack) -> 
    () = "builtin.shadow_output" (%5) {output_name:"output_0"} : (tensor<2x3xf32>) -> 
}
)";

const char *const kBackward = R"({
    ^kw:
        %kwarg_output_grad_0 {}
        %kwarg_middle_0 {}
        %kwarg_middle_1 {}
        %kwarg_w {}
    (%0) = "cf.has_elements" (%kwarg_middle_1) {} : (cf.stack) -> tensor<1xb>
    (%1) = "cf.tuple_pop" (%kwarg_middle_0) {} : (cf.outlet) -> tensor<2x3xf32>
    (%2) = "pd_op.multiply" (%kwarg_output_grad_0, %kwarg_w) {} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    (%3) = "cf.has_elements" (%kwarg_middle_1) {} : (cf.stack) -> tensor<1xb>
    () = "builtin.shadow_output" (%2) {output_name:"input_grad_0"} : (tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%1) {output_name:"popped"} : (tensor<2x3xf32>) -> 
    () = "builtin.shadow_output" (%0) {output_name:"had"} : (tensor<1xb>) -> 
    () = "builtin.shadow_output" (%3) {output_name:"has"} : (tensor<1xb>) -> 
}
)";

std::shared_ptr<const Program> parse(const char *text)
{
    LoadResult r = PirTextReader::readString(text, "test");
    if (!r.ok())
        qWarning() << r.diagnostics.items().front().toString().c_str();
    return r.ok() ? std::shared_ptr<const Program>(std::move(r.program)) : nullptr;
}

Tensor filled(std::vector<int64_t> shape, double value)
{
    std::vector<double> v(size_t(numElementsOf(shape)), value);
    return Tensor::fromDoubles(shape, DataType::Float32, v);
}

ProgramPosition at(const char *text)
{
    return ProgramPosition::parse(text).value();
}

double firstOf(const RuntimeValue *v)
{
    return v && v->isTensor() ? v->tensor().valueAsDouble(0) : std::nan("");
}

/// `{ lines }` with x (float32[2, 3]) as %0; each line one op of the program's text.
std::string programOf(std::initializer_list<const char *> lines)
{
    std::string text
        = "{\n    (%0) = \"pd_op.data\" () {dtype:float32,name:\"x\",place:Place(cpu),shape:[2,3],"
          "stop_gradient:[false]} : () -> tensor<2x3xf32>\n";
    for (const char *line : lines)
        text += std::string("    ") + line + "\n";
    return text + "}\n";
}

/// An op line `(%N) = "pd_op.full" ...` making `dtype[shape]` and declaring `type`.
std::string full(int id, const char *dtype, const char *shape, const char *type, double value = 1)
{
    return "(%" + std::to_string(id) + ") = \"pd_op.full\" () {dtype:" + dtype + ",place:Place(cpu),shape:["
        + shape + "],value:" + std::to_string(value) + "} : () -> " + type;
}

/// x through relu while a condition that stays true: a loop that never ends.
std::string endlessLoop()
{
    return programOf({
        "(%1) = \"pd_op.full\" () {dtype:bool,place:Place(cpu),shape:[1],value:1} : () -> tensor<1xb>",
        "(%2) = \"pd_op.while\" (cond=%1, inputs=%0) {",
        "^%arg_0 {stop_gradient:false}",
        "    (%3) = \"pd_op.scale\" (%arg_0, %1) {bias:0,bias_after_scale:true} : (tensor<2x3xf32>, "
        "tensor<1xb>) -> tensor<2x3xf32>",
        "    (%4) = \"pd_op.full\" () {dtype:bool,place:Place(cpu),shape:[1],value:1} : () -> tensor<1xb>",
        "    () = \"cf.yield\" (%4, %3) {} : (tensor<1xb>, tensor<2x3xf32>) -> ",
        "}",
        "() = \"builtin.shadow_output\" (%2) {output_name:\"out\"} : (tensor<2x3xf32>) -> ",
    });
}

/// Counts events.
class Recorder : public InterpreterObserver
{
public:
    void opExecuted(const OpRecord &) override { ++ops; }
    void segmentFinished(size_t) override { ++segments; }
    void errorRaised(const OpError &) override { ++errors; }
    void stopped(const StopInfo &info) override { reasons.push_back(info.reason); }
    std::atomic<int> ops { 0 };
    int segments = 0;
    int errors = 0;
    std::vector<StopReason> reasons;
};

struct InterpreterFixture
{
    std::shared_ptr<const Program> program;
    Scope scope;
    std::unique_ptr<Interpreter> interpreter;
};

/// `text` as one segment over a scope holding x = float32[2, 3] filled with `x`; null when it
/// does not parse.
std::unique_ptr<InterpreterFixture> makeFixture(
    Backend &backend, const char *text, double x = 1.0, Interpreter::Options options = {})
{
    auto f = std::make_unique<InterpreterFixture>();
    f->program = parse(text);
    if (!f->program)
        return nullptr;
    f->scope.set("x", RuntimeValue(filled({ 2, 3 }, x)));
    f->interpreter = std::make_unique<Interpreter>(
        std::vector<Interpreter::Segment> { { "program", f->program, {}, {} } }, backend, f->scope, options);
    return f;
}

} // namespace
