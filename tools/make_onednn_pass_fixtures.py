"""Writes golden programs of Paddle's oneDNN fusion passes (tests/fixtures/onednn_passes/).

Run with PaddlePaddle installed (`pip install paddlepaddle==3.3.1`, the CPU wheel has oneDNN):
    python3 tools/make_onednn_pass_fixtures.py tests/fixtures/onednn_passes [CASE...]

Each case is a small layer saved with `paddle.jit.save` and loaded by a `paddle.inference`
predictor on the CPU as configured by default (oneDNN on: the `inference-onednn` pipeline) with
`switch_ir_debug(True)`, which prints the program before and after every pass. Only the oneDNN
section of the pipeline is kept (up to and including `onednn_placement_pass`); to stay small the
folder holds each program once:

    <case>/manifest.json      {"paddle": "3.3.1", "source": ..., "pipeline": [...],
                               "passes": [[pass, "changed" | "unchanged"], ...]} in run order
    <case>/input.txt          the program the pipeline started from, as Paddle printed it
    <case>/<i>.<pass>.txt     the program after the i-th pass of "passes" (changed ones only)
    <case>/model.json         the program as `paddle.jit.save` wrote it
    <case>/model.pdiparams    its parameters

The program before pass i is the after-text of the last changed pass before it (or input.txt).
The layers mix patterns the passes fuse with near misses they must leave (a conv result read
twice, a bias computed from the input, a leaky_relu with a negative slope, ...).
"""

import json
import os
import shutil
import sys
import tempfile

import numpy as np
import paddle

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_pipeline_pass_fixtures import captured_stdout, parse_ir_log  # noqa: E402

F = paddle.nn.functional
LAST_PASS = "onednn_placement_pass"  # the oneDNN section ends with it (it renames the ops)


class ConvBnAct(paddle.nn.Layer):
    """conv+bn (with and without the conv's bias) and conv+bias followed by each kind of
    activation conv_activation_mkldnn_fuse_pass takes, and near misses."""

    def __init__(self):
        super().__init__()
        self.c1 = paddle.nn.Conv2D(3, 8, 3, padding=1, bias_attr=False)
        self.bn1 = paddle.nn.BatchNorm2D(8)
        self.c2 = paddle.nn.Conv2D(8, 8, 3, padding=1)
        self.bn2 = paddle.nn.BatchNorm2D(8)
        self.c3 = paddle.nn.Conv2D(8, 8, 1)
        self.c4 = paddle.nn.Conv2D(8, 8, 3, padding=1, bias_attr=False)
        self.c5 = paddle.nn.Conv2D(8, 8, 3, stride=2, padding=1)
        self.c6 = paddle.nn.Conv2D(8, 8, 1)
        self.c7 = paddle.nn.Conv2D(8, 8, 1)
        self.c8 = paddle.nn.Conv2D(8, 8, 1)
        self.c9 = paddle.nn.Conv2D(8, 8, 1)

    def forward(self, x):
        a = F.relu(self.bn1(self.c1(x)))
        # (conv + leaky_relu with a positive slope crashes Paddle 3.3.1's
        # conv_activation_mkldnn_fuse_pass: a segmentation fault, so no case has one)
        b = F.hardsigmoid(self.bn2(self.c2(a)))
        c = F.hardswish(self.c3(b))
        d = F.sigmoid(self.c4(c))  # no bias: conv + activation alone
        e = F.relu6(self.c5(d))
        f = F.gelu(self.c6(e))
        g = paddle.clip(self.c7(f), -1.0, 2.0)
        h = self.c8(g)
        i = F.tanh(h) + h  # the conv result is read twice: no activation fusion
        j = F.leaky_relu(self.c9(i), -0.2)  # a negative slope: not fused
        return F.swish(j) + paddle.abs(j)


class ResNetBlocks(paddle.nn.Layer):
    """A ResNet stem and two basic blocks, the second one downsampling with a 1x1 conv+bn."""

    def __init__(self):
        super().__init__()
        self.stem = paddle.nn.Conv2D(3, 8, 3, padding=1, bias_attr=False)
        self.bn0 = paddle.nn.BatchNorm2D(8)
        self.a1 = paddle.nn.Conv2D(8, 8, 3, padding=1, bias_attr=False)
        self.abn1 = paddle.nn.BatchNorm2D(8)
        self.a2 = paddle.nn.Conv2D(8, 8, 3, padding=1, bias_attr=False)
        self.abn2 = paddle.nn.BatchNorm2D(8)
        self.b1 = paddle.nn.Conv2D(8, 16, 3, stride=2, padding=1, bias_attr=False)
        self.bbn1 = paddle.nn.BatchNorm2D(16)
        self.b2 = paddle.nn.Conv2D(16, 16, 3, padding=1, bias_attr=False)
        self.bbn2 = paddle.nn.BatchNorm2D(16)
        self.down = paddle.nn.Conv2D(8, 16, 1, stride=2, bias_attr=False)
        self.dbn = paddle.nn.BatchNorm2D(16)
        self.fc = paddle.nn.Linear(16, 10)

    def forward(self, x):
        y = F.max_pool2d(F.relu(self.bn0(self.stem(x))), 2)
        y = F.relu(self.abn2(self.a2(F.relu(self.abn1(self.a1(y))))) + y)
        z = self.bbn2(self.b2(F.relu(self.bbn1(self.b1(y)))))
        y = F.relu(z + self.dbn(self.down(y)))
        return self.fc(paddle.flatten(F.adaptive_avg_pool2d(y, 1), 1))


class MobileBlocks(paddle.nn.Layer):
    """MobileNetV3-like: depthwise_conv2d ops, hardswish, squeeze-excitation with hardsigmoid."""

    def __init__(self):
        super().__init__()
        self.expand = paddle.nn.Conv2D(8, 16, 1, bias_attr=False)
        self.ebn = paddle.nn.BatchNorm2D(16)
        self.dw_w = self.create_parameter([16, 1, 3, 3])
        self.dbn = paddle.nn.BatchNorm2D(16)
        self.se1 = paddle.nn.Conv2D(16, 4, 1)
        self.se2 = paddle.nn.Conv2D(4, 16, 1)
        self.project = paddle.nn.Conv2D(16, 8, 1, bias_attr=False)
        self.pbn = paddle.nn.BatchNorm2D(8)
        self.dw2_w = self.create_parameter([8, 1, 3, 3])

    def forward(self, x):
        y = F.hardswish(self.ebn(self.expand(x)))
        y = paddle._C_ops.depthwise_conv2d(y, self.dw_w, [1, 1], [1, 1], "EXPLICIT", 16, [1, 1], "NCHW")
        y = F.hardswish(self.dbn(y))
        s = F.adaptive_avg_pool2d(y, 1)
        s = F.hardsigmoid(self.se2(F.relu(self.se1(s))))
        y = self.pbn(self.project(y * s)) + x
        z = paddle._C_ops.depthwise_conv2d(y, self.dw2_w, [2, 2], [1, 1], "EXPLICIT", 8, [1, 1], "NCHW")
        return F.mish(z)


class Mlp(paddle.nn.Layer):
    """Linear layers with activations (fc), a matmul without bias and an activation, a matmul
    plus a residual, elementwise ops with activations, and a scale after a matmul."""

    def __init__(self):
        super().__init__()
        self.l1 = paddle.nn.Linear(8, 16)
        self.l2 = paddle.nn.Linear(16, 16)
        self.l3 = paddle.nn.Linear(16, 8)
        self.w = self.create_parameter([8, 8])
        self.w2 = self.create_parameter([8, 8])

    def forward(self, x, r):
        h = F.gelu(self.l1(x))
        h = F.relu(self.l2(h))
        h = F.sigmoid(self.l3(h))
        m = F.tanh(paddle.matmul(h, self.w))
        m = paddle.matmul(m, self.w2) + r
        e = F.relu(m + r)
        e = F.hardswish(e * r)
        return paddle.scale(paddle.matmul(e, self.w, transpose_y=True), 0.5)


class ScaleFusions(paddle.nn.Layer):
    """A scale without bias after an fc, a matmul of two activations, an add + relu and a
    subtract (operator_scale_onednn_fuse_pass), and one with a bias (left)."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(8, 8)

    def forward(self, x, y):
        a = self.fc(x) * 2.0
        b = paddle.matmul(a, y, transpose_y=True) * 0.5
        c = F.relu(paddle.matmul(b, y) + x) * 3.0
        d = (c - x) * 0.25
        return paddle.scale(d, 2.0, 1.0) + b.sum()


class ReshapeFusions(paddle.nn.Layer):
    """squeeze + transpose (squeeze_transpose_onednn_fuse_pass); transpose, fused_transpose and a
    multiply, plain or fused with a relu, + unsqueeze (operator_unsqueeze_onednn_fuse_pass); an fc,
    a transpose and a fused_transpose + reshape (operator_reshape_onednn_fuse_pass); near misses:
    a reshape with a 0 in its shape, a transpose read twice, a fused_transpose that has an
    unsqueeze already."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(16, 12)

    def forward(self, x, y, z):
        a = paddle.transpose(paddle.squeeze(x, 1), [0, 2, 1])
        a = paddle.reshape(a, [2, 32])
        b = paddle.reshape(paddle.transpose(y, [1, 0, 2]), [4, -1])
        c = paddle.unsqueeze(paddle.transpose(y, [0, 2, 1]), [1])
        d = paddle.unsqueeze(y * z, [0])
        e = paddle.unsqueeze(F.relu(y - z * 2.0), [-1])  # a fused subtract: not fused
        e2 = paddle.unsqueeze(F.relu(z * z), [-1])  # a fused_elementwise_mul: fused
        f = paddle.reshape(self.fc(b), [4, 3, 4])
        g = paddle.reshape(paddle.transpose(z, [2, 1, 0]), [0, -1])
        t = paddle.transpose(z, [1, 2, 0])
        h = paddle.reshape(t, [4, 16]).sum() + t.sum()
        i = paddle.reshape(paddle.unsqueeze(paddle.transpose(z, [0, 2, 1]), [0]), [16, 4])
        j = paddle.unsqueeze(paddle.transpose(paddle.squeeze(x, [-3]), [1, 0, 2]), [2])
        return a, c, d, e, e2, f, g, h, i, j


class NormSoftplus(paddle.nn.Layer):
    """batch_norm + relu (batch_norm_act_fuse_pass) and near misses (another activation, the norm
    read twice, an epsilon above 0.001); softplus + each activation softplus_activation_fuse_pass
    takes, and a softplus read twice."""

    def __init__(self):
        super().__init__()
        self.bn1 = paddle.nn.BatchNorm2D(4)
        self.bn2 = paddle.nn.BatchNorm2D(4)
        self.bn3 = paddle.nn.BatchNorm2D(4)
        self.bn4 = paddle.nn.BatchNorm2D(4, epsilon=0.01)

    def forward(self, x):
        a = F.relu(self.bn1(x))
        b = F.sigmoid(self.bn2(a))
        c = self.bn3(b)
        d = F.relu(c) + c
        e = F.relu(self.bn4(d))
        acts = [
            paddle.abs,
            F.gelu,
            lambda v: F.gelu(v, approximate=True),
            lambda v: F.hardsigmoid(v, 0.25, 0.4),
            F.hardswish,
            lambda v: F.leaky_relu(v, 0.15),
            F.mish,
            F.relu,
            F.relu6,
            F.sigmoid,
            paddle.sqrt,
            F.swish,
            F.tanh,
            lambda v: paddle.clip(v, -0.5, 1.5),
        ]
        outs = [act(F.softplus(e, beta=1.0 + 0.5 * k, threshold=10.0 + k)) for k, act in enumerate(acts)]
        s = F.softplus(e, beta=3.0)
        outs.append(F.relu(s) + s)
        return outs


class AttentionFusions(paddle.nn.Layer):
    """Multi-head attention's reshapes and transposes around matmuls: reshape + transpose into
    a matmul operand or both (reshape_transpose_matmul_fuse_pass), a matmul
    + transpose [0, 2, 1, 3] + reshape to 3-D (matmul_transpose_reshape_fuse_pass); near misses: another perm, a 4-D reshape, a
    transpose read twice."""

    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([16, 16])

    def forward(self, x, y, z):
        q = paddle.transpose(paddle.reshape(x, [2, 4, 2, 8]), [0, 2, 1, 3])
        k = paddle.transpose(paddle.reshape(y, [2, 4, 2, 8]), [0, 2, 3, 1])
        v = paddle.transpose(paddle.reshape(z, [2, 4, 2, 8]), [0, 2, 1, 3])
        s = F.softmax(paddle.matmul(q, k), -1)
        o = paddle.reshape(paddle.transpose(paddle.matmul(s, v), [0, 2, 1, 3]), [2, 4, 16])
        p = paddle.reshape(paddle.transpose(paddle.matmul(s, s), [0, 2, 3, 1]), [2, 4, 8])  # perm
        r = paddle.reshape(paddle.transpose(paddle.matmul(v, k), [0, 2, 1, 3]), [2, 2, 4, 4])  # 4-D
        t = paddle.transpose(paddle.matmul(k, q), [0, 2, 1, 3])
        u = paddle.reshape(t, [2, 8, 16]) + t.sum()  # read twice
        q2 = paddle.transpose(paddle.reshape(x - y, [2, 4, 2, 8]), [0, 2, 1, 3])
        k2 = paddle.transpose(paddle.reshape(y - z, [2, 4, 2, 8]), [0, 2, 3, 1])
        b = paddle.matmul(q2, k2)  # both operands
        c = paddle.matmul(paddle.transpose(paddle.reshape(x * z, [2, 4, -1, 8]), [0, 2, 1, 3]), self.w[:8])
        return o, p, r, u, b, c


class MatmulReshapeAdd(paddle.nn.Layer):
    """A matmul of reshaped operands, reshaped back and plus a bias (matmul_reshape_add_fuse_pass),
    the bias first or second, and a near miss (a bias of another shape). Paddle's fc keeps the
    matmul's 2-D result: the fetch reads another shape than declared."""

    def __init__(self):
        super().__init__()
        self.w = self.create_parameter([16, 16])
        self.b = self.create_parameter([16], is_bias=True)
        self.b2 = self.create_parameter([1, 16], is_bias=True)
        self.b3 = self.create_parameter([4, 16], is_bias=True)

    def forward(self, x, y):
        a = paddle.reshape(paddle.matmul(paddle.reshape(x, [8, 16]), paddle.reshape(self.w, [16, 16])), [2, 4, 16])
        b = paddle.matmul(paddle.reshape(y, [8, 16]), paddle.reshape(self.w, [16, 16]))
        c = paddle.matmul(paddle.reshape(x - y, [8, 16]), paddle.reshape(self.w, [16, 16]))
        return a + self.b, self.b2 + paddle.reshape(b, [2, 4, 16]), paddle.reshape(c, [2, 4, 16]) + self.b3


class ConvVariants(paddle.nn.Layer):
    """conv2d_transpose + bias (conv2d_transpose_bias_fuse_pass), then a second persistable add,
    conv2d_transpose + batch norm and + a [1] parameter + batch norm
    (conv2d_transpose_bn/bias_bn_fuse_pass), conv3d + bias
    (conv3d_bias_fuse_pass), convs concatenated then activated
    (conv_concat_activation_mkldnn_fuse_pass; convs without bias: with one, Paddle 3.3.1's pass
    fails, reading an attribute fuse_activation its pattern never binds), a channel shuffle written as reshape + transpose +
    reshape (shuffle_channel_detect_pass), and near misses (an add of an input, a concat of a
    conv and an input, a shuffle transpose of another perm)."""

    def __init__(self):
        super().__init__()
        self.d1 = paddle.nn.Conv2DTranspose(4, 8, 3, stride=2, padding=1)
        self.d2 = paddle.nn.Conv2DTranspose(8, 8, 3, padding=1)
        self.extra = self.create_parameter([8, 1, 1], is_bias=True)
        self.d3 = paddle.nn.Conv2DTranspose(8, 8, 3, padding=1, bias_attr=False)
        self.bn3 = paddle.nn.BatchNorm2D(8)
        self.d4 = paddle.nn.Conv2DTranspose(8, 8, 3, padding=1)
        self.bn4 = paddle.nn.BatchNorm2D(8)
        self.d5 = paddle.nn.Conv2DTranspose(8, 8, 1)
        self.d6 = paddle.nn.Conv2DTranspose(8, 8, 1, bias_attr=False)
        self.p6 = self.create_parameter([1], is_bias=True)
        self.bn6 = paddle.nn.BatchNorm2D(8)
        self.ca = paddle.nn.Conv2D(8, 4, 1, bias_attr=False)
        self.cb = paddle.nn.Conv2D(8, 4, 3, padding=1, bias_attr=False)
        self.cc = paddle.nn.Conv2D(8, 8, 1)

    def forward(self, x, r):
        a = self.d1(x)
        b = self.d2(a) + self.extra
        c = self.bn3(self.d3(b))
        d = self.bn4(self.d4(c))
        e = self.d5(d) + r
        g = F.relu(paddle.concat([self.ca(e), self.cb(e)], axis=1))
        h = F.sigmoid(paddle.concat([self.cc(g), r], axis=1))
        n, ch, hh, ww = g.shape
        s = paddle.reshape(paddle.transpose(paddle.reshape(g, [n, 2, ch // 2, hh, ww]), [0, 2, 1, 3, 4]), [n, ch, hh, ww])
        t = paddle.reshape(paddle.transpose(paddle.reshape(e, [n, 2, ch // 2, hh, ww]), [0, 1, 2, 4, 3]), [n, ch, hh, ww])
        k = self.bn6(self.d6(e) + self.p6)
        return h, s, t, k


class Conv3dBias(paddle.nn.Layer):
    """conv3d + bias (conv3d_bias_fuse_pass) and a conv3d plus an input (left)."""

    def __init__(self):
        super().__init__()
        self.c1 = paddle.nn.Conv3D(2, 4, 3, padding=1)
        self.c2 = paddle.nn.Conv3D(4, 4, 1, bias_attr=False)

    def forward(self, v, r):
        return self.c2(self.c1(v)) + r


class SelfAttention(paddle.nn.Layer):
    """ViT's attention on a packed qkv: reshape to [B, S, 3, H, D], transpose [2, 0, 3, 1, 4],
    three slices, q @ k^T, softmax, @ v, transpose back (self_attention_fuse_pass's pattern,
    which Paddle compiles only into builds with AVX512F, MKLML and oneDNN)."""

    def __init__(self):
        super().__init__()
        self.b = self.create_parameter([48], is_bias=True)

    def forward(self, x):
        qkv = paddle.transpose(paddle.reshape(x + self.b, [2, 4, 3, 2, 8]), [2, 0, 3, 1, 4])
        q, k, v = qkv[0], qkv[1], qkv[2]
        s = F.softmax(paddle.matmul(q, paddle.transpose(k, [0, 1, 3, 2])), -1)
        return paddle.transpose(paddle.matmul(s, v), [0, 2, 1, 3])


CASES = {
    "conv_bn_act": (ConvBnAct, [("x", [1, 3, 8, 8], "float32")]),
    "resnet_blocks": (ResNetBlocks, [("x", [1, 3, 16, 16], "float32")]),
    "mobile_blocks": (MobileBlocks, [("x", [1, 8, 8, 8], "float32")]),
    "mlp": (Mlp, [("x", [2, 4, 8], "float32"), ("r", [2, 4, 8], "float32")]),
    "scale_fusions": (ScaleFusions, [("x", [4, 8], "float32"), ("y", [4, 8], "float32")]),
    "reshape_fusions": (
        ReshapeFusions,
        [("x", [2, 1, 4, 8], "float32"), ("y", [2, 4, 8], "float32"), ("z", [2, 4, 8], "float32")],
    ),
    "norm_softplus": (NormSoftplus, [("x", [1, 4, 6, 6], "float32")]),
    "conv_variants": (
        ConvVariants,
        [("x", [1, 4, 5, 5], "float32"), ("r", [1, 8, 9, 9], "float32")],
    ),
    "conv3d_bias": (Conv3dBias, [("v", [1, 2, 4, 4, 4], "float32"), ("r", [1, 4, 4, 4, 4], "float32")]),
    "self_attention": (SelfAttention, [("x", [2, 4, 48], "float32")]),
    "matmul_reshape_add": (MatmulReshapeAdd, [("x", [2, 4, 16], "float32"), ("y", [2, 4, 16], "float32")]),
    "attention_fusions": (
        AttentionFusions,
        [("x", [2, 4, 16], "float32"), ("y", [2, 4, 16], "float32"), ("z", [2, 4, 16], "float32")],
    ),
}


def predictor_case(out_dir, name, layer_cls, inputs):
    paddle.disable_static()
    paddle.seed(2024)
    layer = layer_cls()
    layer.eval()
    for p in layer.parameters():  # batch-norm statistics that are not 0 and 1
        if p.name.endswith("_mean") or p.name.endswith("_variance"):
            p.set_value(np.random.uniform(0.5, 1.5, p.shape).astype("float32"))
    specs = [paddle.static.InputSpec(shape, dtype, n) for n, shape, dtype in inputs]
    work = tempfile.mkdtemp()
    try:
        prefix = os.path.join(work, "model")
        paddle.jit.save(paddle.jit.to_static(layer, input_spec=specs, full_graph=True), prefix)
        config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
        config.disable_gpu()
        config.switch_ir_debug(True)
        log_path = os.path.join(work, "ir.log")
        with captured_stdout(log_path):
            paddle.inference.create_predictor(config)
        with open(log_path) as f:
            steps = parse_ir_log(f.read())
        case = os.path.join(out_dir, name)
        shutil.rmtree(case, ignore_errors=True)
        os.makedirs(case)
        shutil.copy(prefix + ".json", os.path.join(case, "model.json"))
        shutil.copy(prefix + ".pdiparams", os.path.join(case, "model.pdiparams"))
        write_steps(case, steps)
    finally:
        shutil.rmtree(work)


def write_steps(case, steps):
    pipeline = [n for when, n, _ in steps if when == "before"]
    passes = []
    before = None
    for when, name, text in steps:
        if when == "before":
            if before is None:
                with open(os.path.join(case, "input.txt"), "w") as f:
                    f.write(text)
            before = text
            continue
        changed = text != before
        if changed:
            with open(os.path.join(case, "%d.%s.txt" % (len(passes), name)), "w") as f:
                f.write(text)
        passes.append([name, "changed" if changed else "unchanged"])
        if name == LAST_PASS:
            break
    manifest = {
        "paddle": paddle.__version__,
        "source": "paddle.inference predictor, CPU, oneDNN on (default), switch_ir_debug",
        "pipeline": pipeline,
        "passes": passes,
    }
    with open(os.path.join(case, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(case, ":", ", ".join(n for n, c in passes if c == "changed"))


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/onednn_passes"
    wanted = set(sys.argv[2:])
    np.random.seed(2024)
    for name, (cls, inputs) in CASES.items():
        if not wanted or name in wanted:
            predictor_case(out_dir, name, cls, inputs)


if __name__ == "__main__":
    main()
