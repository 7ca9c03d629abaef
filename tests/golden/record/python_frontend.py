"""Python API cases for ctorch's front-end, recorded with PyTorch 2.6 (python_frontend.out) and
replayed by `ctorch python` (tests/python/check_frontend.py compares the two outputs line by line).
Everything printed is deterministic: no addresses, no times."""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_map


def show(label, fn):
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - the exception kind and message are what is recorded
        print(f"{label}: {type(e).__name__}: {e}")
        return
    print(f"{label}: {r}")


class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        shown = tree_map(lambda a: f"T{list(a.shape)}" if isinstance(a, torch.Tensor) else a, (args, kwargs))
        self.calls.append(f"{func} {shown[0]} {shown[1]}")
        return func(*args, **kwargs)


def logged(fn):
    with Log() as m:
        fn()
    return m.calls


print("== printing")
torch.manual_seed(0)
x = torch.randn(2, 3)
print(x)
print(repr(torch.zeros(3, dtype=torch.long)))
print(torch.ones(2, 2, dtype=torch.float64))
print(torch.zeros(2, dtype=torch.bool))
print(torch.full((2,), 1.5, dtype=torch.float16))
print(torch.tensor([[1, 2], [3, 4]]))
print(torch.tensor(3.25))
print(torch.tensor([]))
print(x.shape, x.size(), x.size(1), x.stride(), x.dtype, x.device, x.dim(), x.numel())
print(torch.float32, torch.int64, torch.bool, torch.float16, torch.bfloat16, torch.float64)
print(torch.Size([2, 3]), torch.Size([]))
y = torch.randn(3, requires_grad=True)
print(y)
print(y * 2)

print("== factories")
g = torch.Generator().manual_seed(7)
print(g.initial_seed())
print(torch.randn(2, 2, generator=g))
print(torch.randint(0, 10, (5,), generator=g))
print(torch.rand(3, generator=g))
print(torch.randn(2, generator=g, dtype=torch.float64))
torch.manual_seed(3)
print(torch.initial_seed(), torch.randn(3))
print(torch.empty(2, 3).shape, torch.zeros(2, 3).sum(), torch.ones(4).sum())
print(torch.zeros_like(x), torch.ones_like(x, dtype=torch.long))
print(torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([True, False]), torch.tensor([[1], [2]], dtype=torch.float32))
print(torch.full((2, 2), 7))

print("== operators and methods")
a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
b = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -2.0]])
print(a + b, a - b, a * b, a / 2)
print(a + 1, 2 * a, a * 0.5, -a, a @ b.T)
print(torch.add(a, b, alpha=2), a.add(b, alpha=-1), torch.mul(a, 3))
print(a.t(), a.transpose(0, 1).shape, a.permute(1, 0).stride(), a.T.is_contiguous())
print(a.view(3, 2), a.view(-1), a.reshape(6, 1).shape, a.flatten())
print(a.unsqueeze(0).shape, a.unsqueeze(-1).shape, a.unsqueeze(1).squeeze(1).shape)
print(a.sum(), a.sum(0), a.sum(1, keepdim=True), a.sum(dim=(0, 1)))
print(b.relu(), torch.relu(b), F.relu(b))
print(F.log_softmax(a, dim=1))
print(a.masked_fill(b.eq(0), -1.0), a == 2.0, a.eq(5))
print(a.gather(1, torch.tensor([[0], [2]])), a.clone(), a.detach().requires_grad)
print(a.expand(2, 2, 3).shape, a[0].expand(4, 3).stride())
print(a.to(torch.float64).dtype, a.half().dtype, a.long(), a.float().dtype, a.to(torch.int64).dtype)
print(a.contiguous().is_contiguous(), a.t().contiguous().stride(), a.numel())
print(torch.matmul(a, b.t()), torch.mm(a, b.t()), torch.addmm(torch.ones(2), a, b.t(), beta=0.5, alpha=2))
print(a.tolist(), torch.tensor(2.5).item(), torch.tensor(7).item(), torch.tensor(True).item())
print(float(torch.tensor(1.5)), int(torch.tensor(3)), bool(torch.tensor(0.0)), len(a))
c = a.clone()
c += 1
c *= 2
c -= b
c /= 4
print(c)
c.add_(b, alpha=3)
c.mul_(0.5)
c.zero_()
print(c, c.fill_(2.5), c.copy_(a))

print("== indexing")
m = torch.tensor([[0., 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]])
print(m[0], m[-1], m[:, 1], m[1:3], m[..., 0], m[None].shape, m[0, :2], m[1, -1], m[::2], m[:, 1::2])
print(m[0:10], m[5:], m[:], m[...].shape)
m2 = m.clone()
m2[0, 0] = 100.0
m2[1] = torch.tensor([1.0, 1.0, 1.0, 1.0])
print(m2)
show("index out of range", lambda: m[3])
show("too many indices", lambda: m[0, 0, 0])
show("0-dim index", lambda: torch.tensor(1.0)[0])

print("== autograd")
torch.manual_seed(1)
w = torch.randn(3, 2, requires_grad=True)
inp = torch.randn(4, 3)
out = (inp @ w).relu().sum()
print(out.grad_fn.name(), type(out.grad_fn).__name__, out.requires_grad, out.is_leaf, w.is_leaf)
fn = out.grad_fn
names = []
while fn is not None:
    names.append(type(fn).__name__)
    fn = fn.next_functions[0][0] if fn.next_functions else None
print(names)
print([(type(n).__name__ if n is not None else None, i) for n, i in (inp @ w).grad_fn.next_functions])
out.backward()
print(w.grad)
show("backward twice", lambda: out.backward())
z = w * 2
show("non-scalar backward", lambda: z.backward())
z.backward(torch.ones(3, 2))
print(w.grad)
w.grad = None
print(w.grad)
q = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
r = q[1:] * q[:2]
r.sum().backward()
print(q.grad, r.grad_fn.name())
s = torch.tensor([1.0, 2.0], requires_grad=True)
(s[0] * 3).backward()
print(s.grad)
show("int requires_grad", lambda: torch.tensor([1, 2]).requires_grad_())
show("non-leaf requires_grad", lambda: setattr(w * 2, "requires_grad", False))
with torch.no_grad():
    nz = w * 2
print(nz.requires_grad, nz.grad_fn, torch.is_grad_enabled())
with torch.inference_mode():
    it = torch.ones(2)
    print(it.is_inference(), torch.is_inference_mode_enabled(), torch._C._dispatch_keys(it))
print(torch._C._dispatch_keys(w), torch._C._dispatch_tls_local_exclude_set())
with torch.enable_grad():
    print(torch.is_grad_enabled())


@torch.no_grad()
def f_no_grad(t):
    return t * 2


print(f_no_grad(w).requires_grad)
torch.set_grad_enabled(False)
print(torch.is_grad_enabled(), (w * 2).requires_grad)
torch.set_grad_enabled(True)
ta = torch.tensor([1.0], requires_grad=True)
tb = torch.tensor([2.0], requires_grad=True)
torch.autograd.backward([ta * 3, tb * 4], [torch.ones(1), torch.ones(1)])
print(ta.grad, tb.grad)

print("== errors")
show("mm shapes", lambda: torch.mm(torch.ones(2, 3), torch.ones(2, 3)))
show("mm type", lambda: torch.mm(torch.ones(2, 3), 3))
show("add broadcast", lambda: torch.ones(2, 3) + torch.ones(4))
show("view", lambda: torch.ones(2, 3).t().view(6))
show("size dim", lambda: torch.ones(2, 3).size(5))
show("item", lambda: torch.ones(2, 3).item())
show("bool", lambda: bool(torch.ones(2)))
show("len 0-d", lambda: len(torch.tensor(1.0)))
show("randn size", lambda: torch.randn(-1))
show("cross_entropy target", lambda: F.cross_entropy(torch.randn(3, 4), torch.tensor([0, 1])))
show("linear shapes", lambda: F.linear(torch.ones(2, 3), torch.ones(4, 5)))
show("select dim", lambda: torch.ones(2).select(1, 0))
show("allclose dtype", lambda: torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64)))

print("== dispatch modes")
torch.manual_seed(42)
X = torch.randn(2, 4, requires_grad=True)
W = torch.randn(3, 4, requires_grad=True)
B = torch.randn(3, requires_grad=True)
for line in logged(lambda: F.linear(X, W, B)):
    print(" ", line)
for line in logged(lambda: (X * 2 + 1).sum(1, keepdim=True)):
    print(" ", line)
for line in logged(lambda: torch.add(X, X, alpha=0.5)):
    print(" ", line)
for line in logged(lambda: X.detach()[0, 1:3]):
    print(" ", line)
for line in logged(lambda: torch.zeros(2, dtype=torch.float64)):
    print(" ", line)
for line in logged(lambda: torch.tensor([1.0, 2.0])):
    print(" ", line)
for line in logged(lambda: F.cross_entropy(X, torch.tensor([1, 3]))):
    print(" ", line)
for line in logged(lambda: X.to(torch.float16)):
    print(" ", line)
for line in logged(lambda: F.linear(X, W, B).sum().backward()):
    print(" ", line)


class Peek(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if not hasattr(self, "seen"):
            self.seen = func
            self.keys = (torch._C._dispatch_tls_local_include_set(), torch._C._dispatch_tls_local_exclude_set())
        return func(*args, **(kwargs or {}))


Wt = W.t()
with Peek() as p:
    torch.mm(X, Wt)
func = p.seen
print(str(func), str(func.overloadpacket), func.__name__, func.name())
print(func._schema)
print(func.overloadpacket.__name__, func._overloadname, func is torch.ops.aten.mm.default, func(X, Wt).shape)
print([a.name for a in func._schema.arguments], [str(r.type) for r in func._schema.returns])
print(p.keys)
print(torch.ops.aten.add.Tensor(torch.ones(2), torch.ones(2), alpha=3))
print(torch.ops.aten.sum(torch.ones(2, 2)), torch.ops.aten.sum.dim_IntList(torch.ones(2, 2), [0]))


class Outer(TorchDispatchMode):
    def __init__(self, tag, log):
        super().__init__()
        self.tag, self.log = tag, log

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.log.append(f"{self.tag}:{func}")
        return func(*args, **(kwargs or {}))


nested = []
with Outer("outer", nested):
    with Outer("inner", nested):
        torch.ones(2) * 3
print(nested)

print("== function modes")


class FnLog(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.calls.append(getattr(func, "__name__", str(func)))
        return func(*args, **(kwargs or {}))


with FnLog() as fl:
    F.linear(X, W, B)
    F.cross_entropy(X, torch.tensor([1, 3]))
print(fl.calls)

print("== subclasses")


class LoggingTensor(torch.Tensor):
    __slots__ = ["elem", "log"]

    @staticmethod
    def __new__(cls, elem, log, requires_grad=False):
        r = torch.Tensor._make_wrapper_subclass(cls, elem.size(), strides=elem.stride(), storage_offset=elem.storage_offset(),
                                                dtype=elem.dtype, device=elem.device, requires_grad=requires_grad)
        r.elem = elem
        r.log = log
        return r

    def __repr__(self):
        return f"LoggingTensor({self.elem!r})"

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        log = []
        def unwrap(t):
            if isinstance(t, LoggingTensor):
                log.append(t.log)
                return t.elem
            return t
        out = func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {}))
        log[0].append(f"{func} {[t.__name__ for t in types]}")
        return tree_map(lambda t: LoggingTensor(t, log[0]) if isinstance(t, torch.Tensor) else t, out)


sub_log = []
lt = LoggingTensor(torch.tensor([1.0, -2.0, 3.0]), sub_log, requires_grad=True)
print(torch._C._dispatch_keys(lt), lt.shape, lt.dtype, lt.requires_grad, type(lt).__name__)
res = (lt * 2).relu().sum()
print(type(res).__name__, res, res.grad_fn.name())
res.backward()
print(type(lt.grad).__name__, lt.grad, lt.grad.elem)
print(sub_log)

print("== pytree")
print(tree_map(lambda v: v * 10, {"a": [1, (2, 3)], "b": [], "c": 4}))
print(tree_map(lambda v: v is None, (None, [None, 1])))

print("== nn")
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2, bias=False))
print(model)
print([(n, list(p.shape)) for n, p in model.named_parameters()])
print(len(list(model.parameters())), model.training, model.eval().training, model[0].training, model.train().training)
print(model[0].weight)
print(type(model[0].weight).__name__, isinstance(model[0].weight, torch.Tensor), model[0].bias.requires_grad)
print(model(torch.ones(1, 4)))
print(nn.Linear(2, 2).extra_repr())

print("== optim")
torch.manual_seed(5)
lin = nn.Linear(3, 2)
opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9, weight_decay=0.01, nesterov=True)
for _ in range(2):
    opt.zero_grad()
    F.cross_entropy(lin(torch.ones(4, 3)), torch.tensor([0, 1, 1, 0])).backward()
    opt.step()
print(lin.weight, lin.bias)
with Log() as m:
    opt.step()
for line in m.calls:
    print(" ", line)
show("sgd lr", lambda: torch.optim.SGD(lin.parameters(), lr=-1))

print("== allclose")
print(torch.allclose(torch.ones(3), torch.ones(3) + 1e-7), torch.allclose(torch.ones(3), torch.ones(3) * 1.01),
      torch.allclose(torch.ones(2, 3), torch.ones(3)), torch.allclose(torch.tensor([1.0]), torch.tensor([1.1]), atol=0.2))

print("== profiler")
with torch.autograd.profiler.profile(record_shapes=True) as prof:
    torch.mm(torch.ones(2, 3), torch.ones(3, 2))
evs = prof.function_events
print([(e.name, e.input_shapes, e.cpu_parent.name if e.cpu_parent else None) for e in evs])
print(sorted((r.key, r.count) for r in prof.key_averages()))
