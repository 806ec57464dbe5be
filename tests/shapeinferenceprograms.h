#pragma once

// Small PIR text programs for tst_shapeinference, one per rule family: each declares dynamic
// (-1) dims that ShapeInference must fill from the inputs' shapes.

#include <algorithm>
#include <map>
#include <string>
#include <vector>

namespace shapeprograms {

/// Writes a program op by op: values are numbered in order, types remembered for the operand lists.
class Text
{
public:
    /// Adds `name` with `operands` (-1: a null operand) and `results` (type texts), returns the
    /// first result's id.
    int op(const std::string &name, const std::vector<int> &operands, const std::string &attrs,
        const std::vector<std::string> &results)
    {
        std::string line = "    (";
        const int first = int(m_types.size());
        for (size_t i = 0; i < results.size(); ++i) {
            line += (i ? ", %" : "%") + std::to_string(first + int(i));
            m_types.push_back(results[i]);
        }
        line += ") = \"" + name + "\" (";
        std::string in;
        for (size_t i = 0; i < operands.size(); ++i) {
            line += i ? ", " : "";
            in += i ? ", " : "";
            line += operands[i] < 0 ? "<<NULL VALUE>>" : "%" + std::to_string(operands[i]);
            in += operands[i] < 0 ? "<<NULL TYPE>>" : m_types[size_t(operands[i])];
        }
        line += ") {" + attrs + "} : (" + in + ") -> ";
        for (size_t i = 0; i < results.size(); ++i)
            line += (i ? ", " : "") + results[i];
        m_body += line + "\n";
        return first;
    }
    int data(const std::string &name, const std::string &dims, const std::string &dtype = "f32")
    {
        const std::string phi = dtype == "f32" ? "float32" : dtype == "i64" ? "int64" : "int32";
        std::string shape = dims;
        for (char &c : shape)
            if (c == 'x')
                c = ',';
        return op("pd_op.data", {},
            "dtype:" + phi + ",name:\"" + name + "\",place:Place(undefined:0),shape:[" + shape
                + "],stop_gradient:[true]",
            { "tensor<" + dims + "x" + dtype + ">" });
    }
    int intArray(const std::string &values)
    {
        const size_t n = values.empty() ? 0 : size_t(std::count(values.begin(), values.end(), ',')) + 1;
        return op("pd_op.full_int_array", {}, "dtype:int64,place:Place(cpu),value:[" + values + "]",
            { "tensor<" + std::to_string(n) + "xi64>" });
    }
    int scalar(const std::string &value, const std::string &dtype = "int32")
    {
        return op("pd_op.full", {}, "dtype:" + dtype + ",place:Place(cpu),shape:[1],value:" + value,
            { std::string("tensor<1x")
                + (dtype == "int32"        ? "i32"
                        : dtype == "int64" ? "i64"
                                           : "f32")
                + ">" });
    }
    void output(int value, const std::string &name)
    {
        m_body += "    () = \"builtin.shadow_output\" (%" + std::to_string(value) + ") {output_name:\"" + name
            + "\"} : (" + m_types[size_t(value)] + ") -> \n";
    }
    std::string str() const { return "{\n" + m_body + "}\n"; }

private:
    std::vector<std::string> m_types;
    std::string m_body;
};

struct Case
{
    const char *name;
    std::string program;
    const char *inputs; ///< "x=2x3;y=4"
    const char *expected; ///< "out=[2, 3];other=[4]"
};

const std::string kT4 = "tensor<-1x-1x-1x-1xf32>";
const std::string kT3 = "tensor<-1x-1x-1xf32>";
const std::string kT2 = "tensor<-1x-1xf32>";
const std::string kT1 = "tensor<-1xf32>";

inline std::vector<Case> cases()
{
    std::vector<Case> out;
    {
        Text t;
        const int x = t.data("x", "-1x3x-1x-1");
        const int y = t.data("y", "-1x1x-1");
        t.output(t.op("pd_op.relu", { x }, "", { kT4 }), "relu");
        t.output(t.op("pd_op.add", { x, y }, "", { kT4 }), "add");
        t.output(t.op("pd_op.multiply_", { y, y }, "", { kT3 }), "mul");
        out.push_back({ "unary and broadcasting", t.str(), "x=2x3x4x5;y=1x4x1",
            "relu=[2, 3, 4, 5];add=[2, 3, 4, 5];mul=[1, 4, 1]" });
    }
    {
        Text t;
        const int x = t.data("x", "-1x-1x-1");
        const int y = t.data("y", "-1x-1");
        const int v = t.data("v", "-1");
        t.output(t.op("pd_op.matmul", { x, y }, "transpose_x:false,transpose_y:false", { kT3 }), "mm");
        t.output(t.op("pd_op.matmul", { x, x }, "transpose_x:true,transpose_y:false", { kT3 }), "tt");
        t.output(t.op("pd_op.matmul", { v, y }, "transpose_x:false,transpose_y:true", { kT1 }), "vec");
        out.push_back({ "matmul", t.str(), "x=2x5x4;y=4x6;v=6", "mm=[2, 5, 6];tt=[2, 4, 4]" });
        out.push_back({ "matmul 1-d", t.str(), "x=2x4x5;y=3x6;v=6", "vec=[3]" });
    }
    {
        Text t;
        const int x = t.data("x", "-1x3x-1x-1");
        const int w = t.op("builtin.parameter", {}, "parameter_name:\"w\"", { "tensor<8x3x3x3xf32>" });
        const int dw = t.op("builtin.parameter", {}, "parameter_name:\"dw\"", { "tensor<3x1x3x3xf32>" });
        const int tw = t.op("builtin.parameter", {}, "parameter_name:\"tw\"", { "tensor<3x4x2x2xf32>" });
        t.output(t.op("pd_op.conv2d", { x, w },
                     "data_format:\"NCHW\",dilations:[1,1],groups:1,padding_algorithm:\"EXPLICIT\",paddings:["
                     "1,1],strides:[2,2]",
                     { kT4 }),
            "conv");
        t.output(t.op("pd_op.conv2d", { x, w },
                     "data_format:\"NCHW\",dilations:[2,2],groups:1,padding_algorithm:\"EXPLICIT\",paddings:["
                     "0,1,2,3],strides:[1,1]",
                     { kT4 }),
            "dilated");
        t.output(t.op("pd_op.conv2d", { x, w },
                     "data_format:\"NCHW\",dilations:[1,1],groups:1,padding_algorithm:\"SAME\",paddings:[0,0]"
                     ",strides:[2,2]",
                     { kT4 }),
            "same");
        t.output(t.op("pd_op.conv2d", { x, w },
                     "data_format:\"NCHW\",dilations:[1,1],groups:1,padding_algorithm:\"VALID\",paddings:[5,"
                     "5],strides:[1,1]",
                     { kT4 }),
            "valid");
        t.output(t.op("pd_op.depthwise_conv2d", { x, dw },
                     "data_format:\"NCHW\",dilations:[1,1],groups:3,padding_algorithm:\"EXPLICIT\",paddings:["
                     "1,1],strides:[1,1]",
                     { kT4 }),
            "depthwise");
        t.output(t.op("pd_op.conv2d_transpose", { x, tw, t.intArray("") },
                     "data_format:\"NCHW\",dilations:[1,1],groups:1,output_padding:[],padding_algorithm:"
                     "\"EXPLICIT\",paddings:[0,0],strides:[2,2]",
                     { kT4 }),
            "transposed");
        out.push_back({ "conv2d", t.str(), "x=1x3x17x10",
            "conv=[1, 8, 9, 5];dilated=[1, 8, 14, 11];same=[1, 8, 9, 5];valid=[1, 8, 15, 8];depthwise=[1, 3, "
            "17, 10];"
            "transposed=[1, 4, 34, 20]" });
    }
    {
        Text t;
        const int x = t.data("x", "-1x2x-1x-1x-1");
        const int w = t.op("builtin.parameter", {}, "parameter_name:\"w3\"", { "tensor<4x2x3x3x3xf32>" });
        const char *t5 = "tensor<-1x-1x-1x-1x-1xf32>";
        t.output(t.op("pd_op.conv3d", { x, w },
                     "data_format:\"NCDHW\",dilations:[1,1,1],groups:1,padding_algorithm:\"EXPLICIT\","
                     "paddings:[1,1,1],strides:[2,2,2]",
                     { t5 }),
            "c3");
        t.output(t.op("pd_op.conv3d", { x, w },
                     "data_format:\"NCDHW\",dilations:[1,1,1],groups:1,padding_algorithm:\"EXPLICIT\","
                     "paddings:[1,0,0,1,2,1],strides:[1,1,1]",
                     { t5 }),
            "c3p6");
        out.push_back({ "conv3d", t.str(), "x=1x2x5x6x7", "c3=[1, 4, 3, 3, 4];c3p6=[1, 4, 4, 5, 8]" });
    }
    {
        Text t;
        const int x = t.data("x", "-1x8x-1x-1");
        const std::string common = "data_format:\"NCHW\",exclusive:true,pooling_type:\"max\",";
        t.output(t.op("pd_op.pool2d", { x, t.intArray("3,3") },
                     common
                         + "adaptive:false,ceil_mode:false,global_pooling:false,padding_algorithm:"
                           "\"EXPLICIT\",paddings:[1,1],strides:[2,2]",
                     { kT4 }),
            "pool");
        t.output(t.op("pd_op.pool2d", { x, t.intArray("2,2") },
                     common
                         + "adaptive:false,ceil_mode:true,global_pooling:false,padding_algorithm:"
                           "\"EXPLICIT\",paddings:[0,0],strides:[2,2]",
                     { kT4 }),
            "ceil");
        t.output(t.op("pd_op.pool2d", { x, t.intArray("1,1") },
                     common
                         + "adaptive:false,ceil_mode:false,global_pooling:true,padding_algorithm:"
                           "\"EXPLICIT\",paddings:[0,0],strides:[1,1]",
                     { kT4 }),
            "global");
        t.output(t.op("pd_op.pool2d", { x, t.intArray("3,4") },
                     common
                         + "adaptive:true,ceil_mode:false,global_pooling:false,padding_algorithm:"
                           "\"EXPLICIT\",paddings:[0,0],strides:[1,1]",
                     { kT4 }),
            "adaptive");
        out.push_back({ "pool2d", t.str(), "x=2x8x15x9",
            "pool=[2, 8, 8, 5];ceil=[2, 8, 8, 5];global=[2, 8, 1, 1];adaptive=[2, 8, 3, 4]" });
    }
    {
        Text t;
        const int x = t.data("x", "-1x4x-1x-1");
        const int c4 = t.op("builtin.parameter", {}, "parameter_name:\"m\"", { "tensor<4xf32>" });
        const int bn = t.op("pd_op.batch_norm_", { x, c4, c4, c4, c4 },
            "data_format:\"NCHW\",epsilon:1e-05,is_test:true,momentum:0.9,trainable_statistics:false,use_"
            "global_stats:true",
            { kT4, kT1, kT1, kT1, kT1, "tensor<-1xu8>" });
        t.output(bn, "bn");
        t.output(bn + 3, "saved_mean");
        const int ln
            = t.op("pd_op.layer_norm", { x, -1, -1 }, "begin_norm_axis:2,epsilon:1e-05", { kT4, kT1, kT1 });
        t.output(ln, "ln");
        t.output(ln + 1, "ln_mean");
        t.output(t.op("pd_op.softmax", { x }, "axis:-1", { kT4 }), "softmax");
        out.push_back({ "norms", t.str(), "x=2x4x5x6",
            "bn=[2, 4, 5, 6];saved_mean=[4];ln=[2, 4, 5, 6];ln_mean=[8];softmax=[2, 4, 5, 6]" });
    }
    {
        // reshape to a shape computed from shape64 + slice + stack, as to_static writes x.reshape([b, -1]).
        Text t;
        const int x = t.data("x", "-1x3x-1");
        const int shape = t.op("pd_op.shape64", { x }, "", { "tensor<3xi64>" });
        const int b = t.op("pd_op.slice", { shape, t.intArray("0"), t.intArray("1") },
            "axes:[0],decrease_axis:[0],infer_flags:[1]", { "tensor<i64>" });
        const int minus
            = t.op("pd_op.full", {}, "dtype:int64,place:Place(cpu),shape:[],value:-1", { "tensor<i64>" });
        const int list = t.op("builtin.combine", { b, minus }, "", { "vec[tensor<i64>,tensor<i64>]" });
        const int stacked = t.op("pd_op.stack", { list }, "axis:0", { "tensor<2xi64>" });
        t.output(t.op("pd_op.reshape", { x, stacked }, "", { kT2 }), "flat");
        t.output(t.op("pd_op.reshape", { x, list }, "", { kT2 }), "flat_list");
        t.output(t.op("pd_op.reshape", { x, t.intArray("0,-1,2") }, "", { kT3 }), "zero");
        const int s2 = t.op("pd_op.scale", { shape, t.scalar("2", "float32") },
            "bias:1,bias_after_scale:true", { "tensor<3xi64>" });
        const int s2f = t.op("pd_op.cast", { s2 }, "dtype:float32", { "tensor<3xf32>" });
        const int half = t.op("pd_op.divide", { s2f, t.scalar("2", "float32") }, "", { "tensor<3xf32>" });
        const int halfi = t.op("pd_op.cast", { half }, "dtype:int64", { "tensor<3xi64>" });
        t.output(t.op("pd_op.reshape", { x, halfi }, "", { kT3 }), "computed");
        out.push_back({ "reshape with computed shapes", t.str(), "x=4x3x2",
            "flat=[4, 6];flat_list=[4, 6];zero=[4, 3, 2];computed=[4, 3, 2]" });
    }
    {
        Text t;
        const int x = t.data("x", "-1x-1x-1");
        const int y = t.data("y", "-1x-1x-1");
        t.output(t.op("pd_op.transpose", { x }, "perm:[2,0,1]", { kT3 }), "transpose");
        const int xy = t.op("builtin.combine", { x, y }, "", { "vec[" + kT3 + "," + kT3 + "]" });
        t.output(t.op("pd_op.concat", { xy, t.scalar("-2") }, "", { kT3 }), "concat");
        const int xx = t.op("builtin.combine", { x, x }, "", { "vec[" + kT3 + "," + kT3 + "]" });
        t.output(t.op("pd_op.stack", { xx }, "axis:1", { kT4 }), "stack");
        const int parts = t.op(
            "pd_op.split", { x, t.intArray("1,-1"), t.scalar("1") }, "", { "vec[" + kT3 + "," + kT3 + "]" });
        const int pieces = t.op("builtin.split", { parts }, "", { kT3, kT3 });
        t.output(pieces + 1, "split1");
        const int even
            = t.op("pd_op.split_with_num", { x, t.scalar("0") }, "num:2", { "vec[" + kT3 + "," + kT3 + "]" });
        t.output(t.op("builtin.split", { even }, "", { kT3, kT3 }), "num0");
        t.output(t.op("pd_op.slice", { x, t.intArray("1,-3"), t.intArray("100,-1") },
                     "axes:[0,2],decrease_axis:[],infer_flags:[1,1]", { kT3 }),
            "slice");
        t.output(t.op("pd_op.strided_slice", { x, t.intArray("0"), t.intArray("5"), t.intArray("2") },
                     "axes:[1]", { kT3 }),
            "strided");
        out.push_back({ "layout ops", t.str(), "x=2x3x4;y=2x5x4",
            "transpose=[4, 2, 3];concat=[2, 8, 4];stack=[2, 2, 3, 4];split1=[2, 2, 4];num0=[1, 3, "
            "4];slice=[1, 3, 2];strided=[2, 2, 4]" });
    }
    {
        Text t;
        const int x = t.data("x", "-1x1x-1x1");
        t.output(t.op("pd_op.squeeze", { x, t.intArray("1,-1") }, "", { kT2 }), "squeeze");
        t.output(t.op("pd_op.squeeze", { x, t.intArray("") }, "", { kT2 }), "squeeze_all");
        t.output(t.op("pd_op.unsqueeze", { x, t.intArray("0,-1") }, "", { "tensor<-1x-1x-1x-1x-1x-1xf32>" }),
            "unsqueeze");
        t.output(t.op("pd_op.flatten", { x }, "start_axis:1,stop_axis:-1", { kT2 }), "flatten");
        t.output(t.op("pd_op.sum", { x, t.intArray("2") }, "dtype:float32,keepdim:false", { kT3 }), "sum");
        t.output(t.op("pd_op.mean", { x, t.intArray("0,2") }, "keepdim:true", { kT4 }), "mean");
        t.output(t.op("pd_op.max", { x, t.intArray("") }, "keepdim:false", { "tensor<f32>" }), "max_all");
        t.output(t.op("pd_op.argmax", { x, t.scalar("2", "int64") },
                     "dtype:int64,flatten:false,keepdims:false", { "tensor<-1x-1x-1xi64>" }),
            "argmax");
        out.push_back({ "squeeze, flatten, reductions", t.str(), "x=2x1x5x1",
            "squeeze=[2, 5];squeeze_all=[2, 5];unsqueeze=[1, 2, 1, 5, 1, 1];flatten=[2, 5];sum=[2, 1, "
            "1];mean=[1, 1, 1, 1];"
            "max_all=[];argmax=[2, 1, 1]" });
    }
    {
        Text t;
        const int ids = t.data("ids", "-1x-1", "i64");
        const int x = t.data("x", "-1x-1");
        const int table = t.op("builtin.parameter", {}, "parameter_name:\"emb\"", { "tensor<100x16xf32>" });
        t.output(
            t.op("pd_op.embedding", { ids, table }, "padding_idx:-1,sparse:false", { kT3 }), "embedding");
        const int index = t.data("index", "-1", "i64");
        t.output(t.op("pd_op.gather", { x, index, t.scalar("1") }, "", { kT2 }), "gather");
        t.output(t.op("pd_op.expand", { x, t.intArray("3,-1,-1") }, "", { kT3 }), "expand");
        t.output(t.op("pd_op.tile", { x, t.intArray("2,1,3") }, "", { kT3 }), "tile");
        t.output(
            t.op("pd_op.full_like", { x, t.scalar("0", "float32") }, "dtype:float32", { kT2 }), "full_like");
        t.output(t.op("pd_op.cast", { x }, "dtype:float16", { "tensor<-1x-1xf16>" }), "cast");
        const int drop = t.op("pd_op.dropout", { x, -1, t.scalar("0.5", "float32") },
            "fix_seed:false,is_test:false,mode:\"upscale_in_train\",seed:0", { kT2, "tensor<-1x-1xu8>" });
        t.output(drop + 1, "mask");
        t.output(t.op("pd_op.pad", { x, t.scalar("0", "float32") }, "paddings:[1,2,0,3]", { kT2 }), "pad");
        t.output(t.op("pd_op.full", {}, "dtype:float32,place:Place(cpu),shape:[2,3],value:1",
                     { "tensor<2x3xf32>" }),
            "full");
        out.push_back({ "embedding, gather, expand, tile", t.str(), "ids=4x7;x=5x6;index=9",
            "embedding=[4, 7, 16];gather=[5, 9];expand=[3, 5, 6];tile=[2, 5, 18];full_like=[5, 6];cast=[5, "
            "6];mask=[5, 6];"
            "pad=[8, 9];full=[2, 3]" });
    }
    {
        Text t;
        const int x = t.data("x", "-1x2x-1x-1");
        t.output(t.op("pd_op.nearest_interp", { x, -1, -1, -1 },
                     "align_corners:false,align_mode:0,data_format:\"NCHW\",interp_method:\"nearest\",out_d:-"
                     "1,out_h:-1,out_w:-1,scale:[2,3]",
                     { kT4 }),
            "scaled");
        t.output(t.op("pd_op.bilinear_interp", { x, t.intArray("7,9"), -1, -1 },
                     "align_corners:false,align_mode:0,data_format:\"NCHW\",interp_method:\"bilinear\",out_d:"
                     "-1,out_h:-1,out_w:-1,scale:[]",
                     { kT4 }),
            "sized");
        t.output(t.op("pd_op.bilinear_interp", { x, -1, -1, -1 },
                     "align_corners:false,align_mode:0,data_format:\"NCHW\",interp_method:\"bilinear\",out_d:"
                     "-1,out_h:11,out_w:12,scale:[]",
                     { kT4 }),
            "attrs");
        out.push_back({ "interpolate", t.str(), "x=1x2x5x4",
            "scaled=[1, 2, 10, 12];sized=[1, 2, 7, 9];attrs=[1, 2, 11, 12]" });
    }
    {
        // Grad ops: each x_grad has its forward input's shape.
        Text t;
        const int x = t.data("x", "-1x-1");
        const int w = t.data("w", "-1x-1");
        const int mm = t.op("pd_op.matmul", { x, w }, "transpose_x:false,transpose_y:false", { kT2 });
        const int g = t.op("pd_op.full_like", { mm, t.scalar("1", "float32") }, "dtype:float32", { kT2 });
        const int mg
            = t.op("pd_op.matmul_grad", { x, w, g }, "transpose_x:false,transpose_y:false", { kT2, kT2 });
        t.output(mg, "x_grad");
        t.output(mg + 1, "w_grad");
        const int r = t.op("pd_op.relu", { mm }, "", { kT2 });
        t.output(t.op("pd_op.relu_grad", { r, g }, "", { kT2 }), "relu_grad");
        const int tr = t.op("pd_op.transpose", { mm }, "perm:[1,0]", { kT2 });
        t.output(t.op("pd_op.transpose_grad", { tr }, "perm:[1,0]", { kT2 }), "transpose_grad");
        out.push_back({ "grad ops", t.str(), "x=3x4;w=4x5",
            "x_grad=[3, 4];w_grad=[4, 5];relu_grad=[3, 5];transpose_grad=[3, 5]" });
    }
    return out;
}

/// x (no shape given) → relu; nonzero (data-dependent) → relu; an op without a rule; a static one.
const std::string kUnknowns = [] {
    Text t;
    const int x = t.data("x", "-1x-1");
    t.output(t.op("pd_op.relu", { x }, "", { kT2 }), "relu");
    const int nz = t.op("pd_op.nonzero", { x }, "", { "tensor<-1x2xi64>" });
    t.output(nz, "nz");
    t.output(t.op("pd_op.relu", { nz }, "", { "tensor<-1x2xi64>" }), "after");
    t.output(t.op("pd_op.some_new_op", { x }, "", { kT2 }), "norule");
    t.output(t.op("pd_op.some_new_op", { x }, "", { "tensor<4xf32>" }), "static");
    return t.str();
}();

/// A train-able forward: x (dynamic) → matmul → tanh → matmul; the tanh is the middle the
/// backward keeps.
const std::string kTwoLayers = [] {
    Text t;
    const int x = t.data("x", "-1x-1");
    const int w = t.op("builtin.parameter", {},
        "parameter_name:\"w\",persistable:[true],stop_gradient:[false]", { "tensor<8x4xf32>" });
    const int v = t.op("builtin.parameter", {},
        "parameter_name:\"v\",persistable:[true],stop_gradient:[false]", { "tensor<4x3xf32>" });
    const int h = t.op("pd_op.matmul", { x, w }, "transpose_x:false,transpose_y:false,stop_gradient:[false]",
        { "tensor<-1x4xf32>" });
    const int a = t.op("pd_op.tanh", { h }, "stop_gradient:[false]", { "tensor<-1x4xf32>" });
    t.output(t.op("pd_op.matmul", { a, v }, "transpose_x:false,transpose_y:false,stop_gradient:[false]",
                 { "tensor<-1x3xf32>" }),
        "out");
    return t.str();
}();

} // namespace shapeprograms
