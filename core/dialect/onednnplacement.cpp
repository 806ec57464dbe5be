#include "core/dialect/onednnplacement.h"

#include <algorithm>
#include <array>
#include <string>
#include <unordered_map>

namespace ps {

namespace {

// The extra-attribute sets of onednn_ops_extra.yaml (defaults as Paddle writes them).
enum class Extras : unsigned char {
    None,
    DataType, ///< mkldnn_data_type
    Matmul, ///< mkldnn_data_type, force_fp32_output
    Concat, ///< use_quantizer, mkldnn_data_type
    Conv2d, ///< mkldnn_data_type, is_test, force_fp32_output
    IsTest, ///< is_test
    DepthwiseConv2d, ///< the fused-conv knobs at their defaults
    LayerNorm, ///< mkldnn_data_type, is_test
    Prelu, ///< is_test, mkldnn_data_type
    Relu6, ///< threshold 6
    Reshape, ///< mkldnn_data_type, use_quantizer
    Pool2d, ///< use_quantizer, mkldnn_data_type, is_test
    Softmax, ///< data_format AnyLayout, mkldnn_data_type, is_test
    Transpose, ///< data_format AnyLayout, mkldnn_data_type
    Swish, ///< beta 1
    Add, ///< mkldnn_data_type, use_quantizer, scale_x, scale_y, scale_out
    BatchNorm, ///< fuse_with_relu
    Conv2dTransposeBias, ///< conv2d_transpose's plus fuse_relu and the activation
    MatmulWithFlatten, ///< scale_x, scale_y [1], scale_out, force_fp32_output
    FusionGru, ///< mkldnn_data_type, scale_data, shift_data, scale_weights
};

struct Entry
{
    std::string_view name;
    Extras extras;
};

// Paddle 3.3.1's patterns (onednn_placement_pass.cc, in its order, duplicates dropped) whose
// onednn_op counterpart 3.3.1 registers, less divide / divide_ / divide_grad, which its
// predictor leaves as pd_op.
constexpr std::array kEntries = {
    Entry { "matmul", Extras::Matmul },
    Entry { "abs", Extras::None },
    Entry { "abs_", Extras::None },
    Entry { "bilinear_interp", Extras::DataType },
    Entry { "clip", Extras::DataType },
    Entry { "clip_", Extras::DataType },
    Entry { "concat", Extras::Concat },
    Entry { "conv2d", Extras::Conv2d },
    Entry { "conv3d", Extras::IsTest },
    Entry { "depthwise_conv2d", Extras::DepthwiseConv2d },
    Entry { "elu", Extras::None },
    Entry { "elu_", Extras::None },
    Entry { "exp", Extras::None },
    Entry { "exp_", Extras::None },
    Entry { "flatten", Extras::DataType },
    Entry { "flatten_", Extras::DataType },
    Entry { "gelu", Extras::DataType },
    Entry { "layer_norm", Extras::LayerNorm },
    Entry { "leaky_relu", Extras::None },
    Entry { "leaky_relu_", Extras::None },
    Entry { "log_softmax", Extras::None },
    Entry { "nearest_interp", Extras::None },
    Entry { "pad3d", Extras::None },
    Entry { "prelu", Extras::Prelu },
    Entry { "prior_box", Extras::Concat },
    Entry { "relu", Extras::DataType },
    Entry { "relu_", Extras::DataType },
    Entry { "relu6", Extras::Relu6 },
    Entry { "round", Extras::None },
    Entry { "round_", Extras::None },
    Entry { "scale", Extras::DataType },
    Entry { "scale_sr", Extras::DataType },
    Entry { "scale_", Extras::DataType },
    Entry { "scale_sr_", Extras::DataType },
    Entry { "sgd_", Extras::None },
    Entry { "sgd_dense_param_sparse_grad_", Extras::None },
    Entry { "sgd_sparse_param_sparse_grad_", Extras::None },
    Entry { "shape", Extras::DataType },
    Entry { "shape_sr", Extras::DataType },
    Entry { "sigmoid", Extras::DataType },
    Entry { "sigmoid_", Extras::DataType },
    Entry { "softplus", Extras::None },
    Entry { "sqrt", Extras::None },
    Entry { "sqrt_sr", Extras::None },
    Entry { "sqrt_", Extras::None },
    Entry { "sqrt_sr_", Extras::None },
    Entry { "squeeze", Extras::DataType },
    Entry { "squeeze_", Extras::DataType },
    Entry { "stack", Extras::None },
    Entry { "tanh", Extras::None },
    Entry { "tanh_", Extras::None },
    Entry { "abs_grad", Extras::None },
    Entry { "clip_grad", Extras::DataType },
    Entry { "clip_grad_", Extras::DataType },
    Entry { "concat_grad", Extras::Concat },
    Entry { "conv2d_grad", Extras::IsTest },
    Entry { "conv3d_grad", Extras::IsTest },
    Entry { "depthwise_conv2d_grad", Extras::DepthwiseConv2d },
    Entry { "elu_grad", Extras::None },
    Entry { "elu_grad_", Extras::None },
    Entry { "exp_grad", Extras::None },
    Entry { "exp_grad_", Extras::None },
    Entry { "expand_grad", Extras::DataType },
    Entry { "flatten_grad", Extras::DataType },
    Entry { "flatten_grad_", Extras::DataType },
    Entry { "leaky_relu_grad", Extras::None },
    Entry { "leaky_relu_grad_", Extras::None },
    Entry { "prelu_grad", Extras::Prelu },
    Entry { "relu6_grad", Extras::Relu6 },
    Entry { "relu6_grad_", Extras::Relu6 },
    Entry { "relu_grad_", Extras::None },
    Entry { "sigmoid_grad", Extras::None },
    Entry { "sigmoid_grad_", Extras::None },
    Entry { "sqrt_grad", Extras::None },
    Entry { "sqrt_grad_", Extras::None },
    Entry { "squeeze_grad", Extras::DataType },
    Entry { "squeeze_grad_", Extras::DataType },
    Entry { "tanh_grad", Extras::None },
    Entry { "tanh_grad_", Extras::None },
    Entry { "fc", Extras::None },
    Entry { "fusion_gru", Extras::FusionGru },
    Entry { "add_n", Extras::DataType },
    Entry { "cast_", Extras::DataType },
    Entry { "conv2d_transpose", Extras::Conv2d },
    Entry { "conv2d_transpose_bias", Extras::Conv2dTransposeBias },
    Entry { "gaussian", Extras::None },
    Entry { "hardswish", Extras::None },
    Entry { "lrn", Extras::IsTest },
    Entry { "matmul_with_flatten", Extras::MatmulWithFlatten },
    Entry { "max", Extras::None },
    Entry { "mean", Extras::None },
    Entry { "min", Extras::None },
    Entry { "mish", Extras::None },
    Entry { "multiply", Extras::DataType },
    Entry { "multiply_sr", Extras::DataType },
    Entry { "multiply_", Extras::DataType },
    Entry { "multiply_sr_", Extras::DataType },
    Entry { "pad", Extras::None },
    Entry { "pool2d", Extras::Pool2d },
    Entry { "reshape_", Extras::Reshape },
    Entry { "slice", Extras::DataType },
    Entry { "softmax_", Extras::Softmax },
    Entry { "split", Extras::DataType },
    Entry { "split_with_num", Extras::None },
    Entry { "subtract", Extras::None },
    Entry { "subtract_", Extras::None },
    Entry { "sum", Extras::DataType },
    Entry { "swish", Extras::Swish },
    Entry { "transpose_", Extras::Transpose },
    Entry { "add_double_grad", Extras::Add },
    Entry { "add_double_grad_", Extras::Add },
    Entry { "add_grad_", Extras::Add },
    Entry { "add_triple_grad", Extras::Add },
    Entry { "add_triple_grad_", Extras::Add },
    Entry { "batch_norm_grad", Extras::BatchNorm },
    Entry { "hardswish_grad", Extras::None },
    Entry { "hardswish_grad_", Extras::None },
    Entry { "lrn_grad", Extras::IsTest },
    Entry { "matmul_with_flatten_grad", Extras::MatmulWithFlatten },
    Entry { "mean_grad", Extras::None },
    Entry { "mish_grad", Extras::None },
    Entry { "mish_grad_", Extras::None },
    Entry { "multiply_grad", Extras::None },
    Entry { "pool2d_grad", Extras::Pool2d },
    Entry { "reshape_grad", Extras::Reshape },
    Entry { "reshape_grad_", Extras::Reshape },
    Entry { "slice_grad", Extras::DataType },
    Entry { "softmax_grad", Extras::Softmax },
    Entry { "subtract_grad", Extras::None },
    Entry { "subtract_grad_", Extras::None },
    Entry { "sum_grad", Extras::None },
    Entry { "swish_grad", Extras::Swish },
    Entry { "swish_grad_", Extras::Swish },
    Entry { "transpose_grad", Extras::Transpose },
    Entry { "gelu_grad", Extras::DataType },
    Entry { "relu_grad", Extras::None },
    Entry { "add", Extras::Add },
    Entry { "add_", Extras::Add },
    Entry { "batch_norm", Extras::BatchNorm },
    Entry { "batch_norm_", Extras::BatchNorm },
    Entry { "cast", Extras::DataType },
    Entry { "full", Extras::None },
    Entry { "reshape", Extras::Reshape },
    Entry { "softmax", Extras::Softmax },
    Entry { "transpose", Extras::Transpose },
    Entry { "add_grad", Extras::Add },
    Entry { "matmul_grad", Extras::DataType },
};

std::vector<NamedAttribute> attributesOf(Extras extras)
{
    const auto str = [](const char *name, const char *v) {
        return NamedAttribute { name, Attribute::string(v) };
    };
    const auto flag = [](const char *name) { return NamedAttribute { name, Attribute::boolean(false) }; };
    const auto f32 = [](const char *name, float v) { return NamedAttribute { name, Attribute::f32(v) }; };
    const auto ones = [](const char *name) {
        return NamedAttribute { name, Attribute::array({ Attribute::f32(1.0f) }) };
    };
    // Paddle 3.3.1 gives every op with mkldnn_data_type an onednn_data_type "" too.
    const NamedAttribute mkldnn = str("mkldnn_data_type", "float32"), onednn = str("onednn_data_type", "");
    switch (extras) {
    case Extras::None:
        return {};
    case Extras::DataType:
        return { mkldnn, onednn };
    case Extras::Matmul:
        return { mkldnn, flag("force_fp32_output"), onednn };
    case Extras::Concat:
        return { flag("use_quantizer"), mkldnn, onednn };
    case Extras::Conv2d:
        return { mkldnn, flag("is_test"), flag("force_fp32_output"), onednn };
    case Extras::IsTest:
        return { flag("is_test") };
    case Extras::DepthwiseConv2d:
        return { flag("is_test"), flag("fuse_relu_before_depthwise_conv"), flag("use_quantizer"), mkldnn,
            flag("fuse_relu"), str("fuse_activation", ""), f32("fuse_alpha", 0.0f), f32("fuse_beta", 0.0f),
            flag("use_addto"), flag("fuse_residual_connection"), f32("scale_in", 1.0f),
            f32("scale_out", 1.0f), f32("scale_in_eltwise", 1.0f), ones("scale_weights"),
            flag("force_fp32_output"), onednn };
    case Extras::LayerNorm:
        return { mkldnn, flag("is_test"), onednn };
    case Extras::Prelu:
        return { flag("is_test"), mkldnn, onednn };
    case Extras::Relu6:
        return { f32("threshold", 6.0f) };
    case Extras::Reshape:
        return { mkldnn, flag("use_quantizer"), onednn };
    case Extras::Pool2d:
        return { flag("use_quantizer"), mkldnn, flag("is_test"), onednn };
    case Extras::Softmax:
        return { str("data_format", "AnyLayout"), mkldnn, flag("is_test"), onednn };
    case Extras::Transpose:
        return { str("data_format", "AnyLayout"), mkldnn, onednn };
    case Extras::Swish:
        return { f32("beta", 1.0f) };
    case Extras::Add:
        return { mkldnn, flag("use_quantizer"), f32("scale_x", 1.0f), f32("scale_y", 1.0f),
            f32("scale_out", 1.0f), onednn };
    case Extras::BatchNorm:
        return { flag("fuse_with_relu") };
    case Extras::Conv2dTransposeBias:
        return { flag("is_test"), flag("force_fp32_output"), mkldnn, flag("fuse_relu"),
            str("fuse_activation", ""), f32("fuse_alpha", 0.0f), f32("fuse_beta", 0.0f), onednn };
    case Extras::MatmulWithFlatten:
        return { f32("scale_x", 1.0f), ones("scale_y"), f32("scale_out", 1.0f), flag("force_fp32_output") };
    case Extras::FusionGru:
        return { mkldnn, f32("scale_data", 1.0f), f32("shift_data", 0.0f), ones("scale_weights"), onednn };
    }
    return {};
}

struct StringHash
{
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view> {}(s); }
};

struct Table
{
    std::vector<std::string_view> names;
    std::unordered_map<std::string_view, std::vector<NamedAttribute>> extras;
    /// "X" -> "onednn_op.X"
    std::unordered_map<std::string_view, std::string> placedNames;
    /// "onednn_op.X" -> "pd_op.X"
    std::unordered_map<std::string, std::string, StringHash, std::equal_to<>> equivalents;
};

const Table &table()
{
    static const Table t = [] {
        Table t;
        for (const Entry &e : kEntries) {
            t.names.push_back(e.name);
            t.extras.emplace(e.name, attributesOf(e.extras));
            t.placedNames.emplace(e.name, "onednn_op." + std::string(e.name));
            t.equivalents.emplace("onednn_op." + std::string(e.name), "pd_op." + std::string(e.name));
        }
        return t;
    }();
    return t;
}

} // namespace

std::span<const std::string_view> OneDnnPlacement::opNames()
{
    return table().names;
}

bool OneDnnPlacement::placed(std::string_view shortName)
{
    return extraAttributes(shortName) != nullptr;
}

const std::vector<NamedAttribute> *OneDnnPlacement::extraAttributes(std::string_view shortName)
{
    const auto &extras = table().extras;
    const auto it = extras.find(shortName);
    return it == extras.end() ? nullptr : &it->second;
}

bool OneDnnPlacement::needsFloatOperand(std::string_view shortName)
{
    return shortName == "cast" || shortName == "cast_" || shortName == "scale" || shortName == "scale_"
        || shortName == "scale_sr" || shortName == "scale_sr_" || shortName == "slice";
}

std::string_view OneDnnPlacement::placedName(std::string_view shortName)
{
    const auto &names = table().placedNames;
    const auto it = names.find(shortName);
    return it == names.end() ? std::string_view {} : std::string_view(it->second);
}

std::string_view OneDnnPlacement::paddleEquivalent(std::string_view fullName)
{
    if (!fullName.starts_with("onednn_op."))
        return {};
    const auto &equivalents = table().equivalents;
    const auto it = equivalents.find(fullName);
    return it == equivalents.end() ? std::string_view {} : std::string_view(it->second);
}

} // namespace ps
