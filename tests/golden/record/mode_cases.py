"""Ordered TorchDispatchMode logs, forward values and gradients for small programs, recorded with
PyTorch 2.6 for tests/test_mode_cases.c (which runs the same programs in ctorch).

Every case seeds torch.manual_seed(0) and draws its inputs in the order written, so ctorch (whose
random numbers equal PyTorch's) rebuilds identical inputs. "log" is the list of str(func) a
logging dispatch mode saw while the case's logged part ran; "out" the flattened forward result;
"grads" the .grad of each leaf in order."""
import json, sys
import torch
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode

class Log(TorchDispatchMode):
    def __init__(self): super().__init__(); self.calls = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.calls.append(str(func)); return func(*args, **(kwargs or {}))

def rg(*s): return torch.randn(*s).requires_grad_()
flat = lambda t: t.detach().double().flatten().tolist()
cases = {}
def case(fn):
    torch.manual_seed(0)
    log = Log()
    out, leaves = fn(log)
    cases[fn.__name__] = {"log": log.calls, "out": flat(out),
                          "grads": [flat(l.grad) if l.grad is not None else None for l in leaves]}
    return fn

@case
def linear_3d(log):
    x, W, b = rg(2, 3, 8), rg(5, 8), rg(5)
    with log:
        y = F.linear(x, W, b); y.sum().backward()
    return y, [x, W, b]

@case
def linear_no_bias(log):
    x, W = rg(4, 8), rg(5, 8)
    with log:
        y = F.linear(x, W); y.sum().backward()
    return y, [x, W]

@case
def linear_1d(log):
    x, W, b = rg(8), rg(5, 8), rg(5)
    with log:
        y = F.linear(x, W, b); y.sum().backward()
    return y, [x, W, b]

@case
def linear_inference_mode(log):
    x, W, b = torch.randn(4, 8), torch.randn(5, 8), torch.randn(5)
    with torch.inference_mode():
        with log:
            y = F.linear(x, W, b)
    return y, []

@case
def relu_cross_entropy(log):
    x, W1, b1, W2, b2 = torch.randn(6, 8), rg(16, 8), rg(16), rg(4, 16), rg(4)
    t = torch.randint(0, 4, (6,))
    with log:
        loss = F.cross_entropy(F.linear(F.relu(F.linear(x, W1, b1)), W2, b2), t); loss.backward()
    return loss, [W1, b1, W2, b2]

@case
def second_backward_accumulates(log):
    x, W, b = rg(3, 8), rg(5, 8), rg(5)
    F.linear(x, W, b).sum().backward()
    with log:
        y = F.linear(x, W, b); y.sum().backward()
    return y, [x, W, b]

@case
def retain_graph(log):
    x, W, b = rg(3, 8), rg(5, 8), rg(5)
    with log:
        y = F.relu(F.linear(x, W, b)).sum(); y.backward(retain_graph=True); y.backward()
    return y, [x, W, b]

@case
def numpy_T_addmm(log):
    x, W, b = rg(3, 8), rg(5, 8), rg(5)
    with log:
        y = torch.addmm(b, x, W.T); y.sum().backward()
    return y, [x, W, b]

@case
def matmul_3d_2d(log):
    x, W = rg(2, 3, 8), rg(8, 5)
    with log:
        y = x @ W; y.sum().backward()
    return y, [x, W]

@case
def matmul_1d_2d(log):
    v, W = rg(8), rg(8, 5)
    with log:
        y = v @ W; y.sum().backward()
    return y, [v, W]

@case
def matmul_t_add(log):
    x, W, b = rg(3, 8), rg(5, 8), rg(5)
    with log:
        y = (x @ W.T) + b; y.sum().backward()
    return y, [x, W, b]

@case
def sum_dim(log):
    x = rg(4, 6)
    with log:
        y = x.sum(1); y.sum().backward()
    return y, [x]

@case
def mul_div_sub_broadcast(log):
    a, c = rg(3, 4), rg(4)
    with log:
        y = (a * c - a / c).sum(); y.backward()
    return y, [a, c]

@case
def log_softmax_nll_weighted(log):
    x = rg(5, 3)
    t = torch.randint(0, 3, (5,))
    w = torch.rand(3)
    with log:
        loss = F.nll_loss(F.log_softmax(x, 1), t, weight=w, ignore_index=1); loss.backward()
    return loss, [x]

@case
def detach_and_clone(log):
    x = rg(3, 4)
    with log:
        d = x.detach(); c = x.clone(); y = (c + d).sum(); y.backward()
    return y, [x]

@case
def view_reshape(log):
    x = rg(4, 6)
    with log:
        y = x.view(2, 12).reshape(3, 8).t(); y.sum().backward()
    return y, [x]

@case
def to_float64(log):
    x = rg(3, 4)
    with log:
        y = x.to(torch.float64); y.sum().backward()
    return y, [x]

@case
def expand_backward(log):
    b = rg(3, 1)
    with log:
        y = b.expand(3, 4); y.sum().backward()
    return y, [b]

@case
def neg_mul_scalar(log):
    x = rg(5)
    with log:
        y = (-x * 3.0 + x / 2.0).sum(); y.backward()
    return y, [x]

@case
def no_grad_then_backward(log):
    x, W, b = rg(3, 8), rg(5, 8), rg(5)
    with log:
        with torch.no_grad():
            z = F.linear(x, W, b)
        y = F.linear(x, W, b); (y * z).sum().backward()
    return y, [x, W, b]

@case
def multi_root_backward(log):
    x, W, b = rg(3, 8), rg(5, 8), rg(5)
    with log:
        y = F.linear(x, W, b); a = y.sum(); c = (y * y).sum()
        torch.autograd.backward([a, c])
    return y, [x, W, b]

@case
def multi_root_leaf_and_grads(log):
    x, w = rg(4), rg(4)
    with log:
        y = x * w
        torch.autograd.backward([y, x], [torch.ones(4), torch.full((4,), 2.0)])
    return y, [x, w]

json.dump({"torch": torch.__version__, "cases": cases}, open(sys.argv[1], "w"), indent=1)
print(len(cases), "cases")
