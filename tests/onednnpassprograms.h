#pragma once

// Near misses of Paddle's oneDNN fusion passes (tst_onednnfusionpasses), printed as Paddle prints
// programs: each almost matches a pattern and breaks one of its constraints.

#include <string>

namespace onednnpassprograms {

inline const std::string kHeader = R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[1,8,6,6],stop_gradient:[true]} : () -> tensor<1x8x6x6xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false]} : () -> tensor<8x8x3x3xf32>
    (%2) = "builtin.parameter" () {parameter_name:"b",persistable:[true],stop_gradient:[false]} : () -> tensor<1x8x1x1xf32>
    (%3) = "pd_op.data" () {dtype:float32,name:"y",place:Place(cpu),shape:[1,8,1,1],stop_gradient:[true]} : () -> tensor<1x8x1x1xf32>
    (%4) = "pd_op.conv2d" (%0, %1) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],stop_gradient:[false],strides:[1,1]} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
)pir";

/// conv2d + add of a bias computed from an input (not persistable): conv2d_bias_fuse_pass leaves
/// it; conv_elementwise_add_onednn_fuse_pass too (the bias broadcasts).
inline const std::string kConvAddInputBias = kHeader + R"pir(    (%5) = "pd_op.add" (%4, %3) {stop_gradient:[false]} : (tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x6x6xf32>
    () = "builtin.shadow_output" (%5) {output_name:"out"} : (tensor<1x8x6x6xf32>) -> 
})pir";

/// conv2d + persistable bias, the conv result read twice: the add is fused (its input is the
/// pattern's input), conv + relu is not.
inline const std::string kConvReadTwice = kHeader + R"pir(    (%5) = "pd_op.relu" (%4) {stop_gradient:[false]} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    (%6) = "pd_op.add" (%5, %4) {stop_gradient:[false]} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    () = "builtin.shadow_output" (%6) {output_name:"out"} : (tensor<1x8x6x6xf32>) -> 
})pir";

/// conv2d + leaky_relu with a negative slope: conv_activation_mkldnn_fuse_pass leaves it.
inline const std::string kConvLeakyNegative = kHeader + R"pir(    (%5) = "pd_op.leaky_relu" (%4) {negative_slope:-0.1,stop_gradient:[false]} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    () = "builtin.shadow_output" (%5) {output_name:"out"} : (tensor<1x8x6x6xf32>) -> 
})pir";

/// conv2d + leaky_relu with a positive slope: fused with fuse_alpha the slope.
inline const std::string kConvLeakyPositive = kHeader + R"pir(    (%5) = "pd_op.leaky_relu" (%4) {negative_slope:0.25,stop_gradient:[false]} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    () = "builtin.shadow_output" (%5) {output_name:"out"} : (tensor<1x8x6x6xf32>) -> 
})pir";

/// conv2d in NHWC + a residual of its shape: conv_elementwise_add_onednn_fuse_pass takes NCHW
/// and AnyLayout only.
inline const std::string kConvNhwcResidual = R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[1,6,6,8],stop_gradient:[true]} : () -> tensor<1x6x6x8xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false]} : () -> tensor<8x8x3x3xf32>
    (%2) = "pd_op.conv2d" (%0, %1) {data_format:"NHWC",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],stop_gradient:[false],strides:[1,1]} : (tensor<1x6x6x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x6x6x8xf32>
    (%3) = "pd_op.add" (%2, %0) {stop_gradient:[false]} : (tensor<1x6x6x8xf32>, tensor<1x6x6x8xf32>) -> tensor<1x6x6x8xf32>
    () = "builtin.shadow_output" (%3) {output_name:"out"} : (tensor<1x6x6x8xf32>) -> 
})pir";

/// conv2d + batch_norm_ whose running mean is read afterwards: conv2d_bn_onednn_fuse_pass
/// leaves it.
inline const std::string kConvBnMeanUsed = kHeader + R"pir(    (%5) = "builtin.parameter" () {parameter_name:"mean",persistable:[true],stop_gradient:[true]} : () -> tensor<8xf32>
    (%6) = "builtin.parameter" () {parameter_name:"var",persistable:[true],stop_gradient:[true]} : () -> tensor<8xf32>
    (%7) = "builtin.parameter" () {parameter_name:"scale",persistable:[true],stop_gradient:[false]} : () -> tensor<8xf32>
    (%8) = "builtin.parameter" () {parameter_name:"shift",persistable:[true],stop_gradient:[false]} : () -> tensor<8xf32>
    (%9, %10, %11, %12, %13, %14) = "pd_op.batch_norm_" (%4, %5, %6, %7, %8) {data_format:"NCHW",epsilon:1e-05,is_test:true,momentum:0.9,stop_gradient:[false,false,false,false,false,false],trainable_statistics:false,use_global_stats:true} : (tensor<1x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<-1xu8>
    () = "builtin.shadow_output" (%9) {output_name:"out"} : (tensor<1x8x6x6xf32>) -> 
    () = "builtin.shadow_output" (%10) {output_name:"mean_out"} : (tensor<8xf32>) -> 
})pir";

/// fc on a 4-D input whose spatial dims are not 1, and an fc with activation_type tanh:
/// fc_onednn_enable_pass leaves both.
inline const std::string kFcNotEnabled = R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[2,4,3,3],stop_gradient:[true]} : () -> tensor<2x4x3x3xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false]} : () -> tensor<36x5xf32>
    (%2) = "builtin.parameter" () {parameter_name:"b",persistable:[true],stop_gradient:[false]} : () -> tensor<5xf32>
    (%3) = "pd_op.fc" (%0, %1, %2) {activation_type:"",in_num_col_dims:1,padding_weights:false,stop_gradient:[false]} : (tensor<2x4x3x3xf32>, tensor<36x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
    (%4) = "builtin.parameter" () {parameter_name:"w2",persistable:[true],stop_gradient:[false]} : () -> tensor<5x5xf32>
    (%5) = "pd_op.fc" (%3, %4, %2) {activation_type:"tanh",in_num_col_dims:1,padding_weights:false,stop_gradient:[false]} : (tensor<2x5xf32>, tensor<5x5xf32>, tensor<5xf32>) -> tensor<2x5xf32>
    () = "builtin.shadow_output" (%5) {output_name:"out"} : (tensor<2x5xf32>) -> 
})pir";

/// matmul + gelu with the tanh approximation, then + a residual: fused_matmul with gelu_tanh
/// (matmul_activation_fuse_pass) and, run first, the residual (matmul_elementwise_add_fuse_pass).
inline const std::string kMatmulGeluTanh = R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[4,8],stop_gradient:[true]} : () -> tensor<4x8xf32>
    (%1) = "builtin.parameter" () {parameter_name:"w",persistable:[true],stop_gradient:[false]} : () -> tensor<8x8xf32>
    (%2) = "pd_op.matmul" (%0, %1) {stop_gradient:[false],transpose_x:false,transpose_y:false} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    (%3) = "pd_op.gelu" (%2) {approximate:true,stop_gradient:[false]} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    (%4) = "pd_op.matmul" (%3, %1) {stop_gradient:[false],transpose_x:false,transpose_y:true} : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
    (%5) = "pd_op.add" (%0, %4) {stop_gradient:[false]} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    () = "builtin.shadow_output" (%5) {output_name:"out"} : (tensor<4x8xf32>) -> 
})pir";

/// An add whose result is read twice, then relu: elementwise_act_onednn_fuse_pass leaves it.
inline const std::string kAddReadTwice = R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[4,8],stop_gradient:[true]} : () -> tensor<4x8xf32>
    (%1) = "pd_op.add" (%0, %0) {stop_gradient:[true]} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    (%2) = "pd_op.relu" (%1) {stop_gradient:[true]} : (tensor<4x8xf32>) -> tensor<4x8xf32>
    (%3) = "pd_op.multiply" (%2, %1) {stop_gradient:[true]} : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    () = "builtin.shadow_output" (%3) {output_name:"out"} : (tensor<4x8xf32>) -> 
})pir";

/// Two fused_conv2d ops with a bias (`act` their fuse_activation) concatenated, then relu
/// (conv_concat_activation_mkldnn_fuse_pass's level-1 pattern, which fails in Paddle 3.3.1).
inline std::string concatOfFusedConvs(const std::string &act)
{
    const std::string attrs = "data_format:\"NCHW\",dilations:[1,1],force_fp32_output:false,fuse_activation:\"" + act
        + "\",fuse_alpha:0,fuse_beta:0,fuse_residual_connection:false,groups:1,mkldnn_data_type:\"float32\","
          "onednn_data_type:\"\",padding_algorithm:\"EXPLICIT\",paddings:[1,1],scale_in:1,scale_in_eltwise:1,"
          "scale_out:1,scale_weights:[1],stop_gradient:[false],strides:[1,1]";
    const std::string conv = "\"onednn_op.fused_conv2d\" (%0, %1, %2, <<NULL VALUE>>) {" + attrs
        + "} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>, tensor<1x8x1x1xf32>, <<NULL TYPE>>) -> tensor<1x8x6x6xf32>\n";
    return kHeader + "    (%5) = " + conv + "    (%6) = " + conv
        + R"pir(    (%7) = "pd_op.full" () {dtype:int32,place:Place(cpu),shape:[1],stop_gradient:[true],value:1} : () -> tensor<1xi32>
    (%8) = "builtin.combine" (%5, %6) {stop_gradient:[false]} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> vec[tensor<1x8x6x6xf32>,tensor<1x8x6x6xf32>]
    (%9) = "pd_op.concat" (%8, %7) {stop_gradient:[false]} : (vec[tensor<1x8x6x6xf32>,tensor<1x8x6x6xf32>], tensor<1xi32>) -> tensor<1x16x6x6xf32>
    (%10) = "pd_op.relu" (%9) {stop_gradient:[false]} : (tensor<1x16x6x6xf32>) -> tensor<1x16x6x6xf32>
    () = "builtin.shadow_output" (%10) {output_name:"out"} : (tensor<1x16x6x6xf32>) -> 
})pir";
}

} // namespace onednnpassprograms
