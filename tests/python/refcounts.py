"""Ownership and state checks for the Python front-end, run with `ctorch python` (it fails with a
non-zero exit and says which check failed):
  - a tensor is freed when Python drops its last reference, and a tensor kept alive only by ctorch
    (a saved tensor, a .grad) keeps its Python object and attributes;
  - training steps (plain, under a dispatch mode, with a wrapper subclass, under the profiler) leave
    no ctorch tensors, storages, autograd nodes or Python objects behind: the counts after many
    steps equal those after the first few;
  - an exception raised inside __torch_dispatch__ / __torch_function__ reaches the caller as
    itself and leaves the mode stacks, the dispatch key sets and grad mode as they were."""
import gc
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_map

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def live():
    gc.collect()
    return torch._C._live_tensors()


# ---- one tensor's life ----
base = live()
t = torch.randn(100, 100)
check(live()[0] == base[0] + 1, "a new tensor is live")
del t
check(live() == base, "dropping the last Python reference frees the tensor and its storage")

w = torch.randn(3, requires_grad=True)
y = (w * 2).sum()
y.backward()
g = w.grad
g.tag = "kept"
del g
check(getattr(w.grad, "tag", None) == "kept", "a .grad keeps its Python object (and attributes) while ctorch holds it")
del w, y
check(live() == base, "a leaf, its grad and its graph are freed together")


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.n = 0

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.n += 1
        return func(*args, **(kwargs or {}))


class Wrapper(torch.Tensor):
    @staticmethod
    def __new__(cls, elem):
        r = torch.Tensor._make_wrapper_subclass(cls, elem.size(), dtype=elem.dtype, requires_grad=elem.requires_grad)
        r.elem = elem
        return r

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        un = lambda a: a.elem if isinstance(a, Wrapper) else a  # noqa: E731
        out = func(*tree_map(un, args), **tree_map(un, kwargs or {}))
        return tree_map(lambda a: Wrapper(a) if isinstance(a, torch.Tensor) else a, out)


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
x = torch.randn(8, 16)
y = torch.randint(0, 4, (8,))


emb, ln = nn.Embedding(10, 8), nn.LayerNorm(8)
adamw = torch.optim.AdamW(list(emb.parameters()) + list(ln.parameters()), lr=1e-3)
idx = torch.randint(0, 10, (2, 5))


def step(kind):
    opt.zero_grad()
    if kind == "adamw":
        # MiniGPT's pieces: tensor lists in and out (split, cat) under a mode, the C AdamW and clipping
        with Log():
            a, b = ln(emb(idx)).split(4, dim=2)
            F.dropout(torch.cat([a, b], dim=1), 0.1, True).sum().backward()
        nn.utils.clip_grad_norm_(list(emb.parameters()) + list(ln.parameters()), 1.0)
        adamw.step()
        adamw.zero_grad(set_to_none=True)
        return
    if kind == "mode":
        with Log():
            F.cross_entropy(model(x), y).backward()
    elif kind == "profiler":
        with torch.autograd.profiler.profile(record_shapes=True) as prof:
            F.cross_entropy(model(x), y).backward()
        prof.key_averages().table(sort_by="cpu_time_total", row_limit=5)
    elif kind == "subclass":
        wx = Wrapper(torch.randn(4, 4, requires_grad=True))
        (wx * 2).relu().sum().backward()
    else:
        F.cross_entropy(model(x), y).backward()
    opt.step()


for kind in ("plain", "mode", "subclass", "profiler", "adamw"):
    for _ in range(5):
        step(kind)
    before, objs_before = live(), len(gc.get_objects())
    for _ in range(300):
        step(kind)
    after, objs_after = live(), len(gc.get_objects())
    check(after == before and objs_after <= objs_before,
          f"300 {kind} steps: (tensors, storages, nodes) {before} -> {after}, Python objects {objs_before} -> {objs_after}")


# ---- exceptions inside handlers ----
class Boom(Exception):
    pass


def state():
    return (torch._C._len_torch_dispatch_stack(), torch._C._len_torch_function_stack(),
            str(torch._C._dispatch_tls_local_include_set()), str(torch._C._dispatch_tls_local_exclude_set()),
            torch.is_grad_enabled())


class Raise(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func is torch.ops.aten.mm.default:
            raise Boom(str(func))
        return func(*args, **(kwargs or {}))


class RaiseFn(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise Boom(getattr(func, "__name__", str(func)))


a, b = torch.randn(2, 3, requires_grad=True), torch.randn(3, 2)
s0, n0 = state(), live()
for mode, expect in ((Raise, "aten.mm.default"), (RaiseFn, "mm")):
    try:
        # no_grad outside the mode: entering it calls torch._C._set_grad_enabled, a torch
        # function a function mode sees first, as in PyTorch
        with torch.no_grad():
            with mode():
                torch.mm(a, b)
        check(False, f"{mode.__name__}: no exception")
    except Boom as e:
        check(str(e) == expect, f"{mode.__name__}: the handler's own exception arrives ({e})")
    check(state() == s0, f"{mode.__name__}: mode stacks, key sets and grad mode as before: {state()}")
    check(live() == n0, f"{mode.__name__}: nothing left alive")
try:
    with Log():
        Wrapper(torch.ones(2, 3)) @ Wrapper(torch.ones(2, 3))
    check(False, "a kernel's error through a subclass: no exception")
except RuntimeError as e:
    check(str(e) == "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)", f"a kernel's error through a subclass: {e}")
check(state() == s0, "after a subclass error: state as before")
check(torch.mm(a, b).shape == (2, 2), "ctorch still works afterwards")

if failures:
    print(f"{len(failures)} checks failed")
    sys.exit(1)
print("all checks passed")
