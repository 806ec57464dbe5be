#include "core/transform/passregistry.h"

#include "core/transform/addnormfusepass.h"
#include "core/transform/automixedprecision.h"
#include "core/transform/commonsubexpressionelimination.h"
#include "core/transform/constantfolding.h"
#include "core/transform/conv2daddactfusepass.h"
#include "core/transform/conv2daddfusepass.h"
#include "core/transform/conv2dbnfusepass.h"
#include "core/transform/deadcodeelimination.h"
#include "core/transform/identityopcleanpass.h"
#include "core/transform/inplacepass.h"
#include "core/transform/mapoptoanotherpass.h"
#include "core/transform/matmuladdactfusepass.h"
#include "core/transform/matmulscalefusepass.h"
#include "core/transform/matmultransposefusepass.h"
#include "core/transform/onednnactivationfusepass.h"
#include "core/transform/onednnconvconcatfusepass.h"
#include "core/transform/onednnconvfusepass.h"
#include "core/transform/onednnelementwisefusepass.h"
#include "core/transform/onednnmatmulfusepass.h"
#include "core/transform/onednnmatmulreshapefusepass.h"
#include "core/transform/onednnoperatorscalefusepass.h"
#include "core/transform/onednnplacementpass.h"
#include "core/transform/onednnreshapefusepass.h"
#include "core/transform/onednnshufflechanneldetectpass.h"
#include "core/transform/passpipeline.h"
#include "core/transform/removeredundanttransposepass.h"
#include "core/transform/replacefetchwithshadowoutput.h"
#include "core/transform/selfattentionfusepass.h"
#include "core/transform/silufusepass.h"
#include "core/transform/transferlayoutpass.h"
#include "core/transform/unimplementedpass.h"

namespace ps {

namespace {

struct Entry
{
    const char *name;
    const char *alias;
    std::unique_ptr<Pass> (*make)(const PassOptions &);
    bool fusion = false; ///< a pattern-fusion pass of Paddle's GPU inference pipeline
};

template<typename P> std::unique_ptr<Pass> plain(const PassOptions &)
{
    return std::make_unique<P>();
}

template<const char *Name> std::unique_ptr<Pass> oneDnnConv(const PassOptions &)
{
    return OneDnnConvFusePass::create(Name);
}

template<const char *Name> std::unique_ptr<Pass> oneDnnMatmul(const PassOptions &)
{
    return OneDnnMatmulFusePass::create(Name);
}

template<const char *Name> std::unique_ptr<Pass> oneDnnReshape(const PassOptions &)
{
    return OneDnnReshapeFusePass::create(Name);
}

template<const char *Name> std::unique_ptr<Pass> oneDnnActivation(const PassOptions &)
{
    return OneDnnActivationFusePass::create(Name);
}

template<const char *Name> std::unique_ptr<Pass> oneDnnMatmulReshape(const PassOptions &)
{
    return OneDnnMatmulReshapeFusePass::create(Name);
}

constexpr char kScaleMatmul[] = "scale_matmul_fuse_pass";
constexpr char kFcOneDnnEnable[] = "fc_onednn_enable_pass";
constexpr char kMatmulElementwiseAdd[] = "matmul_elementwise_add_fuse_pass";
constexpr char kMatmulActivation[] = "matmul_activation_fuse_pass";
constexpr char kFcActivation[] = "fc_activation_fuse_pass";
constexpr char kDepthwiseConvOneDnn[] = "depthwise_conv_onednn_pass";
constexpr char kConv2dBnOneDnn[] = "conv2d_bn_onednn_fuse_pass";
constexpr char kConv2dBiasBnOneDnn[] = "conv2d_bias_bn_onednn_fuse_pass";
constexpr char kConv2dBias[] = "conv2d_bias_fuse_pass";
constexpr char kConv2dTransposeBn[] = "conv2d_transpose_bn_fuse_pass";
constexpr char kConv2dTransposeBiasBn[] = "conv2d_transpose_bias_bn_fuse_pass";
constexpr char kConv2dTransposeBias[] = "conv2d_transpose_bias_fuse_pass";
constexpr char kConv3dBias[] = "conv3d_bias_fuse_pass";
constexpr char kConvElementwiseAddOneDnn[] = "conv_elementwise_add_onednn_fuse_pass";
constexpr char kConvActivationOneDnn[] = "conv_activation_mkldnn_fuse_pass";
constexpr char kSqueezeTransposeOneDnn[] = "squeeze_transpose_onednn_fuse_pass";
constexpr char kOperatorUnsqueezeOneDnn[] = "operator_unsqueeze_onednn_fuse_pass";
constexpr char kOperatorReshapeOneDnn[] = "operator_reshape_onednn_fuse_pass";
constexpr char kReshapeTransposeMatmul[] = "reshape_transpose_matmul_fuse_pass";
constexpr char kMatmulTransposeReshape[] = "matmul_transpose_reshape_fuse_pass";
constexpr char kMatmulReshapeAdd[] = "matmul_reshape_add_fuse_pass";
constexpr char kBatchNormActOneDnn[] = "batch_norm_act_fuse_pass";
constexpr char kSoftplusActivationOneDnn[] = "softplus_activation_fuse_pass";

// Add a pass here to make it known to pipelines, the CLI and the GUI.
const Entry kPasses[] = {
    { "dead_code_elimination_pass", "dce", &plain<DeadCodeElimination> },
    { "common_subexpression_elimination_pass", "cse", &plain<CommonSubexpressionElimination> },
    { "constant_folding_pass", "fold",
        [](const PassOptions &o) -> std::unique_ptr<Pass> {
            return std::make_unique<ConstantFolding>(o.evaluator, o.trainMode);
        } },
    { "auto_mixed_precision_pass", "amp",
        [](const PassOptions &o) -> std::unique_ptr<Pass> {
            return std::make_unique<AutoMixedPrecision>(
                o.place, o.mixedPrecision, o.lowPrecisionIo, o.mixedWhiteList, o.mixedBlackList);
        } },
    { "replace_fetch_with_shadow_output_pass", "fetch2shadow", &plain<ReplaceFetchWithShadowOutput> },
    { "transfer_layout_pass", "layout", &plain<TransferLayoutPass> },
    { "inplace_pass", "inplace",
        [](const PassOptions &o) -> std::unique_ptr<Pass> {
            return std::make_unique<InplacePass>(o.place, o.noNeedBufferNames);
        } },
    // The fusion passes, in the order Paddle's GPU inference pipeline runs them (kPirGpuPasses).
    // map_op_to_another_pass follows the CUDA build of Paddle unless the place is a CPU: its
    // depthwise_conv2d pattern exists only there.
    { "map_op_to_another_pass", "map_op",
        [](const PassOptions &o) -> std::unique_ptr<Pass> {
            return std::make_unique<MapOpToAnotherPass>(o.place.type != Place::AllocType::Cpu);
        },
        true },
    { "identity_op_clean_pass", "identity", &plain<IdentityOpCleanPass>, true },
    { "silu_fuse_pass", "silu", &plain<SiluFusePass>, true },
    { "conv2d_bn_fuse_pass", "conv_bn", &plain<Conv2dBnFusePass>, true },
    { "conv2d_add_act_fuse_pass", "conv_add_act", &plain<Conv2dAddActFusePass>, true },
    { "conv2d_add_fuse_pass", "conv_add", &plain<Conv2dAddFusePass>, true },
    { "matmul_add_act_fuse_pass", "matmul_add_act", &plain<MatmulAddActFusePass>, true },
    { "add_norm_fuse_pass", "add_norm", &plain<AddNormFusePass>, true },
    { "matmul_scale_fuse_pass", "matmul_scale", &plain<MatmulScaleFusePass>, true },
    { "matmul_transpose_fuse_pass", "matmul_transpose", &plain<MatmulTransposeFusePass>, true },
    { "remove_redundant_transpose_pass", "transpose", &plain<RemoveRedundantTransposePass>, true },
    // The oneDNN fusion passes of Paddle's default CPU pipeline (inference-onednn), in its order.
    { kDepthwiseConvOneDnn, "onednn_depthwise", &oneDnnConv<kDepthwiseConvOneDnn> },
    { kSqueezeTransposeOneDnn, "onednn_squeeze_transpose", &oneDnnReshape<kSqueezeTransposeOneDnn> },
    { kConv2dBnOneDnn, "onednn_conv_bn", &oneDnnConv<kConv2dBnOneDnn> },
    { kConv2dBiasBnOneDnn, "onednn_conv_bias_bn", &oneDnnConv<kConv2dBiasBnOneDnn> },
    { kConv2dBias, "onednn_conv_bias", &oneDnnConv<kConv2dBias> },
    { kConv2dTransposeBn, "onednn_conv_transpose_bn", &oneDnnConv<kConv2dTransposeBn> },
    { kConv2dTransposeBiasBn, "onednn_conv_transpose_bias_bn", &oneDnnConv<kConv2dTransposeBiasBn> },
    { kConv2dTransposeBias, "onednn_conv_transpose_bias", &oneDnnConv<kConv2dTransposeBias> },
    { kConv3dBias, "onednn_conv3d_bias", &oneDnnConv<kConv3dBias> },
    { kConvElementwiseAddOneDnn, "onednn_conv_add", &oneDnnConv<kConvElementwiseAddOneDnn> },
    { kConvActivationOneDnn, "onednn_conv_act", &oneDnnConv<kConvActivationOneDnn> },
    { "conv_concat_activation_mkldnn_fuse_pass", "onednn_conv_concat_act", &plain<OneDnnConvConcatFusePass> },
    { kScaleMatmul, "onednn_scale_matmul", &oneDnnMatmul<kScaleMatmul> },
    { kReshapeTransposeMatmul, "onednn_reshape_transpose_matmul",
        &oneDnnMatmulReshape<kReshapeTransposeMatmul> },
    { kMatmulTransposeReshape, "onednn_matmul_transpose_reshape",
        &oneDnnMatmulReshape<kMatmulTransposeReshape> },
    { kMatmulReshapeAdd, "onednn_matmul_reshape_add", &oneDnnMatmulReshape<kMatmulReshapeAdd> },
    { kFcOneDnnEnable, "onednn_fc", &oneDnnMatmul<kFcOneDnnEnable> },
    { kMatmulElementwiseAdd, "onednn_matmul_add", &oneDnnMatmul<kMatmulElementwiseAdd> },
    { kMatmulActivation, "onednn_matmul_act", &oneDnnMatmul<kMatmulActivation> },
    { kFcActivation, "onednn_fc_act", &oneDnnMatmul<kFcActivation> },
    { "self_attention_fuse_pass", "onednn_self_attention", &plain<SelfAttentionFusePass> },
    { kBatchNormActOneDnn, "onednn_batch_norm_act", &oneDnnActivation<kBatchNormActOneDnn> },
    { kSoftplusActivationOneDnn, "onednn_softplus_act", &oneDnnActivation<kSoftplusActivationOneDnn> },
    { "shuffle_channel_detect_pass", "onednn_shuffle_channel", &plain<OneDnnShuffleChannelDetectPass> },
    { "elementwise_act_onednn_fuse_pass", "onednn_elementwise_act", &plain<OneDnnElementwiseFusePass> },
    { "operator_scale_onednn_fuse_pass", "onednn_operator_scale", &plain<OneDnnOperatorScaleFusePass> },
    { kOperatorUnsqueezeOneDnn, "onednn_operator_unsqueeze", &oneDnnReshape<kOperatorUnsqueezeOneDnn> },
    { kOperatorReshapeOneDnn, "onednn_operator_reshape", &oneDnnReshape<kOperatorReshapeOneDnn> },
    { "onednn_placement_pass", "onednn_placement", &plain<OneDnnPlacementPass> },
};

const Entry *find(std::string_view name)
{
    for (const Entry &e : kPasses)
        if (name == e.name || name == e.alias)
            return &e;
    return nullptr;
}

} // namespace

std::unique_ptr<Pass> PassRegistry::create(std::string_view name, const PassOptions &options)
{
    if (const Entry *e = find(name))
        return e->make(options);
    if (PassPipeline::isPaddlePass(name))
        return std::make_unique<UnimplementedPass>(
            std::string(name), PassPipeline::unimplementedReason(name));
    return nullptr;
}

std::vector<std::string> PassRegistry::implementedNames()
{
    std::vector<std::string> out;
    for (const Entry &e : kPasses)
        out.emplace_back(e.name);
    return out;
}

std::vector<std::string_view> PassRegistry::fusionPassNames()
{
    std::vector<std::string_view> out;
    for (const Entry &e : kPasses)
        if (e.fusion)
            out.emplace_back(e.name);
    return out;
}

bool PassRegistry::isImplemented(std::string_view name)
{
    return find(name) != nullptr;
}

std::string PassRegistry::canonicalName(std::string_view name)
{
    if (const Entry *e = find(name))
        return e->name;
    return PassPipeline::isPaddlePass(name) ? std::string(name) : std::string();
}

} // namespace ps
