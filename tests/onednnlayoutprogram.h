#pragma once

// tst_onednnlayout's program: conv2d -> conv2d -> fused_conv2d (the first conv's output as its
// residual) -> pool2d -> flatten. The two conv2d outputs are read by convolutions only (as input
// and residual), so on the oneDNN device they stay in oneDNN's blocked layout; the fused
// convolution's is read by pool2d, so it is written NCHW; flatten is a plain kernel.

namespace onednnlayout {

inline const char *const kChainProgram = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[1,16,12,12],stop_gradient:[true]} : () -> tensor<1x16x12x12xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w1"} : () -> tensor<32x16x3x3xf32>
    (%2) = "builtin.parameter" () {parameter_name:"w2"} : () -> tensor<32x32x3x3xf32>
    (%3) = "builtin.parameter" () {parameter_name:"w3"} : () -> tensor<32x32x3x3xf32>
    (%4) = "builtin.parameter" () {parameter_name:"b3"} : () -> tensor<32xf32>
    (%5) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],strides:[1,1]} : (tensor<1x16x12x12xf32>, tensor<32x16x3x3xf32>) -> tensor<1x32x12x12xf32>
    (%6) = "pd_op.conv2d" (%5, %2) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],strides:[1,1]} : (tensor<1x32x12x12xf32>, tensor<32x32x3x3xf32>) -> tensor<1x32x12x12xf32>
    (%7) = "onednn_op.fused_conv2d" (%6, %3, %4, %5) {data_format:"NCHW",dilations:[1,1],fuse_activation:"relu",fuse_alpha:0,fuse_beta:0,fuse_residual_connection:true,groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],strides:[1,1]} : (tensor<1x32x12x12xf32>, tensor<32x32x3x3xf32>, tensor<32xf32>, tensor<1x32x12x12xf32>) -> tensor<1x32x12x12xf32>
    (%8) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),value:[2,2]} : () -> tensor<2xi64>
    (%9) = "pd_op.pool2d" (%7, %8) {adaptive:false,ceil_mode:false,data_format:"NCHW",exclusive:true,global_pooling:false,padding_algorithm:"EXPLICIT",paddings:[0,0],pooling_type:"max",strides:[2,2]} : (tensor<1x32x12x12xf32>, tensor<2xi64>) -> tensor<1x32x6x6xf32>
    (%10) = "pd_op.flatten" (%9) {start_axis:1,stop_axis:3} : (tensor<1x32x6x6xf32>) -> tensor<1x1152xf32>
    () = "builtin.shadow_output" (%10) {output_name:"out"} : (tensor<1x1152xf32>) -> 
}
)";

} // namespace onednnlayout
