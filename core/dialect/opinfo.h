#pragma once

#include <string_view>

namespace ps {

/// One tensor input of an op as declared in Paddle's op YAML (plus mutable attributes that
/// PIR turns into operands, which follow the tensor inputs).
struct OpInputInfo
{
    std::string_view name;
    std::string_view type; ///< "Tensor", "Tensor[]", or for mutable attributes "IntArray", "Scalar", ...
    bool optional = false;
    bool noNeedBuffer = false;
    bool mutableAttribute = false; ///< an IntArray/Scalar attribute that is an operand in PIR
};

/// One attribute, with the YAML type ("int", "int64_t[]", "DataType", ...) and the YAML
/// default text (empty when there is none).
struct OpAttributeInfo
{
    std::string_view name;
    std::string_view type;
    std::string_view defaultValue;
};

struct OpOutputInfo
{
    std::string_view name;
    std::string_view type; ///< "Tensor" or "Tensor[]"
    bool intermediate = false;
    bool optional = false;
};

/// output index ← input index (PIR operand index).
struct OpIndexPair
{
    int output;
    int input;
};

/// Static facts about one PIR op, generated from Paddle's op YAML by
/// tools/gen_op_registry.py (see core/dialect/optable_generated.cpp).
struct OpInfo
{
    std::string_view name; ///< full name, e.g. "pd_op.batch_norm_"
    const OpInputInfo *inputs = nullptr; ///< in PIR operand order
    int numInputs = 0;
    const OpAttributeInfo *attributes = nullptr; ///< non-mutable attributes in YAML order
    int numAttributes = 0;
    const OpOutputInfo *outputs = nullptr;
    int numOutputs = 0;
    const OpIndexPair *inplace = nullptr; ///< only on `_` variants (InplaceTrait)
    int numInplace = 0;
    const OpIndexPair *view = nullptr; ///< only on `_` variants
    int numView = 0;
    std::string_view backward; ///< full name of the backward op ("pd_op.matmul_grad") or empty
    bool isBackward = false;
    bool variadicOperands = false; ///< the operand count is not fixed (hand-written ops)
};

} // namespace ps
