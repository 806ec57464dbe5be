"""Golden fixtures for transfer_layout_pass from real Paddle 3.3.1 (CPU build is enough).

Paddle's transfer_layout_pass moves the ops between convolutions that prefer NHWC into NHWC and
puts pd_op.transpose ops (attribute source:"transfer_layout_pass") on the edges of a minimum cut.
Only two ops can start such a region in Paddle 3.3.1 (layout_transformation.cc):
pd_op.fused_conv2d_add_act with a float16 input and filter (filter dims 0 and 1 multiples of 8), or
with the attribute __force_backend__:"gpu"; and pd_op.add_group_norm_silu in NCHW. The CPU build
cannot make a float16 fused_conv2d_add_act (its Python API checks the kernel's dtypes), so the
cases here mark every fused_conv2d_add_act of the fusion fixtures with __force_backend__:"gpu"
(Operation.set_str_attr), which makes the pass act on float32 programs. The same programs
unmarked (float32, no __force_backend__) are recorded as unchanged: that is what the GPU float32
and every CPU inference pipeline see.

Inputs: tests/fixtures/passes/<case>/fusion_chain.json (made by make_pass_fixtures.py), and
small static-graph programs built here (BETWEEN: conv -> op -> conv, with conv2d_add_fuse_pass
run first so both convolutions are fused) that show which ops join an NHWC region and when
pool2d prefers NHWC.
Output (tests/fixtures/layout_pass/):
    manifest.json          {"paddle": VERSION, "cases": {CASE: {"source": PATH, "marked": N,
                            "unmarked_changed": bool, "ops_before": {...}, "ops_after": {...}}}}
    <case>.before.json/.txt  the built programs only (the fusion fixtures are read in place)
    <case>.after.json      the marked program after transfer_layout_pass (PIR JSON; Paddle's JSON
                           writer drops the __force_backend__ and source attributes)
    <case>.after.txt       print(program) of the same (keeps them)

Usage: python3 tools/make_layout_pass_fixtures.py [--out DIR]
"""

import argparse
import collections
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

HERE = os.path.dirname(os.path.abspath(__file__))
PASSES_DIR = os.path.join(HERE, "..", "tests", "fixtures", "passes")
CASES = ["conv_bn_relu", "lenet", "residual_conv", "ppocr_like"]
MARK_OP = "pd_op.fused_conv2d_add_act"
MARK_ATTR = "__force_backend__"


def load(path):
    import paddle
    from paddle.base import core

    paddle.enable_static()
    program = paddle.static.Program()
    core.deserialize_pir_program(path, program, -1)
    return program


def op_counts(program):
    counts = collections.Counter(op.name() for op in program.global_block().ops)
    return dict(sorted(counts.items()))


def between_programs():
    """name -> a static program x -> conv 3x3 -> OP -> conv 3x3, both convolutions fused."""
    import paddle
    from paddle.base import libpaddle

    F = paddle.nn.functional
    ops = {
        "between_relu": F.relu,
        "between_silu": F.silu,
        "between_mul_add": lambda v: v * v + v,
        "between_maxpool3": lambda v: F.max_pool2d(v, 3, 1, 1),
        "between_maxpool2": lambda v: F.max_pool2d(v, 2, 2),
        "between_avgpool7": lambda v: F.avg_pool2d(v, 7, 1, 3),
    }
    out = {}
    for name, fn in ops.items():
        paddle.enable_static()
        paddle.seed(2024)
        main, startup = paddle.static.Program(), paddle.static.Program()
        with paddle.utils.unique_name.guard(), paddle.static.program_guard(main, startup):
            x = paddle.static.data("x", [1, 8, 16, 16], "float32")
            y = paddle.nn.Conv2D(8, 8, 3, padding=1)(fn(paddle.nn.Conv2D(8, 8, 3, padding=1)(x)))
        pm = libpaddle.pir.PassManager()
        pm.add_pass("conv2d_add_fuse_pass", {})
        pm.run(main)
        out[name] = main
    return out


def run_pass(program):
    from paddle.base import libpaddle

    pm = libpaddle.pir.PassManager()
    pm.add_pass("transfer_layout_pass", {})
    pm.run(program)


def run_samples(manifest):
    """The real samples (not copied): what Paddle's pass did to each, unmarked, as op counts and
    make_pass_fixtures.py's structure hash."""
    from make_pass_fixtures import SAMPLES, structure_hash

    samples_dir = os.path.join(HERE, "..", "..", "shared", "samples", "json")
    if not os.path.isdir(samples_dir):
        print("no samples at %s" % samples_dir)
        return
    records = manifest.setdefault("samples", {})
    for sample in SAMPLES:
        path = os.path.join(samples_dir, sample)
        if not os.path.exists(path):
            continue
        program = load(path)
        before = op_counts(program)
        text = str(program)
        run_pass(program)
        records[sample] = {"changed": str(program) != text, "ops_before": before, "ops": op_counts(program),
                           "structure": structure_hash(program)}
        print("%s: changed %s, transposes %d" % (sample, records[sample]["changed"],
              records[sample]["ops"].get("pd_op.transpose", 0) - before.get("pd_op.transpose", 0)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(HERE, "..", "tests", "fixtures", "layout_pass"))
    args = parser.parse_args()

    import paddle
    from paddle.base import core

    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    manifest = {"paddle": paddle.__version__, "pass": "transfer_layout_pass", "mark": {MARK_OP: {MARK_ATTR: "gpu"}},
                "cases": {}}
    built = between_programs()
    for case in CASES + list(built):
        if case in built:
            source = os.path.join(out, case + ".before")
            core.serialize_pir_program(built[case], source + ".json", True, False, True)
            with open(source + ".txt", "w") as f:
                f.write(str(built[case]))
            source += ".json"
        else:
            source = os.path.join(PASSES_DIR, case, "fusion_chain.json")
        if not os.path.exists(source):
            sys.exit("missing " + source + " (run make_pass_fixtures.py first)")
        plain = load(source)
        text = str(plain)
        run_pass(plain)
        unmarked_changed = str(plain) != text
        unmarked_stem = os.path.join(out, case + ".unmarked.after")
        if unmarked_changed:
            core.serialize_pir_program(plain, unmarked_stem + ".json", True, False, True)
            with open(unmarked_stem + ".txt", "w") as f:
                f.write(str(plain))

        program = load(source)
        marked = 0
        for op in program.global_block().ops:
            if op.name() == MARK_OP:
                op.set_str_attr(MARK_ATTR, "gpu")
                marked += 1
        before = op_counts(program)
        run_pass(program)
        stem = os.path.join(out, case + ".after")
        core.serialize_pir_program(program, stem + ".json", True, False, True)
        with open(stem + ".txt", "w") as f:
            f.write(str(program))
        manifest["cases"][case] = {
            "source": os.path.relpath(source, os.path.join(HERE, "..")),
            "marked": marked,
            "unmarked_changed": unmarked_changed,
            "ops_before": before,
            "ops_after": op_counts(program),
        }
        print("%s: %d marked, unmarked changed: %s, transposes: %d" % (
            case, marked, unmarked_changed, manifest["cases"][case]["ops_after"].get("pd_op.transpose", 0)
            - before.get("pd_op.transpose", 0)))
    run_samples(manifest)
    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
