"""Exports small vision models with `paddle.jit.save` and Paddle's own inference output.

Run with PaddlePaddle installed (`pip install paddlepaddle==3.3.1`):
    python3 tools/export_vision_models.py tests/fixtures/models

For each model a folder <name>/ holds:
  model.json          the PIR JSON program paddle.jit.save wrote (inference, eval mode)
  model.pdiparams     its parameters as paddle.jit.save wrote them (only where small enough)
  input.npy           the input (seeded normal, float32)
  output.npy          Paddle's output for that input (CPU, float32)
  manifest.json       model, input/output shapes, the parameter source and Paddle's version

Both models get their parameters, before saving, from a counter-based hash (`hashed` below; the
default initialisers of these models give outputs near 1e-5 whose relative comparison is noise).
MobileNetV3-small (scale 0.35, 10 classes: 0.8 MB of parameters) ships the .pdiparams Paddle wrote.
ResNet-18 has 44.8 MB of parameters, too much for the repository: the test recreates them from
the hash (manifest.json "roles"), so only the program and Paddle's output are committed.

hashed(name_index, k): u = splitmix64(seed * 0x100000001B3 + name_index * 0x9E3779B97F4A7C15 + k),
x = (u >> 40) / 2**24 in [0, 1); the parameter's element k is lo + (hi - lo) * x, with
(lo, hi) chosen per role from the parameter name (see ROLES), name_index the position of the
parameter in the name-sorted list.
"""

import json
import os
import sys

import numpy as np
import paddle

MASK64 = (1 << 64) - 1


def splitmix64(x):
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def splitmix64_array(x):
    x = (x + np.uint64(0x9E3779B97F4A7C15))
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


def role_range(name, shape):
    """(lo, hi) of the uniform values for one parameter, by Paddle's naming of its role."""
    fan_in = int(np.prod(shape[1:])) if len(shape) > 1 else int(shape[0])
    if name.startswith("batch_norm") or "bn" in name.split(".")[0]:
        suffix = name.rsplit(".", 1)[1]
        return {"w_0": (0.8, 1.2), "b_0": (-0.1, 0.1), "w_1": (-0.1, 0.1), "w_2": (0.5, 1.5)}[suffix]
    if name.endswith(".b_0"):
        return (-0.05, 0.05)
    if name.startswith("linear"):
        fan_in = int(shape[0])
    bound = float(np.sqrt(3.0 / max(fan_in, 1)))
    return (-bound, bound)


def hashed(seed, name_index, shape, lo, hi):
    n = int(np.prod(shape)) if len(shape) else 1
    with np.errstate(over="ignore"):
        base = np.uint64((seed * 0x100000001B3 + name_index * 0x9E3779B97F4A7C15) & MASK64)
        k = np.arange(n, dtype=np.uint64)
        u = splitmix64_array(base + k)
    x = (u >> np.uint64(40)).astype(np.float64) / float(1 << 24)
    return (lo + (hi - lo) * x).astype(np.float32).reshape(shape)


def export(out_root, name, net, input_shape, hashed_seed, keep_pdiparams):
    folder = os.path.join(out_root, name)
    os.makedirs(folder, exist_ok=True)
    net.eval()
    roles = {}
    if hashed_seed is not None:
        params = sorted(net.state_dict().items(), key=lambda kv: kv[1].name)
        for index, (_, p) in enumerate(params):
            lo, hi = role_range(p.name, list(p.shape))
            roles[p.name] = {"index": index, "lo": lo, "hi": hi}
            p.set_value(hashed(hashed_seed, index, list(p.shape), lo, hi))
    rng = np.random.default_rng(1234)
    x = rng.standard_normal(input_shape).astype(np.float32)
    spec = [paddle.static.InputSpec([None] + list(input_shape[1:]), "float32", "x")]
    static_net = paddle.jit.to_static(net, input_spec=spec, full_graph=True)
    prefix = os.path.join(folder, "model")
    paddle.jit.save(static_net, prefix)
    loaded = paddle.jit.load(prefix)
    loaded.eval()
    y = loaded(paddle.to_tensor(x)).numpy()
    np.save(os.path.join(folder, "input.npy"), x)
    np.save(os.path.join(folder, "output.npy"), y)
    for leftover in ("model.pdmodel", "model.pdiparams.info"):
        path = os.path.join(folder, leftover)
        if os.path.exists(path):
            os.remove(path)
    manifest = {
        "model": name,
        "paddle_version": paddle.__version__,
        "input": {"name": "x", "shape": list(input_shape), "dtype": "float32", "file": "input.npy"},
        "output": {"shape": list(y.shape), "dtype": str(y.dtype), "file": "output.npy"},
        "program": "model.json",
    }
    manifest["parameters"] = {"source": "pdiparams" if keep_pdiparams else "hashed", "seed": hashed_seed,
                              "roles": roles}
    if keep_pdiparams:
        manifest["parameters"]["file"] = "model.pdiparams"
    else:
        os.remove(prefix + ".pdiparams")
    with open(os.path.join(folder, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(name, "output", y.shape, "written to", folder)


def main():
    out_root = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/models"
    paddle.seed(11)
    export(out_root, "mobilenet_v3_small_035", paddle.vision.models.MobileNetV3Small(scale=0.35, num_classes=10),
           (1, 3, 64, 64), hashed_seed=35, keep_pdiparams=True)
    export(out_root, "resnet18", paddle.vision.models.resnet18(num_classes=10), (1, 3, 64, 64), hashed_seed=18,
           keep_pdiparams=False)


if __name__ == "__main__":
    main()
