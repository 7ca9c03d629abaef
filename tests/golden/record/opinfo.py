"""Records PyTorch 2.6's own operator samples (the OpInfo database,
torch.testing._internal.common_methods_invocations.op_db) for the opinfo test
(tests/python/opinfo.py replays every recorded sample under ctorch and compares).

Usage (under real PyTorch 2.6, with the reference tool, from a folder holding this script):
    torchref opinfo.py OUTDIR [FAMILY ...]
writes OUTDIR/<family>.json.gz for every family (or only the families named; several runs may
go side by side, one per family, and write different files).

For each op_db entry (name + variant_test_name), and for each dtype among float32, float64,
float16, bfloat16, int64, int32, int16, int8, uint8 and bool that the entry supports on CPU
(op.supported_dtypes("cpu")), the recording holds:
  - the samples of op.sample_inputs("cpu", dtype), at most MAX_SAMPLES[dtype] of them (the first
    ones the database yields; float32 keeps more than the others), each with its input, args and
    kwargs as they were before the call, and what the call gave: the output, or the exception's
    type and the first line of its message when PyTorch itself raises;
  - for float32 and entries with supports_autograd, the samples are made with requires_grad=True
    and each one also holds a cotangent for every output that requires grad (drawn from a
    generator seeded with the sample's seed) and the gradient of every distinct input tensor
    that requires grad, in the order they are met in (input, args, kwargs) (None where the
    input is unused), from torch.autograd.grad;
  - every op.error_inputs("cpu") case: its sample and the type and first line of the exception
    PyTorch raises for it (and the type the database expects).
Every sample generation starts from torch.manual_seed(crc32 of "<entry>/<dtype>"), and every call
from torch.manual_seed(the sample's seed), recorded with the sample: the recording is reproducible
and random operators can be replayed under the same seed.

How to call an entry is recorded with it (replay needs no op_db): "call" is {"fn": "torch.x"}
(a dotted name under torch: torch.nn.functional.x, torch.linalg.x, torch.special.x, ...), or
{"method": "x"} (Tensor.x with the sample's input as self) where the database's op is a lambda and
its method variant is a Tensor method, or for a few lambdas what BY_HAND says ("order" permutes
the positional arguments, "clone" calls the method on a copy of the input, "attr" reads an
attribute), or for a lambda that only wraps torch.x in the database's seeding wrapper, torch.x
(with its two first arguments swapped where that is what reproduces the lambda). Every call read
from a lambda (the method variant too) is checked: it must give what the lambda gives on the
entry's first sample. An
entry whose op is none of these is recorded without samples, with "skip" saying why.

A value is encoded as JSON: None, bool, int, float (NaN and infinities as Python's json writes
them) and str as themselves; {"l": [...]} a list, {"u": [...]} a tuple (torch.Size and PyTorch's
named tuples of results are tuples), {"d": {...}} a dict, {"dtype": "float32"}, {"device": "cpu"},
{"mf": "channels_last"} a memory format, {"layout": "strided"}, {"slice": [start, stop, step]},
{"ellipsis": 1}; a tensor is {"T": dtype, "sh": shape, "st": strides, "b": base64 of
little-endian bytes}. For an input the bytes are its whole storage and "off" its storage offset
(where not 0), so that it rebuilds as storage.as_strided(shape, strides, off) and operators that
address the storage (as_strided) see what PyTorch's saw; "rg": 1 where it requires grad; the
inputs' tensors of a sample are numbered in the order written, and a tensor met again is
{"ref": its number}. For an
output the bytes are storage[offset : offset + span] (span: the elements the view reaches), and
"view": 1 where it shares storage with an input (its strides are then part of what PyTorch
defines). A sample whose call, made twice under the same seed, gives two different outputs (or
whose operator returns uninitialised memory, UNINITIALISED) has "values": 0 and its output tensors no "b": their values are not compared. The recorder re-runs
itself with PYTHONHASHSEED=0 (some sample_inputs iterate over sets of strings). The recording is
reproducible byte for byte but for the values of uninitialised tensors some error inputs pass
(out= tensors made by torch.empty) and two linalg.lstsq samples whose LAPACK results differ
between calls. float16 and bfloat16 are stored as their 16-bit patterns, bool as bytes.
A sample with a value that cannot be encoded (a callable, a complex or sparse tensor, a dtype
outside the ten, an object of another kind) is recorded in "skipped" with the reason, and so is a
sample whose tensors together exceed MAX_SAMPLE_BYTES.

Tolerances: "tol" gives, per dtype, torch.testing's default (rtol, atol) for it; integer and bool
dtypes compare exactly.

Each file is {"torch": version, "family": name, "tolerances": {dtype: [rtol, atol] for the ten},
"entries": [entry, ...]} compressed with gzip
(mtime 0, so equal recordings are equal bytes)."""
import base64
import gzip
import json
import os
import sys
import time
import zlib

import torch
import torch.testing._comparison as tcomp
from torch.testing._internal.common_methods_invocations import op_db

DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8", "bool"]
MAX_SAMPLES = {d: (24 if d == "float32" else 4) for d in DTYPES}
MAX_SAMPLE_BYTES = 48 * 1024
MAX_ERRORS = 32
# operators whose outputs hold whatever memory they were given
UNINITIALISED = {"empty", "empty_like", "empty_strided", "empty_permuted", "new_empty", "new_empty_strided",
                 "resize_", "resize_as_"}


class Unencodable(Exception):
    pass


# ---- families: from the OpInfo class, else from the name --------------------------------------
INDEXING = {"__getitem__", "gather", "take", "take_along_dim", "put", "nonzero", "nonzero_static", "where",
            "masked_fill", "masked_scatter", "masked_select", "argwhere", "index_select", "index_add",
            "index_copy", "index_fill", "index_put", "index_reduce", "scatter", "scatter_add", "scatter_reduce",
            "select_scatter", "slice_scatter", "diagonal_scatter", "as_strided_scatter", "searchsorted",
            "bucketize", "unique", "unique_consecutive", "_unsafe_masked_index", "_unsafe_masked_index_put_accumulate"}
SHAPE = {"view", "view_as", "reshape", "reshape_as", "flatten", "unflatten", "squeeze", "unsqueeze", "transpose",
         "permute", "movedim", "moveaxis", "swapaxes", "swapdims", "t", "T", "H", "mT", "mH", "adjoint", "expand",
         "expand_as", "expand_copy", "repeat", "repeat_interleave", "tile", "flip", "fliplr", "flipud", "roll",
         "rot90", "narrow", "narrow_copy", "select", "diagonal", "diag", "diag_embed", "diagflat", "tril", "triu",
         "cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack", "row_stack",
         "split", "split_with_sizes", "tensor_split", "hsplit", "vsplit", "dsplit", "chunk", "unbind",
         "as_strided", "as_strided_partial_views", "atleast_1d", "atleast_2d", "atleast_3d", "broadcast_to",
         "broadcast_tensors", "block_diag", "contiguous", "clone", "ravel", "unfold", "unfold_copy",
         "view_copy", "permute_copy", "squeeze_copy", "t_copy", "transpose_copy", "unsqueeze_copy", "alias_copy",
         "split_with_sizes_copy", "unbind_copy", "meshgrid", "sum_to_size", "resize_", "resize_as_", "trace",
         "combinations", "cartesian_prod", "kron", "triu_indices", "tril_indices", "constant_pad_nd", "rot90"}
FACTORY = {"arange", "linspace", "logspace", "empty", "empty_like", "empty_strided", "empty_permuted", "zeros",
           "zeros_like", "ones", "ones_like", "full", "full_like", "eye", "new_empty", "new_empty_strided",
           "new_zeros", "new_ones", "new_full", "rand_like", "randn", "randn_like", "randint", "randint_like",
           "bernoulli", "multinomial", "normal", "uniform", "cauchy", "exponential", "geometric", "log_normal",
           "scalar_tensor", "item", "to", "bfloat16", "bool", "byte", "char", "double", "float", "half", "int",
           "long", "short", "cdouble", "cfloat", "chalf", "to_sparse", "zero_", "fill", "copysign"}
SORTING = {"sort", "argsort", "msort", "topk", "kthvalue", "median", "nanmedian", "mode", "histc", "histogram",
           "histogramdd", "bincount", "cummax", "cummin", "cumsum", "cumprod", "cumulative_trapezoid", "logcumsumexp"}


def family_of(op):
    cls = type(op).__name__
    name = op.name
    if name.startswith("nn.functional."):
        return "nn"
    for prefix, fam in (("linalg.", "linalg"), ("special.", "special"), ("fft.", "fft"), ("masked.", "masked"),
                        ("signal.", "signal"), ("sparse.", "sparse"), ("_refs", "refs")):
        if name.startswith(prefix):
            return fam
    if cls == "UnaryUfuncInfo":
        return "unary"
    if cls == "BinaryUfuncInfo":
        return "binary"
    if cls == "ReductionOpInfo":
        return "reduction"
    if cls == "SpectralFuncInfo":
        return "fft"
    if cls == "ShapeFuncInfo" or name in SHAPE:
        return "shape"
    if name in INDEXING:
        return "indexing"
    if name in ("max", "min", "aminmax", "var_mean", "std_mean", "logsumexp", "norm", "quantile", "nanquantile",
                "dist", "allclose", "equal", "trapz", "trapezoid", "diff", "gradient", "cov", "corrcoef"):
        return "reduction"
    if name in ("softmax", "log_softmax", "_softmax_backward_data", "native_layer_norm", "native_batch_norm",
                "_native_batch_norm_legit", "_batch_norm_with_update", "_upsample_bilinear2d_aa",
                "max_pool2d_with_indices_backward", "native_dropout_backward", "grid_sampler_2d", "_segment_reduce",
                "torch.ops.aten._safe_softmax.default", "torch.ops.aten._flash_attention_forward",
                "torch.ops.aten._efficient_attention_forward", "torch._scaled_mm"):
        return "nn"
    if name in SORTING:
        return "sort_scan"
    if name in FACTORY:
        return "factory"
    if name in ("matmul", "mm", "bmm", "addmm", "addmv", "addbmm", "baddbmm", "addr", "mv", "dot", "vdot", "inner",
                "outer", "tensordot", "einsum", "chain_matmul", "cholesky", "cholesky_solve", "cholesky_inverse",
                "lu", "lu_solve", "lu_unpack", "qr", "svd", "svd_lowrank", "pca_lowrank", "pinverse", "inverse",
                "det", "logdet", "slogdet", "triangular_solve", "geqrf", "ormqr", "symeig", "linalg", "cross",
                "tensorinv", "matrix_exp", "cdist", "pdist", "addcmul", "addcdiv", "frexp", "ldexp", "renorm"):
        return "linalg"
    return "other"


# ---- how to call an entry ---------------------------------------------------------------------
def _call_spaces():
    spaces = [("torch.nn.functional", torch.nn.functional), ("torch.linalg", torch.linalg),
              ("torch.special", torch.special), ("torch.fft", torch.fft), ("torch", torch)]
    for extra in ("masked", "sparse", "signal.windows", "nn.init"):
        mod = torch
        try:
            for part in extra.split("."):
                mod = getattr(mod, part)
        except AttributeError:
            continue
        spaces.append(("torch." + extra, mod))
    return spaces


SPACES = _call_spaces()


# Entries whose op is a lambda, said in the calls' own terms (read from what each lambda does):
# "order" permutes the positional arguments (input, *args), "clone" calls the method on a copy of
# the input, "attr" reads an attribute. The seeding wrapper some of them use is replaced by the
# recording's own seed, set before every call.
BY_HAND = {
    "item": {"method": "item"}, "cauchy": {"method": "cauchy_"}, "exponential": {"method": "exponential_"},
    "geometric": {"method": "geometric_"}, "log_normal": {"method": "log_normal_"},
    "normal.in_place": {"method": "normal_"}, "uniform": {"method": "uniform_"},
    "einsum": {"fn": "torch.einsum", "order": [1, 0]}, "randn": {"fn": "torch.randn"},
    "empty_strided": {"fn": "torch.empty_strided"},
    "resize_": {"method": "resize_", "clone": 1}, "resize_as_": {"method": "resize_as_", "clone": 1},
    "zero_": {"method": "zero_", "clone": 1},
    "T": {"attr": "T"}, "H": {"attr": "H"}, "mT": {"attr": "mT"}, "mH": {"attr": "mH"},
    "nn.functional.embedding": {"fn": "torch.nn.functional.embedding", "order": [1, 0]},
    "nn.functional.embedding_bag": {"fn": "torch.nn.functional.embedding_bag", "order": [1, 0]},
    "special.polygamma.special_polygamma_n_0": {"fn": "torch.special.polygamma", "order": [1, 0]},
}


def same_result(a, b, values):
    if isinstance(a, torch.Tensor) or isinstance(b, torch.Tensor):
        if not (isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor)):
            return False
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        return not values or torch.equal(a.detach(), b.detach()) or bool(
            (a.detach().isnan() & b.detach().isnan() | (a.detach() == b.detach())).all())
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same_result(x, y, values) for x, y in zip(a, b))
    return type(a) is type(b) and (not values or a == b)


def reproduces(op, call):
    """Whether the call gives what the database's op gives on its first sample (under the seed the
    database's seeding wrapper sets, 42), so a call read from a lambda is checked, not trusted."""
    dtypes = [d for d in DTYPES if getattr(torch, d) in op.supported_dtypes("cpu")]
    if not dtypes:
        return False
    torch.manual_seed(0)
    try:
        s = next(iter(op.sample_inputs("cpu", getattr(torch, dtypes[0]))))
    except Exception:  # noqa: BLE001
        return False
    try:
        torch.manual_seed(42)
        ref = op.op(s.input, *s.args, **s.kwargs)
        torch.manual_seed(42)
        got = invoke(call, s.input, s.args, s.kwargs)
    except Exception:  # noqa: BLE001
        return False
    try:
        return same_result(ref, got, op.name not in UNINITIALISED)
    except Exception:  # noqa: BLE001 - results that cannot be compared (sparse) are not reproduced
        return False


def call_from_code(op):
    """A lambda that calls wrapper_set_seed(torch.a.b, ...) names its function in its code object:
    the candidates are that function with the positional arguments as they are or swapped."""
    code = getattr(op.op, "__code__", None)
    if code is None or code.co_names[:2] != ("wrapper_set_seed", "torch") or len(code.co_names) < 3:
        return None
    name = "torch." + ".".join(code.co_names[2:])
    for cand in ({"fn": name}, {"fn": name, "order": [1, 0]}):
        if reproduces(op, cand):
            return cand
    return None


def call_of(op):
    """({"fn": name} or {"method": name}, None) or (None, why not)."""
    key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
    if key in BY_HAND:
        if reproduces(op, BY_HAND[key]):
            return dict(BY_HAND[key]), None
        return None, "the call written for its lambda does not give what the lambda gives"
    f = op.op
    fname = getattr(f, "__name__", None)
    target = torch
    for part in op.name.split("."):
        target = getattr(target, part, None)
    if target is f:  # torch.linalg.det is named linalg_det
        return {"fn": "torch." + op.name}, None
    if fname and fname != "<lambda>":
        for qual, mod in SPACES:
            if getattr(mod, fname, None) is f:
                return {"fn": f"{qual}.{fname}"}, None
        if getattr(torch.Tensor, fname, None) is f:
            return {"method": fname}, None
    if isinstance(f, torch._ops.OpOverloadPacket) or isinstance(f, torch._ops.OpOverload):
        return {"fn": "torch.ops." + str(f).replace("aten::", "aten.").replace("::", ".")}, None
    from_code = call_from_code(op)
    if from_code is not None:
        return from_code, None
    mv = op.method_variant
    mname = getattr(mv, "__name__", None)
    if mv is not None and mname and mname != "<lambda>" and getattr(torch.Tensor, mname, None) is mv:
        if reproduces(op, {"method": mname}):
            return {"method": mname}, None
        return None, f"its method variant Tensor.{mname} does not give what its lambda gives"
    return None, f"the database's op is a Python {('lambda' if fname == '<lambda>' else type(f).__name__)} with no torch name or Tensor method"


def invoke(call, sample_input, args, kwargs):
    if "attr" in call:
        return getattr(sample_input, call["attr"])
    if "method" in call:
        self = sample_input.clone() if call.get("clone") else sample_input
        return getattr(self, call["method"])(*args, **kwargs)
    target = torch
    for part in call["fn"].split(".")[1:]:
        target = getattr(target, part)
    pos = [sample_input, *args]
    if "order" in call:
        pos = [pos[i] for i in call["order"]] + pos[len(call["order"]):]
    return target(*pos, **kwargs)


# ---- encoding ---------------------------------------------------------------------------------
DTYPE_NAME = {getattr(torch, d): d for d in DTYPES}
MEMORY_FORMATS = {torch.contiguous_format: "contiguous_format", torch.channels_last: "channels_last",
                  torch.channels_last_3d: "channels_last_3d", torch.preserve_format: "preserve_format"}


class Encoder:
    def __init__(self, inputs_storage=None):
        self.nbytes = 0
        self.inputs_storage = inputs_storage or set()  # data pointers of the inputs' storages
        self.storages = set()
        self.seen, self.keep = {}, []

    def tensor(self, t, output=False):
        if not output:  # the same tensor twice in a sample (cat([a, a])) is one tensor in replay too
            if id(t) in self.seen:
                return {"ref": self.seen[id(t)]}
            self.seen[id(t)] = len(self.seen)
            self.keep.append(t)
        if t.layout != torch.strided:
            raise Unencodable(f"a {t.layout} tensor")
        if t.dtype not in DTYPE_NAME:
            raise Unencodable(f"a {t.dtype} tensor")
        if t.is_conj() or t.is_neg():
            raise Unencodable("a tensor with the conj or neg bit")
        if t.device.type != "cpu":
            raise Unencodable(f"a tensor on {t.device}")
        d = t.detach()
        if output:
            start, span = d.storage_offset(), 0
            if d.numel() > 0:
                span = 1 + sum((s - 1) * st for s, st in zip(d.shape, d.stride()))
        else:  # the whole storage: as_strided and the like address it from its start
            start, span = 0, t.untyped_storage().nbytes() // t.element_size()
        flat = torch.as_strided(d, (span,), (1,), start).contiguous()
        if flat.dtype in (torch.float16, torch.bfloat16):
            flat = flat.view(torch.int16)
        elif flat.dtype == torch.bool:
            flat = flat.view(torch.uint8)
        raw = flat.numpy().tobytes()
        self.nbytes += len(raw)
        out = {"T": DTYPE_NAME[t.dtype], "sh": list(d.shape), "st": list(d.stride()),
               "b": base64.b64encode(raw).decode("ascii")}
        if not output and d.storage_offset():
            out["off"] = d.storage_offset()
        if t.requires_grad and not output:
            out["rg"] = 1
        ptr = t.untyped_storage().data_ptr()
        if output:
            if ptr in self.inputs_storage and t.numel() > 0:
                out["view"] = 1
        else:
            self.storages.add(ptr)
        return out

    def value(self, v, output=False, depth=0):
        if depth > 6:
            raise Unencodable("a value nested too deeply")
        e = lambda x: self.value(x, output, depth + 1)  # noqa: E731
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            return v
        if isinstance(v, torch.Tensor):
            return self.tensor(v, output)
        if isinstance(v, list):
            return {"l": [e(x) for x in v]}
        if isinstance(v, tuple):
            return {"u": [e(x) for x in v]}
        if isinstance(v, dict):
            if not all(isinstance(k, str) for k in v):
                raise Unencodable("a dict with keys other than str")
            return {"d": {k: e(x) for k, x in v.items()}}
        if isinstance(v, torch.dtype):
            if v in DTYPE_NAME:
                return {"dtype": DTYPE_NAME[v]}
            raise Unencodable(f"the dtype {v}")
        if isinstance(v, torch.device):
            return {"device": str(v)}
        if isinstance(v, torch.memory_format):
            return {"mf": MEMORY_FORMATS[v]}
        if isinstance(v, torch.layout):
            return {"layout": str(v).replace("torch.", "")}
        if isinstance(v, slice):
            return {"slice": [e(v.start), e(v.stop), e(v.step)]}
        if v is Ellipsis:
            return {"ellipsis": 1}
        if isinstance(v, complex):
            raise Unencodable("a complex number")
        if callable(v):
            raise Unencodable("a callable")
        raise Unencodable(f"a {type(v).__name__}")


def flat_tensors(v, out):
    if isinstance(v, torch.Tensor):
        out.append(v)
    elif isinstance(v, (list, tuple)):
        for x in v:
            flat_tensors(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            flat_tensors(x, out)
    return out


def strip_bytes(v):
    """An output without its tensors' bytes (uninitialised memory: they would differ every run)."""
    if isinstance(v, dict):
        return {k: strip_bytes(x) for k, x in v.items() if k != "b"}
    if isinstance(v, list):
        return [strip_bytes(x) for x in v]
    return v


def first_line(exc):
    return str(exc).split("\n", 1)[0]


def seed_of(text):
    return zlib.crc32(text.encode()) & 0x7FFFFFFF


# ---- one sample -------------------------------------------------------------------------------
def record_sample(call, s, seed, grads, uninitialised):
    enc = Encoder()
    rec = {"in": enc.value(s.input), "args": enc.value(tuple(s.args)), "kwargs": enc.value(dict(s.kwargs)),
           "seed": seed}
    if enc.nbytes > MAX_SAMPLE_BYTES:
        raise Unencodable(f"inputs of {enc.nbytes} bytes (more than {MAX_SAMPLE_BYTES})")
    ins = list({id(t): t for t in flat_tensors([s.input, list(s.args), dict(s.kwargs)], [])
                if t.requires_grad}.values())
    torch.manual_seed(seed)
    try:
        out = invoke(call, s.input, s.args, s.kwargs)
    except Exception as e:  # noqa: BLE001 - PyTorch raising for a sample is recorded as its outcome
        rec["raise"] = [type(e).__name__, first_line(e)]
        return rec
    oenc = Encoder(enc.storages)
    rec["out"] = oenc.value(out, output=True)
    if oenc.nbytes > MAX_SAMPLE_BYTES:
        raise Unencodable(f"outputs of {oenc.nbytes} bytes (more than {MAX_SAMPLE_BYTES})")
    if uninitialised or not call.get("method", "").endswith("_"):
        # the same call again under the same seed: outputs that differ (uninitialised memory)
        # are compared by structure, dtype, shape and strides only
        torch.manual_seed(seed)
        try:
            again = Encoder(enc.storages).value(invoke(call, s.input, s.args, s.kwargs), output=True)
        except Exception:  # noqa: BLE001 - a second call that raises says nothing about the first
            again = rec["out"]
        if uninitialised or again != rec["out"]:
            rec["values"] = 0
            rec["out"] = strip_bytes(rec["out"])
    if not grads:
        return rec
    outs = flat_tensors(out, [])
    used = [i for i, o in enumerate(outs) if o.requires_grad and o.dtype.is_floating_point]
    if not ins or not used:
        rec["grad_skip"] = "no input or no output requires grad"
        return rec
    g = torch.Generator().manual_seed(seed)
    cots = [torch.randn(outs[i].shape, generator=g, dtype=outs[i].dtype) for i in used]
    try:
        got = torch.autograd.grad([outs[i] for i in used], ins, cots, allow_unused=True)
    except Exception as e:  # noqa: BLE001 - a backward PyTorch refuses is recorded as not replayable
        rec["grad_skip"] = f"PyTorch's backward raised {type(e).__name__}: {first_line(e)}"
        return rec
    genc = Encoder()
    rec["grad"] = {"outs": used, "cot": [genc.value(c, output=True) for c in cots],
                   "grads": [genc.value(x, output=True) for x in got]}
    return rec


def record_entry(op):
    key = op.name + ("." + op.variant_test_name if op.variant_test_name else "")
    supported = op.supported_dtypes("cpu")
    dtypes = [d for d in DTYPES if getattr(torch, d) in supported]
    entry = {"key": key, "name": op.name, "variant": op.variant_test_name, "class": type(op).__name__,
             "family": family_of(op), "aten_name": op.aten_name, "supports_autograd": bool(op.supports_autograd),
             "dtypes": dtypes, "tol": {d: list(tcomp.default_tolerances(getattr(torch, d))) for d in dtypes},
             "samples": {}, "skipped": {}, "generated": {}, "errors": [], "errors_skipped": []}
    call, why = call_of(op)
    entry["call"] = call
    if call is None:
        entry["skip"] = why
        return entry
    for d in dtypes:
        dt = getattr(torch, d)
        grads = d == "float32" and bool(op.supports_autograd)
        torch.manual_seed(seed_of(f"{key}/{d}"))
        samples, skipped, n = [], [], 0
        try:
            it = iter(op.sample_inputs("cpu", dt, requires_grad=grads))
            while len(samples) < MAX_SAMPLES[d]:
                try:
                    s = next(it)
                except StopIteration:
                    break
                seed = seed_of(f"{key}/{d}/{n}")
                n += 1
                try:
                    samples.append(record_sample(call, s, seed, grads, op.name in UNINITIALISED))
                except Unencodable as e:
                    skipped.append(f"sample {n - 1}: {e}")
        except Exception as e:  # noqa: BLE001 - a database that cannot make samples is said so
            skipped.append(f"sample_inputs raised {type(e).__name__}: {first_line(e)}")
        entry["samples"][d] = samples
        entry["skipped"][d] = skipped
        entry["generated"][d] = n
    if op.error_inputs_func is not None:
        torch.manual_seed(seed_of(f"{key}/errors"))
        try:
            for i, ei in enumerate(op.error_inputs("cpu")):
                if i >= MAX_ERRORS:
                    entry["errors_skipped"].append(f"error input {i} and later: more than {MAX_ERRORS}")
                    break
                s = ei.sample_input
                try:
                    enc = Encoder()
                    rec = {"in": enc.value(s.input), "args": enc.value(tuple(s.args)),
                           "kwargs": enc.value(dict(s.kwargs)), "seed": seed_of(f"{key}/errors/{i}"),
                           "expected_type": getattr(ei.error_type, "__name__", str(ei.error_type))}
                except Unencodable as e:
                    entry["errors_skipped"].append(f"error input {i}: {e}")
                    continue
                torch.manual_seed(rec["seed"])
                try:
                    invoke(call, s.input, s.args, s.kwargs)
                except Exception as e:  # noqa: BLE001 - the exception is what is recorded
                    rec["type"], rec["message"] = type(e).__name__, first_line(e)
                    entry["errors"].append(rec)
                    continue
                entry["errors_skipped"].append(f"error input {i}: PyTorch raised nothing")
        except Exception as e:  # noqa: BLE001
            entry["errors_skipped"].append(f"error_inputs raised {type(e).__name__}: {first_line(e)}")
    return entry


def main(argv):
    if len(argv) < 2:
        raise SystemExit("usage: opinfo.py OUTDIR [FAMILY ...]")
    if os.environ.get("PYTHONHASHSEED") != "0":
        # some sample_inputs iterate over sets of strings (meshgrid's indexing): a fixed hash seed
        # gives them one order every run
        os.execve(sys.executable, [sys.executable, *argv], {**os.environ, "PYTHONHASHSEED": "0"})
    outdir, wanted = argv[1], set(argv[2:])
    torch.set_num_threads(1)
    by_family = {}
    for op in op_db:
        by_family.setdefault(family_of(op), []).append(op)
    for fam in sorted(by_family):
        if wanted and fam not in wanted:
            continue
        t0 = time.time()
        entries = [record_entry(op) for op in by_family[fam]]
        tolerances = {d: list(tcomp.default_tolerances(getattr(torch, d))) for d in DTYPES}
        text = json.dumps({"torch": torch.__version__, "family": fam, "tolerances": tolerances, "entries": entries},
                          separators=(",", ":"))
        with open(f"{outdir}/{fam}.json.gz", "wb") as f:
            with gzip.GzipFile(fileobj=f, mode="wb", mtime=0, compresslevel=9) as g:
                g.write(text.encode())
        ns = sum(len(v) for e in entries for v in e["samples"].values())
        nk = sum(len(v) for e in entries for v in e["skipped"].values())
        ne = sum(len(e["errors"]) for e in entries)
        print(f"{fam}: {len(entries)} entries, {ns} samples, {nk} skipped, {ne} error inputs "
              f"({time.time() - t0:.0f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv)
