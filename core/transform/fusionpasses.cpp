#include "core/transform/fusionpasses.h"

#include "core/transform/addnormfusepass.h"
#include "core/transform/conv2daddactfusepass.h"
#include "core/transform/conv2daddfusepass.h"
#include "core/transform/conv2dbnfusepass.h"
#include "core/transform/identityopcleanpass.h"
#include "core/transform/mapoptoanotherpass.h"
#include "core/transform/matmuladdactfusepass.h"
#include "core/transform/matmulscalefusepass.h"
#include "core/transform/matmultransposefusepass.h"
#include "core/transform/removeredundanttransposepass.h"
#include "core/transform/silufusepass.h"

#include <array>

namespace ps {

namespace {

constexpr std::array<std::string_view, 11> kNames { "map_op_to_another_pass", "identity_op_clean_pass",
    "silu_fuse_pass", "conv2d_bn_fuse_pass", "conv2d_add_act_fuse_pass", "conv2d_add_fuse_pass",
    "matmul_add_act_fuse_pass", "add_norm_fuse_pass", "matmul_scale_fuse_pass", "matmul_transpose_fuse_pass",
    "remove_redundant_transpose_pass" };

std::unique_ptr<Pass> make(std::string_view name, const FusionOptions &options)
{
    if (name == kNames[0])
        return std::make_unique<MapOpToAnotherPass>(options.cudaBuild);
    if (name == kNames[1])
        return std::make_unique<IdentityOpCleanPass>();
    if (name == kNames[2])
        return std::make_unique<SiluFusePass>();
    if (name == kNames[3])
        return std::make_unique<Conv2dBnFusePass>();
    if (name == kNames[4])
        return std::make_unique<Conv2dAddActFusePass>();
    if (name == kNames[5])
        return std::make_unique<Conv2dAddFusePass>();
    if (name == kNames[6])
        return std::make_unique<MatmulAddActFusePass>();
    if (name == kNames[7])
        return std::make_unique<AddNormFusePass>();
    if (name == kNames[8])
        return std::make_unique<MatmulScaleFusePass>();
    if (name == kNames[9])
        return std::make_unique<MatmulTransposeFusePass>();
    if (name == kNames[10])
        return std::make_unique<RemoveRedundantTransposePass>();
    return nullptr;
}

} // namespace

std::vector<std::string_view> fusionPassNames()
{
    return { kNames.begin(), kNames.end() };
}

std::unique_ptr<Pass> createFusionPass(std::string_view name, const FusionOptions &options)
{
    for (std::string_view candidate : kNames) {
        std::unique_ptr<Pass> pass = make(candidate, options);
        if (candidate == name || pass->alias() == name)
            return pass;
    }
    return nullptr;
}

} // namespace ps
