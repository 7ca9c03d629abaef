#!/usr/bin/env python3
"""The differential fuzzer: random programs over ctorch's operator table, run by ctorch and by PyTorch.

    difffuzz.py --ctorch build/bin/ctorch --reference 'CMD' [--programs N] [--seed S] [--batch B]
                [--out DIR] [--known tools/difffuzz/known.json] [--keep]

Each program is a few lines of Python (written out in DIR/batch_K.json): deterministic inputs of
random shapes (0 to 4 dimensions, empty ones among them) and dtypes (the ten ctorch has), sometimes
turned into views first (transposed, sliced with a step, expanded), sometimes requiring grad; then
either one operator of `ctorch ops` called through torch.ops.aten with arguments drawn from its
schema, or a Tensor expression (the operator dunders, reflected and in-place, indexing and
__setitem__ with ints, slices, None, ..., booleans and index tensors); then, when the result
requires grad, backward with a fixed cotangent and the leaves' gradients.

`tools/difffuzz/harness.py` runs a batch under both: ctorch (`CTORCH python harness.py`) and the
reference (`CMD harness.py`, run in DIR: CMD is a command that runs a Python script under PyTorch
2.6, given a path under the current folder). Results are compared: the exception's type and
message, or the outputs' dtypes, shapes, strides, requires_grad and values (within OpInfo's
default tolerances per dtype; values of empty-like operators are not compared) and the gradients.
A crash of ctorch is a difference of its own (the batch is resumed after the program).

Every difference is matched against the known differences (known.json: an operator pattern, a
kind and a message pattern, each with the reason); a program ctorch stops with NotImplementedInCtorch
(an operator, overload or derivative it lacks) is counted apart, by what it lacks; the rest are
unexplained. Printed at the end:

    difffuzz: P programs (O operators, E expression kinds): S same, X explained, N stopped at what
    ctorch does not implement (NotImplementedInCtorch), U unexplained

and DIR/report.json lists every difference with its program. Exit status 1 when any is unexplained.
"""
import argparse
import json
import math
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]
DT_WEIGHTS = [8, 3, 1, 1, 3, 1, 1, 1, 1, 1]
FLOATS = {"float32", "float64", "float16", "bfloat16"}
# OpInfo's default tolerances (torch.testing.assert_close): rtol, atol per dtype
TOL = {"float32": (1.3e-6, 1e-5), "float64": (1e-7, 1e-7), "float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5)}
# operators whose values are not defined (uninitialised memory), or that talk to the profiler
NO_VALUES = re.compile(r"^aten::(empty|new_empty|empty_like|empty_strided|new_empty_strided|_empty)")
SKIP_OPS = re.compile(r"^(profiler::|aten::_foreach)|_backward|^aten::(set_|resize_|_local_scalar_dense|item|_record)")


# ---- schemas ----------------------------------------------------------------

def split_top(s):
    parts, depth, cur = [], 0, ""
    for ch in s:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


def parse_schema(line):
    m = re.match(r"^([\w:]+)(?:\.(\w+))?\((.*)\) -> (.*)$", line)
    if not m:
        return None
    name, overload, args, rets = m.group(1), m.group(2) or "default", m.group(3), m.group(4)
    out, kwonly = [], False
    for a in split_top(args):
        if a == "*":
            kwonly = True
            continue
        default = None
        if "=" in a:
            a, default = a.split("=", 1)
        typ, arg = a.rsplit(" ", 1)
        out.append({"type": typ, "name": arg, "default": default, "kwonly": kwonly})
    return {"name": name, "overload": overload, "args": out, "returns": rets}


def load_ops(ctorch):
    text = subprocess.run([ctorch, "ops"], capture_output=True, text=True, check=True).stdout
    ops = []
    for line in text.splitlines():
        s = parse_schema(line)
        if not s or SKIP_OPS.search(s["name"]):
            continue
        if any("Dimname" in a["type"] or "__torch__" in a["type"] or "Storage" in a["type"] or
               "Stream" in a["type"] for a in s["args"]):
            continue
        if s["name"].startswith("aten::"):
            ops.append(s)
    return ops


# ---- programs ---------------------------------------------------------------

class Gen:
    def __init__(self, rng):
        self.r = rng
        self.lines = []
        self.leaves = []
        self.n = 0

    def seed(self):
        return self.r.randrange(1000)

    def shape(self):
        nd = self.r.choices([0, 1, 2, 3, 4], [1, 3, 4, 2, 1])[0]
        sh = [self.r.choice([1, 2, 3, 4]) for _ in range(nd)]
        if nd and self.r.random() < 0.06:
            sh[self.r.randrange(nd)] = 0
        return sh

    def dtype(self, like=None):
        if like and self.r.random() < 0.7:
            return like
        return self.r.choices(DTYPES, DT_WEIGHTS)[0]

    def tensor(self, shape, dtype, grad_ok=True, positive=False, view_ok=True):
        name = "t%d" % self.n
        self.n += 1
        grad = grad_ok and dtype in FLOATS and self.r.random() < 0.4
        extra = ", positive=True" if positive else ""
        view = None
        if view_ok and len(shape) >= 2 and self.r.random() < 0.15:
            view = "transpose"
            base = list(shape)
            base[-1], base[-2] = base[-2], base[-1]
        elif view_ok and len(shape) >= 1 and shape[0] > 0 and self.r.random() < 0.1:
            view = "step"
            base = [shape[0] * 2] + list(shape[1:])
        elif view_ok and len(shape) >= 1 and 1 in shape and self.r.random() < 0.1:
            view = "expand"
            base = list(shape)
            i = shape.index(1)
            shape = list(shape)
            shape[i] = 3
        else:
            base = shape
        self.lines.append("%s = T(%r, %r, %d, grad=%s%s)" % (name, base, dtype, self.seed(), grad, extra))
        if grad:
            self.leaves.append(name)
        if view == "transpose":
            self.lines.append("%s = %s.transpose(-1, -2)" % (name + "v", name))
            return name + "v", shape
        if view == "step":
            self.lines.append("%s = %s[::2]" % (name + "v", name))
            return name + "v", shape
        if view == "expand":
            self.lines.append("%s = %s.expand(%r)" % (name + "v", name, shape))
            return name + "v", shape
        return name, shape

    def broadcastable(self, shape):
        sh = list(shape)
        c = self.r.random()
        if c < 0.5:
            return sh
        if c < 0.7 and sh:
            return sh[self.r.randrange(len(sh) + 1):]
        if c < 0.9:
            return [1 if self.r.random() < 0.4 else s for s in sh]
        return self.shape()

    def finish(self, expr, inplace_on=None):
        self.lines.append("out = " + expr)
        if self.leaves:
            self.lines.append("_o = out[0] if isinstance(out, (tuple, list)) and out else out")
            self.lines.append("if isinstance(_o, torch.Tensor) and _o.requires_grad and _o.dtype.is_floating_point:")
            self.lines.append("    _o.backward(T(list(_o.shape), str(_o.dtype)[6:], 7))")
            self.lines.append("    grads = [%s]" % ", ".join(l + ".grad" for l in self.leaves))
        return "\n".join(self.lines) + "\n"


def dim_choice(g, nd):
    if g.r.random() < 0.04:
        return nd + 1  # out of range: the error is compared
    if nd == 0:
        return g.r.choice([0, -1])
    return g.r.randrange(-nd, nd)


def factor_shape(g, numel):
    if numel == 0:
        return [0, g.r.choice([1, 2, 3])]
    fs, n = [], numel
    for p in (2, 3, 2, 5, 7):
        while n % p == 0 and g.r.random() < 0.6:
            fs.append(p)
            n //= p
    fs.append(n)
    g.r.shuffle(fs)
    if g.r.random() < 0.3:
        fs[g.r.randrange(len(fs))] = -1
    return fs


def gen_arg(g, a, ctx, op):
    """A Python expression for argument a of op (None: leave it out)."""
    t, nm = a["type"], a["name"]
    opt = t.endswith("?")
    base = t.rstrip("?")
    has_default = a["default"] is not None
    if has_default and g.r.random() < 0.5:
        return None
    if opt and g.r.random() < 0.3:
        return "None"
    nd = len(ctx["shape"]) if ctx.get("shape") is not None else 0
    shape = ctx.get("shape") or []
    if base.startswith("Tensor") and "[]" not in base:
        if "!" in base and a["kwonly"]:  # out=: an empty tensor of self's dtype, resized by the op
            name, _ = g.tensor([0], ctx.get("dtype") or "float32", grad_ok=False, view_ok=False)
            return name
        if nm in ("index", "indices") and ctx.get("tensor"):
            d = ctx.get("dim", 0)
            size = shape[d] if shape and -nd <= d < nd else 1
            if op["name"] in ("aten::index_select", "aten::index_add", "aten::index_copy", "aten::index_fill"):
                ish = [g.r.choice([0, 1, 2, 3])]
            else:
                ish = [min(s, g.r.choice([1, 2, 3])) for s in shape]
            return "I(%r, %d, %d)" % (ish, max(size, 1), g.seed())
        if nm == "mask":
            name, _ = g.tensor(g.broadcastable(shape), "bool", grad_ok=False)
            return name
        if ctx.get("tensor") is None:
            sh, dt = g.shape(), g.dtype()
            name, sh = g.tensor(sh, dt, positive=g.r.random() < 0.2)
            ctx.update(tensor=name, shape=sh, dtype=dt)
            return name
        name, _ = g.tensor(g.broadcastable(shape), g.dtype(ctx.get("dtype")))
        return name
    if base in ("Tensor[]", "Tensor?[]"):
        if nm == "indices":
            k = g.r.randrange(1, max(nd, 1) + 1)
            parts = []
            for i in range(k):
                if base == "Tensor?[]" and g.r.random() < 0.2:
                    parts.append("None")
                elif g.r.random() < 0.15:
                    name, _ = g.tensor(shape[: i + 1] if shape else [], "bool", grad_ok=False, view_ok=False)
                    parts.append(name)
                else:
                    parts.append("I(%r, %d, %d)" % ([g.r.choice([1, 2, 3])], shape[i] if i < nd and shape[i] else 1, g.seed()))
            return "[" + ", ".join(parts) + "]"
        k = g.r.choice([1, 2, 3])
        sh = g.shape()
        dt = g.dtype()
        names = [g.tensor(sh if g.r.random() < 0.8 else g.shape(), g.dtype(dt))[0] for _ in range(k)]
        if ctx.get("tensor") is None:
            ctx.update(tensor=names[0], shape=sh, dtype=dt)
        return "[" + ", ".join(names) + "]"
    if base in ("Scalar",):
        return repr(g.r.choice([2, -1, 0.5, 1.5, 0, 3, -2.25, True]))
    if base in ("int", "SymInt"):
        if nm in ("dim", "dim0", "dim1", "dim2", "start_dim", "end_dim", "axis0", "axis1", "source", "destination"):
            d = dim_choice(g, nd)
            if nm == "dim":
                ctx["dim"] = d
            return str(d)
        if nm in ("k",):
            return str(g.r.choice([0, 1, 2, 3]))
        if nm in ("chunks", "sections", "split_size", "repeats", "groups", "correction"):
            return str(g.r.choice([1, 2, 3]))
        if nm in ("diagonal", "offset"):
            return str(g.r.choice([-1, 0, 1, 2]))
        if nm in ("high", "end", "n", "num_classes", "num_weights", "num_samples"):
            return str(g.r.choice([1, 3, 5, 10]))
        return str(g.r.choice([-1, 0, 1, 2, 3]))
    if base.startswith(("int[", "SymInt[")):
        if nm in ("dim", "dims", "dims_", "axis"):
            k = g.r.randrange(0, nd + 1)
            ds = g.r.sample(range(nd), k) if nd else []
            ds = [d - nd if g.r.random() < 0.3 else d for d in ds]
            return repr(ds)
        if nm in ("size", "shape", "sizes") and ctx.get("tensor") is not None:
            if op["name"] in ("aten::expand", "aten::broadcast_to", "aten::expand_copy"):
                sh = [3 if (s == 1 and g.r.random() < 0.5) else s for s in shape]
                if g.r.random() < 0.3:
                    sh = [2] + sh
                return repr(sh)
            n = 1
            for s in shape:
                n *= s
            return repr(factor_shape(g, n))
        if nm in ("size", "shape", "sizes"):
            sh = g.shape()
            ctx["fshape"] = sh
            return repr(sh)
        if nm == "stride":
            sh = ctx.get("fshape") or shape
            st, acc = [], 1
            for s in reversed(sh):
                st.insert(0, acc)
                acc *= max(s, 1)
            return repr(st)
        if nm == "split_sizes" or nm == "split_size":
            d = ctx.get("dim", 0)
            size = shape[d] if shape and -nd <= d < nd else 0
            parts = []
            while size > 0:
                p = g.r.randrange(1, size + 1)
                parts.append(p)
                size -= p
            return repr(parts)
        if nm in ("repeats", "dims") or nm == "reps":
            return repr([g.r.choice([1, 2]) for _ in range(max(nd, 1) + g.r.choice([0, 0, 1]))])
        k = g.r.choice([1, 2])
        return repr([g.r.choice([0, 1, 2, 3]) for _ in range(k)])
    if base == "bool":
        if nm in ("sparse", "pin_memory"):
            return "False"
        return g.r.choice(["True", "False"])
    if base.startswith("bool["):
        n = int(re.search(r"\[(\d+)\]", base).group(1))
        return repr([g.r.random() < 0.7 for _ in range(n)])
    if base == "float":
        if nm == "eps":
            return "1e-05"
        if nm == "p":
            return g.r.choice(["0.0", "0.5", "1.0", "2.0"])
        return repr(g.r.choice([0.5, -1.0, 2.0, 0.0, 1e-3, 3.5]))
    if base == "float[]":
        return repr([g.r.choice([1.0, 2.0, 0.5])])
    if base == "str":
        if has_default and g.r.random() < 0.6:
            return a["default"]
        choices = {
            "reduce": ["sum", "prod", "mean", "amax", "amin", "add", "multiply"],
            "rounding_mode": ["trunc", "floor", "round"],
            "approximate": ["none", "tanh", "exact"],
            "side": ["left", "right"],
            "indexing": ["ij", "xy"],
            "interpolation": ["linear", "lower", "higher", "midpoint", "nearest"],
        }.get(nm, ["none", "mean", "sum", "floor"])
        return repr(g.r.choice(choices))
    if base == "ScalarType":
        return "torch." + g.dtype()
    if base in ("Layout", "MemoryFormat", "Generator"):
        return None if has_default or opt else "None"
    if base == "Device":
        return "'cpu'" if g.r.random() < 0.5 else None
    return None if has_default or opt else "None"


def program_op(g, op):
    ctx = {"tensor": None, "shape": None, "dtype": None}
    pos, kw = [], []
    skipped = False
    for a in op["args"]:
        e = gen_arg(g, a, ctx, op)
        if e is None:
            skipped = True
            continue
        if a["kwonly"] or skipped:
            kw.append("%s=%s" % (a["name"], e))
        else:
            pos.append(e)
    short = op["name"].split("::", 1)[1]
    call = "torch.ops.aten.%s.%s(%s)" % (short, op["overload"], ", ".join(pos + kw))
    return g.finish(call)


BINOPS = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "@"]


def program_expr(g):
    r = g.r
    kind = r.choice(["binary", "reflected", "inplace", "unary", "getitem", "setitem", "method"])
    sh, dt = g.shape(), g.dtype()
    a, sh = g.tensor(sh, dt)
    if kind in ("binary", "inplace"):
        op = r.choice(BINOPS)
        if op == "@":
            other = [sh[-1] if sh else 2, r.choice([1, 2, 3])] if r.random() < 0.7 else g.shape()
        else:
            other = g.broadcastable(sh)
        b, _ = g.tensor(other, g.dtype(dt))
        if r.random() < 0.25 and op != "@":
            b = repr(r.choice([2, -1, 0.5, 3, True, 1.5]))
        if kind == "binary":
            return kind + op, g.finish("%s %s %s" % (a, op, b))
        g.lines.append("c = %s.clone()" % a)
        g.lines.append("c %s= %s" % (op, b))
        return kind + op, g.finish("c")
    if kind == "reflected":
        op = r.choice([o for o in BINOPS if o != "@"])
        s = repr(r.choice([2, -1, 0.5, 3, True, 1.5]))
        return kind + op, g.finish("%s %s %s" % (s, op, a))
    if kind == "unary":
        op = r.choice(["-", "~", "abs(", "+"])
        if op == "abs(":
            return "abs", g.finish("abs(%s)" % a)
        return "unary" + op, g.finish("%s%s" % (op, a))
    if kind == "method":
        m = r.choice(["sum()", "mean()", "exp()", "sigmoid()", "tanh()", "relu()", "float()", "long()",
                      "std()", "var(0)", "max()", "argmax()", "cumsum(0)", "t()", "flatten()", "abs()",
                      "clamp(-1, 1)", "softmax(-1)", "log_softmax(-1)", "sqrt()", "pow(2)", "norm()",
                      "all()", "any()", "sort()", "topk(1)", "unique()", "nonzero()", "tolist()", "item()"])
        return "method." + m.split("(")[0], g.finish("%s.%s" % (a, m))
    idx = index_expr(g, sh)
    if kind == "getitem":
        return "getitem", g.finish("%s[%s]" % (a, idx))
    val = repr(r.choice([0, 1.5, -2, True])) if r.random() < 0.6 else g.tensor(g.broadcastable(sh[-1:]), g.dtype(dt))[0]
    g.lines.append("c = %s.clone()" % a)
    g.lines.append("c[%s] = %s" % (idx, val))
    return "setitem", g.finish("c")


def index_expr(g, sh):
    r = g.r
    nd = len(sh)
    parts = []
    i = 0
    while i < nd and len(parts) < 3:
        c = r.random()
        s = sh[i]
        if c < 0.25:
            parts.append(str(r.randrange(-s, s) if s else 0))
        elif c < 0.5:
            a, b = r.choice([None, 0, 1, -1]), r.choice([None, 2, -1, 5])
            st = r.choice([None, None, 2])
            parts.append("%s:%s%s" % ("" if a is None else a, "" if b is None else b, "" if st is None else ":%d" % st))
        elif c < 0.6:
            parts.append("None")
            continue
        elif c < 0.7:
            parts.append("...")
            i = nd
            continue
        elif c < 0.85:
            parts.append("I([%d], %d, %d)" % (r.choice([1, 2, 3]), max(s, 1), g.seed()))
        elif c < 0.92:
            parts.append(g.tensor(sh[i:i + 1], "bool", grad_ok=False, view_ok=False)[0])
        else:
            parts.append(r.choice(["True", "False"]))
            continue
        i += 1
    if not parts:
        parts = ["..."]
    return ", ".join(parts)


def make_programs(ops, seed, count, first_id):
    rng = random.Random(seed)
    progs = []
    for k in range(count):
        g = Gen(rng)
        if rng.random() < 0.65:
            op = rng.choice(ops)
            src = program_op(g, op)
            what = "%s.%s" % (op["name"], op["overload"])
        else:
            what, src = program_expr(g)
            what = "expr:" + what
        progs.append({"id": "p%d" % (first_id + k), "what": what, "src": src})
    return progs


# ---- running ----------------------------------------------------------------

def run_side(cmd, workdir, batch_file, n, timeout):
    """Runs the harness over the batch; a crash is recorded and the rest of the batch resumed."""
    results, first, crashes = {}, 0, {}
    while first < n:
        p = subprocess.run(cmd + ["harness.py", batch_file, str(first)], cwd=workdir, capture_output=True,
                           text=True, timeout=timeout)
        current, done = None, 0
        for line in p.stdout.splitlines():
            if line.startswith("@"):
                current = line[1:]
            elif line.startswith("{"):
                try:
                    d = json.loads(line)
                except ValueError:
                    continue
                results[d["id"]] = d
                current = None
                done += 1
        first += done
        if p.returncode == 0 and first >= n:
            break
        # the program that was running crashed the interpreter: note it, go on after it
        if current is None:
            crashes["?"] = p.stderr[-2000:]
            break
        results[current] = {"id": current, "crash": p.returncode, "stderr": p.stderr[-600:]}
        crashes[current] = p.returncode
        first += 1
    return results


def close(x, y, dtype):
    if x == y:
        return True
    if isinstance(x, str) or isinstance(y, str):
        return False
    rtol, atol = TOL.get(dtype, (0, 0))
    if math.isinf(x) or math.isinf(y):
        return False
    return abs(x - y) <= atol + rtol * abs(y)


def compare_value(a, b, novalues, path="out"):
    """The first difference between two encoded values: (kind, detail) or None."""
    if a.keys() != b.keys():
        return ("type", "%s: ctorch %s, PyTorch %s" % (path, sorted(a), sorted(b)))
    if "seq" in a:
        if len(a["seq"]) != len(b["seq"]):
            return ("length", "%s: %d vs %d" % (path, len(a["seq"]), len(b["seq"])))
        for i, (x, y) in enumerate(zip(a["seq"], b["seq"])):
            d = compare_value(x, y, novalues, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    if "dtype" in a:
        for k in ("dtype", "shape"):
            if a[k] != b[k]:
                return (k, "%s: ctorch %s, PyTorch %s" % (path, a[k], b[k]))
        if a["rg"] != b["rg"]:
            return ("requires_grad", "%s: ctorch %s, PyTorch %s" % (path, a["rg"], b["rg"]))
        if not novalues and a["v"] != b["v"]:
            if a["v"] == "large" or b["v"] == "large":
                return ("values", path)
            bad = [i for i, (x, y) in enumerate(zip(a["v"], b["v"])) if not close(x, y, a["dtype"])]
            if bad:
                i = bad[0]
                return ("values", "%s: %d of %d differ, first [%d] ctorch %s PyTorch %s" %
                        (path, len(bad), len(a["v"]), i, a["v"][i], b["v"][i]))
        # the stride of a dimension of size 1 means nothing (PyTorch's own contiguity checks skip it)
        sa = [st for st, n in zip(a["stride"], a["shape"]) if n != 1]
        sb = [st for st, n in zip(b["stride"], b["shape"]) if n != 1]
        if sa != sb and 0 not in a["shape"]:
            return ("stride", "%s: ctorch %s, PyTorch %s" % (path, a["stride"], b["stride"]))
        return None
    if "num" in a and "num" in b and isinstance(a["num"], (int, float)) and isinstance(b["num"], (int, float)):
        if type(a["num"]) is not type(b["num"]):
            return ("type", "%s: ctorch %r, PyTorch %r" % (path, a["num"], b["num"]))
        return None if close(a["num"], b["num"], "float64") else ("values", "%s: %r vs %r" % (path, a["num"], b["num"]))
    return None if a == b else ("values", "%s: ctorch %s, PyTorch %s" % (path, a, b))


def compare(c, p, what):
    if "crash" in c:
        return ("crash", "exit %s: %s" % (c["crash"], c["stderr"].strip().splitlines()[-1:] if c["stderr"].strip() else ""))
    if "crash" in p:
        return None  # PyTorch itself crashed: not ctorch's difference (reported apart)
    if "error" in c or "error" in p:
        if "error" in c and "error" in p:
            if c["error"][0] == "NotImplementedInCtorch":
                return ("not-implemented", c["error"][1])
            if c["error"] == p["error"]:
                return None
            if c["error"][0] != p["error"][0]:
                return ("error-type", "ctorch %s: %s | PyTorch %s: %s" % (c["error"][0], c["error"][1], p["error"][0], p["error"][1]))
            return ("message", "ctorch: %s | PyTorch: %s" % (c["error"][1], p["error"][1]))
        if "error" in c:
            kind = "not-implemented" if c["error"][0] == "NotImplementedInCtorch" else "ctorch-raises"
            return (kind, "%s: %s" % tuple(c["error"]))
        return ("ctorch-accepts", "PyTorch %s: %s" % tuple(p["error"]))
    novalues = bool(NO_VALUES.match(what)) or what.startswith("aten::new_empty")
    d = compare_value(c["out"], p["out"], novalues)
    if d:
        return d
    if ("grads" in c) != ("grads" in p):
        return ("grads", "only one side computed gradients")
    if "grads" in c:
        d = compare_value(c["grads"], p["grads"], False, "grads")
        if d:
            return ("grad-" + d[0], d[1])
    return None


def explain(known, what, kind, detail):
    for k in known:
        if re.search(k["what"], what) and re.fullmatch(k["kind"], kind) and re.search(k.get("detail", ""), detail):
            return k["why"]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ctorch", required=True, help="the ctorch program (its `python` command runs the harness)")
    ap.add_argument("--reference", required=True,
                    help="a command that runs a Python script (a path under the current folder) under PyTorch 2.6")
    ap.add_argument("--programs", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=500)
    ap.add_argument("--out", default="difffuzz-out")
    ap.add_argument("--known", default=os.path.join(HERE, "known.json"))
    ap.add_argument("--timeout", type=int, default=900)
    args = ap.parse_args()

    ctorch = os.path.abspath(args.ctorch)
    ops = load_ops(ctorch)
    known = json.load(open(args.known))["known"] if os.path.exists(args.known) else []
    os.makedirs(args.out, exist_ok=True)
    shutil.copy(os.path.join(HERE, "harness.py"), os.path.join(args.out, "harness.py"))
    ref = args.reference.split()
    same = explained = missing = 0
    missing_by = {}
    unexplained, diffs = [], []
    whats, t0 = set(), time.time()
    done = 0
    while done < args.programs:
        n = min(args.batch, args.programs - done)
        progs = make_programs(ops, args.seed * 1000003 + done, n, done)
        bf = "batch_%d.json" % (done // args.batch)
        with open(os.path.join(args.out, bf), "w") as f:
            json.dump({"programs": progs}, f)
        cres = run_side([ctorch, "python"], args.out, bf, n, args.timeout)
        pres = run_side(ref, args.out, bf, n, args.timeout)
        for prog in progs:
            whats.add(prog["what"])
            c, p = cres.get(prog["id"]), pres.get(prog["id"])
            if c is None or p is None:
                d = ("missing", "no result from %s" % ("ctorch" if c is None else "PyTorch"))
            else:
                d = compare(c, p, prog["what"])
            if d is None:
                same += 1
                continue
            why = explain(known, prog["what"], d[0], d[1])
            entry = {"id": prog["id"], "what": prog["what"], "kind": d[0], "detail": d[1], "src": prog["src"]}
            if d[0] == "not-implemented":
                missing += 1
                missing_by[d[1]] = missing_by.get(d[1], 0) + 1
                diffs.append(entry)
                continue
            if why:
                explained += 1
                entry["why"] = why
            else:
                unexplained.append(entry)
            diffs.append(entry)
        done += n
        print("difffuzz: %d/%d programs, %d unexplained so far (%.0f s)" % (done, args.programs, len(unexplained),
                                                                           time.time() - t0), flush=True)
    by = {}
    for e in unexplained:
        by.setdefault((e["what"].split(".")[0] if not e["what"].startswith("expr:") else e["what"], e["kind"]), []).append(e)
    with open(os.path.join(args.out, "report.json"), "w") as f:
        json.dump({"programs": args.programs, "seed": args.seed, "same": same, "explained": explained,
                   "not_implemented": missing, "not_implemented_by": missing_by,
                   "unexplained": len(unexplained), "differences": diffs}, f, indent=1)
    for m, k in sorted(missing_by.items(), key=lambda kv: -kv[1])[:15]:
        print("  %5d  not implemented in ctorch: %s" % (k, m[:150]))
    for (w, k), es in sorted(by.items(), key=lambda kv: -len(kv[1])):
        print("  %5d  %-40s %-16s e.g. %s" % (len(es), w, k, es[0]["detail"][:160]))
    nops = len({w for w in whats if not w.startswith("expr:")})
    print("difffuzz: %d programs (%d operators, %d expression kinds): %d same, %d explained, %d stopped at what ctorch "
          "does not implement (NotImplementedInCtorch), %d unexplained" %
          (args.programs, nops, len(whats) - nops, same, explained, missing, len(unexplained)))
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
