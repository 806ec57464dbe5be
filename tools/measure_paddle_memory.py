"""Measures what Paddle allocates in one dy2static train step, for `pirscope-cli memory` to match.

For each model below (activations of megabytes: an MLP, a CNN with batch norm, an attention
block), in a process of its own:
  1. exports its trace bundle with export_paddle_trace.export_bundle and removes the tensor files
     (inputs/, params/, params_after/, outputs/, grads/, output_grads/; null files in the
     manifest): the memory model needs the programs only;
  2. runs (in another fresh process) two warm-up train steps of the to_static layer on the CPU,
     then three measured ones:
     paddle.base.core.host_memory_stat_current_value("Allocated", 0) before the step, after the
     forward and after the backward, and host_memory_stat_peak_value (reset before the step);
  3. writes paddle_memory.json beside the bundle's manifest: the bytes above "before" at the peak,
     after the forward (what the forward leaves for the backward and the caller) and after the
     backward (the gradients) of the last step, and all three steps. The peak varies between
     steps (the executor runs independent ops on several threads); the rest should not: a
     warning says when it does (seen once: an MLP run kept 1.07 instead of 2.12 MB), rerun then.

Usage:
  python3 tools/measure_paddle_memory.py --out tests/fixtures/memory        every model
  python3 tools/measure_paddle_memory.py --model mlp --out DIR/mlp           one model
"""

import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

MODELS = ["mlp", "cnn_bn", "attention"]
TENSOR_DIRS = ["inputs", "params", "params_after", "outputs", "grads", "output_grads", "intermediates"]


def build(name):
    """(layer, inputs as (name, array, stop_gradient), description)."""
    import paddle.nn.functional as F
    from paddle import nn

    import paddle

    rng = np.random.RandomState(0)

    class Mlp(nn.Layer):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(256, 512)
            self.fc2 = nn.Linear(512, 512)
            self.fc3 = nn.Linear(512, 10)

        def forward(self, x, label):
            h = F.relu(self.fc1(x))
            h = F.relu(self.fc2(h))
            return F.cross_entropy(self.fc3(h), label)

    class CnnBn(nn.Layer):
        def __init__(self):
            super().__init__()
            self.c1 = nn.Conv2D(3, 16, 3, padding=1)
            self.b1 = nn.BatchNorm2D(16)
            self.c2 = nn.Conv2D(16, 16, 3, padding=1)
            self.b2 = nn.BatchNorm2D(16)
            self.fc = nn.Linear(16, 10)

        def forward(self, x):
            h = F.relu(self.b1(self.c1(x)))
            h = F.max_pool2d(F.relu(self.b2(self.c2(h))), 2)
            return self.fc(paddle.mean(h, axis=[2, 3])).mean()

    class Attention(nn.Layer):
        def __init__(self):
            super().__init__()
            self.enc = nn.TransformerEncoderLayer(d_model=128, nhead=4, dim_feedforward=256, dropout=0.0)

        def forward(self, x):
            return self.enc(x).mean()

    if name == "mlp":
        x = rng.standard_normal((512, 256)).astype("float32")
        label = rng.randint(0, 10, (512, 1)).astype("int64")
        return Mlp(), [("x", x, True), ("label", label, True)], "3-layer MLP, batch 512, cross entropy"
    if name == "cnn_bn":
        x = rng.standard_normal((16, 3, 64, 64)).astype("float32")
        return CnnBn(), [("x", x, True)], "two conv + batch norm + relu, max pool, linear; 16x3x64x64"
    if name == "attention":
        x = rng.standard_normal((16, 64, 128)).astype("float32")
        return Attention(), [("x", x, True)], "TransformerEncoderLayer d_model 128, 4 heads; 16x64x128"
    raise SystemExit("unknown model " + name)


def measure(name):
    import paddle

    core = paddle.base.core
    paddle.set_device("cpu")
    paddle.seed(0)
    layer, inputs, _ = build(name)
    layer = paddle.jit.to_static(layer, full_graph=True)
    layer.train()
    xs = [paddle.to_tensor(a, stop_gradient=sg) for _, a, sg in inputs]

    def allocated():
        return core.host_memory_stat_current_value("Allocated", 0)

    for _ in range(2):
        loss = layer(*xs)
        loss.backward()
        layer.clear_gradients(set_to_zero=False)
        del loss
    steps = []
    for _ in range(3):
        before = allocated()
        core.host_memory_stat_reset_peak_value("Allocated", 0)
        loss = layer(*xs)
        after_forward = allocated() - before
        loss.backward()
        steps.append(
            {
                "before_bytes": before,
                "peak_above_before_bytes": core.host_memory_stat_peak_value("Allocated", 0) - before,
                "kept_after_forward_bytes": after_forward,
                "after_backward_bytes": allocated() - before,
            }
        )
        layer.clear_gradients(set_to_zero=False)
        del loss
    return steps


def strip_tensors(out_dir):
    """Removes the bundle's tensor files and their names in the manifest (null files)."""
    for d in TENSOR_DIRS:
        shutil.rmtree(os.path.join(out_dir, d), ignore_errors=True)
    path = os.path.join(out_dir, "manifest.json")
    with open(path) as f:
        manifest = json.load(f)
    for key in ("inputs", "parameters", "outputs"):
        for entry in manifest.get(key, []):
            for field in ("file", "grad_file", "file_after_run"):
                if field in entry:
                    entry[field] = None
    backward = manifest.get("backward")
    if isinstance(backward, dict) and "output_grads" in backward:
        backward["output_grads"] = {}
    manifest.setdefault("notes", {})["tensors"] = "tensor files removed by measure_paddle_memory.py"
    with open(path, "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")


def export_and_measure(name, out_dir):
    import paddle

    from export_paddle_trace import export_bundle

    paddle.seed(0)
    with paddle.utils.unique_name.guard():
        layer, inputs, description = build(name)
        export_bundle(layer, inputs, out_dir, training=True, name="memory_" + name, description=description, seed=0)
    strip_tensors(out_dir)
    # Measured in a fresh process: fresh allocator statistics, nothing of the export alive.
    run = subprocess.run([sys.executable, __file__, "--measure", name], check=True, capture_output=True, text=True)
    steps = json.loads(run.stdout.strip().splitlines()[-1])
    for key in ("kept_after_forward_bytes", "after_backward_bytes"):
        if len({step[key] for step in steps}) > 1:
            print(f"{name}: warning: {key} differs between the measured steps: rerun", file=sys.stderr)
    result = dict(steps[-1])
    result.update(
        {
            "model": name,
            "description": description,
            "paddle_version": paddle.__version__,
            "device": "cpu",
            "method": "host_memory_stat Allocated: current before the step, after the forward and after the backward; "
            "peak reset before the step; two warm-up steps, the last of three measured steps",
            "steps": steps,
            "note": "the bundle's tensor files are removed: the memory model needs its programs only",
        }
    )
    with open(os.path.join(out_dir, "paddle_memory.json"), "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print(name, json.dumps({k: result[k] for k in result if k.endswith("_bytes")}))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", choices=MODELS)
    parser.add_argument("--out")
    parser.add_argument("--measure", choices=MODELS, help="only measure, print the steps as JSON")
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure)))
        return
    if not args.out:
        parser.error("--out is required")
    if args.model:
        export_and_measure(args.model, args.out)
        return
    for name in MODELS:  # each in its own process: fresh allocator statistics and names
        subprocess.run([sys.executable, __file__, "--model", name, "--out", os.path.join(args.out, name)], check=True)


if __name__ == "__main__":
    main()
