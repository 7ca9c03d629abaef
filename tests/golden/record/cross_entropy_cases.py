"""F.cross_entropy in every form PyTorch 2.6 has (class indices with weights, ignore_index and
label smoothing; class-probability targets with weights and smoothing; each reduction; 1-D input),
the misuse errors of cross_entropy and SGD, recorded for tests/test_cross_entropy.c.

Every case seeds torch.manual_seed(0) and draws its inputs in the order written, so ctorch (whose
random numbers equal PyTorch's) rebuilds them. "fwd" / "bwd" are the str(func) lists a logging
dispatch mode saw during the forward call and during backward of the loss (summed first when it is
not a scalar); "out" is the flattened loss and "grad" the input's gradient. Error cases keep the
exception's type name and message."""
import json, sys
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

class Log(TorchDispatchMode):
    def __init__(self): super().__init__(); self.calls = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.calls.append(str(func)); return func(*args, **(kwargs or {}))

flat = lambda t: t.detach().double().flatten().tolist()
cases = {}

def run(name, make, **kw):
    torch.manual_seed(0)
    x, y, w = make()
    x.requires_grad_()
    f, b = Log(), Log()
    with f:
        loss = F.cross_entropy(x, y, weight=w, **kw)
    with b:
        (loss if loss.dim() == 0 else loss.sum()).backward()
    cases[name] = {"kw": kw, "fwd": f.calls, "bwd": b.calls, "out": flat(loss), "grad": flat(x.grad)}

def err(name, fn):
    torch.manual_seed(0)
    try:
        fn()
        cases[name] = {"error": None}
    except Exception as e:
        cases[name] = {"error": type(e).__name__, "message": str(e)}

idx = lambda: (torch.randn(6, 4), torch.tensor([0, 2, 1, 2, 3, 0]), None)
idx_w = lambda: (torch.randn(6, 4), torch.tensor([0, 2, 1, 2, 3, 0]), torch.rand(4))
prob = lambda: (torch.randn(6, 4), torch.rand(6, 4), None)
prob_w = lambda: (torch.randn(6, 4), torch.rand(6, 4), torch.rand(4))
one_d = lambda: (torch.randn(5), torch.tensor(3), None)

run("index_mean", idx)
run("index_sum", idx, reduction="sum")
run("index_none", idx, reduction="none")
run("index_weight_mean", idx_w)
run("index_weight_none", idx_w, reduction="none")
run("index_ignore_mean", idx, ignore_index=2)
run("index_weight_ignore_mean", idx_w, ignore_index=2)
run("smooth_mean", idx, label_smoothing=0.1)
run("smooth_sum", idx, label_smoothing=0.25, reduction="sum")
run("smooth_none", idx, label_smoothing=0.1, reduction="none")
run("smooth_ignore_mean", idx, label_smoothing=0.1, ignore_index=2)
run("smooth_weight_mean", idx_w, label_smoothing=0.1)
run("smooth_weight_ignore_mean", idx_w, label_smoothing=0.3, ignore_index=0)
run("smooth_weight_none", idx_w, label_smoothing=0.1, reduction="none")
run("smooth_one", idx, label_smoothing=1.0)
run("prob_mean", prob)
run("prob_sum", prob, reduction="sum")
run("prob_none", prob, reduction="none")
run("prob_weight_mean", prob_w)
run("prob_smooth_mean", prob, label_smoothing=0.2)
run("prob_weight_smooth_none", prob_w, label_smoothing=0.2, reduction="none")
run("one_d_mean", one_d)
run("one_d_smooth", one_d, label_smoothing=0.1)

x = lambda: torch.randn(6, 4)
err("float_index_target", lambda: F.cross_entropy(x(), torch.tensor([0., 2, 1, 2, 3, 0])))
err("int32_index_target", lambda: F.cross_entropy(x(), torch.tensor([0, 2, 1, 2, 3, 0], dtype=torch.int32)))
err("target_too_big", lambda: F.cross_entropy(x(), torch.tensor([0, 2, 1, 5, 3, 0])))
err("target_negative", lambda: F.cross_entropy(x(), torch.tensor([0, 2, -1, 2, 3, 0])))
err("smooth_target_too_big", lambda: F.cross_entropy(x(), torch.tensor([0, 2, 1, 5, 3, 0]), label_smoothing=0.1))
err("batch_mismatch", lambda: F.cross_entropy(x(), torch.tensor([0, 2, 1, 2, 3])))
err("smooth_batch_mismatch", lambda: F.cross_entropy(x(), torch.tensor([0, 2, 1, 2, 3]), label_smoothing=0.1))
err("multi_target", lambda: F.cross_entropy(x(), torch.zeros(6, 2, dtype=torch.long)))
err("prob_int_target", lambda: F.cross_entropy(x(), torch.zeros(6, 4, dtype=torch.long)))
err("prob_ignore_index", lambda: F.cross_entropy(x(), torch.rand(6, 4), ignore_index=1))
err("smoothing_too_big", lambda: F.cross_entropy(x(), torch.tensor([0, 2, 1, 2, 3, 0]), label_smoothing=1.5))
err("prob_smoothing_too_big", lambda: F.cross_entropy(x(), torch.rand(6, 4), label_smoothing=1.5))
err("weight_wrong_size", lambda: F.cross_entropy(x(), torch.tensor([0, 2, 1, 2, 3, 0]), weight=torch.rand(3)))
err("prob_weight_wrong_size", lambda: F.cross_entropy(x(), torch.rand(6, 4), weight=torch.rand(3)))
err("scalar_input", lambda: F.cross_entropy(torch.tensor(1.0), torch.tensor(0)))
err("prob_shape_mismatch", lambda: F.cross_entropy(x(), torch.rand(6, 3)))

def sgd_non_leaf():
    w = torch.randn(3, requires_grad=True)
    torch.optim.SGD([w * 2], lr=0.1)
err("sgd_non_leaf", sgd_non_leaf)
err("sgd_negative_lr", lambda: torch.optim.SGD([torch.randn(3, requires_grad=True)], lr=-0.1))
err("sgd_negative_momentum", lambda: torch.optim.SGD([torch.randn(3, requires_grad=True)], lr=0.1, momentum=-0.5))
err("sgd_negative_weight_decay", lambda: torch.optim.SGD([torch.randn(3, requires_grad=True)], lr=0.1, weight_decay=-1.0))
err("sgd_nesterov_no_momentum", lambda: torch.optim.SGD([torch.randn(3, requires_grad=True)], lr=0.1, nesterov=True))
err("sgd_nesterov_dampening", lambda: torch.optim.SGD([torch.randn(3, requires_grad=True)], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True))
err("sgd_empty", lambda: torch.optim.SGD([], lr=0.1))

json.dump({"torch": torch.__version__, "cases": cases}, open(sys.argv[1], "w"), indent=1)
