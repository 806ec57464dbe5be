"""The built-in models of export_paddle_trace.py (`--builtin NAME`, `--all DIR`).

Each builder returns (layer, inputs, training, description); inputs is a list of
(argument name, numpy array, stop_gradient). Shapes are kept small so that every bundle stays
a few hundred KB.
"""

import numpy as np


def builtin_models():
    """name -> builder; each builder returns (layer, inputs, training, description).

    inputs is a list of (argument name, numpy array, stop_gradient). Imports paddle lazily so that
    `--verify` and `--help` stay cheap.
    """
    import paddle
    import paddle.nn.functional as F
    from paddle import _C_ops, nn

    rng = np.random.RandomState(2024)

    def floats(*shape):
        return rng.standard_normal(shape).astype("float32")

    class MlpCe(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(4, 6)
            self.fc2 = nn.Linear(6, 3)

        def forward(self, x, label):
            logits = self.fc2(F.relu(self.fc1(x)))
            return F.cross_entropy(logits, label)

    class LeNet(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2D(1, 3, 3, padding=1)
            self.conv2 = nn.Conv2D(3, 4, 3)
            self.fc = nn.Linear(4 * 1 * 1, 5)

        def forward(self, x):
            x = F.max_pool2d(F.relu(self.conv1(x)), 2)
            x = F.max_pool2d(F.relu(self.conv2(x)), 2)
            return self.fc(paddle.flatten(x, 1))

    class ConvBnRelu(nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2D(2, 4, 3, padding=1)
            self.bn = nn.BatchNorm2D(4)

        def forward(self, x):
            return F.relu(self.bn(self.conv(x)))

    class TransformerEncoder(nn.Layer):
        def __init__(self):
            super().__init__()
            self.enc = nn.TransformerEncoderLayer(
                d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, activation="gelu"
            )

        def forward(self, x):
            return self.enc(x)

    class InplaceChain(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 4)

        def forward(self, x, y):
            # F.relu_ / Tensor.add_ are out-of-place under to_static in Paddle 3.3.1
            # (paddle.utils.inplace_utils), so the in-place kernels are called directly.
            h = _C_ops.relu_(self.fc(x))
            s = _C_ops.add_(h * 2.0, y)
            g = paddle.sin(s)
            g[:, 0] = 0.5
            g = _C_ops.scale_(g, 2.0, 0.0, True)
            return g + h

    class PrunedParam(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 4)
            self.dead = self.create_parameter([4])
            self.unused = self.create_parameter([2, 2])

        def forward(self, x, mask):
            h = self.fc(x)
            _ = h * self.dead
            return h * mask

    class NestedOutput(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x):
            h = self.fc(x)
            t = paddle.tanh(h)
            s = paddle.nn.functional.sigmoid(h)
            return {"hidden": [h, t], "extra": (t, {"sig": s, "scale": 3}), "input": x}

    class ControlFlow(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x):
            h = self.fc(x)
            if paddle.mean(h) > 0:
                h = F.relu(h) * 2.0
            else:
                h = paddle.tanh(h) - 1.0
            i = paddle.full([1], 0, dtype="int64")
            n = paddle.full([1], 3, dtype="int64")
            while i < n:
                h = h * 0.5 + paddle.sin(h)
                i = i + 1
            return h

    class ControlFlowIf(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(3, 3)

        def forward(self, x):
            h = self.fc(x)
            if paddle.mean(h) > 0:
                h = F.relu(h) * 2.0
            else:
                h = paddle.tanh(h) - 1.0
            return h * h

    class EmbeddingMean(nn.Layer):
        def __init__(self):
            super().__init__()
            self.emb = nn.Embedding(10, 4)

        def forward(self, ids):
            return paddle.mean(self.emb(ids))

    def mlp_ce():
        label = rng.randint(0, 3, size=(4, 1)).astype("int64")
        return MlpCe(), [("x", floats(4, 4), False), ("label", label, True)], True, (
            "2-layer MLP, relu, cross-entropy loss (the only output)"
        )

    def lenet():
        return LeNet(), [("x", floats(2, 1, 6, 6), False)], True, "conv2d + relu + max_pool2d twice, flatten, linear"

    def conv_bn_relu():
        return ConvBnRelu(), [("x", floats(2, 2, 4, 4), False)], True, (
            "conv2d + batch_norm (training: batch_norm_ updates running mean/variance in place) + relu"
        )

    def transformer_encoder():
        return TransformerEncoder(), [("x", floats(2, 3, 8), False)], True, (
            "nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0, gelu)"
        )

    def inplace_chain():
        return InplaceChain(), [("x", floats(2, 4), False), ("y", floats(2, 4), False)], True, (
            "in-place ops on intermediates: pd_op.relu_, pd_op.add_, pd_op.set_value_ (g[:, 0] = 0.5), "
            "pd_op.scale_ (via _C_ops, since F.relu_ / Tensor.add_ trace out-of-place under to_static)"
        )

    def pruned_param():
        mask = (rng.rand(2, 4) > 0.5).astype("float32")
        return PrunedParam(), [("x", floats(2, 3), False), ("mask", mask, True)], True, (
            "parameter `dead` only feeds a discarded value, parameter `unused` is never touched, "
            "input `mask` has stop_gradient=True"
        )

    class NanLog(nn.Layer):
        """log of a linear layer's output: its negative elements become NaN, and so does the loss."""

        def __init__(self):
            super().__init__()
            self.fc = nn.Linear(4, 3)

        def forward(self, x):
            return paddle.log(self.fc(x)).mean()

    def nan_log():
        return NanLog(), [("x", floats(2, 4), False)], True, (
            "log of a linear output: NaN in the forward (negative elements) and in the backward"
        )

    def nested_output():
        return NestedOutput(), [("x", floats(2, 3), False)], True, (
            "returns {'hidden': [h, t], 'extra': (t, {'sig': s, 'scale': 3}), 'input': x}: t twice, "
            "a Python int, and the input itself (its fo name is the data name)"
        )

    def control_flow():
        return ControlFlow(), [("x", floats(2, 3), False)], True, (
            "`if` on a tensor value and a `while` loop (pd_op.if / pd_op.while)"
        )

    def control_flow_if():
        return ControlFlowIf(), [("x", floats(2, 3), False)], True, (
            "`if` on a tensor value only (pd_op.if); control_flow's while loop has no working backward"
        )

    def embedding_mean():
        ids = rng.randint(0, 10, size=(2, 3)).astype("int64")
        return EmbeddingMean(), [("ids", ids, True)], True, "embedding + mean"

    return {
        "mlp_ce": mlp_ce,
        "lenet": lenet,
        "conv_bn_relu": conv_bn_relu,
        "transformer_encoder": transformer_encoder,
        "inplace_chain": inplace_chain,
        "pruned_param": pruned_param,
        "nested_output": nested_output,
        "control_flow": control_flow,
        "control_flow_if": control_flow_if,
        "embedding_mean": embedding_mean,
        "nan_log": nan_log,
    }


BUILTIN_NAMES = [
    "mlp_ce",
    "lenet",
    "conv_bn_relu",
    "transformer_encoder",
    "inplace_chain",
    "pruned_param",
    "nested_output",
    "control_flow",
    "control_flow_if",
    "embedding_mean",
    "nan_log",
]
