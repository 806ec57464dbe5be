#pragma once

// tst_onednnlayoutnorm's program: conv2d -> batch_norm_ -> relu -> conv2d -> add (relu's output
// as the residual) -> relu_ -> flatten, ResNet's unfused blocks as saved. On the oneDNN device
// the first convolution's output stays blocked through batch_norm_, relu, the second convolution
// and the add; relu_ writes its blocked input NCHW for flatten (a plain kernel).

namespace onednnnorm {

inline const char *const kNormProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[1,16,12,12],stop_gradient:[true]} : () -> tensor<1x16x12x12xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w1"} : () -> tensor<32x16x3x3xf32>
    (%2) = "builtin.parameter" () {parameter_name:"w2"} : () -> tensor<32x32x3x3xf32>
    (%3) = "builtin.parameter" () {parameter_name:"mean"} : () -> tensor<32xf32>
    (%4) = "builtin.parameter" () {parameter_name:"variance"} : () -> tensor<32xf32>
    (%5) = "builtin.parameter" () {parameter_name:"scale"} : () -> tensor<32xf32>
    (%6) = "builtin.parameter" () {parameter_name:"bias"} : () -> tensor<32xf32>
    (%7) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],strides:[1,1]} : (tensor<1x16x12x12xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x12x12xf32>
    (%8, %9, %10, %11, %12, %13) = "pd_op.batch_norm_" (%7, %3, %4, %5, %6) {data_format:"NCHW",epsilon:1e-05,is_test:true,momentum:0.9,trainable_statistics:false,use_global_stats:true} : (tensor<1x32x12x12xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>) -> tensor<1x32x12x12xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<32xf32>, tensor<-1xu8>
    (%14) = "pd_op.relu" (%8) {} : (tensor<1x32x12x12xf32>) -> tensor<1x32x12x12xf32>
    (%15) = "pd_op.conv2d" (%14, %2) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],strides:[1,1]} : (tensor<1x32x12x12xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x12x12xf32>
    (%16) = "pd_op.add" (%15, %14) {} : (tensor<1x32x12x12xf32>, tensor<1x32x12x12xf32>) -> tensor<1x32x12x12xf32>
    (%17) = "pd_op.relu_" (%16) {} : (tensor<1x32x12x12xf32>) -> tensor<1x32x12x12xf32>
    (%18) = "pd_op.flatten" (%17) {start_axis:1,stop_axis:3} : (tensor<1x32x12x12xf32>) -> tensor<1x4608xf32>
    () = "builtin.shadow_output" (%18) {output_name:"out"} : (tensor<1x4608xf32>) -> 
}
)";

// A convolution's output read by two ops that accept the blocked layout but cannot use it here
// (a broadcast operand): kept blocked, made plain once, by the first of them.
inline const char *const kTwoReadersProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[1,16,12,12],stop_gradient:[true]} : () -> tensor<1x16x12x12xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w1"} : () -> tensor<32x16x3x3xf32>
    (%2) = "builtin.parameter" () {parameter_name:"scale"} : () -> tensor<32xf32>
    (%3) = "builtin.parameter" () {parameter_name:"bias"} : () -> tensor<32xf32>
    (%4) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],strides:[1,1]} : (tensor<1x16x12x12xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x12x12xf32>
    (%5) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),value:[32,1,1]} : () -> tensor<3xi64>
    (%6) = "pd_op.reshape" (%2, %5) {} : (tensor<32xf32>, tensor<3xi64>) -> tensor<32x1x1xf32>
    (%7) = "pd_op.reshape" (%3, %5) {} : (tensor<32xf32>, tensor<3xi64>) -> tensor<32x1x1xf32>
    (%8) = "pd_op.multiply" (%4, %6) {} : (tensor<1x32x12x12xf32>, tensor<32x1x1xf32>) -> tensor<1x32x12x12xf32>
    (%9) = "pd_op.add" (%4, %7) {} : (tensor<1x32x12x12xf32>, tensor<32x1x1xf32>) -> tensor<1x32x12x12xf32>
    (%10) = "pd_op.subtract" (%8, %9) {} : (tensor<1x32x12x12xf32>, tensor<1x32x12x12xf32>) -> tensor<1x32x12x12xf32>
    () = "builtin.shadow_output" (%10) {output_name:"out"} : (tensor<1x32x12x12xf32>) -> 
}
)";

} // namespace onednnnorm
