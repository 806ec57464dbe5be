#pragma once

#include "core/ir/value.h"
#include "core/transform/runnableprogram.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace ps {

class PartialProgramLayer;
class Program;

/// Generated forward programs of any size, op for op what Paddle 3.3.1's
/// `paddle.jit.to_static(layer, full_graph=True)` traces for two model families (checked against
/// Paddle's own traces, see tools/bench_paddle_create_program.py): the same op names, operand
/// order, result types and attributes (kinds included), `builtin.parameter` ops at the top in
/// reverse creation order, the input `pd_op.data` named `_jst.0.x.0`, and a `mean` loss as the
/// only output. Used to benchmark and test the dy2static pipeline on large programs.
///
/// - mlp: `layers` × (nn.Linear, relu on even / gelu on odd layers, nn.LayerNorm), then
///   `x.mean()`. 8 ops per layer + 3.
/// - transformer: nn.TransformerEncoder of `layers` nn.TransformerEncoderLayer (gelu, dropout 0,
///   which `F.dropout` short-circuits, so there is no dropout op), then `.mean()`. 50 ops per
///   layer + 3.
class SyntheticProgram
{
public:
    enum class Kind { Mlp, Transformer };

    /// The program and what PartialProgramLayer needs: the input values, the parameters in the
    /// layer's order (sorted by name, as dy2static lists them) and the outputs (the loss).
    struct Model
    {
        std::unique_ptr<Program> program;
        std::vector<Value> inputs;
        std::vector<Value> params;
        std::vector<Value> outputs;
    };

    /// x: [batch, width] float32. `layers` >= 1.
    static Model mlp(size_t layers, int width = 64, int batch = 32);
    /// x: [batch, seqLen, dModel] float32; `dModel` must be a multiple of `heads`. `layers` >= 1.
    static Model transformer(size_t layers, int dModel = 64, int heads = 4, int dimFeedforward = 256,
        int batch = 2, int seqLen = 16);

    /// The number of layers whose program has the closest op count <= `ops` (at least 1).
    static size_t layersForOps(Kind kind, size_t ops);
    /// Top-level ops of a model with `layers` layers.
    static size_t opsForLayers(Kind kind, size_t layers);
    /// mlp(layersForOps(...)) or transformer(layersForOps(...)) with the default sizes.
    static Model ofSize(Kind kind, size_t ops);

    /// "mlp", "transformer".
    static std::string_view kindName(Kind kind);
    static std::optional<Kind> kindFromName(std::string_view name);

    /// A PartialProgramLayer over the model (the input list and the loss as the outputs).
    static std::unique_ptr<PartialProgramLayer> layer(
        Model model, PipelineFlavour flavour = PipelineFlavour::Newest);
};

} // namespace ps
