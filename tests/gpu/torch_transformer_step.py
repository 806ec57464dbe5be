"""PyTorch eager reference for tests/gpu/run.sh: the same transformer-encoder training step that
pirscope-gpu-check ran (the golden bundle's Paddle program scaled up), on the same parameters and
input (WORK/*.npy), timed per step and compared with PIRScope's results (WORK/out_*.npy).

usage: torch_transformer_step.py WORK B S D H FF STEPS    (prints Markdown)

Exit status 0 when PIRScope's results match PyTorch's and its step takes at most as long
(ratio <= 1.0), 1 otherwise (a mismatch, a missing result or timing, or a slower step).

The step mirrors the program op by op: q/k/v projections (x @ W + b, Paddle's [in, out] weights),
heads split by reshape + transpose, q scaled by 1/sqrt(head_dim), softmax attention, output
projection, residual + layer_norm, gelu (erf) feed-forward, residual + layer_norm; the loss is the
sum of the output (the program seeds the backward with ones). float32 with TF32 off, as PIRScope
runs it by default.
"""

import sys
import time

import numpy as np
import torch
import torch.nn.functional as F


def main():
    work = sys.argv[1]
    b, s, d, h, ff, steps = (int(v) for v in sys.argv[2:8])
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = torch.device("cuda")

    def load(name, grad=True):
        t = torch.from_numpy(np.load(f"{work}/{name}.npy")).to(dev)
        return t.requires_grad_(grad)

    x = load("_jst.0.x.0")
    p = {}
    for i in range(6):
        p[f"w{i}"] = load(f"linear_{i}.w_0")
        p[f"b{i}"] = load(f"linear_{i}.b_0")
    for i in range(2):
        p[f"g{i}"] = load(f"layer_norm_{i}.w_0")
        p[f"beta{i}"] = load(f"layer_norm_{i}.b_0")
    hd = d // h

    def heads(t):
        return t.reshape(b, s, h, hd).transpose(1, 2)

    def step():
        q = heads(x @ p["w0"] + p["b0"]) * (1.0 / hd ** 0.5)
        k = heads(x @ p["w1"] + p["b1"])
        v = heads(x @ p["w2"] + p["b2"])
        att = torch.softmax(q @ k.transpose(-1, -2), dim=-1)
        o = (att @ v).transpose(1, 2).reshape(b, s, d) @ p["w3"] + p["b3"]
        h1 = F.layer_norm(x + o, (d,), p["g0"], p["beta0"], 1e-5)
        f = F.gelu(h1 @ p["w4"] + p["b4"]) @ p["w5"] + p["b5"]
        out = F.layer_norm(h1 + f, (d,), p["g1"], p["beta1"], 1e-5)
        params = [x] + list(p.values())
        grads = torch.autograd.grad(out.sum(), params)
        return out, grads

    for _ in range(3):
        step()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(steps):
        out, grads = step()
        torch.cuda.synchronize()
    ms = (time.perf_counter() - t0) * 1000.0 / steps

    print(f"PyTorch {torch.__version__} eager: **{ms:.3f} ms/step** (same step, synchronized per step).\n")
    ok = True
    try:
        ours = float(open(f"{work}/pirscope_step_ms.txt").read())
        ratio = ours / ms
        print(f"PIRScope / PyTorch step time: **{ratio:.2f}x** ({ours:.3f} ms vs {ms:.3f} ms; target <= 1.0).\n")
        ok = ratio <= 1.0
    except (OSError, ValueError):
        print("PIRScope's step time is missing (pirscope_step_ms.txt).\n")
        ok = False

    mismatches = []

    def compare(name, ref):
        try:
            got = np.load(f"{work}/out_{name}.npy").astype(np.float64)
        except OSError:
            mismatches.append(name)
            return f"| {name} | **missing** | |"
        ref = ref.detach().double().cpu().numpy().reshape(got.shape)
        err = np.abs(got - ref).max()
        rel = err / max(np.abs(ref).max(), 1e-30)
        match = np.allclose(got, ref, rtol=1e-3, atol=1e-3 * max(np.abs(ref).max(), 1e-30))
        if not match:
            mismatches.append(name)
        return f"| {name} | {'match' if match else '**MISMATCH**'} | {err:.3g} ({rel:.2g} of max) |"

    print("| PIRScope result vs PyTorch | status | max abs diff |\n|---|---|---|")
    print(compare("output_0", out))
    print(compare("grad_output_0", grads[0]))
    # The other grad outputs are the 16 parameter grads in program order; compare as a multiset
    # of norms, which does not need the name mapping.
    ours = []
    for k in range(1, 17):
        try:
            ours.append(float(np.linalg.norm(np.load(f"{work}/out_grad_output_{k}.npy").astype(np.float64))))
        except OSError:
            pass
    theirs = sorted(float(g.double().norm()) for g in grads[1:])
    if len(ours) == len(theirs):
        ours.sort()
        # Each norm is judged against the largest: the key bias's gradient is zero in exact
        # arithmetic (q . b_k is the same for every key of a row, and softmax ignores a per-row
        # constant), so its norm is rounding noise on both sides, and a ratio of two noises (0.054
        # on an H200) says nothing about the kernels.
        rel = max(abs(a - c) for a, c in zip(ours, theirs)) / max(max(theirs), 1e-30)
        print(f"| parameter grad norms (sorted, 16) | {'match' if rel < 1e-3 else '**MISMATCH**'} | rel {rel:.2g} |")
        if rel >= 1e-3:
            mismatches.append("parameter grad norms")
    else:
        print(f"| parameter grad norms | **missing** ({len(ours)} of {len(theirs)}) | |")
        mismatches.append("parameter grads")
    print()
    if mismatches:
        print("MISMATCH: " + ", ".join(mismatches) + "\n")
    return 0 if ok and not mismatches else 1


if __name__ == "__main__":
    sys.exit(main())
