"""The models that make_pass_fixtures.py traces for the pass fixtures.

Each builder returns (layer, input_specs, description); input_specs is a list of
(name, shape, dtype). Layers are built inside `paddle.utils.unique_name.guard()` by the caller,
so parameter names restart for every case. Shapes are static and tiny: the fixtures stay small
and every pass constraint that looks at shapes can be decided.
"""

import numpy as np


def pass_fixture_models():
    """name -> builder (imports paddle lazily)."""
    import paddle
    import paddle.nn.functional as F
    from paddle import nn

    class ConvBnAct(nn.Layer):
        def __init__(self, cin, cout, k, stride=1, groups=1, act="relu"):
            super().__init__()
            self.conv = nn.Conv2D(cin, cout, k, stride=stride, padding=k // 2, groups=groups, bias_attr=False)
            self.bn = nn.BatchNorm2D(cout)
            self.act = act

        def forward(self, x):
            y = self.bn(self.conv(x))
            if self.act == "relu":
                return F.relu(y)
            if self.act == "hardswish":
                return F.hardswish(y)
            if self.act == "silu":
                return y * F.sigmoid(y)
            return y

    class SqueezeExcite(nn.Layer):
        def __init__(self, c):
            super().__init__()
            self.pool = nn.AdaptiveAvgPool2D(1)
            self.reduce = nn.Conv2D(c, c // 4, 1)
            self.expand = nn.Conv2D(c // 4, c, 1)

        def forward(self, x):
            s = F.relu(self.reduce(self.pool(x)))
            return x * F.hardsigmoid(self.expand(s))

    class PpOcrLike(nn.Layer):
        """PP-LCNet-like backbone: conv+bn+act stem, depthwise-separable blocks with SE, a
        biased conv neck with relu and sigmoid heads, pooled flatten + linear classifier."""

        def __init__(self):
            super().__init__()
            self.stem = ConvBnAct(3, 8, 3, stride=2, act="hardswish")
            self.dw = ConvBnAct(8, 8, 3, groups=8, act="hardswish")
            self.se = SqueezeExcite(8)
            self.pw = ConvBnAct(8, 16, 1, act="hardswish")
            self.body = ConvBnAct(16, 16, 3, act="silu")
            self.neck = nn.Conv2D(16, 8, 3, padding=1)
            self.head = nn.Conv2D(8, 1, 1)
            self.pool = nn.AdaptiveAvgPool2D(1)
            self.fc = nn.Linear(16, 4)

        def forward(self, x):
            y = self.body(self.pw(self.se(self.dw(self.stem(x)))))
            seg = F.sigmoid(self.head(F.relu(self.neck(y))))
            cls = self.fc(paddle.flatten(self.pool(y), 1))
            return seg, cls

    class MlpAct(nn.Layer):
        """Linear layers with relu, gelu (tanh approximation), none; matmul by a parameter
        followed by scale; a rank-3 linear."""

        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(8, 16)
            self.fc2 = nn.Linear(16, 16)
            self.fc3 = nn.Linear(16, 8)
            self.w = self.create_parameter([8, 8])
            self.fc4 = nn.Linear(8, 8)

        def forward(self, x, z):
            h = F.relu(self.fc1(x))
            h = F.gelu(self.fc2(h), approximate=True)
            h = self.fc3(h)
            h = paddle.matmul(h, self.w) * 0.5
            return h, F.relu(self.fc4(z))

    class AttentionBlock(nn.Layer):
        """A hand-written attention block: q k^T through an explicit transpose, scaled after the
        matmul, a transpose of a matmul result, two transposes in a row, an identity transpose,
        post-norm residual layer norms and a gelu FFN."""

        def __init__(self, d=8, heads=2):
            super().__init__()
            self.d, self.heads = d, heads
            self.q = nn.Linear(d, d)
            self.k = nn.Linear(d, d)
            self.v = nn.Linear(d, d)
            self.o = nn.Linear(d, d)
            self.norm1 = nn.LayerNorm(d)
            self.ffn1 = nn.Linear(d, 2 * d)
            self.ffn2 = nn.Linear(2 * d, d)
            self.norm2 = nn.LayerNorm(d)

        def split(self, t):
            return t.reshape([0, 0, self.heads, self.d // self.heads]).transpose([0, 2, 1, 3])

        def forward(self, x):
            q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
            att = F.softmax(paddle.matmul(q, k.transpose([0, 1, 3, 2])) * 0.5, axis=-1)
            ctx = paddle.matmul(att, v).transpose([0, 1, 3, 2])
            ctx = ctx.transpose([0, 3, 1, 2]).transpose([0, 1, 2, 3]).reshape([0, 0, self.d])
            h = self.norm1(x + self.o(ctx))
            return self.norm2(h + self.ffn2(F.gelu(self.ffn1(h))))

    class ResidualConv(nn.Layer):
        """ResNet-style residual convs: relu(x + conv(x)) (conv, bias add, residual add, relu),
        relu(conv(x) + x) (the residual on the other side), conv(x) + data + relu, and a conv
        without bias plus data then relu (a non-persistable addend)."""

        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2D(4, 4, 3, padding=1)
            self.conv2 = nn.Conv2D(4, 4, 3, padding=1)
            self.conv3 = nn.Conv2D(4, 4, 1)
            self.conv4 = nn.Conv2D(4, 4, 1, bias_attr=False)

        def forward(self, x, y):
            h = F.relu(x + self.conv1(x))
            h = F.relu(self.conv2(h) + h)
            h = F.relu(self.conv3(h) + y)
            return F.relu(self.conv4(h) + y)

    class FusionEdges(nn.Layer):
        """Near misses: a matmul + 2-D bias of batch rows, a matmul by a transposed weight, a
        scale with bias after a matmul by a parameter, a scale by 1 of a tensor used twice."""

        def __init__(self):
            super().__init__()
            self.w = self.create_parameter([8, 8])
            self.b2 = self.create_parameter([2, 8])
            self.b1 = self.create_parameter([1, 8])

        def forward(self, x):
            a = F.relu(paddle.matmul(x, self.w) + self.b2)
            b = F.relu(paddle.matmul(x, self.w) + self.b1)
            c = paddle.matmul(x, self.w, transpose_y=True) + self.b1
            d = paddle.scale(paddle.matmul(x, self.w), 2.0, 1.0)
            e = paddle.scale(x, 1.0, 0.5)
            return a + b + c + d + e

    class IdentityOps(nn.Layer):
        """Everything identity_op_clean_pass removes: scale by 1, scale chains, casts to the same
        dtype, cast chains, one-input concat, dropout at inference in both modes."""

        def forward(self, x):
            a = paddle.scale(x, 1.0, 0.0)
            b = paddle.scale(paddle.scale(x, 2.0, 1.0), 3.0, 0.5, bias_after_scale=False)
            c = paddle.cast(x, "float32")
            d = paddle.cast(paddle.cast(x, "float64"), "float32")
            e = paddle.concat([x], axis=1)
            f = F.dropout(x, 0.1, training=False)
            g = F.dropout(x, 0.25, training=False, mode="downscale_in_infer")
            i = paddle.cast(paddle.cast(x, "int32"), "float32")
            return a + b + c + d + e + f + g + i

    class RmsNormBlock(nn.Layer):
        """A residual add then a hand-written RMSNorm (pow, mean, + eps, rsqrt, multiply,
        multiply by the weight), twice."""

        def __init__(self, d=8):
            super().__init__()
            self.w1 = self.create_parameter([d], default_initializer=nn.initializer.Constant(1.0))
            self.w2 = self.create_parameter([d], default_initializer=nn.initializer.Constant(1.0))
            self.fc = nn.Linear(d, d)

        def rms(self, x, w):
            var = x.pow(2).mean(-1, keepdim=True)
            return paddle.rsqrt(var + 1e-6) * x * w

        def forward(self, x, r):
            h = self.rms(x + r, self.w1)
            return self.rms(self.fc(h), self.w2)

    class NormVariants(nn.Layer):
        """Residual layer norms with residuals of x's shape (fused, also as a parameter and on
        either side), of another shape or rank (not fused); RMS norms with pow(3) and a scale
        by 2 (fused all the same: Paddle checks neither), over two axes (not fused); pre-norm
        residual sums that feed one more add (the extra-add patterns)."""

        def __init__(self, d=8):
            super().__init__()
            self.ln = nn.LayerNorm(d)
            self.ln2 = nn.LayerNorm(d)
            self.p = self.create_parameter([2, 3, d])
            self.w = self.create_parameter([d], default_initializer=nn.initializer.Constant(1.0))
            self.fc = nn.Linear(d, d)

        def rms(self, x, p=2, factor=1.0, axis=-1):
            var = x.pow(p).mean(axis, keepdim=True)
            return paddle.rsqrt(paddle.scale(var, factor, 1e-6)) * x * self.w

        def forward(self, x, a, b, c):
            y = self.ln(x + a) + self.ln(x + b) + self.ln(x + self.p) + self.ln(x + c) + self.ln(c + x)
            y = y + self.rms(x, p=3) + self.rms(x, factor=2.0) + self.rms(x, axis=[1, 2])
            h = y + c
            out = h + self.fc(self.ln2(h))
            h2 = out + x
            return self.fc(self.ln2(h2)) + h2

    class SiluVariants(nn.Layer):
        """x * sigmoid(x) (fused), sigmoid(x) * x (not: the pattern fixes the operand order),
        F.silu (already fused), sigmoid(x) used twice."""

        def forward(self, x):
            a = x * F.sigmoid(x)
            b = F.sigmoid(x) * x
            s = F.sigmoid(x + 1.0)
            c = (x + 1.0) * s + s
            return a + b + F.silu(x) + c

    def ppocr_like():
        return PpOcrLike(), [("x", [None, 3, None, None], "float32")], PpOcrLike.__doc__

    def mlp_act():
        return MlpAct(), [("x", [None, 8], "float32"), ("z", [2, 3, 8], "float32")], MlpAct.__doc__

    def attention_block():
        return AttentionBlock(), [("x", [None, 4, 8], "float32")], AttentionBlock.__doc__

    def identity_ops():
        return IdentityOps(), [("x", [2, 4], "float32")], IdentityOps.__doc__

    def rms_norm_block():
        return RmsNormBlock(), [("x", [None, 3, 8], "float32"), ("r", [None, 3, 8], "float32")], RmsNormBlock.__doc__

    def residual_conv():
        return ResidualConv(), [("x", [1, 4, 6, 6], "float32"), ("y", [1, 4, 6, 6], "float32")], ResidualConv.__doc__

    def fusion_edges():
        return FusionEdges(), [("x", [2, 8], "float32")], FusionEdges.__doc__

    def norm_variants():
        specs = [("x", [2, 3, 8], "float32"), ("a", [1, 3, 8], "float32"), ("b", [3, 8], "float32"),
                 ("c", [2, 3, 8], "float32")]
        return NormVariants(), specs, NormVariants.__doc__

    def silu_variants():
        return SiluVariants(), [("x", [2, 4], "float32")], SiluVariants.__doc__

    return {
        "ppocr_like": ppocr_like,
        "mlp_act": mlp_act,
        "attention_block": attention_block,
        "identity_ops": identity_ops,
        "rms_norm_block": rms_norm_block,
        "silu_variants": silu_variants,
        "norm_variants": norm_variants,
        "residual_conv": residual_conv,
        "fusion_edges": fusion_edges,
    }
