#pragma once

/// Programs the pass timeline tests share, printed as Paddle prints them.
namespace passprograms {

// Two equal scale chains (CSE merges them) and a dead exp (DCE removes it).
inline const char *kRedundant = R"pir({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(undefined:0),shape:[4],stop_gradient:[true]} : () -> tensor<4xf32>
    (%1) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%2) = "pd_op.scale" (%0, %1) {bias:0,bias_after_scale:true,stop_gradient:[true]} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    (%3) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:0.5} : () -> tensor<1xf32>
    (%4) = "pd_op.scale" (%0, %3) {bias:0,bias_after_scale:true,stop_gradient:[true]} : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
    (%5) = "pd_op.exp" (%0) {stop_gradient:[true]} : (tensor<4xf32>) -> tensor<4xf32>
    (%6) = "pd_op.add" (%2, %4) {stop_gradient:[true]} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    () = "builtin.shadow_output" (%6) {output_name:"out"} : (tensor<4xf32>) -> 
})pir";

} // namespace passprograms
