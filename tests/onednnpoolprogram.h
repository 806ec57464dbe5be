#pragma once

// tst_onednnlayoutpool's program: conv2d -> transpose to NHWC -> max pool2d in NHWC -> transpose
// back -> conv2d -> adaptive avg pool2d -> flatten, the shape transfer_layout_pass leaves around
// ResNet's max pool. On the oneDNN device the first convolution's output stays blocked, both
// transposes relabel it (no bytes move), the max pool runs on it as it is, and the second
// convolution reads the pool's blocked output, which the average pool reads as it is.

namespace onednnpool {

inline const char *const kPoolProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[1,16,12,12],stop_gradient:[true]} : () -> tensor<1x16x12x12xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w1"} : () -> tensor<32x16x3x3xf32>
    (%2) = "builtin.parameter" () {parameter_name:"w2"} : () -> tensor<32x32x3x3xf32>
    (%3) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],strides:[1,1]} : (tensor<1x16x12x12xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x12x12xf32>
    (%4) = "pd_op.transpose" (%3) {perm:[0,2,3,1]} : (tensor<1x32x12x12xf32>) -> tensor<1x12x12x32xf32>
    (%5) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),value:[3,3]} : () -> tensor<2xi64>
    (%6) = "pd_op.pool2d" (%4, %5) {adaptive:false,ceil_mode:false,data_format:"NHWC",exclusive:true,global_pooling:false,padding_algorithm:"EXPLICIT",paddings:[1,1],pooling_type:"max",strides:[2,2]} : (tensor<1x12x12x32xf32>, tensor<2xi64>) -> tensor<1x6x6x32xf32>
    (%7) = "pd_op.transpose" (%6) {perm:[0,3,1,2]} : (tensor<1x6x6x32xf32>) -> tensor<1x32x6x6xf32>
    (%8) = "pd_op.conv2d" (%7, %2) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],strides:[1,1]} : (tensor<1x32x6x6xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x6x6xf32>
    (%9) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),value:[1,1]} : () -> tensor<2xi64>
    (%10) = "pd_op.pool2d" (%8, %9) {adaptive:true,ceil_mode:false,data_format:"NCHW",exclusive:true,global_pooling:false,padding_algorithm:"EXPLICIT",paddings:[0,0],pooling_type:"avg",strides:[1,1]} : (tensor<1x32x6x6xf32>, tensor<2xi64>) -> tensor<1x32x1x1xf32>
    (%11) = "pd_op.flatten" (%10) {start_axis:1,stop_axis:3} : (tensor<1x32x1x1xf32>) -> tensor<1x32xf32>
    () = "builtin.shadow_output" (%11) {output_name:"out"} : (tensor<1x32xf32>) -> 
}
)";

// A relabelled transpose shares its input's buffer: relu_ on it must not write into the
// convolution's output, which the add reads afterwards (relu(c) + c, not 2 relu(c)).
inline const char *const kAliasProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[1,16,12,12],stop_gradient:[true]} : () -> tensor<1x16x12x12xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w1"} : () -> tensor<32x16x3x3xf32>
    (%2) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],strides:[1,1]} : (tensor<1x16x12x12xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x12x12xf32>
    (%3) = "pd_op.transpose" (%2) {perm:[0,2,3,1]} : (tensor<1x32x12x12xf32>) -> tensor<1x12x12x32xf32>
    (%4) = "pd_op.relu_" (%3) {} : (tensor<1x12x12x32xf32>) -> tensor<1x12x12x32xf32>
    (%5) = "pd_op.transpose" (%4) {perm:[0,3,1,2]} : (tensor<1x12x12x32xf32>) -> tensor<1x32x12x12xf32>
    (%6) = "pd_op.add" (%5, %2) {} : (tensor<1x32x12x12xf32>, tensor<1x32x12x12xf32>) -> tensor<1x32x12x12xf32>
    () = "builtin.shadow_output" (%6) {output_name:"out"} : (tensor<1x32x12x12xf32>) -> 
}
)";

} // namespace onednnpool
