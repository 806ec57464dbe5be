"""Writes tests/fixtures/paddle_logs/: pass logs that real PaddlePaddle 3.3.1 prints.

Run with PaddlePaddle installed (`pip install paddlepaddle==3.3.1`, CPU is enough):
    python3 tools/make_paddle_pass_logs.py tests/fixtures/paddle_logs

Each scenario runs in its own Python process (so op ids restart) with stdout and stderr going
to one file, as a user's `python run.py > run.log 2>&1` would write it:

| file | how Paddle printed it |
|---|---|
| `conv_infer_cpu.log` | `paddle.inference` with PIR on a conv + batch_norm + relu + pool + linear net, `config.switch_ir_debug(True)`, oneDNN off, `FLAGS_print_ir=1` (op ids `[id:N]`, `IR before/after lowering` around `pd_op_to_kernel_pass`) |
| `conv_gpu_passes.log` | the same net through the fusion passes of Paddle's GPU pipeline (`config.enable_custom_passes([...], True)` on CPU): `conv2d_bn_fuse_pass`, `conv2d_add_act_fuse_pass`, `matmul_add_act_fuse_pass`, ... then the basic passes; `FLAGS_print_ir=1` |
| `transformer_infer_onednn.log` | a transformer encoder block through the oneDNN CPU pipeline, `switch_ir_debug(True, passes)` printing only the passes that change this block (so lowering and other passes happen unlogged between them) |
| `dy2static_train.log` | two training steps of a `paddle.jit.to_static` MLP with `FLAGS_print_ir=1`: `IR After <pass> ---` banners, the forward/backward split, lowering, `inplace_pass` |
| `perpass_dir/` | a folder of per-pass dumps: `print(program)` of a program before and after each pass run one at a time through `paddle.base.libpaddle.pir.PassManager` |

The logs are Paddle's output unchanged, except that absolute paths and host-specific glog
prefixes (date, thread id) are kept as Paddle wrote them.
"""

import os
import subprocess
import sys

SCENARIOS = ["conv_infer_cpu", "conv_gpu_passes", "transformer_infer_onednn", "dy2static_train"]

# The fusion passes Paddle's GPU inference pipeline runs first (kPirGpuPasses in
# paddle/fluid/inference/api/paddle_pass_builder.cc), which also run on a CPU build.
GPU_FUSION_PASSES = [
    "map_op_to_another_pass",
    "identity_op_clean_pass",
    "silu_fuse_pass",
    "conv2d_bn_fuse_pass",
    "conv2d_add_act_fuse_pass",
    "conv2d_add_fuse_pass",
    "matmul_scale_fuse_pass",
    "matmul_transpose_fuse_pass",
    "matmul_add_act_fuse_pass",
    "remove_redundant_transpose_pass",
]

# The passes of the oneDNN pipeline that change the transformer block (found by a run that
# printed every pass: PS_FILTER=0), and the two passes after lowering; the others run unlogged.
ONEDNN_PRINTED = [
    "scale_matmul_fuse_pass",
    "reshape_transpose_matmul_fuse_pass",
    "matmul_transpose_reshape_fuse_pass",
    "matmul_add_act_fuse_pass",
    "fc_onednn_enable_pass",
    "onednn_placement_pass",
    "remove_shadow_feed_pass",
    "inplace_pass",
]


def conv_net():
    import paddle

    class ConvNet(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.conv = paddle.nn.Conv2D(3, 4, 3, padding=1, bias_attr=False)
            self.bn = paddle.nn.BatchNorm2D(4)
            self.fc = paddle.nn.Linear(4, 3)

        def forward(self, x):
            y = paddle.nn.functional.relu(self.bn(self.conv(x)))
            y = paddle.nn.functional.adaptive_avg_pool2d(y, 1).flatten(1)
            return paddle.nn.functional.relu(self.fc(y))

    return ConvNet(), [1, 3, 8, 8]


def transformer_block():
    import paddle

    class Block(paddle.nn.Layer):
        def __init__(self):
            super().__init__()
            self.layer = paddle.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)

        def forward(self, x):
            return self.layer(x)

    return Block(), [1, 4, 8]


def save_inference(build, workdir):
    import paddle

    paddle.seed(1)
    net, shape = build()
    net.eval()
    spec = [paddle.static.InputSpec(shape, "float32", "x")]
    prefix = os.path.join(workdir, "model")
    paddle.jit.save(net, prefix, input_spec=spec)
    return prefix, shape


def run_predictor(prefix, shape, configure):
    import numpy as np
    from paddle import inference

    config = inference.Config(prefix + ".json", prefix + ".pdiparams")
    config.disable_gpu()
    config.enable_new_ir(True)
    config.enable_new_executor(True)
    configure(config)
    try:
        predictor = inference.create_predictor(config)
        predictor.get_input_handle("x").copy_from_cpu(np.ones(shape, "float32"))
        predictor.run()
        out = predictor.get_output_handle(predictor.get_output_names()[0]).copy_to_cpu()
        print("output", out.shape, flush=True)
    except Exception as e:  # a pass result without a CPU kernel: the log up to here stays
        print("predictor failed:", str(e).splitlines()[0] if str(e) else type(e).__name__, flush=True)


def inference_scenarios():
    """Each inference scenario: the model it saves and how it configures the predictor."""

    def cpu(c):
        c.disable_mkldnn()
        c.switch_ir_debug(True)

    def gpu_passes(c):
        c.disable_mkldnn()
        c.enable_custom_passes(GPU_FUSION_PASSES, True)
        c.switch_ir_debug(True)

    def onednn(c):
        c.enable_mkldnn()
        c.switch_ir_debug(True, ONEDNN_PRINTED if os.environ.get("PS_FILTER", "1") == "1" else [])

    return {
        "conv_infer_cpu": (conv_net, cpu),
        "conv_gpu_passes": (conv_net, gpu_passes),
        "transformer_infer_onednn": (transformer_block, onednn),
    }


def scenario(name, workdir):
    import paddle

    paddle.set_device("cpu")
    inference = inference_scenarios()
    if name in inference:
        build, configure = inference[name]
        prefix, shape = save_inference(build, workdir)
        run_predictor(prefix, shape, configure)
    elif name == "dy2static_train":
        paddle.seed(1)

        class Mlp(paddle.nn.Layer):
            def __init__(self):
                super().__init__()
                self.fc1 = paddle.nn.Linear(6, 8)
                self.fc2 = paddle.nn.Linear(8, 3)

            def forward(self, x):
                h = paddle.nn.functional.gelu(self.fc1(x))
                return self.fc2(h * 2.0 + h * 2.0)

        net = paddle.jit.to_static(Mlp(), full_graph=True)
        opt = paddle.optimizer.SGD(0.1, parameters=net.parameters())
        x = paddle.randn([4, 6])
        for _ in range(2):
            loss = net(x).mean()
            loss.backward()
            opt.step()
            opt.clear_grad()
        print("loss", float(loss), flush=True)


def per_pass_dir(out_dir):
    """Runs passes one at a time with Paddle's PassManager and prints the program around each."""
    import paddle

    paddle.enable_static()
    paddle.seed(1)
    main = paddle.static.Program()
    startup = paddle.static.Program()
    with paddle.static.program_guard(main, startup):
        x = paddle.static.data("x", [2, 8], "float32")
        w = paddle.create_parameter([8, 8], "float32", name="w")
        b = paddle.create_parameter([8], "float32", name="b")
        y = paddle.nn.functional.relu(paddle.add(paddle.matmul(x, w), b))
        unused = paddle.exp(x)  # dead: dead_code_elimination_pass removes it
        z = paddle.scale(paddle.matmul(y, w), 0.5)
        same = paddle.scale(paddle.matmul(y, w), 0.5)  # common_subexpression_elimination_pass
        out = paddle.add(z, same)
        paddle._pir_ops.fetch(out, "out", 0)
        del unused
    os.makedirs(out_dir, exist_ok=True)
    passes = [
        "matmul_add_act_fuse_pass",
        "matmul_scale_fuse_pass",
        "common_subexpression_elimination_pass",
        "dead_code_elimination_pass",
    ]
    with open(os.path.join(out_dir, "00_input.txt"), "w") as f:
        f.write(str(main))
    for i, name in enumerate(passes, 1):
        pm = paddle.base.libpaddle.pir.PassManager()
        pm.add_pass(name, {})
        pm.run(main)
        with open(os.path.join(out_dir, "%02d_after_%s.txt" % (i, name)), "w") as f:
            f.write(str(main))
    print("wrote", out_dir, "with", len(passes) + 1, "programs")


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "--scenario":
        if sys.argv[2] == "perpass_dir":
            per_pass_dir(sys.argv[3])
        else:
            scenario(sys.argv[2], sys.argv[3])
        return
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/paddle_logs"
    os.makedirs(out_dir, exist_ok=True)
    import tempfile

    for name in SCENARIOS:
        env = dict(os.environ)
        env["FLAGS_print_ir"] = "0" if name == "transformer_infer_onednn" else "1"
        with tempfile.TemporaryDirectory() as work, open(os.path.join(out_dir, name + ".log"), "w") as log:
            subprocess.run(
                [sys.executable, os.path.abspath(__file__), "--scenario", name, work],
                stdout=log, stderr=subprocess.STDOUT, env=env, check=False, cwd=work)
        print("wrote", os.path.join(out_dir, name + ".log"))
    subprocess.run([sys.executable, os.path.abspath(__file__), "--scenario", "perpass_dir",
                    os.path.join(out_dir, "perpass_dir")], check=True)


if __name__ == "__main__":
    main()
