"""Replays PyTorch 2.6's own operator samples (the OpInfo database, recorded by
tests/golden/record/opinfo.py, whose docstring describes the recording) through ctorch.

Usage (ctorch importable as torch):
    ctorch python tests/python/opinfo.py RECDIR FLOOR.json [--summary OUT.json] [--jobs N]
                                          [--write-floor] [--only KEY ...] [--timeout S]

Every recorded sample is rebuilt (each tensor from its bytes, as storage.as_strided(shape, strides)),
its operator called as the recording says (torch.<dotted name>, a Tensor method or attribute, with
the recording's argument order), and the result
compared with PyTorch's: the same structure, dtypes and shapes, values within torch.testing's
default tolerance for the output's dtype (NaN equal to NaN, integers and bools exactly), and for
outputs that are views of an input, the strides (of dimensions longer than one); a sample the
recording marks "values": 0 (uninitialised memory) is compared without its values. A sample PyTorch
raised for must raise the same exception type with the same first line. Float32 samples of
entries with supports_autograd also run backward with the recorded cotangents and compare every
input's gradient. Every error input must raise PyTorch's exception type with its first line.

Each entry runs in a child forked from this process (which has read the recording and run no
operator), so that a crash, a hang (--timeout: 300 s of wall time by default, for a shared
machine and the sanitizer build) or any exception fails that entry only, with its reason. An
entry passes when every recorded sample of its float32 (or, for an entry without float32, of its
first dtype) and every error input pass, and at least one was recorded; it passes in every dtype
when, besides, every recorded sample of every dtype it supports among the ten passes (and one was
recorded where the database made any). Entries the recording could not call fail.

It prints `opinfo: E/694 entries, S/N samples pass` (S/N counts samples of every dtype and error
inputs), the count of entries passing in every dtype, per-dtype counts and the failing entries by
family with their first reason. The run fails only when an entry FLOOR.json lists as passing (in
float32, in every dtype, or in one dtype: every recorded sample of that dtype) no longer does;
--write-floor writes the current passing entries there."""
import base64
import gzip
import json
import math
import os
import re
import select
import signal
import struct
import sys
import tempfile
import time

import torch

DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]
FLOATS = {"float32", "float64", "float16", "bfloat16"}
UNPACK = {"float32": "f", "float64": "d", "float16": "e", "int64": "q", "int32": "i", "int16": "h", "int8": "b",
          "uint8": "B", "bool": "B"}
SIZE = {"float32": 4, "float64": 8, "float16": 2, "bfloat16": 2, "int64": 8, "int32": 4, "int16": 2, "int8": 1,
        "uint8": 1, "bool": 1}
ADDR = re.compile(r"0x[0-9a-fA-F]+")


class Mismatch(Exception):
    pass


# ---- decoding ---------------------------------------------------------------------------------
def storage_values(enc):
    raw = base64.b64decode(enc["b"])
    d = enc["T"]
    n = len(raw) // SIZE[d]
    if d == "bfloat16":
        bits = struct.unpack(f"<{n}H", raw)
        return list(struct.unpack(f"<{n}f", struct.pack(f"<{n}I", *[b << 16 for b in bits])))
    vals = list(struct.unpack(f"<{n}{UNPACK[d]}", raw))
    if d == "bool":
        vals = [bool(v) for v in vals]
    return vals


def logical_values(enc):
    """The view's elements in row-major order, from its storage and strides, without torch."""
    store = storage_values(enc)
    offsets = [enc.get("off", 0)]
    for size, stride in zip(enc["sh"], enc["st"]):
        offsets = [o + i * stride for o in offsets for i in range(size)]
    return [store[o] for o in offsets]


def build_tensor(enc):
    dtype = getattr(torch, enc["T"])
    store = storage_values(enc)
    base = torch.tensor(store, dtype=dtype)
    off = enc.get("off", 0)
    if list(enc["sh"]) == [len(store)] and list(enc["st"]) == [1] and off == 0:
        t = base
    else:
        t = base.as_strided(tuple(enc["sh"]), tuple(enc["st"]), off)
    if enc.get("rg"):
        t = t.detach().requires_grad_(True)
    return t


def build(v, seen=None):
    """seen: the sample's tensors by number, so a tensor met again ({"ref": n}) is the same one."""
    if not isinstance(v, dict):
        return v
    if seen is None:
        seen = []
    if "T" in v:
        t = build_tensor(v)
        seen.append(t)
        return t
    if "ref" in v:
        return seen[v["ref"]]
    if "l" in v:
        return [build(x, seen) for x in v["l"]]
    if "u" in v:
        return tuple(build(x, seen) for x in v["u"])
    if "d" in v:
        return {k: build(x, seen) for k, x in v["d"].items()}
    if "dtype" in v:
        return getattr(torch, v["dtype"])
    if "device" in v:
        return torch.device(v["device"])
    if "mf" in v:
        return getattr(torch, v["mf"])
    if "layout" in v:
        return getattr(torch, v["layout"])
    if "slice" in v:
        return slice(*[build(x, seen) for x in v["slice"]])
    if "ellipsis" in v:
        return Ellipsis
    raise Mismatch(f"the recording holds a value this replay cannot build: {sorted(v)}")


def flat_tensors(v, out):
    if torch.is_tensor(v):
        out.append(v)
    elif isinstance(v, (list, tuple)):
        for x in v:
            flat_tensors(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            flat_tensors(x, out)
    return out


# ---- comparison -------------------------------------------------------------------------------
def flatten_list(x):
    if isinstance(x, list):
        out = []
        for y in x:
            out.extend(flatten_list(y))
        return out
    return [x]


def close(a, b, rtol, atol):
    """a (ctorch) against b (PyTorch)."""
    if isinstance(b, bool) or isinstance(a, bool):
        return a == b
    if isinstance(b, float) and math.isnan(b):
        return isinstance(a, float) and math.isnan(a)
    if isinstance(a, float) and math.isnan(a):
        return False
    if isinstance(b, float) and math.isinf(b) or isinstance(a, float) and math.isinf(a):
        return a == b
    return abs(a - b) <= atol + rtol * abs(b)


class Comparer:
    def __init__(self, tolerances, stride_notes):
        self.tol = tolerances
        self.stride_notes = stride_notes
        self.values = True  # False for a sample whose outputs are not reproducible (uninitialised memory)

    def tensor(self, exp, got, where):
        if not torch.is_tensor(got):
            raise Mismatch(f"{where}: a {type(got).__name__} where PyTorch returns a tensor")
        dname = str(got.dtype).replace("torch.", "")
        if dname != exp["T"]:
            raise Mismatch(f"{where}: dtype {dname}, PyTorch's is {exp['T']}")
        shape = list(got.shape)
        if shape != list(exp["sh"]):
            raise Mismatch(f"{where}: shape {shape}, PyTorch's is {list(exp['sh'])}")
        bad = []
        if self.values:
            want = logical_values(exp)
            have = flatten_list(got.detach().tolist())
            if len(have) != len(want):
                raise Mismatch(f"{where}: {len(have)} values, PyTorch has {len(want)}")
            rtol, atol = self.tol.get(exp["T"], (0.0, 0.0)) if exp["T"] in FLOATS else (0.0, 0.0)
            bad = [i for i, (a, b) in enumerate(zip(have, want)) if not close(a, b, rtol, atol)]
        if bad:
            i = bad[0]
            raise Mismatch(f"{where}: {len(bad)} of {len(want)} values differ (first at {i}: {have[i]!r}, "
                           f"PyTorch's {want[i]!r})")
        got_st = [s for s, n in zip(got.stride(), shape) if n > 1]
        exp_st = [s for s, n in zip(exp["st"], shape) if n > 1]
        if got_st != exp_st:
            if exp.get("view"):
                raise Mismatch(f"{where}: a view with strides {list(got.stride())}, PyTorch's are {exp['st']}")
            self.stride_notes.append(where)

    def value(self, exp, got, where):
        if isinstance(exp, dict):
            if "T" in exp:
                return self.tensor(exp, got, where)
            if "u" in exp or "l" in exp:
                items = exp.get("u", exp.get("l"))
                if not isinstance(got, (tuple, list)):
                    raise Mismatch(f"{where}: a {type(got).__name__} where PyTorch returns a sequence")
                if len(got) != len(items):
                    raise Mismatch(f"{where}: {len(got)} items, PyTorch returns {len(items)}")
                for i, (e, g) in enumerate(zip(items, got)):
                    self.value(e, g, f"{where}[{i}]")
                return None
            want = build(exp)
            if got != want:
                raise Mismatch(f"{where}: {got!r}, PyTorch's is {want!r}")
            return None
        if exp is None or isinstance(exp, (bool, str)):
            if got is not exp and got != exp or type(got) is not type(exp):
                raise Mismatch(f"{where}: {got!r}, PyTorch's is {exp!r}")
            return None
        if isinstance(exp, (int, float)):
            if not isinstance(got, (int, float)) or isinstance(got, bool):
                raise Mismatch(f"{where}: a {type(got).__name__} where PyTorch returns a {type(exp).__name__}")
            rtol, atol = self.tol.get("float64", (1e-7, 1e-7)) if isinstance(exp, float) else (0.0, 0.0)
            if not close(got, exp, rtol, atol):
                raise Mismatch(f"{where}: {got!r}, PyTorch's is {exp!r}")
            return None
        raise Mismatch(f"{where}: the recording holds an unknown value")


# ---- calling ----------------------------------------------------------------------------------
def resolve(call):
    """The recording's call as a function of (input, *args, **kwargs)."""
    if "attr" in call:
        name = call["attr"]
        return lambda inp: getattr(inp, name)
    if "method" in call:
        name, clone = call["method"], call.get("clone")
        return lambda inp, *a, **k: getattr(inp.clone() if clone else inp, name)(*a, **k)
    target = torch
    for part in call["fn"].split(".")[1:]:
        target = getattr(target, part)
    order = call.get("order")
    if not order:
        return target

    def reordered(*pos, **k):
        pos = [pos[i] for i in order] + list(pos[len(order):])
        return target(*pos, **k)
    return reordered


def first_line(exc):
    try:
        return ADDR.sub("0xADDR", str(exc).split("\n", 1)[0])
    except Exception:  # noqa: BLE001
        return "<str() raised>"


def describe_exc(e):
    return f"{type(e).__name__}: {first_line(e)}"


def short(text, n=160):
    return text if len(text) <= n else text[:n - 3] + "..."


def build_call(rec):
    seen = []
    return build(rec["in"], seen), build(rec["args"], seen), build(rec["kwargs"], seen)


def run_sample(fn, rec, comparer, grads):
    inp, args, kwargs = build_call(rec)
    ins = list({id(t): t for t in flat_tensors([inp, list(args), dict(kwargs)], []) if t.requires_grad}.values())
    torch.manual_seed(rec["seed"])
    if "raise" in rec:
        etype, emsg = rec["raise"]
        try:
            fn(inp, *args, **kwargs)
        except Exception as e:  # noqa: BLE001 - the exception is compared with PyTorch's
            if type(e).__name__ != etype or first_line(e) != ADDR.sub("0xADDR", emsg):
                raise Mismatch(f"raised {describe_exc(e)}; PyTorch raises {etype}: {emsg}")
            return
        raise Mismatch(f"returned; PyTorch raises {etype}: {emsg}")
    try:
        out = fn(inp, *args, **kwargs)
    except Exception as e:  # noqa: BLE001
        raise Mismatch(describe_exc(e))
    comparer.values = rec.get("values", 1) != 0
    comparer.value(rec["out"], out, "output")
    comparer.values = True
    if not grads or "grad" not in rec:
        return
    g = rec["grad"]
    outs = flat_tensors(out, [])
    chosen = []
    for i in g["outs"]:
        if i >= len(outs) or not outs[i].requires_grad:
            raise Mismatch(f"backward: output {i} does not require grad")
        chosen.append(outs[i])
    cots = [build(c) for c in g["cot"]]
    try:
        torch.autograd.backward(chosen, cots)
    except Exception as e:  # noqa: BLE001
        raise Mismatch(f"backward: {describe_exc(e)}")
    if len(ins) != len(g["grads"]):
        raise Mismatch(f"backward: {len(ins)} inputs require grad, PyTorch's sample has {len(g['grads'])}")
    for i, (t, want) in enumerate(zip(ins, g["grads"])):
        have = t.grad
        if want is None:
            if have is not None:
                raise Mismatch(f"backward: input {i} has a gradient, PyTorch's is None")
            continue
        if have is None:
            raise Mismatch(f"backward: input {i} has no gradient")
        comparer.value(want, have, f"gradient of input {i}")


def run_error(fn, rec):
    inp, args, kwargs = build_call(rec)
    torch.manual_seed(rec["seed"])
    want = f"{rec['type']}: {ADDR.sub('0xADDR', rec['message'])}"
    try:
        fn(inp, *args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the exception is compared with PyTorch's
        if describe_exc(e) != want:
            raise Mismatch(f"raised {describe_exc(e)}; PyTorch raises {want}")
        return
    raise Mismatch(f"raised nothing; PyTorch raises {want}")


def replay_entry(entry, tolerances):
    """{dtype: [passed, total]}, [errors passed, total], first reason per dtype and for errors."""
    res = {"samples": {}, "errors": [0, len(entry["errors"])], "reasons": {}, "stride_notes": 0}
    if entry.get("call") is None:
        res["reasons"]["entry"] = "not recorded: " + entry.get("skip", "no call")
        return res
    try:
        fn = resolve(entry["call"])
    except Exception as e:  # noqa: BLE001 - AttributeError, or NotImplementedInCtorch from torch.ops
        fn = None
        missing = f"missing: {entry['call'].get('fn')} ({describe_exc(e)})"
    notes = []
    comparer = Comparer(tolerances, notes)
    for d in entry["dtypes"]:
        recs = entry["samples"].get(d, [])
        passed = 0
        grads = d == "float32" and entry["supports_autograd"]
        for i, rec in enumerate(recs):
            try:
                if fn is None:
                    raise Mismatch(missing)
                run_sample(fn, rec, comparer, grads)
                passed += 1
            except Exception as e:  # noqa: BLE001 - anything a sample does fails that sample only
                if d not in res["reasons"]:
                    why = str(e) if isinstance(e, Mismatch) else f"the replay raised {describe_exc(e)}"
                    res["reasons"][d] = f"{d} sample {i}: {why}"
        res["samples"][d] = [passed, len(recs)]
    passed = 0
    for i, rec in enumerate(entry["errors"]):
        try:
            if fn is None:
                raise Mismatch(missing)
            run_error(fn, rec)
            passed += 1
        except Exception as e:  # noqa: BLE001
            if "errors" not in res["reasons"]:
                why = str(e) if isinstance(e, Mismatch) else f"the replay raised {describe_exc(e)}"
                res["reasons"]["errors"] = f"error input {i}: {why}"
    res["errors"][0] = passed
    res["stride_notes"] = len(notes)
    return res


# ---- children ---------------------------------------------------------------------------------
def start_child(entry, tolerances):
    """The child's stdout is dropped; its stderr goes to a file whose last line a crash reports."""
    r, w = os.pipe()
    err = tempfile.TemporaryFile()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(err.fileno(), 2)
            res = replay_entry(entry, tolerances)
            data = json.dumps(res).encode()
        except BaseException as e:  # noqa: BLE001 - the child reports whatever happened
            data = json.dumps({"crash": f"the replay raised {describe_exc(e)}"}).encode()
        with os.fdopen(w, "wb") as f:
            f.write(data)
        os._exit(0)
    os.close(w)
    return pid, r, err


def stderr_tail(err):
    err.seek(0)
    lines = [ln for ln in err.read().decode(errors="replace").splitlines() if ln.strip()]
    err.close()
    return f": {short(lines[-1].strip(), 120)}" if lines else ""


def run_all(entries, tolerances, jobs, timeout):
    results, pending, running = {}, list(entries), {}
    while pending or running:
        while pending and len(running) < jobs:
            e = pending.pop(0)
            pid, r, err = start_child(e, tolerances)
            running[r] = [e, pid, bytearray(), time.time(), err]
        ready, _, _ = select.select(list(running), [], [], 0.5)
        for r in ready:
            chunk = os.read(r, 1 << 16)
            if chunk:
                running[r][2].extend(chunk)
                continue
            e, pid, buf, _, err = running.pop(r)
            os.close(r)
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status):
                results[e["key"]] = {"crash": f"crashed ({signal.Signals(os.WTERMSIG(status)).name})"
                                              f"{stderr_tail(err)}"}
                continue
            try:
                results[e["key"]] = json.loads(bytes(buf))
                err.close()
            except ValueError:
                results[e["key"]] = {"crash": f"left without a report (exit status {os.WEXITSTATUS(status)})"
                                              f"{stderr_tail(err)}"}
        now = time.time()
        for r in [r for r, v in running.items() if now - v[3] > timeout]:
            e, pid, _, _, err = running.pop(r)
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(r)
            err.close()
            results[e["key"]] = {"crash": f"timed out after {timeout:.0f} s"}
    return results


# ---- verdicts ---------------------------------------------------------------------------------
def primary_dtype(entry):
    if "float32" in entry["dtypes"]:
        return "float32"
    return entry["dtypes"][0] if entry["dtypes"] else None


def verdict(entry, res):
    """(passes in float32, passes in every dtype, first reason)."""
    if "crash" in res:
        return False, False, res["crash"]
    r = res["reasons"]
    if "entry" in r:
        return False, False, r["entry"]
    p = primary_dtype(entry)
    if p is None:
        return False, False, "no dtype among the ten"
    sp, st = res["samples"].get(p, [0, 0])
    ep, et = res["errors"]
    if st == 0:
        return False, False, f"no {p} sample recorded ({'; '.join(entry['skipped'].get(p, [])[:1]) or 'none made'})"
    prim = sp == st and ep == et
    # a dtype passes when every recorded sample passes and one was, or the database made none for it
    every = prim and all((lambda p_n: p_n[0] == p_n[1] and (p_n[1] > 0 or entry["generated"].get(d, 0) == 0))(
        res["samples"].get(d, [0, 0])) for d in entry["dtypes"])
    reason = r.get(p) or r.get("errors") or next((r[d] for d in entry["dtypes"] if d in r), "")
    return prim, every, reason


def kind_of(reason):
    """A failing entry's first reason in a word or two, for the families' lines."""
    if reason.startswith(("not recorded", "no ")):
        return "not recordable"
    if "crashed" in reason or "timed out" in reason or "left without" in reason:
        return "crashed"
    if "derivative for" in reason:
        return "missing derivative"
    if "missing:" in reason or "NotImplementedInCtorch" in reason or "AttributeError" in reason:
        return "missing operator"
    if "values differ" in reason:
        return "wrong values"
    if "raises" in reason or "raised nothing" in reason:
        return "other exception"
    return "other"


def load(recdir):
    entries, tolerances = [], None
    for name in sorted(os.listdir(recdir)):
        if not name.endswith(".json.gz"):
            continue
        with gzip.open(os.path.join(recdir, name), "rt") as f:
            data = json.load(f)
        tolerances = data.get("tolerances", tolerances)
        entries.extend(data["entries"])
    return entries, tolerances


def main(argv):
    args = argv[1:]
    opts = {"--summary": None, "--jobs": "1", "--timeout": "300"}
    flags, only, pos = set(), [], []
    i = 0
    while i < len(args):
        a = args[i]
        if a in opts:
            opts[a] = args[i + 1]
            i += 2
        elif a == "--write-floor":
            flags.add(a)
            i += 1
        elif a == "--only":
            only.extend(args[i + 1:])
            break
        else:
            pos.append(a)
            i += 1
    if len(pos) != 2:
        raise SystemExit(__doc__.split("\n\n")[1])
    recdir, floor_path = pos
    t0 = time.time()
    entries, tolerances = load(recdir)
    if only:
        entries = [e for e in entries if e["key"] in only]
    results = run_all(entries, tolerances, int(opts["--jobs"]), float(opts["--timeout"]))
    elapsed = time.time() - t0

    per = {}
    sp = st = 0
    by_dtype = {d: [0, 0] for d in DTYPES}
    err = [0, 0]
    not_recorded = 0
    stride_notes = 0
    for e in entries:
        res = results[e["key"]]
        prim, every, reason = verdict(e, res)
        dtype_pass = [d for d, (p, n) in res.get("samples", {}).items() if n and p == n and "crash" not in res]
        per[e["key"]] = {"family": e["family"], "class": e["class"], "aten_name": e["aten_name"], "float32": prim,
                         "all_dtypes": every, "dtypes_passing": dtype_pass, "reason": reason,
                         "samples": res.get("samples", {}),
                         "errors": res.get("errors", [0, len(e["errors"])]), "reasons": res.get("reasons", {})}
        not_recorded += sum(len(v) for v in e["skipped"].values())
        for d in e["dtypes"]:
            n = len(e["samples"].get(d, []))
            got = res.get("samples", {}).get(d, [0, n])[0]
            by_dtype[d][0] += got
            by_dtype[d][1] += n
        ne = len(e["errors"])
        got = res.get("errors", [0, ne])[0]
        err[0] += got
        err[1] += ne
        stride_notes += res.get("stride_notes", 0)
    sp = sum(v[0] for v in by_dtype.values()) + err[0]
    st = sum(v[1] for v in by_dtype.values()) + err[1]
    n_entries = len(entries)
    n_prim = sum(1 for v in per.values() if v["float32"])
    n_every = sum(1 for v in per.values() if v["all_dtypes"])
    print(f"opinfo: {n_prim}/{n_entries} entries, {sp}/{st} samples pass")
    print(f"opinfo: {n_every}/{n_entries} entries pass in every dtype they support among the ten")
    print("samples by dtype: " + ", ".join(f"{d} {v[0]}/{v[1]}" for d, v in by_dtype.items() if v[1]) +
          f"; error inputs {err[0]}/{err[1]}")
    crashed = sorted(k for k in per if "crash" in results[k] and kind_of(results[k]["crash"]) == "crashed")
    if crashed:
        print(f"crashed, hung or left without a report: {len(crashed)} entries: {', '.join(crashed)}")
    print(f"not recorded: {not_recorded} samples the recording could not encode, "
          f"{sum(1 for e in entries if e.get('call') is None)} entries with no callable name; "
          f"outputs (not views) whose strides differ from PyTorch's: {stride_notes}")
    fams = {}
    for key, v in per.items():
        fams.setdefault(v["family"], []).append(key)
    print("failing entries by family (float32 and error inputs):")
    for fam in sorted(fams):
        keys = fams[fam]
        bad = [k for k in keys if not per[k]["float32"]]
        kinds = {}
        for k in bad:
            kd = kind_of(per[k]["reason"])
            kinds[kd] = kinds.get(kd, 0) + 1
        detail = ", ".join(f"{n} {kd}" for kd, n in sorted(kinds.items(), key=lambda x: -x[1]))
        print(f"  {fam}: {len(keys) - len(bad)}/{len(keys)} pass" + (f" ({detail})" if detail else ""))
        for k in bad:
            print(f"    {k}: {short(per[k]['reason'])}")
    print(f"replay time: {elapsed:.1f} s ({opts['--jobs']} job{'s' if opts['--jobs'] != '1' else ''})")

    if opts["--summary"]:
        summary = {"entries": n_entries, "pass_float32": n_prim, "pass_all_dtypes": n_every,
                   "samples_passed": sp, "samples": st, "by_dtype": by_dtype, "error_inputs": err,
                   "not_recorded_samples": not_recorded, "seconds": round(elapsed, 1),
                   "families": {f: {"entries": len(k), "pass_float32": sum(1 for x in k if per[x]["float32"]),
                                    "pass_all_dtypes": sum(1 for x in k if per[x]["all_dtypes"])}
                                for f, k in sorted(fams.items())},
                   "per_entry": per}
        with open(opts["--summary"], "w") as f:
            json.dump(summary, f, indent=1, sort_keys=True)
            f.write("\n")

    if "--write-floor" in flags:
        floor = {"float32": sorted(k for k, v in per.items() if v["float32"]),
                 "all_dtypes": sorted(k for k, v in per.items() if v["all_dtypes"]),
                 "dtypes": {k: v["dtypes_passing"] for k, v in sorted(per.items()) if v["dtypes_passing"]}}
        with open(floor_path, "w") as f:
            f.write('{"float32": [\n' + ",\n".join(json.dumps(k) for k in floor["float32"]) +
                    '\n],\n"all_dtypes": [\n' + ",\n".join(json.dumps(k) for k in floor["all_dtypes"]) +
                    '\n],\n"dtypes": {\n' + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}"
                                                        for k, v in floor["dtypes"].items()) + "\n}}\n")
        print(f"floor written: {len(floor['float32'])} entries in float32, {len(floor['all_dtypes'])} in every dtype, "
              f"{sum(len(v) for v in floor['dtypes'].values())} (entry, dtype) pairs")
        return 0
    with open(floor_path) as f:
        floor = json.load(f)
    regressed = []
    for crit in ("float32", "all_dtypes"):
        for k in floor.get(crit, []):
            if k not in per:
                if not only:
                    regressed.append(f"{k} ({crit}): no longer in the recording")
            elif not per[k][crit]:
                label = "entry" if crit == "float32" else "every dtype"
                regressed.append(f"{k} ({label}): {short(per[k]['reason'])}")
    for k, dts in floor.get("dtypes", {}).items():
        if k in per:
            for d in dts:
                if d not in per[k]["dtypes_passing"]:
                    why = per[k]["reasons"].get(d) or per[k]["reason"]
                    regressed.append(f"{k} ({d}): {short(why)}")
    if regressed:
        print(f"FAIL: {len(regressed)} entries of the floor no longer pass:")
        for r in regressed:
            print("  " + r)
        return 1
    print(f"floor kept: {len(floor.get('float32', []))} entries in float32, "
          f"{len(floor.get('all_dtypes', []))} in every dtype, "
          f"{sum(len(v) for v in floor.get('dtypes', {}).values())} (entry, dtype) pairs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
