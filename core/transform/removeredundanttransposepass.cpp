#include "core/transform/removeredundanttransposepass.h"

#include "core/dialect/ops.h"
#include "core/transform/drrmatch.h"
#include "core/transform/drrrewritepattern.h"
#include "core/transform/rewritehelpers.h"

namespace ps {

namespace {

DrrPattern mergeTransposes()
{
    DrrPattern p("RemoveRedundantTransposePattern");
    p.source(ops::kTranspose, { "arg_transpose" }, { "transpose_1_out" }, { { "perm", "perm_1" } });
    p.source(ops::kTranspose, { "transpose_1_out" }, { "ret" }, { { "perm", "perm_2" } });
    p.result(
        ops::kTranspose, { "arg_transpose" }, { "ret" }, { drrComputedAttr("perm", [](const DrrMatch &m) {
            const std::vector<int64_t> perm1 = m.intsAttr("perm_1");
            std::vector<int64_t> perm;
            for (int64_t v : m.intsAttr("perm_2"))
                perm.push_back(v >= 0 && size_t(v) < perm1.size() ? perm1[size_t(v)] : v);
            return int32ArrayAttr(perm);
        }) });
    return p;
}

DrrPattern removeIdentity()
{
    DrrPattern p("RemoveInvalidTransposePattern");
    p.source(ops::kTranspose, { "arg_transpose" }, { "ret" }, { { "perm", "perm" } });
    p.constraint([](const DrrMatch &m) {
        const std::vector<int64_t> perm = m.intsAttr("perm");
        for (size_t i = 0; i < perm.size(); ++i)
            if (perm[i] != int64_t(i))
                return false;
        return true;
    });
    p.assign("ret", "arg_transpose");
    return p;
}

} // namespace

RemoveRedundantTransposePass::RemoveRedundantTransposePass()
    : PatternRewritePass(
        "remove_redundant_transpose_pass", "transpose", "merge consecutive transposes, drop identity ones")
{
    addPattern(std::make_unique<DrrRewritePattern>(mergeTransposes()));
    addPattern(std::make_unique<DrrRewritePattern>(removeIdentity()));
}

} // namespace ps
