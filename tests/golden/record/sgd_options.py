"""torch.optim.SGD with each option, recorded with PyTorch 2.6: parameters after three steps of the
seed model (MLP 16->32->4, cross_entropy; manual_seed(0), batch from Generator seed 1) and the
dispatch-mode log of the second step (momentum buffers exist by then), plus option errors."""
import json, sys
import torch, torch.nn as nn, torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

class Log(TorchDispatchMode):
    def __init__(self): super().__init__(); self.calls = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.calls.append(str(func)); return func(*args, **(kwargs or {}))

CONFIGS = {
    "plain": dict(lr=0.1),
    "momentum": dict(lr=0.1, momentum=0.9),
    "dampening": dict(lr=0.1, momentum=0.9, dampening=0.1),
    "nesterov": dict(lr=0.1, momentum=0.9, nesterov=True),
    "weight_decay": dict(lr=0.1, weight_decay=0.01),
    "maximize": dict(lr=0.1, maximize=True),
    "everything": dict(lr=0.05, momentum=0.8, weight_decay=0.02, nesterov=True),
    "zero_grad_keep": dict(lr=0.1, momentum=0.5),
}
out = {"torch": torch.__version__, "configs": {}, "errors": {}}
g = torch.Generator().manual_seed(1)
x = torch.randn(8, 16, generator=g); y = torch.randint(0, 4, (8,), generator=g)
for name, kw in CONFIGS.items():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
    opt = torch.optim.SGD(model.parameters(), **kw)
    params, log = [], None
    for step in range(3):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        if step == 1:
            with Log() as l:
                opt.step()
            log = l.calls
        else:
            opt.step()
        params.append([p.detach().flatten().tolist() for p in model.parameters()])
        if name == "zero_grad_keep":
            with Log() as lz:
                opt.zero_grad(set_to_none=False)
            if step == 1: out.setdefault("zero_grad_log", lz.calls)
        else:
            opt.zero_grad()
    out["configs"][name] = {"options": kw, "params": params, "step_log": log}
def err(tag, f):
    try: f(); out["errors"][tag] = None
    except Exception as e: out["errors"][tag] = [type(e).__name__, str(e)]
p = torch.randn(3, requires_grad=True)
err("lr", lambda: torch.optim.SGD([p], lr=-0.1))
err("momentum", lambda: torch.optim.SGD([p], lr=0.1, momentum=-1.0))  # a float, as the C options are
err("weight_decay", lambda: torch.optim.SGD([p], lr=0.1, weight_decay=-1.0))
err("nesterov", lambda: torch.optim.SGD([p], lr=0.1, nesterov=True))
err("non_leaf", lambda: torch.optim.SGD([p * 2], lr=0.1))
json.dump(out, open(sys.argv[1], "w"))
print(json.dumps(out["errors"], indent=1)); print(out["configs"]["everything"]["step_log"]); print(out.get("zero_grad_log"))
