"""torch.optim.AdamW with each CPU option, and torch.nn.utils.clip_grad_norm_, recorded with PyTorch 2.6
for tests/test_adamw.c. The model is the seed MLP (16 -> 32 -> 4, manual_seed(0); batch from a
generator seeded 1, cross_entropy).

  configs[name]: options, parameters after each of 3 steps (flattened), the dispatch-mode log of
                 the second step (state exists by then), and for "zero_grad_keep" the log of
                 zero_grad(set_to_none=False)
  clip[name]:    clip_grad_norm_ on the gradients of one backward: the total norm, the gradients
                 after clipping, and for "default" the dispatch-mode log
  errors[tag]:   [exception type, message] of bad constructor options

Usage (from tests/golden):  torchref record/adamw_clip.py torch-2.6/adamw_clip.json
"""
import json, sys
import torch, torch.nn as nn, torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.calls.append(str(func))
        return func(*args, **(kwargs or {}))


def model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))


g = torch.Generator().manual_seed(1)
x = torch.randn(8, 16, generator=g)
y = torch.randint(0, 4, (8,), generator=g)

CONFIGS = {
    "default": dict(lr=0.01),
    "amsgrad": dict(lr=0.01, amsgrad=True),
    "maximize": dict(lr=0.01, maximize=True),
    "no_weight_decay": dict(lr=0.01, weight_decay=0.0),
    "eps_betas": dict(lr=0.02, betas=(0.8, 0.99), eps=1e-3),
    "everything": dict(lr=0.005, betas=(0.85, 0.9), eps=1e-6, weight_decay=0.3, amsgrad=True, maximize=True),
    "groups": dict(lr=0.01, betas=(0.9, 0.95)),
    "zero_grad_keep": dict(lr=0.01),
}
out = {"torch": torch.__version__, "configs": {}, "clip": {}, "errors": {}}
for name, kw in CONFIGS.items():
    m = model()
    if name == "groups":
        ps = list(m.parameters())
        opt = torch.optim.AdamW([{"params": [ps[0], ps[2]], "weight_decay": 0.1},
                                 {"params": [ps[1], ps[3]], "weight_decay": 0.0, "lr": 0.05}], **kw)
    else:
        opt = torch.optim.AdamW(m.parameters(), **kw)
    params, log, zlog = [], None, None
    for step in range(3):
        F.cross_entropy(m(x), y).backward()
        if step == 1:
            with Log() as l:
                opt.step()
            log = l.calls
        else:
            opt.step()
        params.append([p.detach().flatten().tolist() for p in m.parameters()])
        if name == "zero_grad_keep":
            with Log() as lz:
                opt.zero_grad(set_to_none=False)
            if step == 1:
                zlog = lz.calls
        else:
            opt.zero_grad()
    out["configs"][name] = {"options": {k: list(v) if isinstance(v, tuple) else v for k, v in kw.items()},
                            "params": params, "step_log": log}
    if zlog is not None:
        out["configs"][name]["zero_grad_log"] = zlog

CLIPS = {
    "default": dict(max_norm=0.5),
    "no_clipping": dict(max_norm=1e6),
    "inf_norm": dict(max_norm=0.1, norm_type=float("inf")),
    "l1_norm": dict(max_norm=0.25, norm_type=1.0),
    "skip_no_grad": dict(max_norm=0.2),
}
for name, kw in CLIPS.items():
    m = model()
    F.cross_entropy(m(x), y).backward()
    ps = list(m.parameters())
    if name == "skip_no_grad":
        ps[1].grad = None
    log = None
    if name == "default":
        with Log() as l:
            total = torch.nn.utils.clip_grad_norm_(ps, **kw)
        log = l.calls
    else:
        total = torch.nn.utils.clip_grad_norm_(ps, **kw)
    opts = {k: ("inf" if v == float("inf") else v) for k, v in kw.items()}  # JSON has no infinity
    out["clip"][name] = {"options": opts, "total": total.item(),
                         "grads": [None if p.grad is None else p.grad.flatten().tolist() for p in ps], "log": log}
with Log() as l:
    total = torch.nn.utils.clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0)
out["clip"]["no_grads"] = {"total": total.item(), "log": l.calls}
m = model()
F.cross_entropy(m(x), y).backward()
ps = list(m.parameters())
ps[0].grad[0, 0] = float("inf")
try:
    torch.nn.utils.clip_grad_norm_(ps, 1.0, error_if_nonfinite=True)
except Exception as e:
    out["clip"]["nonfinite_error"] = [type(e).__name__, str(e)]


def err(tag, f):
    try:
        f()
        out["errors"][tag] = None
    except Exception as e:
        out["errors"][tag] = [type(e).__name__, str(e)]


p = torch.randn(3, requires_grad=True)
q = torch.randn(3, requires_grad=True)
err("lr", lambda: torch.optim.AdamW([p], lr=-0.1))
err("eps", lambda: torch.optim.AdamW([p], eps=-1e-8))
err("beta0", lambda: torch.optim.AdamW([p], betas=(1.0, 0.999)))
err("beta1", lambda: torch.optim.AdamW([p], betas=(0.9, -0.5)))
err("weight_decay", lambda: torch.optim.AdamW([p], weight_decay=-0.01))
err("empty", lambda: torch.optim.AdamW([]))
err("non_leaf", lambda: torch.optim.AdamW([p * 2]))
err("two_groups", lambda: torch.optim.AdamW([{"params": [p, q]}, {"params": [q]}]))
json.dump(out, open(sys.argv[1], "w"))
print(json.dumps(out["errors"], indent=1))
print(out["configs"]["everything"]["step_log"][:24])
print(out["clip"]["default"]["log"], out["clip"]["no_grads"]["log"], out["clip"].get("nonfinite_error"))
