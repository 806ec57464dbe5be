"""Writes golden before/after programs of Paddle's PIR passes (tests/fixtures/pipeline_passes/).

Run with PaddlePaddle installed (`pip install paddlepaddle==3.3.1`, CPU is enough):
    python3 tools/make_pipeline_pass_fixtures.py tests/fixtures/pipeline_passes [CASE...]

Layout, one folder per case (shared by every pass test, tst_passfixtures reads it):

    <case>/manifest.json      {"paddle": "3.3.1", "source": "...", "pipeline": [...], "passes": {...}}
    <case>/input.txt          the program the pipeline started from, as Paddle printed it
    <case>/<pass>.before.txt  the program right before <pass> ran, as Paddle printed it
    <case>/<pass>.after.txt   ... and right after it (absent when the pass changed nothing)
    <case>/model.json         the program as `paddle.jit.save` wrote it (PIR JSON)
    <case>/model.pdiparams    its parameters (absent when it has none)

Cases come from two front ends:

* `predictor`: the layer is saved with `paddle.jit.save` and loaded by a `paddle.inference`
  predictor on the CPU with oneDNN off (`Config.disable_mkldnn()`) and `switch_ir_debug(True)`,
  which makes Paddle print the program before and after every pass (`IRPrinting`, the text
  `FLAGS_print_ir` gives). That is the `inference-cpu` pipeline with its real place and parameter
  scope, so `constant_folding_pass` runs as in deployment. Its after-text names the parameters it
  creates `constant_folding@_<clock><n>`; tests compare them by creation order.
* `pass_manager`: a static program built here, run through
  `paddle.base.libpaddle.pir.PassManager` with `add_pass(name, {})` (passes that need no place).

`inplace_pass` runs on the lowered (kernel dialect) program in Paddle. Its fixture is written at
the pd_op level: `inplace_pass.before.txt` is the last pd_op program of the pipeline and
`inplace_pass.after.txt` the same text with each op renamed to the `op_name` Paddle's
inplace_pass gave its kernel op (`pd_op.add` -> `pd_op.add_`), matched op by op in order.
"""

import contextlib
import json
import os
import re
import shutil
import sys
import tempfile

import numpy as np
import paddle

BANNER = re.compile(r"^\s+IRPrinting on builtin\.module (before|after) (\S+) pass$")


@contextlib.contextmanager
def captured_stdout(path):
    """Redirects file descriptor 1 (C++ std::cout included) into `path`."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(path, "w") as f:
        os.dup2(f.fileno(), 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def parse_ir_log(text):
    """[(when, pass, program_text)] from an IRPrinting log, in log order."""
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = BANNER.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 2  # skip the closing rule
        while j < len(lines) and lines[j] != "{":
            j += 1
        k = j
        while k < len(lines) and lines[k] != "}":
            k += 1
        out.append((m.group(1), m.group(2), "\n".join(lines[j : k + 1]) + "\n"))
        i = k + 1
    return out


OP_LINE = re.compile(r'^(\s*\(.*?\) = )"([^"]+)"')
OP_NAME = re.compile(r'op_name:"([^"]+)"')


def pd_level_inplace(pd_program, kernel_program):
    """The pd_op text with each op renamed as inplace_pass renamed its kernel op."""
    kernel_names = []
    for line in kernel_program.split("\n"):
        m = OP_LINE.match(line)
        if not m or m.group(2).startswith("builtin."):
            continue
        n = OP_NAME.search(line)
        kernel_names.append(n.group(1) if n else m.group(2))
    out = []
    k = 0
    for line in pd_program.split("\n"):
        m = OP_LINE.match(line)
        if m and not m.group(2).startswith("builtin."):
            if k >= len(kernel_names):
                raise RuntimeError("the lowered program has fewer ops than the pd_op program")
            renamed = kernel_names[k]
            if renamed.rstrip("_") != m.group(2).rstrip("_"):
                raise RuntimeError("op %d: %s lowered as %s" % (k, m.group(2), renamed))
            line = m.group(1) + '"' + renamed + '"' + line[m.end() :]
            k += 1
        out.append(line)
    if k != len(kernel_names):
        raise RuntimeError("the lowered program has ops the pd_op program does not")
    return "\n".join(out)


# --- models ----------------------------------------------------------------------------------


class FoldLinear(paddle.nn.Layer):
    """Weight-only chains (transpose, scale), full + full, a reshape shape: constant folding."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(4, 3)

    def forward(self, x):
        w = paddle.transpose(self.fc.weight, [1, 0]) * 2.0
        c = paddle.full([3], 1.5) + paddle.full([3], 2.0)
        y = paddle.matmul(x, w, transpose_y=True) + c
        z = paddle.matmul(x, w, transpose_y=True) + c  # the same again: CSE
        return (y + z).reshape([-1, 3]) + self.fc.bias


class ConvBN(paddle.nn.Layer):
    """conv + batch_norm + relu + pool, flatten, linear, softmax."""

    def __init__(self):
        super().__init__()
        self.conv = paddle.nn.Conv2D(3, 8, 3, padding=1)
        self.bn = paddle.nn.BatchNorm2D(8)
        self.fc = paddle.nn.Linear(8 * 4 * 4, 5)

    def forward(self, x):
        y = paddle.nn.functional.max_pool2d(paddle.nn.functional.relu(self.bn(self.conv(x))), 2)
        y = paddle.flatten(y, 1)
        return paddle.nn.functional.softmax(self.fc(y) * 0.5 + 1.0)


class TransformerBlock(paddle.nn.Layer):
    """Pre-norm attention block and a GELU feed-forward, with residuals."""

    def __init__(self, d=16, heads=2):
        super().__init__()
        self.d, self.heads = d, heads
        self.ln1 = paddle.nn.LayerNorm(d)
        self.qkv = paddle.nn.Linear(d, 3 * d)
        self.proj = paddle.nn.Linear(d, d)
        self.ln2 = paddle.nn.LayerNorm(d)
        self.ff1 = paddle.nn.Linear(d, 2 * d)
        self.ff2 = paddle.nn.Linear(2 * d, d)

    def forward(self, x):
        b, s = 2, 6
        h = self.qkv(self.ln1(x)).reshape([b, s, 3, self.heads, self.d // self.heads])
        q, k, v = paddle.unbind(h.transpose([2, 0, 3, 1, 4]), axis=0)
        att = paddle.nn.functional.softmax(paddle.matmul(q, k, transpose_y=True) * (self.d // self.heads) ** -0.5)
        o = paddle.matmul(att, v).transpose([0, 2, 1, 3]).reshape([b, s, self.d])
        x = x + self.proj(o)
        return x + self.ff2(paddle.nn.functional.gelu(self.ff1(self.ln2(x))))


class ElementwiseChain(paddle.nn.Layer):
    """Elementwise ops whose inputs die at them (inplace candidates), one read twice, and an input
    returned as it is (replace_fetch_with_shadow_output_pass copies it with a scale)."""

    def forward(self, x, y):
        a = paddle.nn.functional.relu(x)
        b = paddle.exp(a) * y
        c = paddle.tanh(b) + b  # b is read twice
        d = paddle.nn.functional.sigmoid(c)
        e = paddle.reshape(d, [6, 4])
        return paddle.scale(e, 2.0, 1.0), y


class SiluDropout(paddle.nn.Layer):
    """silu, dropout and a truncating divide whose inputs die at them: Paddle 3.3.1's inplace_pass
    makes them silu_, dropout_ and trunc_divide_ (ops the saved op YAML has no inplace map for).
    The dropout is kept in the inference program by training=True."""

    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(6, 6)

    def forward(self, x):
        a = paddle.nn.functional.silu(self.fc(x))
        b = paddle.nn.functional.dropout(a * 2.0, p=0.5, training=True)
        c = paddle.divide(b, paddle.abs(x) + 1.0, rounding_mode="trunc")
        return paddle.nn.functional.silu(c + 1.0)


PREDICTOR_CASES = {
    "fold_linear": (FoldLinear, [("x", [2, 4], "float32")]),
    "conv_bn": (ConvBN, [("x", [1, 3, 8, 8], "float32")]),
    "transformer_block": (TransformerBlock, [("x", [2, 6, 16], "float32")]),
    "elementwise_chain": (ElementwiseChain, [("x", [4, 6], "float32"), ("y", [4, 6], "float32")]),
    "silu_dropout": (SiluDropout, [("x", [4, 6], "float32")]),
}


def predictor_case(out_dir, name, layer_cls, inputs):
    paddle.disable_static()
    paddle.seed(2024)
    layer = layer_cls()
    layer.eval()
    specs = [paddle.static.InputSpec(shape, dtype, n) for n, shape, dtype in inputs]
    work = tempfile.mkdtemp()
    try:
        prefix = os.path.join(work, "model")
        paddle.jit.save(paddle.jit.to_static(layer, input_spec=specs, full_graph=True), prefix)
        config = paddle.inference.Config(prefix + ".json", prefix + ".pdiparams")
        config.disable_gpu()
        config.disable_mkldnn()
        config.switch_ir_debug(True)
        log_path = os.path.join(work, "ir.log")
        with captured_stdout(log_path):
            paddle.inference.create_predictor(config)
        with open(log_path) as f:
            steps = parse_ir_log(f.read())
        case = os.path.join(out_dir, name)
        os.makedirs(case, exist_ok=True)
        shutil.copy(prefix + ".json", os.path.join(case, "model.json"))
        if os.path.exists(prefix + ".pdiparams"):  # a layer without parameters has none
            shutil.copy(prefix + ".pdiparams", os.path.join(case, "model.pdiparams"))
        write_steps(case, steps, "paddle.inference predictor, CPU, disable_mkldnn, switch_ir_debug")
    finally:
        shutil.rmtree(work)


def write_steps(case, steps, source):
    pipeline = []
    before = {}
    written = {}
    last_pd = None
    for when, name, text in steps:
        lowered = "(phi_kernel)" in text or "kernel.phi_kernel" in text
        if when == "before":
            before[name] = text
            if not pipeline:
                with open(os.path.join(case, "input.txt"), "w") as f:
                    f.write(text)
            pipeline.append(name)
            continue
        if lowered:
            if name == "inplace_pass" and last_pd is not None:
                after = pd_level_inplace(last_pd, text)
                save(case, name, last_pd, after)
                written[name] = "pd_op level, renamed as the kernel ops"
            continue
        save(case, name, before[name], text)
        written[name] = "changed" if before[name] != text else "unchanged"
        last_pd = text
    manifest = {"paddle": paddle.__version__, "source": source, "pipeline": pipeline, "passes": written}
    with open(os.path.join(case, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(case, ":", ", ".join("%s (%s)" % kv for kv in written.items()))


def save(case, name, before, after):
    """Writes the pair; an unchanged program gets no after-file (the manifest says unchanged)."""
    with open(os.path.join(case, name + ".before.txt"), "w") as f:
        f.write(before)
    if after != before:
        with open(os.path.join(case, name + ".after.txt"), "w") as f:
            f.write(after)


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/pipeline_passes"
    wanted = set(sys.argv[2:])
    np.random.seed(2024)
    for name, (cls, inputs) in PREDICTOR_CASES.items():
        if not wanted or name in wanted:
            predictor_case(out_dir, name, cls, inputs)


if __name__ == "__main__":
    main()
