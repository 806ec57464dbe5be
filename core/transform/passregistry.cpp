#include "core/transform/passregistry.h"

#include "core/transform/automixedprecision.h"
#include "core/transform/commonsubexpressionelimination.h"
#include "core/transform/constantfolding.h"
#include "core/transform/deadcodeelimination.h"
#include "core/transform/fusionpasses.h"
#include "core/transform/inplacepass.h"
#include "core/transform/passpipeline.h"
#include "core/transform/replacefetchwithshadowoutput.h"
#include "core/transform/transferlayoutpass.h"
#include "core/transform/unimplementedpass.h"

namespace ps {

namespace {

struct Entry
{
    const char *name;
    const char *alias;
    std::unique_ptr<Pass> (*make)(const PassOptions &);
};

template<typename P> std::unique_ptr<Pass> plain(const PassOptions &)
{
    return std::make_unique<P>();
}

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
};

const Entry *find(std::string_view name)
{
    for (const Entry &e : kPasses)
        if (name == e.name || name == e.alias)
            return &e;
    return nullptr;
}

/// The fusion passes (core/transform/fusionpasses) follow the CUDA build of Paddle unless the
/// place is a CPU: map_op_to_another_pass's depthwise_conv2d pattern exists only there.
FusionOptions fusionOptions(const PassOptions &options)
{
    return FusionOptions { options.place.type != Place::AllocType::Cpu };
}

} // namespace

std::unique_ptr<Pass> PassRegistry::create(std::string_view name, const PassOptions &options)
{
    if (const Entry *e = find(name))
        return e->make(options);
    if (std::unique_ptr<Pass> fusion = createFusionPass(name, fusionOptions(options)))
        return fusion;
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
    for (std::string_view name : fusionPassNames())
        out.emplace_back(name);
    return out;
}

bool PassRegistry::isImplemented(std::string_view name)
{
    return find(name) != nullptr || createFusionPass(name) != nullptr;
}

std::string PassRegistry::canonicalName(std::string_view name)
{
    if (const Entry *e = find(name))
        return e->name;
    if (std::unique_ptr<Pass> fusion = createFusionPass(name))
        return std::string(fusion->name());
    return PassPipeline::isPaddlePass(name) ? std::string(name) : std::string();
}

} // namespace ps
