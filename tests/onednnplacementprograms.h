#pragma once

// Programs of tst_onednnplacement (raw strings kept out of the moc'ed .cpp).

namespace onednnplacement {

/// Ops onednn_placement_pass moves (relu, conv2d, the float casts, the full, a batch_norm_ whose
/// is_test it sets, a relu6 whose threshold it overwrites) and ops it leaves (an int cast, a
/// float64 scale, an int slice, a divide, an unsqueeze).
inline constexpr const char *kMixed = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[1,8,6,6],stop_gradient:[true]} : () -> tensor<1x8x6x6xf32>
    (%1) = "pd_op.data" () {dtype:int32,name:"i",place:Place(cpu),shape:[1,8,6,6],stop_gradient:[true]} : () -> tensor<1x8x6x6xi32>
    (%2) = "pd_op.data" () {dtype:float32,name:"w",place:Place(cpu),shape:[8,8,3,3],stop_gradient:[true]} : () -> tensor<8x8x3x3xf32>
    (%3) = "pd_op.data" () {dtype:float32,name:"c",place:Place(cpu),shape:[8],stop_gradient:[true]} : () -> tensor<8xf32>
    (%4) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    (%5) = "pd_op.conv2d" (%4, %2) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[1,1],stop_gradient:[true],strides:[1,1]} : (tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
    (%6) = "pd_op.cast" (%1) {dtype:float32,stop_gradient:[true]} : (tensor<1x8x6x6xi32>) -> tensor<1x8x6x6xf32>
    (%7) = "pd_op.cast" (%5) {dtype:float64,stop_gradient:[true]} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf64>
    (%8) = "pd_op.full" () {dtype:float32,place:Place(cpu),shape:[1],stop_gradient:[true],value:2} : () -> tensor<1xf32>
    (%9) = "pd_op.scale" (%7, %8) {bias:0,bias_after_scale:true,stop_gradient:[true]} : (tensor<1x8x6x6xf64>, tensor<1xf32>) -> tensor<1x8x6x6xf64>
    (%10) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[1]} : () -> tensor<1xi64>
    (%11) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[2]} : () -> tensor<1xi64>
    (%12) = "pd_op.slice" (%1, %10, %11) {axes:[1],decrease_axis:[],infer_flags:[1],stop_gradient:[true]} : (tensor<1x8x6x6xi32>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x1x6x6xi32>
    (%13) = "pd_op.divide" (%5, %6) {stop_gradient:[true]} : (tensor<1x8x6x6xf32>, tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    (%14, %15, %16, %17, %18, %19) = "pd_op.batch_norm_" (%13, %3, %3, %3, %3) {data_format:"NCHW",epsilon:1e-05,is_test:false,momentum:0.9,stop_gradient:[true,true,true,true,true,true],trainable_statistics:false,use_global_stats:true} : (tensor<1x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x8x6x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>, tensor<-1xui8>
    (%20) = "pd_op.relu6" (%14) {stop_gradient:[true],threshold:3} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
    (%21) = "pd_op.unsqueeze" (%20, %10) {stop_gradient:[true]} : (tensor<1x8x6x6xf32>, tensor<1xi64>) -> tensor<1x1x8x6x6xf32>
    (%22) = "pd_op.fetch" (%21) {col:0,name:"out",persistable:[true],stop_gradient:[true]} : (tensor<1x1x8x6x6xf32>) -> tensor<1x1x8x6x6xf32>
    (%23) = "pd_op.fetch" (%9) {col:1,name:"scaled",persistable:[true],stop_gradient:[true]} : (tensor<1x8x6x6xf64>) -> tensor<1x8x6x6xf64>
    (%24) = "pd_op.fetch" (%12) {col:2,name:"sliced",persistable:[true],stop_gradient:[true]} : (tensor<1x1x6x6xi32>) -> tensor<1x1x6x6xi32>
}
)";

/// A dynamic batch: only the shape rules give the conv2d's and the reshape's results a shape.
inline constexpr const char *kDynamic = R"({
    (%0) = "pd_op.data" () {dtype:float32,name:"x",place:Place(cpu),shape:[-1,8,6,6],stop_gradient:[true]} : () -> tensor<-1x8x6x6xf32>
    (%1) = "pd_op.data" () {dtype:float32,name:"w",place:Place(cpu),shape:[8,8,3,3],stop_gradient:[true]} : () -> tensor<8x8x3x3xf32>
    (%2) = "pd_op.relu" (%0) {stop_gradient:[true]} : (tensor<-1x8x6x6xf32>) -> tensor<-1x8x6x6xf32>
    (%3) = "pd_op.conv2d" (%2, %1) {data_format:"NCHW",dilations:[1,1],groups:1,padding_algorithm:"EXPLICIT",paddings:[0,0],stop_gradient:[true],strides:[2,2]} : (tensor<-1x8x6x6xf32>, tensor<8x8x3x3xf32>) -> tensor<-1x8x-1x-1xf32>
    (%4) = "pd_op.full_int_array" () {dtype:int64,place:Place(cpu),stop_gradient:[true],value:[0,-1]} : () -> tensor<2xi64>
    (%5) = "pd_op.reshape" (%3, %4) {stop_gradient:[true]} : (tensor<-1x8x-1x-1xf32>, tensor<2xi64>) -> tensor<-1x-1xf32>
    (%6) = "pd_op.fetch" (%5) {col:0,name:"out",persistable:[true],stop_gradient:[true]} : (tensor<-1x-1xf32>) -> tensor<-1x-1xf32>
}
)";

} // namespace onednnplacement
