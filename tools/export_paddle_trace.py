"""Exports a PIRScope trace bundle: what Paddle's dy2static pipeline makes of one layer.

A bundle is a folder (see tools/README.md and "Trace bundle" in the design notes):
  program.json / program.txt      the origin main program, as `paddle.jit.to_static` traced it
                                  (before PartialProgramLayer appends its `output_<k>` shadow outputs)
  manifest.json                   inputs, parameters, outputs, output nesting, training flag, files
  inputs/, params/                input and parameter values (.npy, taken before the run)
  train_program.txt (+ .json)     the whole program after backward is appended, right before the split
  split/                          forward/backward programs and attribute names straight out of
                                  `split_program` (before the dy2static passes and name unification)
  forward_program.*, backward_program.*, program_attributes.json
                                  what `run_program` finally receives (after passes and renaming)
  infer_program.txt (+ .json)     the inference (eval) forward program
  outputs/, output_grads/, grads/ Paddle's results of one forward and one backward

Usage:
  python3 tools/export_paddle_trace.py --module mymodels --layer MyNet --input x:2,3:float32 --out DIR
  python3 tools/export_paddle_trace.py --builtin mlp_ce --out tests/fixtures/paddle/mlp_ce
  python3 tools/export_paddle_trace.py --all tests/fixtures/paddle
  python3 tools/export_paddle_trace.py --verify tests/fixtures/paddle
"""

import argparse
import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import traceback

import numpy as np

sys.dont_write_bytecode = True  # keep tools/ free of __pycache__ from the import below
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paddle_trace_models import BUILTIN_NAMES, builtin_models  # noqa: E402

ATTRIBUTE_KEYS = ["fx", "fp", "fm", "fo", "bx", "bp", "bm", "bo_g", "bx_g", "bp_g", "no_need_buffers", "bo"]
KWARGS_JSON_NOTE = (
    "not written: the program has block keyword arguments; Paddle 3.3.1's ProgramWriter::WriteBlock stores the "
    "positional args list under \"kwargs\" (so an empty list), operands that read a kwarg get negative ids and "
    "reload as <<NULL VALUE>>"
)
STACK_JSON_NOTE = (
    "not written: the program has cf.stack_create ops; Paddle 3.3.1's ProgramWriter::WriteBlock erases "
    "cf.stack_create/cf.tuple_push/cf.tuple_pop from the program it serializes (aborting the process when a "
    "tuple_pop result is still used, e.g. by a *_grad op in a while backward)"
)


def _json_blocker(program):
    """Why serialize_pir_program must not be called on `program` (None when it is safe)."""
    if len(program.global_block().kwargs()) > 0:
        return KWARGS_JSON_NOTE

    def has_stack(block):
        for op in block.ops:
            if op.name() == "cf.stack_create":
                return True
            if any(has_stack(b) for b in op.blocks()):
                return True
        return False

    return STACK_JSON_NOTE if has_stack(program.global_block()) else None


# --------------------------------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------------------------------


def _dtype_name(dtype):
    text = str(dtype)
    for prefix in ("paddle.", "DataType.", "VarType."):
        if text.startswith(prefix):
            text = text[len(prefix):]
    return text.lower()


def _dump_json(obj, indent=""):
    """Indented JSON with lists of scalars kept on one line (shapes, name lists)."""
    inner = indent + "  "
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{inner}{json.dumps(str(k))}: {_dump_json(v, inner)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(obj, (list, tuple)):
        if all(not isinstance(v, (dict, list, tuple)) for v in obj):
            return json.dumps(list(obj))
        return "[\n" + ",\n".join(inner + _dump_json(v, inner) for v in obj) + "\n" + indent + "]"
    return json.dumps(obj)


def _error_text(exc):
    return f"{type(exc).__name__}: {str(exc).strip()}"


class Bundle:
    """Writes files into one bundle folder and remembers them for the manifest."""

    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.files = {}
        self.errors = []

    def path(self, rel):
        full = os.path.join(self.out_dir, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        return full

    def write_text(self, key, rel, text):
        with open(self.path(rel), "w", encoding="utf-8") as f:
            f.write(text if text.endswith("\n") else text + "\n")
        self.files[key] = rel

    def write_json(self, key, rel, obj):
        with open(self.path(rel), "w", encoding="utf-8") as f:
            f.write(_dump_json(obj) + "\n")
        self.files[key] = rel

    def write_npy(self, rel, array):
        np.save(self.path(rel), np.ascontiguousarray(array), allow_pickle=False)
        return rel

    def write_program(self, key, rel_stem, program):
        """Writes `<stem>.txt` and, when Paddle can serialize it faithfully, `<stem>.json`.

        Returns a note for the manifest when the JSON is not written.
        """
        import paddle

        self.write_text(key + "_txt", rel_stem + ".txt", str(program))
        blocker = _json_blocker(program)
        if blocker:
            return blocker
        try:
            paddle.base.core.serialize_pir_program(program, self.path(rel_stem + ".json"), True, False, True)
            self.files[key + "_json"] = rel_stem + ".json"
            return None
        except Exception as exc:  # noqa: BLE001 - recorded in the manifest
            return "serialize_pir_program failed: " + _error_text(exc)

    def checkpoint(self, manifest, notes, stage):
        """Writes the manifest so far; a hard crash (abort in Paddle's C++) leaves it marked incomplete."""
        manifest["status"] = "incomplete"
        manifest["stage"] = stage
        manifest["notes"] = notes
        manifest["errors"] = [{"stage": e["stage"], "error": e["error"]} for e in self.errors]
        manifest["files"] = dict(sorted(self.files.items()))
        self.write_json("manifest", "manifest.json", manifest)

    def fail(self, stage, exc):
        self.errors.append({"stage": stage, "error": _error_text(exc), "traceback": traceback.format_exc()})


def _names_of(values):
    from paddle.jit.dy2static.pir_partial_program import get_value_name

    return [get_value_name(v) for v in values]


def _sorted_no_need_buffers(attributes):
    if "no_need_buffers" in attributes:
        attributes["no_need_buffers"] = sorted(attributes["no_need_buffers"])
    return attributes


def _op_locator(program, value):
    """Where `value` is defined in the top block of `program`: op index, result index, op name."""
    for index, op in enumerate(program.global_block().ops):
        for result_index in range(op.num_results()):
            if op.result(result_index).is_same(value):
                return {"op_index": index, "result_index": result_index, "op_name": op.name()}
    return None


def _describe_structure(raw, var_map):
    """JSON description of a nested output structure, the way NestSequence flattens it."""
    import paddle
    from paddle.pir import Value

    seen = set()
    leaves = []
    for leaf in paddle.utils.flatten(raw):
        if isinstance(leaf, Value):
            index = var_map[leaf]
            leaves.append({"kind": "tensor", "index": index, "duplicate": index in seen})
            seen.add(index)
        else:
            leaves.append({"kind": "constant", "value": leaf if isinstance(leaf, (int, float, bool, str)) else repr(leaf)})
    packed = paddle.utils.pack_sequence_as(raw, list(range(len(leaves))))

    def encode(node):
        if isinstance(node, dict):
            return {"kind": "dict", "items": [{"key": str(k), "value": encode(v)} for k, v in node.items()]}
        if isinstance(node, (list, tuple)):
            return {"kind": "list" if isinstance(node, list) else "tuple", "items": [encode(v) for v in node]}
        return leaves[node]

    return encode(packed), leaves


# --------------------------------------------------------------------------------------------------
# Capturing the intermediate programs of the dy2static pipeline
# --------------------------------------------------------------------------------------------------


class SplitRecorder:
    """Wraps RunnableProgram.split_forward_backward to copy the programs at split time.

    The wrapper calls Paddle's own method unchanged; it only prints/serializes the whole program
    before the split and the two programs and attribute names right after it, before the dy2static
    passes and `unify_value_names` change them.
    """

    def __init__(self, stage_dir):
        self.stage_dir = stage_dir
        self.records = {}
        self._original = None

    def __enter__(self):
        from paddle.jit.dy2static.pir_partial_program import RunnableProgram

        self._original = RunnableProgram.split_forward_backward
        recorder = self

        def split_forward_backward(runnable):
            whole_txt = str(runnable.program)
            whole_json = recorder._serialize(runnable.program, "whole")
            result = recorder._original(runnable)
            recorder._record(runnable, result, whole_txt, whole_json)
            return result

        RunnableProgram.split_forward_backward = split_forward_backward
        return self

    def __exit__(self, *exc):
        from paddle.jit.dy2static.pir_partial_program import RunnableProgram

        RunnableProgram.split_forward_backward = self._original
        return False

    def _serialize(self, program, stem):
        import paddle

        blocker = _json_blocker(program)
        if blocker:
            return None, blocker
        path = os.path.join(self.stage_dir, f"{stem}_{len(self.records)}_{id(program)}.json")
        try:
            paddle.base.core.serialize_pir_program(program, path, True, False, True)
            return path, None
        except Exception as exc:  # noqa: BLE001 - recorded in the manifest
            return None, "serialize_pir_program failed: " + _error_text(exc)

    def _record(self, runnable, result, whole_txt, whole_json):
        (fwd, bwd), attr = result
        record = {
            "whole_txt": whole_txt,
            "whole_json": whole_json[0],
            "whole_json_note": whole_json[1],
            "forward_range": list(runnable.forward_range),
            "backward_range": list(runnable.backward_range),
            "forward_txt": str(fwd),
            "backward_txt": str(bwd),
            "attributes": _sorted_no_need_buffers({k: _names_of(attr[k]) for k in ATTRIBUTE_KEYS if k in attr}),
            "extra_attribute_keys": sorted(set(attr.keys()) - set(ATTRIBUTE_KEYS)),
        }
        record["forward_json"], record["forward_json_note"] = self._serialize(fwd, "forward")
        record["backward_json"], record["backward_json_note"] = self._serialize(bwd, "backward")
        self.records[id(runnable)] = record


# --------------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------------


def _start_run_log():
    """Turns on Paddle's per-op statistics (FLAGS_check_nan_inf_level=3) into a fresh folder."""
    import paddle

    log_dir = tempfile.mkdtemp(prefix="pirscope_runlog_")
    paddle.base.core.set_nan_inf_debug_path(log_dir)
    paddle.set_flags({"FLAGS_check_nan_inf": 1, "FLAGS_check_nan_inf_level": 3})
    return log_dir


def _finish_run_log(bundle, log_dir):
    """Turns the statistics off and keeps Paddle's worker_* files as paddle_run.log."""
    import paddle

    paddle.set_flags({"FLAGS_check_nan_inf": 0})
    text = ""
    for name in sorted(os.listdir(log_dir)):
        with open(os.path.join(log_dir, name), encoding="utf-8", errors="replace") as f:
            text += f.read()
    shutil.rmtree(log_dir, ignore_errors=True)
    if text:
        bundle.write_text("paddle_run_log", "paddle_run.log", text)


def export_bundle(layer, inputs, out_dir, training=True, name=None, description=None, seed=None, run_log=False):
    """Traces `layer` with to_static (PIR, full graph), runs it once, writes the bundle.

    inputs: list of (argument name, numpy array, stop_gradient). Returns the manifest dict; stages
    that fail are listed under "errors" and the rest of the bundle is still written.
    """
    import paddle

    if os.path.isdir(out_dir):
        shutil.rmtree(out_dir)
    os.makedirs(out_dir)
    bundle = Bundle(out_dir)
    manifest = {
        "name": name,
        "description": description,
        "paddle_version": paddle.__version__,
        "paddle_commit": paddle.version.commit,
        "numpy_version": np.__version__,
        "pipeline_flavour": "newest",
        "training": bool(training),
        "seed": seed,
        "fake_value_name": paddle.pir.get_fake_value_name(),
        "flags": {
            "FLAGS_enable_pir_api": paddle.get_flags(["FLAGS_enable_pir_api"])["FLAGS_enable_pir_api"],
            "FLAGS_enable_cse_in_dy2st": paddle.get_flags(["FLAGS_enable_cse_in_dy2st"])["FLAGS_enable_cse_in_dy2st"],
            "prim_forward": paddle.base.core._is_fwd_prim_enabled(),
            "prim_backward": paddle.base.core._is_bwd_prim_enabled(),
        },
        "route": (
            "paddle.jit.to_static(layer, full_graph=True); layer.forward.get_concrete_program(*inputs, "
            "is_train=training) -> (ConcreteProgram, PartialProgramLayer); one eager call runs it; "
            "train_program / infer_program are the PartialProgramLayer's RunnableProgram objects"
        ),
    }
    notes = {}

    if training:
        layer.train()
    else:
        layer.eval()

    tensors = []
    for arg, array, stop_gradient in inputs:
        t = paddle.to_tensor(array)
        t.stop_gradient = bool(stop_gradient)
        tensors.append(t)
    all_layer_params = {p.name: p for p in layer.parameters()}
    all_layer_buffers = {b.name: b for b in layer.buffers()}
    initial_values = {n: p.numpy().copy() for n, p in {**all_layer_params, **all_layer_buffers}.items()}

    stage_dir = tempfile.mkdtemp(prefix="pirscope_trace_")
    try:
        bundle.checkpoint(manifest, notes, "trace")
        static_layer = paddle.jit.to_static(layer, full_graph=True)
        static_fn = static_layer.forward
        try:
            concrete, partial = static_fn.get_concrete_program(*tensors, is_train=bool(training))
        except Exception as exc:  # noqa: BLE001
            bundle.fail("trace", exc)
            return _finish(bundle, manifest, notes)

        origin = concrete.main_program
        # The origin program, before PartialProgramLayer touches it.
        note = bundle.write_program("program", "program", origin)
        if note:
            notes["program_json"] = note

        input_values = list(partial._inputs.var_list)
        manifest["inputs"] = []
        for (arg, array, stop_gradient), value in zip(inputs, input_values):
            entry = {
                "name": value.name,
                "argument": arg,
                "shape": list(array.shape),
                "dtype": str(array.dtype),
                "stop_gradient": bool(stop_gradient),
                "file": bundle.write_npy(f"inputs/{value.name}.npy", array),
            }
            manifest["inputs"].append(entry)
        if len(input_values) != len(inputs):
            notes["inputs"] = f"{len(inputs)} arguments but {len(input_values)} pd_op.data inputs"

        manifest["parameters"] = []
        for tensor, value in zip(partial._params, partial._param_values):
            entry = {
                "name": value.name,
                "shape": list(tensor.shape),
                "dtype": _dtype_name(tensor.dtype),
                "stop_gradient": bool(tensor.stop_gradient),
                "trainable": bool(getattr(tensor, "trainable", False)),
                "persistable": bool(tensor.persistable),
                "is_buffer": tensor.name in all_layer_buffers,
                "file": bundle.write_npy(f"params/{value.name}.npy", initial_values.get(tensor.name, tensor.numpy())),
            }
            manifest["parameters"].append(entry)
        in_program = {p.name for p in partial._params}
        manifest["layer_parameters_not_in_program"] = sorted(n for n in all_layer_params if n not in in_program)

        output_values = list(partial._outputs.var_list)
        structure, leaves = _describe_structure(partial._outputs._raw_input, partial._outputs._var_map)
        # PartialProgramLayer._restore_out unwraps a one-element top-level list.
        raw = partial._outputs._raw_input
        unwrapped = isinstance(raw, (list, tuple)) and len(raw) == 1
        manifest["output_structure"] = structure["items"][0] if unwrapped else structure
        manifest["output_structure_flat"] = leaves
        manifest["output_structure_note"] = (
            "tensor leaves index `outputs` (NestSequence order: paddle.utils.flatten order, dict keys "
            "sorted, duplicates removed); duplicate=true marks a repeated tensor"
        )
        manifest["outputs"] = []
        for index, value in enumerate(output_values):
            manifest["outputs"].append(
                {
                    "index": index,
                    "shape": list(value.shape),
                    "dtype": _dtype_name(value.dtype),
                    "stop_gradient": bool(value.stop_gradient),
                    "defined_by": _op_locator(origin, value),
                }
            )

        # One eager call: builds the train (or infer) program, splits it, runs run_program.
        bundle.checkpoint(manifest, notes, "run")
        log_dir = _start_run_log() if run_log else None
        with SplitRecorder(stage_dir) as recorder:
            try:
                result = static_layer(*tensors)
            except Exception as exc:  # noqa: BLE001
                bundle.fail("run", exc)
                result = None
            if len(static_fn.program_cache) != 1 or static_fn.program_cache.last()[1][1] is not partial:
                notes["program_cache"] = "the eager call did not reuse the traced PartialProgramLayer"

            # Text of the origin program as PartialProgramLayer uses it (with output_<k> shadow outputs).
            if "origin_runnable_program" in partial.__dict__:
                bundle.write_text("origin_runnable_program_txt", "origin_runnable_program.txt", str(origin))

            if training:
                bundle.checkpoint(manifest, notes, "train_program")
                _write_train(bundle, manifest, notes, partial, recorder)
            else:
                notes["train_program"] = "not built: the layer was exported in eval mode"
            bundle.checkpoint(manifest, notes, "infer_program")
            _write_infer(bundle, notes, partial)

        if result is not None:
            bundle.checkpoint(manifest, notes, "results")
            _write_results(bundle, manifest, notes, result, tensors, inputs, partial, initial_values, training)
        if log_dir:
            _finish_run_log(bundle, log_dir)
            notes["paddle_run_log"] = (
                "paddle_run.log: Paddle's FLAGS_check_nan_inf_level=3 records of the eager call and the backward "
                "(one [PRECISION] line per op result, execution order; the output gradient's full_like is eager)"
            )
    except Exception as exc:  # noqa: BLE001
        bundle.fail("export", exc)
    finally:
        shutil.rmtree(stage_dir, ignore_errors=True)
    return _finish(bundle, manifest, notes)


def _write_train(bundle, manifest, notes, partial, recorder):
    """Whole program, split programs and attributes of the train program."""
    try:
        train = partial.train_program
    except Exception as exc:  # noqa: BLE001
        bundle.fail("train_program", exc)
        return
    record = recorder.records.get(id(train))
    if record is None:
        try:
            _ = train.forward_program  # triggers the split if nothing did yet
        except Exception as exc:  # noqa: BLE001
            bundle.fail("split_program", exc)
            return
        record = recorder.records.get(id(train))
    if record is None:
        notes["split"] = "split_program was not observed"
        return

    bundle.write_text("train_program_txt", "train_program.txt", record["whole_txt"])
    _copy_json(bundle, "train_program_json", "train_program.json", record["whole_json"], notes, record["whole_json_note"])
    manifest["forward_range"] = record["forward_range"]
    manifest["backward_range"] = record["backward_range"]
    manifest["range_note"] = "half-open [start, end) op indices into the top block of train_program"
    manifest["train_names"] = {
        "x": list(train.x_names),
        "param": list(train.param_names),
        "out": list(train.out_names),
        "x_grad": list(train.x_grad_names),
        "param_grad": list(train.p_grad_names),
        "out_grad": list(train.o_grad_names),
        "out_stop_gradients": [bool(s) for s in train.out_stop_gradients],
    }

    bundle.write_text("split_forward_program_txt", "split/forward_program.txt", record["forward_txt"])
    bundle.write_text("split_backward_program_txt", "split/backward_program.txt", record["backward_txt"])
    _copy_json(bundle, "split_forward_program_json", "split/forward_program.json", record["forward_json"], notes, record["forward_json_note"])
    _copy_json(bundle, "split_backward_program_json", "split/backward_program.json", record["backward_json"], notes, record["backward_json_note"])
    bundle.write_json("split_program_attributes", "split/program_attributes.json", record["attributes"])
    if record["extra_attribute_keys"]:
        notes["split_extra_attribute_keys"] = record["extra_attribute_keys"]

    try:
        if "program_attr" not in train.__dict__:
            notes["program_attr"] = "computed by the exporter (the eager call ran the other program)"
        attr = train.program_attr
    except Exception as exc:  # noqa: BLE001
        bundle.fail("program_attr", exc)
        return
    final = {}
    for key in ATTRIBUTE_KEYS:
        names = attr.get(f"{key}_names")
        if names is not None:
            final[key] = list(names)
    final = _sorted_no_need_buffers(final)
    notes["no_need_buffers"] = (
        "sorted by name in both program_attributes files: Paddle builds it from an unordered set of values, "
        "so its order changes from run to run"
    )
    bundle.write_json("program_attributes", "program_attributes.json", final)
    for entry, name, fo_name in zip(manifest["outputs"], train.out_names, final.get("fo", [])):
        entry["name"] = name
        entry["fo_name"] = fo_name
    for key, stem in (("forward_program", "forward_program"), ("backward_program", "backward_program")):
        note = bundle.write_program(key, stem, getattr(train, key))
        if note:
            notes[f"{key}_json"] = note


def _copy_json(bundle, key, rel, staged, notes, note):
    if staged:
        shutil.copyfile(staged, bundle.path(rel))
        bundle.files[key] = rel
    elif note:
        notes[key] = note


def _write_infer(bundle, notes, partial):
    try:
        infer = partial.infer_program
        note = bundle.write_program("infer_program", "infer_program", infer.forward_program)
        if note:
            notes["infer_program_json"] = note
    except Exception as exc:  # noqa: BLE001
        bundle.fail("infer_program", exc)


def _write_results(bundle, manifest, notes, result, tensors, inputs, partial, initial_values, training):
    """Outputs of the eager call, then one backward with ones as output gradients."""
    import paddle

    flat = []
    seen = set()
    for leaf in paddle.utils.flatten(result):
        if isinstance(leaf, paddle.Tensor) and id(leaf) not in seen:
            seen.add(id(leaf))
            flat.append(leaf)
    if len(flat) != len(manifest["outputs"]):
        notes["outputs"] = f"{len(flat)} distinct result tensors for {len(manifest['outputs'])} program outputs"
    for index, tensor in enumerate(flat):
        if index < len(manifest["outputs"]):
            manifest["outputs"][index]["file"] = bundle.write_npy(f"outputs/{index}.npy", tensor.numpy())

    after = {}
    differentiated = [i for i, t in enumerate(flat) if not t.stop_gradient and t.is_floating_point()]
    backward = {
        "method": (
            "paddle.autograd.backward(outputs, grad_tensors) over every output with stop_gradient=False, "
            "each seeded with ones: the gradient of loss = sum(sum(output) for those outputs)"
        ),
        "differentiated_outputs": differentiated,
        "output_grads": {},
    }
    if not training:
        backward["skipped"] = "layer exported in eval mode"
        backward["differentiated_outputs"] = []
    elif not differentiated:
        backward["skipped"] = "no output requires a gradient"
    else:
        try:
            seeds = [paddle.ones_like(flat[i]) for i in differentiated]
            for i, seed in zip(differentiated, seeds):
                backward["output_grads"][str(i)] = bundle.write_npy(f"output_grads/{i}.npy", seed.numpy())
            paddle.autograd.backward([flat[i] for i in differentiated], seeds)
        except Exception as exc:  # noqa: BLE001
            bundle.fail("backward", exc)
    manifest["backward"] = backward

    for entry, tensor in zip(manifest["inputs"], tensors):
        grad = tensor.grad
        entry["grad_file"] = bundle.write_npy(f"grads/inputs/{entry['name']}.npy", grad.numpy()) if grad is not None else None
    for entry, tensor in zip(manifest["parameters"], partial._params):
        grad = tensor.grad
        entry["grad_file"] = bundle.write_npy(f"grads/params/{entry['name']}.npy", grad.numpy()) if grad is not None else None
        now = tensor.numpy()
        before = initial_values.get(tensor.name)
        if before is not None and not np.array_equal(before, now):
            entry["file_after_run"] = bundle.write_npy(f"params_after/{entry['name']}.npy", now)
            after[entry["name"]] = entry["file_after_run"]
    if after:
        notes["params_after"] = "parameters/buffers that the run changed in place (values after forward+backward)"


def _finish(bundle, manifest, notes):
    manifest["status"] = "complete"
    manifest.pop("stage", None)
    manifest["notes"] = notes
    manifest["errors"] = [{"stage": e["stage"], "error": e["error"]} for e in bundle.errors]
    for e in bundle.errors:
        print(f"== {e['stage']}: {e['error']}\n{e['traceback']}", file=sys.stderr)
    manifest["files"] = dict(sorted(bundle.files.items()))
    bundle.write_json("manifest", "manifest.json", manifest)
    return manifest


# --------------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------------


def _parse_input(text, int_high, rng):
    """`name:shape:dtype[:nograd]`, shape `2,3` (empty for a scalar)."""
    parts = text.split(":")
    if len(parts) < 3 or len(parts) > 4:
        raise SystemExit(f"bad --input {text!r}: expected name:shape:dtype[:nograd]")
    name, shape_text, dtype = parts[0], parts[1], parts[2]
    shape = tuple(int(s) for s in shape_text.split(",") if s.strip())
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        array = rng.standard_normal(shape).astype(dtype)
    elif dtype.kind in "iu":
        array = rng.randint(0, int_high, size=shape).astype(dtype)
    elif dtype.kind == "b":
        array = rng.rand(*shape) > 0.5
    else:
        raise SystemExit(f"unsupported dtype {dtype} in --input {text!r}")
    stop_gradient = dtype.kind != "f" or (len(parts) == 4 and parts[3] == "nograd")
    return name, array, stop_gradient


def _load_layer_class(module_name, class_name):
    if module_name.endswith(".py") or os.path.sep in module_name:
        spec = importlib.util.spec_from_file_location("pirscope_user_module", module_name)
        module = importlib.util.module_from_spec(spec)
        sys.path.insert(0, os.path.dirname(os.path.abspath(module_name)))
        spec.loader.exec_module(module)
    else:
        sys.path.insert(0, os.getcwd())
        module = importlib.import_module(module_name)
    return getattr(module, class_name)


def _print_summary(manifest, out_dir):
    status = "FAILED: " + "; ".join(f"{e['stage']}: {e['error'][:200]}" for e in manifest["errors"]) if manifest["errors"] else "ok"
    print(f"{out_dir}: {status}")


def _export_builtin(name, out_dir, seed, run_log=False):
    import paddle

    paddle.seed(seed)
    with paddle.utils.unique_name.guard():
        layer, inputs, training, description = builtin_models()[name]()
        return export_bundle(
            layer, inputs, out_dir, training=training, name=name, description=description, seed=seed, run_log=run_log
        )


def _export_all(root, seed, run_log=False):
    """Each built-in model in its own process, so names and random state start fresh."""
    os.makedirs(root, exist_ok=True)
    failed = []
    for name in BUILTIN_NAMES:
        cmd = [sys.executable, os.path.abspath(__file__), "--builtin", name, "--seed", str(seed), "--out", os.path.join(root, name)]
        cmd += ["--run-log"] if run_log else []
        proc = subprocess.run(cmd, capture_output=True, text=True)
        lines = [l for l in proc.stdout.splitlines() if l.startswith(os.path.join(root, name))]
        print("\n".join(lines) if lines else f"{name}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
        if proc.returncode < 0:
            _record_crash(os.path.join(root, name), proc)
        if proc.returncode != 0:
            failed.append(name)
    return failed


def _record_crash(out_dir, proc):
    """Adds a process crash (signal) to a bundle's in-progress manifest."""
    path = os.path.join(out_dir, "manifest.json")
    if not os.path.isfile(path):
        return
    with open(path, encoding="utf-8") as f:
        manifest = json.load(f)
    tail = [l for l in proc.stderr.splitlines() if l.strip() and not l.startswith(("I", "W")) and "Warning" not in l]
    manifest["errors"].append(
        {"stage": manifest.get("stage", "?"), "error": f"process killed by signal {-proc.returncode}: " + " | ".join(tail[-12:])}
    )
    with open(path, "w", encoding="utf-8") as f:
        f.write(_dump_json(manifest) + "\n")


def verify(root):
    """Reloads every program JSON with Paddle, loads every .npy, prints a size table."""
    import paddle

    dirs = [root] if os.path.isfile(os.path.join(root, "manifest.json")) else sorted(
        os.path.join(root, d) for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, "manifest.json"))
    )
    problems = []
    rows = []
    total = 0
    for d in dirs:
        with open(os.path.join(d, "manifest.json"), encoding="utf-8") as f:
            manifest = json.load(f)
        size = 0
        n_files = 0
        for base, _, names in os.walk(d):
            for n in names:
                size += os.path.getsize(os.path.join(base, n))
                n_files += 1
        total += size
        for key, rel in manifest["files"].items():
            if not os.path.isfile(os.path.join(d, rel)):
                problems.append(f"{d}: missing {rel} ({key})")
        reloaded = []
        for key, rel in manifest["files"].items():
            if not rel.endswith(".json") or key in ("manifest",) or "attributes" in key:
                continue
            program = paddle.static.Program()
            try:
                paddle.base.core.deserialize_pir_program(os.path.join(d, rel), program)
            except Exception as exc:  # noqa: BLE001
                problems.append(f"{d}: {rel} does not reload: {_error_text(exc)}")
                continue
            txt = os.path.join(d, rel[: -len(".json")] + ".txt")
            mark = ""
            if os.path.isfile(txt):
                with open(txt, encoding="utf-8") as f:
                    expected = f.read().strip().splitlines()
                got = str(program).strip().splitlines()
                differing = sum(1 for a, b in zip(expected, got) if a != b) + abs(len(expected) - len(got))
                mark = "=txt" if differing == 0 else f"!=txt({differing} lines)"
            reloaded.append(rel + mark)
        n_npy = 0
        for base, _, names in os.walk(d):
            for n in names:
                if n.endswith(".npy"):
                    try:
                        np.load(os.path.join(base, n), allow_pickle=False)
                        n_npy += 1
                    except Exception as exc:  # noqa: BLE001
                        problems.append(f"{os.path.join(base, n)}: {_error_text(exc)}")
        for entry in manifest.get("inputs", []) + manifest.get("parameters", []):
            arr = np.load(os.path.join(d, entry["file"]))
            if list(arr.shape) != entry["shape"]:
                problems.append(f"{d}: {entry['file']} shape {arr.shape} != manifest {entry['shape']}")
        status = "errors: " + "; ".join(e["stage"] for e in manifest["errors"]) if manifest["errors"] else "ok"
        if manifest.get("status") != "complete":
            status = f"INCOMPLETE at {manifest.get('stage')}; " + status
            problems.append(f"{d}: bundle is incomplete (stage {manifest.get('stage')})")
        rows.append((os.path.basename(d), size, n_files, n_npy, status, ", ".join(reloaded)))
    print(f"{'bundle':22} {'bytes':>9} {'files':>5} {'npy':>4}  status / reloaded JSON")
    for name, size, n_files, n_npy, status, reloaded in rows:
        print(f"{name:22} {size:9d} {n_files:5d} {n_npy:4d}  {status}; {reloaded}")
    print(f"{'total':22} {total:9d}")
    for p in problems:
        print("PROBLEM:", p)
    return not problems


def write_intermediates(bundle_dir):
    """Adds Paddle's value of every op result of the bundle's program to the bundle.

    The program is the one the run executed as a whole: train_program (forward and backward in one,
    with the ones seeding the output gradient) for a training bundle, infer_program otherwise. Paddle
    runs it once more with the static Executor on the bundle's inputs and parameters (values taken
    before the run) and fetches every dense result, written to intermediates/<op>_<result>.npy and
    listed in manifest["intermediates"] by top-level op index and result index. Returns the count.
    """
    import paddle

    manifest_path = os.path.join(bundle_dir, "manifest.json")
    with open(manifest_path, encoding="utf-8") as f:
        manifest = json.load(f)
    key = "train_program_json" if manifest.get("training") else "infer_program_json"
    rel = manifest["files"].get(key)
    if not rel:
        raise RuntimeError(f"{bundle_dir}: the bundle has no {key} to run")
    paddle.enable_static()
    program = paddle.static.Program()
    paddle.base.core.deserialize_pir_program(os.path.join(bundle_dir, rel), program)
    place = paddle.CPUPlace()
    scope = paddle.static.global_scope()
    for p in manifest.get("parameters", []):
        scope.var(p["name"]).get_tensor().set(np.load(os.path.join(bundle_dir, p["file"])), place)
    feed = {i["name"]: np.load(os.path.join(bundle_dir, i["file"])) for i in manifest.get("inputs", [])}
    # The Executor fetches at the end of the run: a value that a later inplace op overwrites
    # (relu_, scale_, set_value_ on an intermediate) would come back with the later content.
    overwritten = set()
    for op in program.global_block().ops:
        for _, in_index in paddle.core.pir.get_op_inplace_info(op).items():
            overwritten.add(op.operand(in_index).source().id)
    fetch, where, skipped = [], [], 0
    for index, op in enumerate(program.global_block().ops):
        if op.name() in ("builtin.parameter", "pd_op.data") or op.name().startswith("builtin."):
            continue  # inputs and parameters are in the bundle already; builtin ops compute nothing
        for result in range(op.num_results()):
            value = op.result(result)
            if value.initialized() and value.is_dense_tensor_type() and value.id in overwritten:
                skipped += 1
            elif value.initialized() and value.is_dense_tensor_type():
                fetch.append(value)
                where.append((index, result, op.name()))
    values = paddle.static.Executor(place).run(program, feed=feed, fetch_list=fetch, return_numpy=True)
    out_dir = os.path.join(bundle_dir, "intermediates")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    entries = []
    for (index, result, name), value in zip(where, values):
        file = f"intermediates/{index:04d}_{result}.npy"
        np.save(os.path.join(bundle_dir, file), np.ascontiguousarray(value), allow_pickle=False)
        entries.append({"op_index": index, "result_index": result, "op_name": name, "file": file})
    manifest["intermediates"] = {
        "program": key[: -len("_json")],
        "note": (
            "Paddle's value of every dense op result of this program (top-level op index, result index), computed "
            "by paddle.static.Executor on the bundle's inputs and parameters; builtin ops, data and parameters "
            "are not repeated; values a later inplace op overwrites are left out (the Executor fetches at the end)"
        ),
        "overwritten_left_out": skipped,
        "values": entries,
    }
    with open(manifest_path, "w", encoding="utf-8") as f:
        f.write(_dump_json(manifest) + "\n")
    return len(entries)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--layer", help="class name of a paddle.nn.Layer in --module (constructed without arguments "
                      "unless --layer-kwargs is given)")
    mode.add_argument("--builtin", choices=BUILTIN_NAMES, help="export one built-in model")
    mode.add_argument("--all", metavar="DIR", help="export every built-in model into DIR/<name>")
    mode.add_argument("--verify", metavar="DIR", help="check a bundle or a folder of bundles")
    mode.add_argument("--write-intermediates", metavar="BUNDLE", help="add Paddle's value of every op result to "
                      "an existing bundle (intermediates/, manifest[\"intermediates\"])")
    parser.add_argument("--module", help="module name (importable from the current directory) or path to a .py file")
    parser.add_argument("--layer-kwargs", default="{}", help="JSON object of keyword arguments for the layer")
    parser.add_argument("--input", action="append", default=[], metavar="NAME:SHAPE:DTYPE[:nograd]",
                        help="one forward argument, in order, e.g. x:2,3:float32 or ids:4:int64; random values; "
                        "float inputs need a gradient unless :nograd is given")
    parser.add_argument("--int-high", type=int, default=10, help="integer inputs are drawn from [0, INT_HIGH)")
    parser.add_argument("--eval", action="store_true", help="export in eval mode (no gradients)")
    parser.add_argument("--seed", type=int, default=2024, help="paddle.seed and numpy seed")
    parser.add_argument("--out", help="bundle folder to (re)create")
    parser.add_argument("--intermediates", action="store_true", help="also write Paddle's value of every op result "
                        "of the bundle's program (pirscope-cli verify BUNDLE --intermediates)")
    parser.add_argument("--run-log", action="store_true", help="also write paddle_run.log: Paddle's "
                        "FLAGS_check_nan_inf_level=3 statistics of every op result of the run (pirscope-cli verify "
                        "BUNDLE --paddle-log BUNDLE/paddle_run.log)")
    args = parser.parse_args(argv)

    if args.verify:
        return 0 if verify(args.verify) else 1
    if args.write_intermediates:
        print(f"{args.write_intermediates}: {write_intermediates(args.write_intermediates)} intermediates")
        return 0
    if args.all:
        failed = _export_all(args.all, args.seed, args.run_log)
        ok = verify(args.all)
        return 1 if failed or not ok else 0
    if not args.out:
        parser.error("--out is required")
    if args.builtin:
        manifest = _export_builtin(args.builtin, args.out, args.seed, args.run_log)
    else:
        if not args.module:
            parser.error("--layer needs --module")
        import paddle

        paddle.seed(args.seed)
        rng = np.random.RandomState(args.seed)
        layer = _load_layer_class(args.module, args.layer)(**json.loads(args.layer_kwargs))
        inputs = [_parse_input(text, args.int_high, rng) for text in args.input]
        manifest = export_bundle(
            layer, inputs, args.out, training=not args.eval, name=args.layer, seed=args.seed, run_log=args.run_log
        )
    if args.intermediates and not manifest["errors"]:
        # A fresh process: the Executor runs in static mode, the export ran in dynamic mode.
        subprocess.run([sys.executable, os.path.abspath(__file__), "--write-intermediates", args.out], check=True)
    _print_summary(manifest, args.out)
    return 2 if manifest["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
