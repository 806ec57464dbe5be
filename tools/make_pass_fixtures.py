"""Golden pass fixtures from real Paddle: each model traced and saved by paddle.jit.save (eval
mode), then each pass of PASSES run alone on it by Paddle's own PassManager.

Layout (one folder per case, one file pair per pass that changed the program):

    tests/fixtures/passes/manifest.json          what was run, op counts before/after
    tests/fixtures/passes/<case>/before.json     the traced program (PIR JSON, trainable=True, so
                                                 stop_gradient/persistable are kept)
    tests/fixtures/passes/<case>/before.txt      print(program)
    tests/fixtures/passes/<case>/before.pdiparams  its parameters (paddle.jit.save)
    tests/fixtures/passes/<case>/<entry>.json    the program after <entry> (a pass, or a list of
    tests/fixtures/passes/<case>/<entry>.txt     passes run in order), only when it changed

manifest.json: {"paddle": VERSION, "place": "cpu", "entries": {ENTRY: {"passes": [...],
"options": {...}}}, "cases": {CASE: {"description": ..., "ops": {op: count},
"results": {ENTRY: {"changed": bool, "ops": {op: count}}}}}, "samples": {SAMPLE: {"ops": ...,
"results": {ENTRY: {"changed": bool, "ops": {op: count}, "structure": SHA256}}}}}.

The real samples (../shared/samples/json, public files) are not copied: only what Paddle's passes
did to them is recorded, as top-level op counts and a structure hash: SHA-256 of one line per
top-level op, `name(operands)results`, each operand `P:R` (result R of top-level op P),
`-` (null) or `?` (defined elsewhere), joined by newlines (structure_lines() below;
tests/passgolden.h computes the same).

Usage:
    python3 tools/make_pass_fixtures.py [--out DIR] [--case NAME ...] [--entry NAME ...] [--print]

--case/--entry regenerate a subset (the manifest is merged, not replaced). --print shows the
programs instead of writing them. Needs PaddlePaddle 3.3.1 (CPU build is enough; the place and
kernel choices this implies are noted per entry in PASSES).

Adding passes: add an entry to PASSES; "passes" lists Paddle pass names run in that order by
one PassManager, "options" is the attribute map given to add_pass for every pass (e.g. a place
for constant folding is set by the helper of that entry), "cases" limits the cases (default:
all).
"""

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

# Each entry: pass list, add_pass options, notes (place/kernel choices of the CPU build).
PASSES = {
    "identity_op_clean_pass": {"passes": ["identity_op_clean_pass"]},
    "map_op_to_another_pass": {
        "passes": ["map_op_to_another_pass"],
        "note": "CPU build: the depthwise_conv2d -> conv2d pattern is compiled out (needs CUDA >= 8.1)",
    },
    "silu_fuse_pass": {"passes": ["silu_fuse_pass"]},
    "conv2d_bn_fuse_pass": {"passes": ["conv2d_bn_fuse_pass"]},
    "conv2d_add_fuse_pass": {"passes": ["conv2d_add_fuse_pass"]},
    "conv2d_add_act_fuse_pass": {
        "passes": ["conv2d_add_act_fuse_pass"],
        "note": "CPU build: only relu (tanh/sigmoid need CUDA and cuDNN < 8.7)",
    },
    "matmul_add_act_fuse_pass": {"passes": ["matmul_add_act_fuse_pass"]},
    "matmul_scale_fuse_pass": {"passes": ["matmul_scale_fuse_pass"]},
    "matmul_transpose_fuse_pass": {"passes": ["matmul_transpose_fuse_pass"]},
    "add_norm_fuse_pass": {"passes": ["add_norm_fuse_pass"]},
    "remove_redundant_transpose_pass": {"passes": ["remove_redundant_transpose_pass"]},
    # The fusion passes above in the order of Paddle's GPU inference pipeline (kPirGpuPasses).
    "fusion_chain": {
        "passes": [
            "map_op_to_another_pass",
            "identity_op_clean_pass",
            "silu_fuse_pass",
            "conv2d_bn_fuse_pass",
            "conv2d_add_act_fuse_pass",
            "conv2d_add_fuse_pass",
            "matmul_add_act_fuse_pass",
            "add_norm_fuse_pass",
            "matmul_scale_fuse_pass",
            "matmul_transpose_fuse_pass",
            "remove_redundant_transpose_pass",
        ]
    },
}

# The golden bundles' models (tools/paddle_trace_models.py) used here, in eval mode.
BUNDLE_MODELS = ["lenet", "conv_bn_relu", "transformer_encoder", "mlp_ce", "control_flow_if"]


def case_builders():
    """case name -> builder returning (layer, [(name, shape, dtype)], description)."""
    from pass_fixture_models import pass_fixture_models
    from paddle_trace_models import builtin_models

    cases = dict(pass_fixture_models())
    bundles = builtin_models()

    def from_bundle(name):
        def build():
            layer, inputs, _training, description = bundles[name]()
            specs = [(n, list(a.shape), str(a.dtype)) for n, a, _sg in inputs]
            return layer, specs, "golden bundle model: " + description

        return build

    for name in BUNDLE_MODELS:
        cases[name] = from_bundle(name)
    return cases


def op_counts(program):
    counts = collections.Counter(op.name() for op in program.global_block().ops)
    return dict(sorted(counts.items()))


def trace(build, workdir):
    """paddle.jit.save of the layer in eval mode; returns the saved path prefix and description."""
    import paddle

    paddle.disable_static()
    paddle.seed(2024)
    with paddle.utils.unique_name.guard():
        layer, specs, description = build()
    layer.eval()
    input_spec = [paddle.static.InputSpec(shape, dtype, name) for name, shape, dtype in specs]
    prefix = os.path.join(workdir, "model")
    paddle.jit.save(layer, prefix, input_spec=input_spec)
    return prefix, " ".join((description or "").split())


def load(json_path):
    import paddle
    from paddle.base import core

    paddle.enable_static()
    program = paddle.static.Program()
    core.deserialize_pir_program(json_path, program, -1)
    return program


def save(program, stem):
    from paddle.base import core

    core.serialize_pir_program(program, stem + ".json", True, False, True)
    with open(stem + ".txt", "w") as f:
        f.write(str(program))


SAMPLES = [
    "PP-OCRv5_mobile_det_infer.inference.json",
    "PP-OCRv5_server_det_infer.inference.json",
    "PP-OCRv5_server_rec_infer.inference.json",
    "korean_PP-OCRv5_mobile_rec_infer.inference.json",
    "PP-DocLayout_plus-L.inference.json",
]


def structure_lines(program):
    ops = list(program.global_block().ops)
    index = {op.id(): i for i, op in enumerate(ops)}
    lines = []
    for op in ops:
        operands = []
        for v in op.operands_source():
            if not v.initialized():
                operands.append("-")
                continue
            producer = v.get_defining_op()
            if producer is None or producer.id() not in index:
                operands.append("?")
            else:
                operands.append("%d:%d" % (index[producer.id()], v.index()))
        lines.append("%s(%s)%d" % (op.name(), ",".join(operands), op.num_results()))
    return lines


def structure_hash(program):
    import hashlib

    return hashlib.sha256("\n".join(structure_lines(program)).encode()).hexdigest()


def run_samples(manifest, entries, samples_dir):
    if not os.path.isdir(samples_dir):
        print("no samples at %s: their records are left as they are" % samples_dir)
        return
    records = manifest.setdefault("samples", {})
    for sample in SAMPLES:
        path = os.path.join(samples_dir, sample)
        if not os.path.exists(path):
            continue
        record = records.setdefault(sample, {"results": {}})
        before = load(path)
        record["ops"] = op_counts(before)
        record["structure"] = structure_hash(before)
        text_before = str(before)
        for entry_name in entries:
            program = load(path)
            run_entry(program, PASSES[entry_name])
            record["results"][entry_name] = {
                "changed": str(program) != text_before,
                "ops": op_counts(program),
                "structure": structure_hash(program),
            }
        print("%s: %s" % (sample, ", ".join(e for e in entries if record["results"][e]["changed"]) or "-"))


def run_entry(program, entry):
    from paddle.base import libpaddle

    pm = libpaddle.pir.PassManager()
    for name in entry["passes"]:
        pm.add_pass(name, dict(entry.get("options", {})))
    pm.run(program)


RECORD_PREFIX = "RECORD:"


def run_case(case, entries, out, print_only):
    """Traces one case, writes its folder and prints its manifest record (worker process)."""
    builders = case_builders()
    with tempfile.TemporaryDirectory() as tmp:
        prefix, description = trace(builders[case], tmp)
        before = load(prefix + ".json")
        record = {"description": description, "ops": op_counts(before), "results": {}}
        case_dir = os.path.join(out, case)
        if print_only:
            print("=== %s: before\n%s" % (case, before))
        else:
            os.makedirs(case_dir, exist_ok=True)
            save(before, os.path.join(case_dir, "before"))
            if os.path.exists(prefix + ".pdiparams"):  # absent when the model has none
                shutil.copyfile(prefix + ".pdiparams", os.path.join(case_dir, "before.pdiparams"))
        text_before = str(before)
        for entry_name in entries:
            program = load(prefix + ".json")
            run_entry(program, PASSES[entry_name])
            changed = str(program) != text_before
            record["results"][entry_name] = {"changed": changed, "ops": op_counts(program)}
            stem = os.path.join(case_dir, entry_name)
            if print_only:
                if changed:
                    print("=== %s: %s\n%s" % (case, entry_name, program))
                continue
            for ext in (".json", ".txt"):
                if os.path.exists(stem + ext):
                    os.remove(stem + ext)
            if changed:
                save(program, stem)
    print(RECORD_PREFIX + json.dumps(record))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", default=os.path.join(HERE, "..", "tests", "fixtures", "passes"))
    parser.add_argument("--case", action="append", help="only these cases (repeatable)")
    parser.add_argument("--entry", action="append", help="only these PASSES entries (repeatable)")
    parser.add_argument("--print", action="store_true", help="print the programs, write nothing")
    parser.add_argument("--samples", default=os.path.join(HERE, "..", "..", "shared", "samples", "json"),
                        help="folder of the real samples (skipped when absent)")
    parser.add_argument("--no-samples", action="store_true", help="leave the samples' records as they are")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.worker:
        run_case(args.worker, args.entry or list(PASSES), os.path.abspath(args.out), args.print)
        return

    import paddle

    builders = case_builders()
    cases = args.case or list(builders)
    entries = args.entry or list(PASSES)
    for name in cases + entries:
        if name not in builders and name not in PASSES:
            sys.exit("unknown case or entry: " + name)

    out = os.path.abspath(args.out)
    manifest_path = os.path.join(out, "manifest.json")
    manifest = {"cases": {}}
    if os.path.exists(manifest_path) and not args.print:
        with open(manifest_path) as f:
            manifest = json.load(f)
    manifest["paddle"] = paddle.__version__
    manifest["place"] = "cpu"
    manifest["entries"] = {k: {kk: v for kk, v in e.items()} for k, e in PASSES.items()}

    # One process per case: Paddle's layer-name counters (struct_name) are process-global, so a
    # case traced after others would get other names.
    for case in cases:
        command = [sys.executable, os.path.abspath(__file__), "--worker", case, "--out", out]
        for entry_name in entries:
            command += ["--entry", entry_name]
        if args.print:
            command.append("--print")
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        record = None
        for line in result.stdout.splitlines():
            if line.startswith(RECORD_PREFIX):
                record = json.loads(line[len(RECORD_PREFIX):])
            else:
                print(line)
        if result.returncode != 0 or record is None:
            sys.exit("tracing %s failed (rerun with --worker %s to see why)" % (case, case))
        merged = manifest["cases"].setdefault(case, {"results": {}})
        merged["description"] = record["description"]
        merged["ops"] = record["ops"]
        merged["results"].update(record["results"])
        print("%s: %s" % (case, ", ".join(e for e in entries if record["results"][e]["changed"]) or "-"))

    if not args.print and not args.no_samples:
        run_samples(manifest, entries, os.path.abspath(args.samples))
    if not args.print:
        manifest["cases"] = dict(sorted(manifest["cases"].items()))
        with open(manifest_path, "w") as f:
            json.dump(manifest, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
