#!/usr/bin/env python3
"""Generate core/dialect/optable.def (the PIRScope op registry table) from Paddle's op YAML.

The rules follow Paddle's own PIR generator (paddle/fluid/pir/dialect/op_generator/op_gen.py):

* ops come from ops.yaml, backward.yaml, fused_ops.yaml, fused_backward.yaml,
  inconsistent/static_ops.yaml, inconsistent/static_backward.yaml and inconsistent/update_ops.yaml;
* an op with an `inplace:` or `view:` map also gets a `<name>_` variant (InplaceTrait) unless its
  name already ends in `_`; only the `_` op carries the inplace/view pairs;
* an op whose kernel lists several functions becomes one PIR op per kernel function;
* an IntArray/Scalar attribute whose op_compat.yaml entry has `support_tensor: true`,
  `tensor_name` or `tensors_name` is an operand (after the tensor inputs, in args order); a
  `*_grad` op without a compat entry of its own uses its forward op's entry; pow's scalar entry
  is ignored.

Hand-written ops (builtin.*, cf.*, the manual pd_op ops) are described in MANUAL_OPS below.
tools/paddle_3_3_1_ops.yaml adds what Paddle 3.3.1 has beyond the saved YAML (inplace maps, a few
ops), read off Paddle 3.3.1 itself.

Usage:
  gen_op_registry.py [--yaml-dir DIR] [--out core/dialect/optable.def] [--check op_index.tsv]
"""

import argparse
import csv
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
DEFAULT_YAML_DIR = os.path.normpath(os.path.join(REPO, "..", "shared", "paddle_yaml"))
DEFAULT_OUT = os.path.join(REPO, "core", "dialect", "optable.def")

PREFIX = "paddle__phi__ops__yaml__"
# (file, label written into OpInfo::source, is backward file)
YAML_FILES = [
    ("ops.yaml", "ops.yaml", False),
    ("backward.yaml", "backward.yaml", True),
    ("fused_ops.yaml", "fused_ops.yaml", False),
    ("fused_backward.yaml", "fused_backward.yaml", True),
    ("inconsistent__static_ops.yaml", "inconsistent/static_ops.yaml", False),
    ("inconsistent__static_backward.yaml", "inconsistent/static_backward.yaml", True),
    ("inconsistent__update_ops.yaml", "inconsistent/update_ops.yaml", False),
]
COMPAT_FILE = "op_compat.yaml"
SUPPLEMENT = os.path.join(HERE, "paddle_3_3_1_ops.yaml")

# op_gen.py PD_MANUAL_OP_LIST: Paddle writes these pd_op classes by hand (same signature).
PD_MANUAL_OP_LIST = {"add_n", "add_n_", "split_grad", "expand", "increment", "increment_", "assign_out_"}


# ----------------------------------------------------------------------------------------------
# Model


class Op:
    def __init__(self, full_name, kind, source):
        self.full_name = full_name
        self.kind = kind  # forward | backward | manual | builtin | cf
        self.source = source
        self.inputs = []  # dict(name, type, optional, nnb)
        self.attrs = []  # dict(name, type, default, mutable, data_type) in YAML order
        self.outputs = []  # dict(name, type, intermediate, optional, size)
        self.inplace = []  # (out_name, in_name) as in the YAML
        self.view = []
        self.carries_pairs = False  # OpInfo carries the inplace/view pairs
        self.inplace_trait = False
        self.backward = ""
        self.forward = ""
        self.variadic_operands = False
        self.variadic_results = False
        self.num_regions = 0

    @property
    def short_name(self):
        return self.full_name.split(".", 1)[1]

    def mutable_attrs(self):
        return [a for a in self.attrs if a["mutable"]]

    def operands(self):
        """Operands in PIR order: tensor inputs, then mutable attributes in args order."""
        rows = []
        for i in self.inputs:
            rows.append(dict(name=i["name"], type=i["type"], optional=i["optional"], nnb=i["nnb"],
                             mutable=False, data_type="", default=""))
        for a in self.mutable_attrs():
            rows.append(dict(name=a["name"], type=a["type"], optional=False, nnb=False, mutable=True,
                             data_type=a["data_type"], default=a["default"]))
        return rows

    def pairs(self, which):
        """(output index, operand index) for the inplace or view map; empty unless carried."""
        if not self.carries_pairs:
            return []
        out_index = {o["name"]: k for k, o in enumerate(self.outputs)}
        in_index = {o["name"]: k for k, o in enumerate(self.operands())}
        result = []
        for out_name, in_name in (self.inplace if which == "inplace" else self.view):
            if out_name not in out_index or in_name not in in_index:
                raise ValueError(f"{self.full_name}: bad {which} pair {in_name}->{out_name}")
            result.append((out_index[out_name], in_index[in_name]))
        return result


# ----------------------------------------------------------------------------------------------
# YAML parsing (mirrors paddle/phi/api/generator/parse_utils.py closely enough for signatures)


def split_top(text, sep=","):
    """Split on `sep` outside (), [], {} and quotes."""
    parts, depth, quote, cur = [], 0, None, []
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "\"'":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def parse_args(op_name, args):
    args = args.strip()
    if not (args.startswith("(") and args.endswith(")")):
        raise ValueError(f"{op_name}: bad args {args!r}")
    inputs, attrs = [], []
    for item in split_top(args[1:-1]):
        default = ""
        eq = None
        depth, quote = 0, None
        for k, ch in enumerate(item):
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "\"'":
                quote = ch
            elif ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
            elif ch == "=" and depth == 0:
                eq = k
                break
        if eq is not None:
            default = item[eq + 1:].strip()
            item = item[:eq].strip()
        m = re.match(r"^(.*?)\s*([A-Za-z_][A-Za-z0-9_]*)$", item)
        if not m:
            raise ValueError(f"{op_name}: bad arg {item!r}")
        typename = re.sub(r"\s+", "", m.group(1))
        name = m.group(2)
        if typename in ("Tensor", "Tensor[]"):
            inputs.append(dict(name=name, type=typename, optional=False, nnb=False))
        else:
            attrs.append(dict(name=name, type=typename, default=default, mutable=False, data_type=""))
    return inputs, attrs


OUTPUT_RE = re.compile(r"(?P<type>[a-zA-Z0-9_\[\]]+)\s*(?P<name>\([a-zA-Z0-9_@]+\))?\s*(?P<size>\{[^\}]+\})?")


def parse_outputs(op_name, text):
    outs = []
    if not text:
        return outs
    for item in re.split(r",(?![^{]*\})", text.strip()):
        m = OUTPUT_RE.search(item.strip())
        if not m:
            raise ValueError(f"{op_name}: bad output {item!r}")
        name = m.group("name")[1:-1] if m.group("name") else "out"
        size = m.group("size")[1:-1] if m.group("size") else ""
        outs.append(dict(name=name, type=m.group("type"), intermediate=False, optional=False, size=size))
    return outs


def parse_name_list(value):
    if value is None:
        return []
    if isinstance(value, list):
        return [str(v).strip() for v in value]
    return [v.strip() for v in str(value).split(",") if v.strip()]


def parse_pairs(text):
    """`(x -> out), (y -> z)` -> [(out, x), (z, y)]."""
    if not text:
        return []
    return [(m.group(2), m.group(1)) for m in re.finditer(r"([A-Za-z0-9_]+)\s*->\s*([A-Za-z0-9_]+)", text)]


def kernel_funcs(op):
    kernel = op.get("kernel")
    if not isinstance(kernel, dict) or "func" not in kernel:
        return []
    return [m[0] for m in re.findall(r"([a-zA-Z0-9_]+)\s*(\{[^}]+\})?", str(kernel["func"]))]


# ----------------------------------------------------------------------------------------------
# op_compat.yaml


def phi_name(item):
    return item.split("(")[0].strip()


class Compat:
    def __init__(self, path):
        with open(path) as f:
            self.entries = yaml.safe_load(f)

    def get(self, op_name):
        for entry in self.entries:
            if op_name == phi_name(entry["op"]):
                return entry
            if "backward" in entry:
                for name in str(entry["backward"]).split(", "):
                    if op_name == phi_name(name):
                        return entry
        return None


def is_mutable(spec):
    if spec.get("support_tensor") is True:
        return True
    return "tensor_name" in spec or "tensors_name" in spec


def apply_compat(op_yaml, op_name, attrs, compat):
    entry = compat.get(op_name)
    if entry is None and op_name.endswith(("_grad", "_grad_")) and "forward" in op_yaml:
        entry = compat.get(phi_name(op_yaml["forward"]))
    if entry is None:
        return
    mutable = {}
    if "scalar" in entry and entry["op"] != "pow":
        for name, spec in entry["scalar"].items():
            if not is_mutable(spec):
                continue
            if name == "depth" and op_name == "one_hot":
                name = "num_classes"
            mutable[name] = spec.get("data_type", "")
    if "int_array" in entry:
        for name, spec in entry["int_array"].items():
            if is_mutable(spec):
                mutable[name] = spec.get("data_type", "")
    for a in attrs:
        if a["name"] in mutable:
            a["mutable"] = True
            a["data_type"] = mutable[a["name"]]


# ----------------------------------------------------------------------------------------------
# Building the table


def merge_supplement(fname, items, is_backward, supplement):
    """Applies the Paddle 3.3.1 entries of `supplement` that belong to `fname`: an inplace map for
    an op the file defines, or a new op appended to ops.yaml / backward.yaml."""
    key = "backward_op" if is_backward else "op"
    by_name = {str(item.get(key, "")).strip(): item for item in items}
    for entry in supplement:
        name = entry.get(key)
        if name is None:
            continue
        name = name.strip()
        if "args" in entry:
            if fname == ("backward.yaml" if is_backward else "ops.yaml"):
                if name in by_name:
                    raise ValueError(f"{SUPPLEMENT}: {name} is defined by {fname} already")
                items.append(dict(entry, _source="paddle_3_3_1_ops.yaml"))
        elif name in by_name:
            by_name[name]["inplace"] = entry["inplace"]


def load_supplement():
    with open(SUPPLEMENT) as f:
        supplement = yaml.safe_load(f) or []
    return supplement


def load_yaml_ops(yaml_dir):
    compat = Compat(os.path.join(yaml_dir, PREFIX + COMPAT_FILE))
    supplement = load_supplement()
    ops = []
    for fname, label, is_backward in YAML_FILES:
        with open(os.path.join(yaml_dir, PREFIX + fname)) as f:
            items = yaml.safe_load(f) or []
        merge_supplement(fname, items, is_backward, supplement)
        for item in items:
            name = item.get("backward_op") if is_backward else item.get("op")
            if name is None:
                raise ValueError(f"{fname}: entry without a name: {item}")
            name = name.strip()
            inputs, attrs = parse_args(name, item["args"])
            outputs = parse_outputs(name, item["output"])
            optional = set(parse_name_list(item.get("optional")))
            intermediate = set(parse_name_list(item.get("intermediate")))
            nnb = set(parse_name_list(item.get("no_need_buffer")))
            for i in inputs:
                i["optional"] = i["name"] in optional
                i["nnb"] = i["name"] in nnb
            for o in outputs:
                o["optional"] = o["name"] in optional
                o["intermediate"] = o["name"] in intermediate
            apply_compat(item, name, attrs, compat)
            inplace = parse_pairs(item.get("inplace"))
            view = parse_pairs(item.get("view"))
            forward = phi_name(item["forward"]) if item.get("forward") else ""
            backward = str(item.get("backward", "")).strip()

            variants = [name]
            if (inplace or view) and not name.endswith("_"):
                variants.append(name + "_")
            funcs = kernel_funcs(item)
            for variant in variants:
                if len(funcs) > 1:
                    pir_names = [fn + "_" if variant.endswith("_") else fn for fn in funcs]
                else:
                    pir_names = [variant]
                for pir_name in pir_names:
                    kind = "backward" if is_backward else "forward"
                    op = Op("pd_op." + pir_name, kind, item.get("_source", label))
                    op.inputs = [dict(i) for i in inputs]
                    op.attrs = [dict(a) for a in attrs]
                    op.outputs = [dict(o) for o in outputs]
                    op.inplace = list(inplace)
                    op.view = list(view)
                    op.carries_pairs = variant.endswith("_")
                    op.inplace_trait = variant.endswith("_")
                    op.backward = "pd_op." + backward if backward else ""
                    op.forward = "pd_op." + forward if forward else ""
                    ops.append(op)
    return ops


def tin(name, type_="Tensor", optional=False, nnb=False):
    return dict(name=name, type=type_, optional=optional, nnb=nnb)


def attr(name, type_, default="", mutable=False, data_type=""):
    return dict(name=name, type=type_, default=default, mutable=mutable, data_type=data_type)


def tout(name, type_="Tensor"):
    return dict(name=name, type=type_, intermediate=False, optional=False, size="")


def manual(full_name, kind, source, inputs=(), attrs=(), outputs=(), inplace=(), inplace_trait=None,
           variadic_operands=False, variadic_results=False, regions=0, backward="", forward=""):
    op = Op(full_name, kind, source)
    op.backward = backward
    op.forward = forward
    op.inputs = list(inputs)
    op.attrs = list(attrs)
    op.outputs = list(outputs)
    op.inplace = list(inplace)
    op.carries_pairs = bool(inplace)
    op.inplace_trait = full_name.endswith("_") if inplace_trait is None else inplace_trait
    op.variadic_operands = variadic_operands
    op.variadic_results = variadic_results
    op.num_regions = regions
    return op


BUILTIN = "paddle/pir/include/core/builtin_op.h"
CF = "paddle/pir/include/dialect/control_flow/ir/cf_op.h"
MANUAL = "paddle/fluid/pir/dialect/operator/ir/manual_op.h"
CONTROL_FLOW = "paddle/fluid/pir/dialect/operator/ir/control_flow_op.h"
PYLAYER = "paddle/fluid/pir/dialect/operator/ir/manual_pylayer_op.h"

# Hand-written ops (not in the YAML). Types other than Tensor/Tensor[] name PIR value kinds.
MANUAL_OPS = [
    manual("builtin.module", "builtin", BUILTIN, attrs=[attr("program", "pointer")], regions=1),
    manual("builtin.parameter", "builtin", BUILTIN, attrs=[attr("parameter_name", "str")],
           outputs=[tout("out", "Value")]),
    manual("builtin.get_parameter", "builtin", BUILTIN, attrs=[attr("parameter_name", "str")],
           outputs=[tout("out", "Value")]),
    manual("builtin.set_parameter", "builtin", BUILTIN, inputs=[tin("parameter", "Value")],
           attrs=[attr("parameter_name", "str")]),
    manual("builtin.shadow_output", "builtin", BUILTIN, inputs=[tin("x", "Value")],
           attrs=[attr("output_name", "str")]),
    manual("builtin.combine", "builtin", BUILTIN, inputs=[tin("inputs", "Value[]")], outputs=[tout("out", "Vector")],
           variadic_operands=True),
    manual("builtin.split", "builtin", BUILTIN, inputs=[tin("x", "Vector")], outputs=[tout("outputs", "Value[]")],
           variadic_results=True),
    manual("builtin.slice", "builtin", BUILTIN, inputs=[tin("x", "Vector")], attrs=[attr("index", "int")],
           outputs=[tout("out", "Value")]),
    manual("builtin.constant", "builtin", BUILTIN, attrs=[attr("value", "Attribute")], outputs=[tout("out", "Value")]),
    manual("builtin.group", "builtin", BUILTIN, outputs=[tout("outputs", "Value[]")], variadic_results=True,
           regions=1),
    manual("cf.yield", "cf", CF, inputs=[tin("inputs", "Value[]")], variadic_operands=True),
    manual("cf.stack_create", "cf", CF,
           outputs=[tout("stack", "Stack"), tout("inlet", "Inlet"), tout("outlet", "Outlet")]),
    manual("cf.tuple_push", "cf", CF, inputs=[tin("inlet", "Inlet"), tin("inputs", "Value[]")],
           variadic_operands=True),
    manual("cf.tuple_pop", "cf", CF, inputs=[tin("outlet", "Outlet")], outputs=[tout("outputs", "Value[]")],
           variadic_results=True),
    manual("cf.has_elements", "cf", CONTROL_FLOW, inputs=[tin("input", "Stack")], outputs=[tout("out")]),
    manual("pd_op.if", "manual", CONTROL_FLOW, inputs=[tin("cond")], outputs=[tout("outputs", "Value[]")],
           variadic_results=True, regions=2),
    manual("pd_op.while", "manual", CONTROL_FLOW, inputs=[tin("cond"), tin("inputs", "Value[]")],
           outputs=[tout("outputs", "Value[]")], variadic_operands=True, variadic_results=True, regions=1),
    manual("pd_op.pylayer", "manual", PYLAYER, inputs=[tin("inputs", "Value[]")],
           attrs=[attr("backward_function_id", "int")], outputs=[tout("outputs", "Value[]")],
           variadic_operands=True, variadic_results=True, regions=1),
    manual("pd_op.assert", "manual", CONTROL_FLOW, inputs=[tin("cond"), tin("data", "Tensor[]")],
           attrs=[attr("summarize", "int64_t")]),
    manual("pd_op.select_input", "manual", CONTROL_FLOW, inputs=[tin("mask"), tin("inputs", "Value[]")],
           outputs=[tout("out", "Value")], variadic_operands=True),
    manual("pd_op.select_output", "manual", CONTROL_FLOW, inputs=[tin("mask"), tin("x", "Value")],
           outputs=[tout("outputs", "Value[]")], variadic_results=True),
    manual("pd_op.fetch", "manual", MANUAL, inputs=[tin("x")], attrs=[attr("name", "str"), attr("col", "int")],
           outputs=[tout("out")]),
    manual("pd_op.add_n_", "manual", MANUAL, inputs=[tin("inputs", "Tensor[]")], outputs=[tout("out")]),
    manual("pd_op.add_n_array", "manual", MANUAL, inputs=[tin("inputs", "TensorArray[]")],
           outputs=[tout("out", "TensorArray")]),
    manual("pd_op.create_array", "manual", MANUAL, attrs=[attr("dtype", "DataType")],
           outputs=[tout("out", "TensorArray")]),
    manual("pd_op.create_array_like", "manual", MANUAL, inputs=[tin("input", "TensorArray")],
           attrs=[attr("val", "float")], outputs=[tout("out", "TensorArray")]),
    manual("pd_op.array_length", "manual", MANUAL, inputs=[tin("x", "TensorArray")], outputs=[tout("out")]),
    manual("pd_op.array_read", "manual", MANUAL, inputs=[tin("array", "TensorArray")],
           attrs=[attr("i", "Scalar", mutable=True, data_type="int64_t")], outputs=[tout("out")]),
    manual("pd_op.array_write_", "manual", MANUAL, inputs=[tin("array", "TensorArray"), tin("x")],
           attrs=[attr("i", "Scalar", mutable=True, data_type="int64_t")], outputs=[tout("out", "TensorArray")],
           inplace=[("out", "array")]),
    manual("pd_op.array_to_tensor", "manual", MANUAL, inputs=[tin("x", "TensorArray")],
           attrs=[attr("axis", "int"), attr("use_stack", "bool")], outputs=[tout("out"), tout("out_index")]),
    manual("pd_op.tensor_to_array", "manual", MANUAL, inputs=[tin("x", "TensorArray"), tin("out_grad")],
           attrs=[attr("axis", "int"), attr("use_stack", "bool")], outputs=[tout("x_grad", "TensorArray")]),
    manual("pd_op.array_pop", "manual", MANUAL, inputs=[tin("input", "TensorArray")], attrs=[attr("index", "int")],
           outputs=[tout("array_out", "TensorArray"), tout("out")], inplace=[("array_out", "input")],
           inplace_trait=True),
    manual("pd_op.slice_array", "manual", MANUAL, inputs=[tin("input", "TensorArray")],
           attrs=[attr("starts", "IntArray", mutable=True, data_type="int64_t"),
                  attr("ends", "IntArray", mutable=True, data_type="int64_t")],
           outputs=[tout("out", "TensorArray")]),
    manual("pd_op.slice_array_dense", "manual", MANUAL, inputs=[tin("input", "TensorArray")],
           attrs=[attr("starts", "IntArray", mutable=True, data_type="int64_t")], outputs=[tout("out")]),
    manual("pd_op.assign_array", "manual", MANUAL, inputs=[tin("x", "TensorArray")],
           outputs=[tout("out", "TensorArray")]),
    # Paddle's AssignArray_Op declares {out <- x} but has no InplaceTrait, so
    # get_op_inplace_info reports nothing for it.
    manual("pd_op.assign_array_", "manual", MANUAL, inputs=[tin("x", "TensorArray")],
           outputs=[tout("out", "TensorArray")], inplace=[("out", "x")], inplace_trait=False),
    manual("pd_op.shape_broadcast", "manual", MANUAL, inputs=[tin("x"), tin("y")], outputs=[tout("out")]),
    manual("pd_op.memcpy_d2h_multi_io", "manual", MANUAL, inputs=[tin("x")], attrs=[attr("dst_place_type", "int")],
           outputs=[tout("out")]),
    manual("pd_op.share_var", "manual", MANUAL, inputs=[tin("inputs", "Value[]")], variadic_operands=True),
    # Paddle 3.3.1's add_norm_fuse_pass makes this op (rms_norm's signature); the YAML here predates it.
    manual("pd_op.fused_rms_norm_quant", "forward", "fused_ops.yaml (Paddle 3.3.1)",
           inputs=[tin("x"), tin("bias", optional=True), tin("residual", optional=True), tin("norm_weight"),
                   tin("norm_bias", optional=True)],
           attrs=[attr("epsilon", "float"), attr("begin_norm_axis", "int"), attr("quant_scale", "float"),
                  attr("quant_round_type", "int"), attr("quant_max_bound", "float"), attr("quant_min_bound", "float")],
           outputs=[tout("out"), dict(tout("residual_out"), optional=True), dict(tout("inv_var"), intermediate=True)]),
    manual("pd_op.fused_gemm_epilogue", "manual", MANUAL, inputs=[tin("x"), tin("y"), tin("bias")],
           attrs=[attr("trans_x", "bool"), attr("trans_y", "bool"), attr("activation", "str")],
           outputs=[tout("out"), tout("reserve_space")], backward="pd_op.fused_gemm_epilogue_grad"),
    manual("pd_op.fused_gemm_epilogue_grad", "manual", MANUAL,
           inputs=[tin("x"), tin("y"), tin("reserve_space", optional=True), tin("out_grad")],
           attrs=[attr("trans_x", "bool"), attr("trans_y", "bool"), attr("activation_grad", "str")],
           outputs=[tout("x_grad"), tout("y_grad"), tout("bias_grad")], forward="pd_op.fused_gemm_epilogue"),
]


def build_table(yaml_dir):
    ops = load_yaml_ops(yaml_dir)
    names = {}
    for op in ops:
        if op.full_name in names:
            raise ValueError(f"duplicate op {op.full_name} ({op.source}, {names[op.full_name].source})")
        names[op.full_name] = op
        if op.short_name in PD_MANUAL_OP_LIST:
            op.kind = "manual"
    for op in MANUAL_OPS:
        if op.full_name in names:
            raise ValueError(f"hand-written op {op.full_name} is also generated from {names[op.full_name].source}")
        names[op.full_name] = op
        ops.append(op)
    for op in ops:
        op.is_backward = op.kind == "backward" or (op.kind == "manual" and bool(op.forward))
    return sorted(ops, key=lambda x: x.full_name)


# ----------------------------------------------------------------------------------------------
# Emission


def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def trim_row(fields, defaults):
    """Drop trailing fields equal to their default (aggregate initialisation fills them)."""
    n = len(fields)
    while n > 1 and fields[n - 1] == defaults[n - 1]:
        n -= 1
    return "{" + ", ".join(fields[:n]) + "}"


class Pool:
    """Interns row sequences so equal lists share storage."""

    def __init__(self):
        self.rows = []
        self.index = {}

    def add(self, seq):
        seq = tuple(seq)
        if not seq:
            return None
        if seq not in self.index:
            self.index[seq] = len(self.rows)
            self.rows.extend(seq)
        return self.index[seq]


def emit(ops, path):
    B = lambda v: "true" if v else "false"  # noqa: E731
    inputs, attrs, outputs, pairs = Pool(), Pool(), Pool(), Pool()
    op_rows = []
    for op in ops:
        in_rows = [trim_row([cstr(r["name"]), cstr(r["type"]), B(r["optional"]), B(r["nnb"]), B(r["mutable"]),
                             cstr(r["data_type"]), cstr(r["default"])],
                            ["", "", "false", "false", "false", '""', '""']) for r in op.operands()]
        at_rows = [trim_row([cstr(x["name"]), cstr(x["type"]), cstr(x["default"])], ["", "", '""'])
                   for x in op.attrs if not x["mutable"]]
        out_rows = [trim_row([cstr(x["name"]), cstr(x["type"]), B(x["intermediate"]), B(x["optional"]),
                              cstr(x["size"])], ["", "", "false", "false", '""']) for x in op.outputs]
        ip = ["{%d, %d}" % p for p in op.pairs("inplace")]
        vw = ["{%d, %d}" % p for p in op.pairs("view")]

        def ref(pool, name, rows):
            off = pool.add(rows)
            return ("nullptr, 0" if off is None else f"{name} + {off}, {len(rows)}")

        fields = [cstr(op.full_name), ref(inputs, "kIn", in_rows), ref(attrs, "kAttr", at_rows),
                  ref(outputs, "kOut", out_rows), ref(pairs, "kPair", ip), ref(pairs, "kPair", vw),
                  cstr(op.backward), B(op.is_backward), B(op.variadic_operands), cstr(op.forward),
                  B(op.inplace_trait), B(op.variadic_results), str(op.num_regions), cstr(op.source)]
        op_rows.append(fields)

    def array(ctype, name, rows):
        if not rows:
            rows = ["{}"]
        return f"constexpr {ctype} {name}[] = {{\n" + "".join(f"    {r},\n" for r in rows) + "};\n"

    with open(path, "w") as f:
        f.write("// Generated by tools/gen_op_registry.py from PaddlePaddle's op YAML (Apache-2.0):\n")
        f.write("// ops, backward, fused_ops, fused_backward, inconsistent/{static_ops, static_backward,\n")
        f.write("// update_ops}.yaml and op_compat.yaml, plus the hand-written ops listed in the script.\n")
        f.write("// Do not edit; rerun the script. Included by core/dialect/opregistry.cpp.\n")
        f.write(f"// {len(ops)} ops.\n\n")
        f.write("// {name, type, optional, noNeedBuffer, mutableAttribute, dataType, defaultValue}\n")
        f.write(array("OpInputInfo", "kIn", inputs.rows))
        f.write("\n// {name, type, defaultValue}\n")
        f.write(array("OpAttributeInfo", "kAttr", attrs.rows))
        f.write("\n// {name, type, intermediate, optional, size}\n")
        f.write(array("OpOutputInfo", "kOut", outputs.rows))
        f.write("\n// {output, input}\n")
        f.write(array("OpIndexPair", "kPair", pairs.rows))
        f.write("\n// {name, inputs, attributes, outputs, inplace, view, backward, isBackward,\n")
        f.write("//  variadicOperands, forward, inplaceTrait, variadicResults, numRegions, source}\n")
        f.write("constexpr OpInfo kOps[] = {\n")
        for fields in op_rows:
            f.write("    {" + ", ".join(fields) + "},\n")
        f.write("};\n")


# ----------------------------------------------------------------------------------------------
# --check op_index.tsv


def fmt_inputs(op):
    return ", ".join(f"{i['type']} {i['name']}" for i in op.inputs)


def fmt_attrs(op):
    out = []
    for x in op.attrs:
        s = f"{x['name']}:{x['type']}"
        if x["default"]:
            s += "=" + x["default"]
        out.append(s)
    return "; ".join(out)


def fmt_outputs(op):
    return ", ".join(f"{x['type']} {x['name']}" + (f"{{{x['size']}}}" if x["size"] else "") for x in op.outputs)


def fmt_mutable(op):
    out = []
    for x in op.mutable_attrs():
        kind = "IntArray" if x["type"].startswith("IntArray") else "Scalar"
        out.append(f"{x['name']}:{kind}" + (f"({x['data_type']})" if x["data_type"] else ""))
    return "; ".join(out)


def norm(s):
    return re.sub(r"\s+", " ", s.strip())


def norm_list(s):
    return sorted(v.strip() for v in s.replace(";", ",").split(",") if v.strip())


def check(ops, tsv_path):
    by_name = {op.full_name: op for op in ops}
    # The index lists the saved YAML's maps; Paddle 3.3.1's (the supplement) replace them.
    newer_inplace = {e["op"].strip(): sorted(f"{i}->{o}" for o, i in parse_pairs(e["inplace"]))
                     for e in load_supplement() if "op" in e and "args" not in e}
    mismatches = []
    rows = 0
    with open(tsv_path, newline="") as f:
        reader = csv.DictReader(f, delimiter="\t")
        for row in reader:
            rows += 1
            name = row["op"]
            op = by_name.get("pd_op." + name)
            if op is None:
                mismatches.append(f"{name}: not generated")
                continue

            def cmp(what, expected, actual):
                if expected != actual:
                    mismatches.append(f"{name}: {what}: index {expected!r} != registry {actual!r}")

            # The index calls PD_MANUAL_OP_LIST ops found in the YAML forward/backward.
            if row["kind"] == "manual":
                cmp("kind", "manual", op.kind)
            else:
                cmp("kind", row["kind"], "backward" if op.is_backward else "forward")
            cmp("inputs", norm(row["args(inputs)"]), fmt_inputs(op))
            attrs_col = norm(row["attrs(name:type=default)"])  # every YAML attribute, mutable ones too
            cmp("attrs", attrs_col, fmt_attrs(op))
            cmp("outputs", norm(row["outputs"]), fmt_outputs(op))
            # Inplace/view pairs live on the `_` variant; the index lists the YAML maps.
            carrier = op if name.endswith("_") else by_name.get("pd_op." + name + "_")
            for col in ("inplace", "view"):
                expected = norm_list(row[col])
                if col == "inplace" and name in newer_inplace:
                    expected = newer_inplace[name]
                yaml_pairs = sorted(f"{i}->{o}" for o, i in (op.inplace if col == "inplace" else op.view))
                cmp(col, expected, yaml_pairs)
                if expected:
                    if carrier is None:
                        mismatches.append(f"{name}: {col}: no `_` variant carries the pairs")
                        continue
                    out_names = [x["name"] for x in carrier.outputs]
                    in_names = [x["name"] for x in carrier.operands()]
                    got = sorted(f"{in_names[i]}->{out_names[k]}" for k, i in carrier.pairs(col))
                    cmp(col + " pairs of " + carrier.full_name, expected, got)
                if not name.endswith("_") and op.pairs(col):
                    mismatches.append(f"{name}: non-inplace op carries {col} pairs")
            cmp("no_need_buffer", norm_list(row["no_need_buffer"]), sorted(i["name"] for i in op.inputs if i["nnb"]))
            optional = [i["name"] for i in op.inputs if i["optional"]] + \
                       [x["name"] for x in op.outputs if x["optional"]]
            cmp("optional", norm_list(row["optional"]), sorted(optional))
            cmp("intermediate", norm_list(row["intermediate"]),
                sorted(x["name"] for x in op.outputs if x["intermediate"]))
            bwd = row["backward"].strip()
            cmp("backward", "" if bwd in ("", "-") else "pd_op." + bwd, op.backward)
            cmp("mutable attrs", norm(row["pir_mutable_attrs(->operands, per op_compat.yaml)"]), fmt_mutable(op))
            cmp("operand order", norm(row["pir_operand_order"]), ", ".join(x["name"] for x in op.operands()))
    return rows, mismatches


# ----------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--yaml-dir", default=DEFAULT_YAML_DIR)
    parser.add_argument("--out", default=DEFAULT_OUT, help="table to write ('-' to skip writing)")
    parser.add_argument("--check", metavar="TSV", help="compare the table with op_index.tsv and report mismatches")
    args = parser.parse_args()

    ops = build_table(args.yaml_dir)
    counts = {}
    for op in ops:
        counts[op.kind] = counts.get(op.kind, 0) + 1
    summary = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    print(f"{len(ops)} ops ({summary}); inplace variants: "
          f"{sum(1 for op in ops if op.inplace_trait)}")
    names = {op.full_name for op in ops}
    dangling = sorted({op.backward for op in ops if op.backward and op.backward not in names})
    if dangling:
        print(f"{len(dangling)} backward names not defined by the YAML: {', '.join(dangling)}")

    if args.out != "-":
        emit(ops, args.out)
        print(f"wrote {os.path.relpath(args.out)} ({os.path.getsize(args.out)} bytes)")

    if args.check:
        rows, mismatches = check(ops, args.check)
        for m in mismatches:
            print("MISMATCH " + m)
        print(f"check: {rows} rows, {len(mismatches)} mismatches")
        return 1 if mismatches else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
