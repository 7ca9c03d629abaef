#!/usr/bin/env python3
"""Record a PyTorch program in ctorch's trace-file schema (docs/trace-format.md), so that
`ctorch diff` can compare it with the same program run in ctorch.

PyTorch's release builds cannot show the dispatcher's decisions, so this records what a
TorchDispatchMode sees: every aten op that reaches the Python key, with its op and overload,
each argument (key set from torch._C._dispatch_keys, dtype, shape, stride, or value, defaults
filled in from the schema), grad mode and the phase the program sets. The header says
"recorder": "pytorch" and "view": "dispatch_mode"; ctorch diff then compares it with the hops of
a ctorch trace that reach the Python key (a ctorch program run with a dispatch mode pushed,
e.g. `ctorch trace --mode`, or `ctorch step --trace`).

Runs with any PyTorch that has TorchDispatchMode (1.13 and 2.x):

    python3 tools/trace_torch.py --out t.jsonl [--seed N] SCRIPT.py [ARGS...]
        runs SCRIPT.py (as __main__) with every op recorded; the script may import this
        module and call trace_torch.set_phase("backward") and so on
    python3 tools/trace_torch.py --out t.jsonl --linear [--call linear|addmm|matmul_add]
        [--dtype float32|float16|bfloat16|float64] [--grad-mode grad|no_grad|inference_mode]
        [--seed N] [--backward]
        Lab 00's linear(x, W, b), as `ctorch trace --mode` runs it

or from Python:

    with trace_torch.TraceMode("t.jsonl", program="my step", seed=0) as rec:
        rec.phase = "forward"; ...

With ../shared/tools/torchref (PyTorch 2.6) the file must be under the current folder.
"""
import argparse
import datetime
import json
import math
import os
import runpy
import sys
import threading
import time

import torch
from torch.utils._python_dispatch import TorchDispatchMode

SCHEMA = "ctorch-trace"
SCHEMA_VERSION = 1  # the version ctorch's CT_TRACE_SCHEMA_VERSION names; raised together

_active = []  # the TraceModes entered, innermost last


def set_phase(phase):
    """The phase written into the following records of the innermost recorder (None clears)."""
    if _active:
        _active[-1].phase = phase


def _strip(text):
    return text[6:] if text.startswith("torch.") else text


class TraceMode(TorchDispatchMode):
    """A dispatch mode that writes every op it sees as a hop record of the trace schema."""

    def __init__(self, path, program=None, seed=None):
        super().__init__()
        self.path = path
        self.program = program if program is not None else " ".join(sys.argv)
        self.seed = seed
        self.phase = None
        self.index = 0
        self.next_id = 0
        self.file = None
        self.t0 = 0

    # -- the file --
    def __enter__(self):
        self.file = open(self.path, "w")
        self.t0 = time.monotonic_ns()
        header = {"type": "header", "schema": SCHEMA, "version": SCHEMA_VERSION, "recorder": "pytorch",
                  "view": "dispatch_mode", "ctorch_version": None, "pytorch_version": torch.__version__,
                  "seed": self.seed, "program": self.program,
                  "started_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
        self.file.write(json.dumps(header) + "\n")
        _active.append(self)
        return super().__enter__()

    def __exit__(self, *exc):
        try:
            return super().__exit__(*exc)
        finally:
            _active.remove(self)
            self.file.close()

    # -- one op --
    def _tensor_id(self, t):
        # a number given on first sight and kept on the tensor object (nothing is kept alive)
        tid = getattr(t, "_ctorch_trace_id", None)
        if tid is None:
            self.next_id += 1
            tid = self.next_id
            try:
                t._ctorch_trace_id = tid
            except (AttributeError, RuntimeError):
                pass
        return tid

    def _tensor(self, name, t):
        return {"name": name, "keys": str(torch._C._dispatch_keys(t)), "dtype": _strip(str(t.dtype)),
                "shape": list(t.shape), "stride": list(t.stride()), "id": self._tensor_id(t)}

    def _value(self, v):
        if v is None or isinstance(v, (bool, int, str)):
            return v
        if isinstance(v, float):
            if math.isnan(v):
                return "nan"
            if math.isinf(v):
                return "inf" if v > 0 else "-inf"
            return v
        if isinstance(v, (list, tuple)):
            return [self._value(x) for x in v]
        if isinstance(v, torch.Generator):
            return "Generator"
        if isinstance(v, (torch.dtype, torch.layout, torch.memory_format, torch.device)):
            return _strip(str(v))
        if isinstance(v, torch.ScriptObject):
            try:
                return "ScriptObject <%s>" % v._type().qualified_name()
            except (AttributeError, RuntimeError):
                return str(v)
        return str(v)

    def _args(self, func, args, kwargs):
        out = []
        for i, a in enumerate(func._schema.arguments):
            if i < len(args) and not a.kwarg_only:
                v = args[i]
            elif a.name in kwargs:
                v = kwargs[a.name]
            else:
                v = a.default_value
            if isinstance(v, torch.Tensor):
                out.append(self._tensor(a.name, v))
            elif isinstance(v, (list, tuple)) and v and all(isinstance(x, torch.Tensor) for x in v):
                out.append({"name": a.name, "tensors": [self._tensor(a.name, x) for x in v]})
            else:
                out.append({"name": a.name, "value": self._value(v)})
        return out

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        t = time.monotonic_ns() - self.t0
        schema = func._schema
        rec = {"type": "hop", "i": self.index, "depth": 1, "op": schema.name,
               "overload": schema.overload_name or "default", "key": "Python",
               "args": self._args(func, args, kwargs), "grad_enabled": torch.is_grad_enabled()}
        if self.phase:
            rec["phase"] = self.phase
        rec["thread"] = threading.get_native_id()
        rec["t_ns"] = t
        self.index += 1
        self.file.write(json.dumps(rec) + "\n")
        return func(*args, **kwargs)


# ---- Lab 00's linear(x, W, b), as `ctorch trace` runs it ------------------------------------

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16, "float64": torch.float64}


def run_linear(out, call="linear", dtype="float32", grad_mode="grad", seed=42, backward=False, program=None):
    torch.manual_seed(seed)

    def leaf(*size):
        t = torch.randn(*size)
        if dtype != "float32":
            t = t.to(DTYPES[dtype])
        return t.requires_grad_()

    x, W, b = leaf(2, 64), leaf(600, 64), leaf(600)
    if program is None:
        program = "ctorch trace --call %s --dtype %s --grad-mode %s --seed %d%s --mode" % (
            call, dtype, grad_mode, seed, " --backward" if backward else "")
    guard = torch.no_grad() if grad_mode == "no_grad" else torch.inference_mode() if grad_mode == "inference_mode" \
        else torch.enable_grad()
    with TraceMode(out, program=program, seed=seed) as rec:
        with guard:
            rec.phase = "forward"
            if call == "linear":
                y = torch.nn.functional.linear(x, W, b)
            elif call == "addmm":
                y = torch.addmm(b, x, W.T)
            else:
                y = (x @ W.T) + b
            if backward and grad_mode == "grad":
                s = y.sum()
                rec.phase = "backward"
                s.backward()
            rec.phase = None


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True, help="the trace file to write")
    p.add_argument("--seed", type=int, default=None, help="the seed the program uses (header; --linear: seeds it)")
    p.add_argument("--program", default=None, help="what ran (header); default: the command line")
    p.add_argument("--linear", action="store_true", help="record Lab 00's linear(x, W, b) instead of a script")
    p.add_argument("--call", choices=["linear", "addmm", "matmul_add"], default="linear")
    p.add_argument("--dtype", choices=sorted(DTYPES), default="float32")
    p.add_argument("--grad-mode", choices=["grad", "no_grad", "inference_mode"], default="grad")
    p.add_argument("--backward", action="store_true")
    p.add_argument("script", nargs="?", help="a Python program to run under the recorder")
    p.add_argument("args", nargs=argparse.REMAINDER, help="its arguments")
    a = p.parse_args(argv)
    if a.linear:
        if a.script:
            p.error("--linear takes no script")
        run_linear(a.out, a.call, a.dtype, a.grad_mode, 42 if a.seed is None else a.seed, a.backward, a.program)
        return 0
    if not a.script:
        p.error("a script to run, or --linear, is needed")
    sys.argv = [a.script] + a.args
    sys.path.insert(0, os.path.dirname(os.path.abspath(a.script)))
    with TraceMode(a.out, program=a.program or " ".join(sys.argv), seed=a.seed):
        runpy.run_path(a.script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
