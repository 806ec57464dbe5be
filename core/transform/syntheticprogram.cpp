#include "core/transform/syntheticprogram.h"

#include "core/dialect/ops.h"
#include "core/ir/block.h"
#include "core/ir/builder.h"
#include "core/ir/operation.h"
#include "core/ir/program.h"
#include "core/transform/nestsequence.h"
#include "core/transform/partialprogram.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace ps {

namespace {

constexpr size_t kMlpOpsPerLayer = 8; // 4 parameters, matmul, add, activation, layer_norm
constexpr size_t kTransformerOpsPerLayer = 50; // 16 parameters, 34 ops
constexpr size_t kFixedOps = 3; // pd_op.data, then the loss: full_int_array + mean

Attribute boolArray(std::initializer_list<bool> values)
{
    std::vector<Attribute> items;
    for (bool v : values)
        items.push_back(Attribute::boolean(v));
    return Attribute::array(std::move(items));
}

Attribute stopGradient(unsigned results = 1)
{
    return Attribute::array(std::vector<Attribute>(results, Attribute::boolean(false)));
}

Type f32(std::vector<int64_t> dims)
{
    return Type::denseTensor(DataType::Float32, std::move(dims));
}

/// `name` for the first instance of a layer class in its parent, `name_<k>` for the others.
std::string instance(const char *name, size_t k)
{
    return k == 0 ? std::string(name) : std::string(name) + "_" + std::to_string(k);
}

/// Emits ops the way to_static records them: parameters are created first (the layer's
/// __init__) and end up at the top of the block in reverse creation order (not in order of first
/// use, see the transformer), then come the input and the traced body.
class Tracer
{
public:
    Tracer()
        : m_program(std::make_unique<Program>())
        , m_builder(*m_program)
    {
        m_builder.setInsertionPointToEnd(m_program->block());
    }

    struct Linear
    {
        Value w, b;
    };
    struct Norm
    {
        Value w, b;
    };

    Value parameter(const std::string &name, std::vector<int64_t> dims)
    {
        const Type type = f32(std::move(dims));
        Operation *op
            = Operation::create(m_program->arena(), ops::kParameter, {}, std::span<const Type>(&type, 1),
                { { "is_distributed", boolArray({ false }) }, { "is_parameter", boolArray({ true }) },
                    { "need_clip", boolArray({ true }) }, { "parameter_name", Attribute::string(name) },
                    { "persistable", boolArray({ true }) }, { "stop_gradient", boolArray({ false }) },
                    { "trainable", boolArray({ true }) } });
        m_created.push_back(op);
        m_params.emplace_back(name, op->result(0));
        return op->result(0);
    }
    Linear linear(int in, int out)
    {
        const std::string base = "linear_" + std::to_string(m_linears++);
        Linear l;
        l.w = parameter(base + ".w_0", { in, out });
        l.b = parameter(base + ".b_0", { out });
        return l;
    }
    Norm layerNorm(int width)
    {
        const std::string base = "layer_norm_" + std::to_string(m_norms++);
        Norm n;
        n.w = parameter(base + ".w_0", { width });
        n.b = parameter(base + ".b_0", { width });
        return n;
    }

    /// Ends __init__: the parameter ops go to the top, then `pd_op.data` `_jst.0.x.0`.
    Value input(std::vector<int64_t> dims)
    {
        Block &block = m_program->block();
        for (auto it = m_created.rbegin(); it != m_created.rend(); ++it)
            block.push_back(*it);
        m_created.clear();
        m_input = op(ops::kData, {}, { f32(dims) },
            { { "name", Attribute::string("_jst.0.x.0") }, { "shape", Attribute::intArray(dims) },
                { "dtype", Attribute::dataType(DataType::Float32) }, { "place", Attribute::place(Place {}) },
                { "stop_gradient", stopGradient() } })
                      ->result(0);
        return m_input;
    }

    Operation *op(std::string_view name, std::initializer_list<Value> operands,
        std::initializer_list<Type> results, std::vector<NamedAttribute> attributes)
    {
        return m_builder.create(name, operands, results, std::move(attributes));
    }

    static NamedAttribute scope(const std::string &structName)
    {
        return { "struct_name", Attribute::string(structName) };
    }

    Value matmul(Value x, Value y, Type out, const std::string &structName, bool transposeY = false)
    {
        return op(ops::kMatmul, { x, y }, { out },
            { { "transpose_x", Attribute::boolean(false) }, { "transpose_y", Attribute::boolean(transposeY) },
                scope(structName), { "stop_gradient", stopGradient() } })
            ->result(0);
    }
    Value add(Value x, Value y, const std::string &structName)
    {
        return op(
            ops::kAdd, { x, y }, { x.type() }, { scope(structName), { "stop_gradient", stopGradient() } })
            ->result(0);
    }
    /// nn.Linear's forward: matmul + add, both under the Linear's struct name.
    Value applyLinear(Value x, const Linear &l, const std::string &structName)
    {
        std::vector<int64_t> dims = x.type().dims();
        dims.back() = l.w.type().dims().back();
        return add(matmul(x, l.w, f32(std::move(dims)), structName), l.b, structName);
    }
    Value applyNorm(Value x, const Norm &n, const std::string &structName)
    {
        const std::vector<int64_t> &dims = x.type().dims();
        const Type stat = f32(std::vector<int64_t>(dims.begin(), dims.end() - 1));
        return op(ops::kLayerNorm, { x, n.w, n.b }, { x.type(), stat, stat },
            { { "epsilon", Attribute::f32(1e-05f) },
                { "begin_norm_axis", Attribute::int32(int32_t(dims.size() - 1)) }, scope(structName),
                { "stop_gradient", stopGradient(3) } })
            ->result(0);
    }
    /// `paddle.full_int_array` of int64 values on the CPU (a reshape's shape, a mean's axis).
    Value intArray(const std::vector<int64_t> &values, const std::string &structName)
    {
        std::vector<Attribute> items;
        for (int64_t v : values)
            items.push_back(Attribute::int64(v));
        std::vector<NamedAttribute> attributes { { "value", Attribute::array(std::move(items)) },
            { "dtype", Attribute::dataType(DataType::Int64) },
            { "place", Attribute::place(Place { Place::AllocType::Cpu, 0, {} }) } };
        if (!structName.empty())
            attributes.push_back(scope(structName));
        attributes.push_back({ "stop_gradient", boolArray({ true }) });
        return op(ops::kFullIntArray, {}, { Type::denseTensor(DataType::Int64, { int64_t(values.size()) }) },
            std::move(attributes))
            ->result(0);
    }
    /// `x.mean()`: the loss and the model's only output.
    Value mean(Value x)
    {
        const Value axes = intArray({}, {});
        return op(ops::kMean, { x, axes }, { f32({}) },
            { { "keepdim", Attribute::boolean(false) }, { "stop_gradient", stopGradient() } })
            ->result(0);
    }

    SyntheticProgram::Model finish(Value loss)
    {
        std::sort(
            m_params.begin(), m_params.end(), [](const auto &a, const auto &b) { return a.first < b.first; });
        SyntheticProgram::Model model;
        for (const auto &p : m_params)
            model.params.push_back(p.second);
        model.inputs = { m_input };
        model.outputs = { loss };
        model.program = std::move(m_program);
        return model;
    }

private:
    std::unique_ptr<Program> m_program;
    Builder m_builder;
    std::vector<Operation *> m_created;
    std::vector<std::pair<std::string, Value>> m_params;
    Value m_input;
    size_t m_linears = 0;
    size_t m_norms = 0;
};

struct EncoderLayer
{
    Tracer::Linear q, k, v, out, ffn1, ffn2;
    Tracer::Norm norm1, norm2;
};

Value transpose0213(Tracer &t, Value x, const std::string &scope)
{
    const std::vector<int64_t> &d = x.type().dims();
    std::vector<Attribute> perm;
    for (int p : { 0, 2, 1, 3 })
        perm.push_back(Attribute::int32(p));
    return t
        .op(ops::kTranspose, { x }, { f32({ d[0], d[2], d[1], d[3] }) },
            { { "perm", Attribute::array(std::move(perm)) }, Tracer::scope(scope),
                { "stop_gradient", stopGradient() } })
        ->result(0);
}

Value reshape(Tracer &t, Value x, Value shape, std::vector<int64_t> dims, const std::string &scope)
{
    return t
        .op(ops::kReshape, { x, shape }, { f32(std::move(dims)) },
            { Tracer::scope(scope), { "stop_gradient", stopGradient() } })
        ->result(0);
}

/// nn.MultiHeadAttention's `_prepare_qkv` split of one projection into heads:
/// [b, s, d] → reshape [0, 0, heads, d/heads] → transpose [0, 2, 1, 3].
Value splitHeads(Tracer &t, Value x, int64_t heads, const std::string &scope)
{
    const std::vector<int64_t> d = x.type().dims();
    const int64_t headDim = d[2] / heads;
    const Value shape = t.intArray({ 0, 0, heads, headDim }, scope);
    return transpose0213(t, reshape(t, x, shape, { d[0], d[1], heads, headDim }, scope), scope);
}

/// nn.TransformerEncoderLayer.forward (normalize_before=False, dropout 0) as traced.
Value encoderForward(Tracer &t, Value x, const EncoderLayer &l, int64_t heads, const std::string &layerScope)
{
    const std::string attn = layerScope + "MultiHeadAttention/";
    const std::vector<int64_t> d = x.type().dims(); // [b, s, dModel]
    const Value q = splitHeads(t, t.applyLinear(x, l.q, attn + "Linear/"), heads, attn);
    const Value k = t.applyLinear(x, l.k, attn + "Linear_1/");
    const Value v = t.applyLinear(x, l.v, attn + "Linear_2/");
    const Value kh = splitHeads(t, k, heads, attn);
    const Value vh = splitHeads(t, v, heads, attn);
    const int64_t headDim = d[2] / heads;
    const Value factor = t.op(ops::kFull, {}, { f32({ 1 }) },
                              { { "shape", Attribute::intArray({ 1 }) },
                                  { "value", Attribute::f64(std::pow(double(headDim), -0.5)) },
                                  { "dtype", Attribute::dataType(DataType::Float32) },
                                  { "place", Attribute::place(Place { Place::AllocType::Cpu, 0, {} }) },
                                  Tracer::scope(attn), { "stop_gradient", boolArray({ true }) } })
                             ->result(0);
    const Value scaled
        = t.op(ops::kScale, { q, factor }, { q.type() },
               { { "bias", Attribute::f32(0.0f) }, { "bias_after_scale", Attribute::boolean(true) },
                   Tracer::scope(attn), { "stop_gradient", stopGradient() } })
              ->result(0);
    const Value product = t.matmul(scaled, kh, f32({ d[0], heads, d[1], d[1] }), attn, true);
    const Value weights
        = t.op(ops::kSoftmax, { product }, { product.type() },
               { { "axis", Attribute::int32(-1) }, Tracer::scope(attn), { "stop_gradient", stopGradient() } })
              ->result(0);
    const Value context = t.matmul(weights, vh, f32({ d[0], heads, d[1], headDim }), attn);
    const Value merged = transpose0213(t, context, attn);
    const Value shape = t.intArray({ 0, 0, d[2] }, attn);
    const Value attended = t.applyLinear(reshape(t, merged, shape, d, attn), l.out, attn + "Linear_3/");
    const Value h = t.applyNorm(t.add(x, attended, layerScope), l.norm1, layerScope + "LayerNorm/");
    const Value up = t.applyLinear(h, l.ffn1, layerScope + "Linear/");
    const Value act = t.op("pd_op.gelu", { up }, { up.type() },
                           { { "approximate", Attribute::boolean(false) }, Tracer::scope(layerScope),
                               { "stop_gradient", stopGradient() } })
                          ->result(0);
    const Value down = t.applyLinear(act, l.ffn2, layerScope + "Linear_1/");
    return t.applyNorm(t.add(h, down, layerScope), l.norm2, layerScope + "LayerNorm_1/");
}

} // namespace

SyntheticProgram::Model SyntheticProgram::mlp(size_t layers, int width, int batch)
{
    layers = std::max<size_t>(layers, 1);
    Tracer t;
    std::vector<Tracer::Linear> linears;
    std::vector<Tracer::Norm> norms;
    for (size_t k = 0; k < layers; ++k)
        linears.push_back(t.linear(width, width));
    for (size_t k = 0; k < layers; ++k)
        norms.push_back(t.layerNorm(width));
    Value x = t.input({ batch, width });
    for (size_t k = 0; k < layers; ++k) {
        x = t.applyLinear(x, linears[k], "/" + instance("Linear", k) + "/");
        // F.relu / F.gelu in the root layer's forward: no struct_name.
        x = k % 2 == 0
            ? t.op(ops::kRelu, { x }, { x.type() }, { { "stop_gradient", stopGradient() } })->result(0)
            : t.op("pd_op.gelu", { x }, { x.type() },
                   { { "approximate", Attribute::boolean(false) }, { "stop_gradient", stopGradient() } })
                  ->result(0);
        x = t.applyNorm(x, norms[k], "/" + instance("LayerNorm", k) + "/");
    }
    return t.finish(t.mean(x));
}

SyntheticProgram::Model SyntheticProgram::transformer(
    size_t layers, int dModel, int heads, int dimFeedforward, int batch, int seqLen)
{
    layers = std::max<size_t>(layers, 1);
    Tracer t;
    std::vector<EncoderLayer> encoder;
    for (size_t k = 0; k < layers; ++k) {
        EncoderLayer l;
        l.q = t.linear(dModel, dModel);
        l.k = t.linear(dModel, dModel);
        l.v = t.linear(dModel, dModel);
        l.out = t.linear(dModel, dModel);
        l.ffn1 = t.linear(dModel, dimFeedforward);
        l.ffn2 = t.linear(dimFeedforward, dModel);
        l.norm1 = t.layerNorm(dModel);
        l.norm2 = t.layerNorm(dModel);
        encoder.push_back(l);
    }
    Value x = t.input({ batch, seqLen, dModel });
    for (size_t k = 0; k < layers; ++k)
        x = encoderForward(
            t, x, encoder[k], heads, "/TransformerEncoder/" + instance("TransformerEncoderLayer", k) + "/");
    return t.finish(t.mean(x));
}

size_t SyntheticProgram::opsForLayers(Kind kind, size_t layers)
{
    return kFixedOps + layers * (kind == Kind::Mlp ? kMlpOpsPerLayer : kTransformerOpsPerLayer);
}

size_t SyntheticProgram::layersForOps(Kind kind, size_t ops)
{
    const size_t perLayer = kind == Kind::Mlp ? kMlpOpsPerLayer : kTransformerOpsPerLayer;
    return std::max<size_t>(1, ops > kFixedOps ? (ops - kFixedOps) / perLayer : 0);
}

SyntheticProgram::Model SyntheticProgram::ofSize(Kind kind, size_t ops)
{
    const size_t layers = layersForOps(kind, ops);
    return kind == Kind::Mlp ? mlp(layers) : transformer(layers);
}

std::string_view SyntheticProgram::kindName(Kind kind)
{
    return kind == Kind::Mlp ? "mlp" : "transformer";
}

std::optional<SyntheticProgram::Kind> SyntheticProgram::kindFromName(std::string_view name)
{
    if (name == "mlp")
        return Kind::Mlp;
    if (name == "transformer")
        return Kind::Transformer;
    return std::nullopt;
}

std::unique_ptr<PartialProgramLayer> SyntheticProgram::layer(Model model, PipelineFlavour flavour)
{
    std::vector<NestNode> inputs;
    for (Value v : model.inputs)
        inputs.push_back(NestNode::leaf(v));
    std::vector<NestNode> outputs;
    for (Value v : model.outputs)
        outputs.push_back(NestNode::leaf(v));
    NestNode out = outputs.size() == 1 ? std::move(outputs.front()) : NestNode::list(std::move(outputs));
    return std::make_unique<PartialProgramLayer>(std::move(model.program),
        NestSequence(NestNode::list(std::move(inputs))), NestSequence(std::move(out)),
        std::move(model.params), flavour);
}

} // namespace ps
