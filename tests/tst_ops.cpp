// The op names written once (core/dialect/ops.h): every constant names an op of the registry,
// and each predicate recognises its op and no other.

#include "core/dialect/opregistry.h"
#include "core/dialect/ops.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"

#include <QtTest>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

using namespace ps;

class TestOps : public QObject
{
    Q_OBJECT

private slots:
    void everyConstantNamesARegisteredOp()
    {
        const std::string_view names[] = { ops::kCombine, ops::kConstant, ops::kModule, ops::kParameter,
            ops::kSetParameter, ops::kShadowOutput, ops::kBuiltinSplit, ops::kBuiltinSlice, ops::kStackCreate,
            ops::kTuplePop, ops::kTuplePush, ops::kYield, ops::kHasElements, ops::kAdd, ops::kAddGrad,
            ops::kAddGroupNormSilu, ops::kArrayWrite_, ops::kAssign, ops::kAssignOut_, ops::kAssignValue,
            ops::kBatchNorm, ops::kBatchNorm_, ops::kCast, ops::kConcat, ops::kConv2d, ops::kConv2dTranspose,
            ops::kData, ops::kDepthwiseConv2d, ops::kDropout, ops::kFc, ops::kFeed, ops::kFetch, ops::kFull,
            ops::kFullIntArray, ops::kFullLike, ops::kFusedBiasResidualLayernorm, ops::kFusedConv2dAddAct,
            ops::kFusedRmsNormQuant, ops::kGroupNorm, ops::kIf, ops::kIncrement_, ops::kLayerNorm,
            ops::kLeakyRelu, ops::kMatmul, ops::kMatmulGrad, ops::kMean, ops::kMultiply, ops::kPool2d,
            ops::kPow, ops::kPyLayer, ops::kRelu, ops::kReshape, ops::kRsqrt, ops::kScale, ops::kShareData_,
            ops::kSign, ops::kSilu, ops::kSoftmax, ops::kSqueeze, ops::kStack, ops::kSubtractGrad,
            ops::kSwish, ops::kTopK, ops::kTranspose, ops::kUnbind, ops::kWhile };
        for (std::string_view name : names)
            QVERIFY2(OpRegistry::instance().lookup(name), std::string(name).c_str());
    }

    void eachPredicateRecognisesItsOpOnly()
    {
        using Predicate = std::function<bool(const Operation &)>;
        const std::vector<std::pair<std::string_view, Predicate>> predicates { { ops::kData, ops::isData },
            { ops::kFeed, ops::isFeed }, { ops::kFetch, ops::isFetch }, { ops::kParameter, ops::isParameter },
            { ops::kSetParameter, ops::isSetParameter }, { ops::kShadowOutput, ops::isShadowOutput },
            { ops::kConstant, ops::isConstant }, { ops::kCombine, ops::isCombine },
            { ops::kBuiltinSplit, ops::isBuiltinSplit }, { ops::kYield, ops::isYield },
            { ops::kIf, ops::isIf }, { ops::kWhile, ops::isWhile }, { ops::kPyLayer, ops::isPyLayer } };
        Program program;
        Builder b(program);
        std::vector<const Operation *> built;
        for (const auto &[name, predicate] : predicates)
            built.push_back(b.create(name, {}, {}));
        for (size_t p = 0; p < predicates.size(); ++p)
            for (size_t o = 0; o < built.size(); ++o)
                QCOMPARE(predicates[p].second(*built[o]), p == o);
        // pd_op.split is not builtin.split; a name is compared whole, not by prefix.
        QVERIFY(!ops::isBuiltinSplit(*b.create("pd_op.split", {}, {})));
        QVERIFY(!ops::isData(*b.create("pd_op.data_", {}, {})));
    }
};

QTEST_GUILESS_MAIN(TestOps)
#include "tst_ops.moc"
