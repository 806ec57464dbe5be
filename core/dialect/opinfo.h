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
    std::string_view dataType; ///< mutable attributes: op_compat.yaml `data_type` ("int", "int64_t", ...)
    std::string_view defaultValue; ///< mutable attributes: the YAML default text
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
    std::string_view size; ///< "Tensor[]" outputs: the YAML size expression ("sections.size()")
};

/// output index ← input index (PIR operand index).
struct OpIndexPair
{
    int output;
    int input;
};

/// Static facts about one PIR op, generated from Paddle's op YAML by
/// tools/gen_op_registry.py (see core/dialect/optable.def).
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
    std::string_view forward; ///< backward ops: full name of the forward op
    bool inplaceTrait = false; ///< has Paddle's InplaceTrait (the `_` variants)
    bool variadicResults = false; ///< the result count is not fixed (builtin.split, pd_op.if, ...)
    int numRegions = 0; ///< control-flow ops: regions they own
    std::string_view source; ///< YAML file ("ops.yaml") or Paddle header of a hand-written op
};

} // namespace ps
