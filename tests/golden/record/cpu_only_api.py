"""Records what PyTorch 2.6 answers, built without CUDA, to the questions ordinary programs ask
before they compute: torch.cuda, torch.backends, torch.accelerator, the default dtype and device,
the legacy tensor types and constructors, Tensor.data, the random fills and factories (random_,
rand_like, randn_like, randint_like, randint with a generator, randperm), torch.overrides'
helpers, torch.utils.weak and torch.utils._mode_utils. tests/python/cpu_only_api.py replays every
case under ctorch (`ctorch python`) and compares.

Usage (under real PyTorch 2.6, from the project root):
    the reference tool: tests/golden/record/cpu_only_api.py tests/golden/torch-2.6/cpu_only_api.json

Each case is a piece of code run in a child forked from this process (which has imported torch
and run nothing else), in a namespace holding torch (and gc, warnings), after
torch.manual_seed(0); its last line is an expression whose value is recorded, described by
describe() (a tensor as its dtype, shape, requires_grad, legacy type and values unless the case
leaves them out), or the exception it raises (class name and message). Output: {"torch": version, "cuda": torch.version.cuda,
"cuda_available": ..., "cases": [{"code": ..., "result": ...}, ...]}."""
import gc
import json
import os
import sys
import warnings

import torch

CASES = []


def case(code, values=True):
    CASES.append((code, values))


# ---- torch.cuda ----
for expr in ["torch.cuda.is_available()", "torch.cuda.device_count()", "torch.cuda.is_initialized()",
             "torch.cuda.current_device()", "torch.cuda.get_device_name()", "torch.cuda.get_device_name(0)",
             "torch.cuda.get_device_capability()", "torch.cuda.get_device_properties(0)", "torch.cuda.synchronize()",
             "torch.cuda.manual_seed(0)", "torch.cuda.manual_seed_all(0)", "torch.cuda.manual_seed('3')",
             "torch.cuda.seed()", "torch.cuda.seed_all()", "torch.cuda.initial_seed()", "torch.cuda.empty_cache()",
             "torch.cuda.memory_allocated()", "torch.cuda.max_memory_allocated()", "torch.cuda.memory_reserved()",
             "torch.cuda.max_memory_reserved()", "torch.cuda.reset_peak_memory_stats()", "torch.cuda.memory_stats()",
             "torch.cuda.mem_get_info()", "torch.cuda.set_device(0)", "torch.cuda.set_device('cpu')",
             "torch.cuda.is_bf16_supported()", "torch.cuda.get_rng_state()", "torch.cuda.get_rng_state_all()",
             "torch.cuda.current_stream()", "torch.cuda.default_stream()", "torch.cuda.get_arch_list()",
             "torch.cuda.ipc_collect()", "torch.cuda.is_current_stream_capturing()", "torch.cuda.device(0).idx",
             "torch.version.cuda", "torch.version.hip", "torch.cuda.memory_allocated(0)",
             "torch.cuda.max_memory_allocated(0)", "torch.cuda.memory_summary()"]:
    case(expr)

# ---- a CUDA tensor ----
for expr in ["torch.ones(2).cuda()", "torch.ones(2).cuda(0)", "torch.ones(2).to('cuda')", "torch.ones(2).to('cuda:0')",
             "torch.ones(2).to(torch.device('cuda'))", "torch.ones(2).to('cuda', torch.float64)",
             "torch.zeros(2, device='cuda')", "torch.ones(2, device='cuda:0')", "torch.empty(2, device='cuda')",
             "torch.randn(2, device='cuda')", "torch.rand(2, device='cuda')", "torch.arange(3, device='cuda')",
             "torch.full((2,), 1.0, device='cuda')", "torch.tensor([1.0], device='cuda')",
             "torch.tensor([1.0], device=torch.device('cuda', 0))", "torch.ones(2).is_cuda", "torch.device('cuda')",
             "torch.device('cuda', 1)", "torch.ones(2).device", "torch.zeros_like(torch.ones(2), device='cuda')",
             "torch.ones(2).to('mps')"]:
    case(expr)

# ---- torch.backends ----
for expr in ["torch.backends.cuda.is_built()", "torch.backends.cuda.matmul.allow_tf32",
             "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction",
             "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction",
             "torch.backends.cuda.flash_sdp_enabled()", "torch.backends.cuda.mem_efficient_sdp_enabled()",
             "torch.backends.cuda.math_sdp_enabled()", "torch.backends.cuda.cudnn_sdp_enabled()",
             "torch.backends.cudnn.is_available()", "torch.backends.cudnn.enabled", "torch.backends.cudnn.benchmark",
             "torch.backends.cudnn.deterministic", "torch.backends.cudnn.allow_tf32", "torch.backends.cudnn.version()",
             "torch.backends.mps.is_available()", "torch.backends.mps.is_built()",
             "torch.backends.openmp.is_available()", "torch.backends.mkldnn.enabled",
             "torch.backends.mkldnn.is_available()", "torch.backends.mkl.is_available()",
             "torch.backends.mha.get_fastpath_enabled()"]:
    case(expr)
case("torch.backends.cudnn.benchmark = True\ntorch.backends.cudnn.deterministic = True\n"
     "(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)")
case("torch.backends.cudnn.benchmark = False\ntorch.backends.cudnn.deterministic = False\n"
     "(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic)")
case("torch.backends.cuda.matmul.allow_tf32 = True\nr = torch.backends.cuda.matmul.allow_tf32\n"
     "torch.backends.cuda.matmul.allow_tf32 = False\nr")
case("torch.backends.cuda.matmul.nonsense")
case("with torch.backends.cudnn.flags(enabled=False):\n    r = torch.backends.cudnn.enabled\n"
     "(r, torch.backends.cudnn.enabled)")

# ---- torch.accelerator ----
for expr in ["torch.accelerator.is_available()", "torch.accelerator.current_accelerator()",
             "torch.accelerator.device_count()", "torch.accelerator.current_device_index()",
             "torch.accelerator.synchronize()", "torch.accelerator.set_device_index(0)",
             "torch.accelerator.current_stream()"]:
    case(expr)

# ---- default dtype and device ----
case("torch.get_default_dtype()")
case("torch.get_default_device()")
for expr in ["torch.tensor([1.0])", "torch.tensor(1.5)", "torch.tensor([1, 2])", "torch.zeros(2)", "torch.ones(2, 1)",
             "torch.empty(2).dtype", "torch.full((2,), 1.5)", "torch.arange(3.0)", "torch.arange(3)", "torch.randn(2)",
             "torch.rand(2)", "torch.tensor([1]) * 1.5", "torch.tensor([1]) / 2", "torch.ones(2) + 1.5",
             "torch.get_default_dtype()", "torch.Tensor([1, 2])", "torch.zeros(2).dtype.is_floating_point",
             "torch.tensor([True]).float().dtype", "torch.ones(2).sqrt()"]:
    case("torch.set_default_dtype(torch.float64)\n" + expr)
case("torch.set_default_dtype(torch.float16)\ntorch.get_default_dtype()")
case("torch.set_default_dtype(torch.bfloat16)\n(torch.get_default_dtype(), torch.tensor([1.5]).dtype)")
case("torch.set_default_dtype(torch.int64)")
case("torch.set_default_dtype(torch.bool)")
case("torch.set_default_dtype(float)")
case("torch.set_default_dtype('float64')")
case("torch.set_default_device('cpu')\n(torch.get_default_device(), torch.zeros(2).device)")
case("torch.set_default_device(torch.device('cpu'))\ntorch.get_default_device()")
case("torch.set_default_device(None)\ntorch.get_default_device()")
case("torch.set_default_device('cuda')\ntorch.get_default_device()")
case("torch.set_default_device('cuda')\ntorch.zeros(2)")
case("torch.set_default_device('cuda')\ntorch.tensor([1.0])")
with_warnings = ("with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n"
                 "    torch.set_default_tensor_type({})\n")
case(with_warnings.format("torch.DoubleTensor") + "(torch.get_default_dtype(), torch.zeros(1).dtype, len(w))")
case(with_warnings.format("torch.DoubleTensor") + "(w[0].category.__name__, str(w[0].message))")
case(with_warnings.format("'torch.DoubleTensor'") + "torch.get_default_dtype()")
case(with_warnings.format("torch.LongTensor"))
case(with_warnings.format("torch.float64"))

# ---- legacy types and constructors ----
for name in ["Float", "Double", "Half", "BFloat16", "Long", "Bool", "Int", "Short", "Char", "Byte"]:
    case(f"torch.{name}Tensor([1, 0])")
    case(f"torch.{name}Tensor(2, 3).shape")
    case(f"torch.{name}Tensor().shape")
    case(f"torch.{name}Tensor.dtype")
    case(f"(torch.{name}Tensor.is_cuda, torch.{name}Tensor.is_sparse, torch.{name}Tensor.layout)")
for expr in ["torch.Tensor([1, 2])", "torch.Tensor([[1, 2], [3, 4]])", "torch.Tensor(2, 3).shape", "torch.Tensor().shape",
             "torch.Tensor(torch.Size([2, 1])).shape", "torch.Tensor(0).shape", "torch.Tensor(2.5)", "torch.Tensor(-1)",
             "torch.Tensor('a')", "torch.Tensor([1], dtype=torch.float64)", "torch.Tensor(2, 3).type()",
             "torch.Tensor(torch.tensor([1.5, 2.5]))", "torch.Tensor(torch.tensor([1, 2]))",
             "torch.FloatTensor(torch.tensor([1.0], dtype=torch.float64))", "torch.LongTensor([1.7, -2.2])",
             "torch.FloatTensor([[1], [2, 3]])", "torch.FloatTensor(2, 'a')", "torch.DoubleTensor([1]).type()",
             "type(torch.FloatTensor([1])) is torch.Tensor", "torch.FloatTensor", "str(torch.LongTensor)",
             "torch.Tensor(torch.ones(2)).requires_grad", "torch.Tensor(2, device='cpu').shape",
             "torch.Tensor(2, device='cuda')", "torch.FloatTensor([1]).requires_grad",
             "t = torch.ones(2)\ntorch.Tensor(t) is t", "t = torch.ones(2)\ntorch.FloatTensor(t) is t",
             "isinstance(torch.zeros(2), torch.FloatTensor)", "isinstance(torch.zeros(2, dtype=torch.float64), torch.FloatTensor)",
             "isinstance(torch.zeros(2, dtype=torch.float64), torch.DoubleTensor)",
             "isinstance(torch.tensor([1]), torch.LongTensor)", "isinstance(torch.tensor([True]), torch.BoolTensor)",
             "isinstance(torch.zeros(2), torch.Tensor)", "isinstance(1.0, torch.FloatTensor)",
             "issubclass(torch.FloatTensor, torch.Tensor)", "torch.zeros(2).type(torch.DoubleTensor)",
             "torch.zeros(2).type('torch.LongTensor')", "torch.zeros(2).type('torch.cuda.FloatTensor')",
             "torch.cuda.FloatTensor([1])", "torch.cuda.FloatTensor", "torch.zeros(2).new_tensor([1, 2])",
             "torch.zeros(2, dtype=torch.float64).new(2).shape", "torch.zeros(2, dtype=torch.float64).new([1, 2])",
             "torch.zeros(2).new().shape", "torch.ones(2).new(torch.tensor([3.0]))"]:
    case(expr, values="shape" not in expr)

# ---- Tensor.data ----
case("t = torch.ones(2, requires_grad=True)\nd = t.data\n(d, d.requires_grad, d.is_leaf, d.grad_fn)")
case("t = torch.ones(2, requires_grad=True)\nd = t.data\nd[0] = 5\nt")
case("t = torch.ones(2, requires_grad=True)\n(t * 2).data.grad_fn")
case("t = torch.ones(2, requires_grad=True)\nt.data = torch.zeros(3)\n(t, t.requires_grad, t.is_leaf)")
case("t = torch.ones(2, requires_grad=True)\nt.data = torch.zeros(3, dtype=torch.float64)\n(t, t.requires_grad)")
case("t = torch.ones(2)\nt.data = torch.zeros(3, dtype=torch.int64)\nt")
case("t = torch.ones(2, requires_grad=True)\nt.data = 1")
case("t = torch.ones(2, requires_grad=True)\nt.data = [1.0, 2.0]")
case("t = torch.ones(2, requires_grad=True)\nt.data = None")
case("t = torch.ones(2, requires_grad=True)\nn = torch.zeros(2)\nt.data = n\nn[0] = 7\nt")
case("t = torch.ones(2, requires_grad=True)\ny = t * 3\ny.sum().backward()\nt.data.mul_(0)\n(t, t.grad)")
case("t = torch.ones(2, 3)\nv = t[0]\nv.data = torch.zeros(5)\n(v, t)")
case("t = torch.ones(2)\nt.data = t.data.double()\nt")

# ---- random fills and factories ----
for expr in ["torch.empty(6).random_()", "torch.empty(6, dtype=torch.float64).random_()",
             "torch.empty(6, dtype=torch.int64).random_()", "torch.empty(6, dtype=torch.bool).random_()",
             "torch.empty(6, dtype=torch.float16).random_()", "torch.empty(6, dtype=torch.bfloat16).random_()",
             "torch.empty(6).random_(10)", "torch.empty(6, dtype=torch.int64).random_(100)", "torch.empty(6).random_(2, 10)",
             "torch.empty(6).random_(-5, 5)", "torch.empty(6).random_(0, None)", "torch.empty(6).random_(to=7)",
             "torch.empty(6).random_(3, to=7)", "torch.empty(6).random_(from_=3, to=7)", "torch.empty(6).random_(0)",
             "torch.empty(6).random_(5, 5)", "torch.empty(6).random_(5, 2)", "torch.empty(6).random_(1.5)",
             "torch.empty(6, dtype=torch.int64).random_(-3)",
             "g = torch.Generator().manual_seed(5)\ntorch.empty(6).random_(generator=g)",
             "g = torch.Generator().manual_seed(5)\ntorch.empty(6).random_(10, generator=g)",
             "g = torch.Generator().manual_seed(5)\ntorch.empty(6).random_(2, 10, generator=g)",
             "torch.empty(2, 3).t().random_(100)",
             "torch.rand_like(torch.ones(2, 3))", "torch.randn_like(torch.ones(2, 3))",
             "torch.rand_like(torch.ones(4), dtype=torch.float64)", "torch.randn_like(torch.ones(4, dtype=torch.float64))",
             "torch.rand_like(torch.ones(3), requires_grad=True)", "torch.randn_like(torch.ones(3), requires_grad=True)",
             "torch.rand_like(torch.tensor([1, 2]))", "torch.randn_like(torch.tensor([1, 2]))",
             "torch.rand_like(torch.ones(2), device='cuda')", "torch.randn_like(torch.ones(2, 3).t())",
             "torch.randint_like(torch.ones(5), 10)", "torch.randint_like(torch.ones(5), 3, 10)",
             "torch.randint_like(torch.tensor([1, 2, 3]), 100)", "torch.randint_like(torch.ones(5), 10, dtype=torch.int64)",
             "torch.randint_like(torch.ones(5), high=10)", "torch.randint_like(torch.ones(5), low=2, high=10)",
             "torch.randint_like(torch.ones(5), 0)", "torch.randint_like(torch.ones(5), 5, 2)",
             "torch.randint_like(torch.ones(3), 10, requires_grad=True)",
             "torch.randint(10, (5,))", "torch.randint(3, 10, (5,))", "torch.randint(10, (2, 3), dtype=torch.float32)",
             "g = torch.Generator().manual_seed(3)\ntorch.randint(10, (5,), generator=g)",
             "g = torch.Generator().manual_seed(3)\ntorch.randint(3, 10, (5,), generator=g)",
             "g = torch.Generator().manual_seed(3)\ntorch.randint(high=10, size=(5,), generator=g)",
             "torch.randint(10, (5,), generator=None)", "torch.randint(0, (5,))",
             "torch.randperm(0)", "torch.randperm(1)", "torch.randperm(2)", "torch.randperm(5)", "torch.randperm(10)",
             "torch.randperm(31)", "torch.randperm(100)", "torch.randperm(-1)", "torch.randperm(5, dtype=torch.float32)",
             "torch.randperm(5, dtype=torch.float64)", "torch.randperm(5, dtype=torch.float16)",
             "torch.randperm(5, dtype=torch.bool)", "torch.randperm(3000, dtype=torch.float16)",
             "torch.randperm(300, dtype=torch.bfloat16)", "torch.randperm(5, requires_grad=True)",
             "torch.randperm(5, dtype=torch.float32, requires_grad=True)", "torch.randperm(5, device='cuda')",
             "g = torch.Generator().manual_seed(7)\ntorch.randperm(8, generator=g)",
             "torch.manual_seed(123)\ntorch.randperm(20)", "torch.manual_seed(2**40)\ntorch.randperm(12)",
             "torch.randperm(5)\ntorch.rand(2)", "torch.randperm(1000)", "torch.randperm(2.5)"]:
    case(expr)
for seed in (1, 42, 1234):
    for n in (3, 17, 257):
        case(f"torch.manual_seed({seed})\ntorch.randperm({n})")

# ---- torch.device as a context, subclasses through the legacy constructor, more defaults ----
for expr in ["with torch.device('cpu'):\n    r = torch.zeros(2).device\nr", "with torch.device('cuda'):\n    r = torch.zeros(2)\nr",
             "with torch.device('cuda'):\n    r = torch.ones(2).device\nr", "with torch.device('cpu'):\n    pass\ntorch.get_default_device()",
             "class S(torch.Tensor):\n    pass\nS([1.0, 2.0])", "class S(torch.Tensor):\n    pass\nS(2, 3).shape",
             "class S(torch.Tensor):\n    pass\ntype(S([1.0]).add(1)).__name__",
             "torch.set_default_dtype(torch.float64)\ntorch.nn.Linear(2, 3).weight.dtype",
             "torch.set_default_dtype(torch.float64)\ntorch.tensor([1.0, 2.0]) + torch.tensor([1.0], dtype=torch.float32)",
             "torch.set_default_dtype(torch.float64)\nrepr(torch.tensor([1.5]))",
             "torch.set_default_dtype(torch.float64)\nrepr(torch.tensor([1.5], dtype=torch.float32))",
             "torch.set_default_dtype(torch.float64)\ntorch.rand_like(torch.ones(2, dtype=torch.float32)).dtype",
             "t = torch.ones(2)\nt.data = torch.zeros(2, requires_grad=True)\n(t.requires_grad, t.data.requires_grad)",
             "t = torch.ones(2, requires_grad=True)\nt.data = torch.zeros(2, dtype=torch.int64)\n(t.dtype, t.requires_grad)"]:
    case(expr)

# what modes see of the legacy constructors, and the default device they ignore
logged = ("from torch.overrides import TorchFunctionMode\nfrom torch.utils._python_dispatch import TorchDispatchMode\n"
          "class M(TorchFunctionMode):\n    def __torch_function__(self, f, t, a=(), k=None):\n"
          "        names.append(torch.overrides.resolve_name(f) or str(f))\n        return f(*a, **(k or {{}}))\n"
          "class D(TorchDispatchMode):\n    def __torch_dispatch__(self, f, t, a=(), k=None):\n"
          "        names.append(str(f))\n        return f(*a, **(k or {{}}))\nnames = []\nwith M():\n    {0}\n"
          "with D():\n    {0}\nnames")
for expr in ["torch.Tensor(2, 3)", "torch.Tensor([1.0, 2.0])", "torch.FloatTensor([1])", "torch.Tensor()",
             "torch.ones(2).new(3)", "torch.Tensor(torch.ones(2))"]:
    case(logged.format(expr))
case("torch.set_default_device('cuda')\n(torch.Tensor([1.0]).device, torch.Tensor(2).device)")

# ---- torch.cuda's classes, amp on a CPU-only build ----
warned = ("with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n    r = {}\n"
          "(type(r).__name__, [(x.category.__name__, str(x.message)) for x in w])")
for expr in ["torch.cuda.amp.GradScaler(enabled=False)", "torch.cuda.amp.GradScaler()", "torch.amp.GradScaler('cuda')",
             "torch.amp.GradScaler()", "torch.autocast(device_type='cuda')", "torch.autocast(device_type='cuda', enabled=False)",
             "torch.cuda.amp.autocast()", "torch.amp.autocast('cpu', enabled=False)"]:
    case(warned.format(expr))
for expr in ["torch.cuda.Event(enable_timing=True)", "torch.cuda.Stream()", "torch.cuda.current_blas_handle()",
             "torch.cuda.device_of(torch.ones(2)).idx",
             "g = torch.amp.GradScaler('cuda', enabled=False)\nt = torch.ones(2, requires_grad=True)\n"
             "(g.scale(t) is t, g.is_enabled(), g.get_scale(), g.state_dict(), g.unscale_(None), g.update())",
             "g = torch.amp.GradScaler('cuda', enabled=False)\nt = torch.ones(2, requires_grad=True)\n"
             "o = torch.optim.SGD([t], lr=0.1)\nt.grad = torch.ones(2)\n(g.step(o), t)",
             "with torch.autocast(device_type='cuda', enabled=False):\n    r = torch.ones(2) * 2\nr"]:
    case(expr)

# ---- torch.overrides ----
for expr in ["torch.overrides.resolve_name(torch.add)", "torch.overrides.resolve_name(torch.Tensor.add)",
             "torch.overrides.resolve_name(torch.nn.functional.relu)", "torch.overrides.resolve_name(torch.Tensor.shape.__get__)",
             "torch.overrides.resolve_name(torch.matmul)", "torch.overrides.resolve_name(len)",
             "torch.overrides.resolve_name(torch.Tensor.__add__)", "torch.overrides.resolve_name(torch.zeros)",
             "torch.add in torch.overrides.get_ignored_functions()",
             "torch.is_tensor in torch.overrides.get_ignored_functions()",
             "torch.zeros in torch.overrides.get_ignored_functions()",
             "torch.Tensor.add in torch.overrides.get_overridable_functions()[torch.Tensor]",
             "torch.add in torch.overrides.get_overridable_functions()[torch]",
             "torch.zeros in torch.overrides.get_overridable_functions()[torch]",
             "type(torch.overrides.get_ignored_functions()).__name__",
             "type(torch.overrides.get_overridable_functions()).__name__",
             "torch.overrides.has_torch_function((torch.ones(1),))", "torch.overrides.has_torch_function_unary(torch.ones(1))",
             "torch.overrides.is_tensor_like(torch.ones(1))", "torch.overrides.is_tensor_like(1)",
             "torch.overrides.is_tensor_method_or_property(torch.Tensor.add)",
             "torch.overrides.is_tensor_method_or_property(torch.add)",
             "torch.add in torch.overrides.get_testing_overrides()",
             "torch.overrides.get_testing_overrides()[torch.add](1, 2)",
             "callable(torch.overrides.handle_torch_function)",
             "class M(torch.overrides.TorchFunctionMode):\n    def __torch_function__(self, f, t, a=(), k=None):\n"
             "        names.append(torch.overrides.resolve_name(f))\n        return f(*a, **(k or {}))\nnames = []\n"
             "with M():\n    torch.ones(2).add(1).relu()\nnames",
             "torch.overrides.enable_reentrant_dispatch", "torch.overrides.wrap_torch_function"]:
    case(expr)

# ---- torch.utils.weak and torch.utils._mode_utils ----
case("import torch.utils.weak as w\nd = w.WeakIdKeyDictionary()\nt = torch.ones(1)\nd[t] = 3\nr = (len(d), d[t], t in d)\n"
     "del t\ngc.collect()\n(r, len(d))")
case("import torch.utils.weak as w\nd = w.WeakTensorKeyDictionary()\na, b = torch.ones(1), torch.ones(1)\nd[a] = 1\nd[b] = 2\n"
     "(len(d), d[a], d[b], sorted(d.values()))")
case("import torch.utils.weak as w\nd = w.WeakIdKeyDictionary()\ntry:\n    d[torch.ones(1)]\nexcept KeyError as e:\n"
     "    r = type(e.args[0]).__name__\nr")
case("import torch.utils.weak as w\nt = torch.ones(1)\nr = w.WeakIdRef(t)\n(r() is t, r == w.WeakIdRef(t))")
case("import torch.utils.weak as w\nr = w.TensorWeakRef(torch.ones(1))\ngc.collect()\nr() is None")
case("import torch.utils.weak as w\nd = w.WeakIdKeyDictionary()\nt = torch.ones(1)\nd[t] = 1\nd.pop(t)\nlen(d)")
case("import torch.utils._mode_utils as m\nwith m.no_dispatch():\n    r = torch.ones(2) + 1\nr")
case("import torch.utils._mode_utils as m\nfrom torch.utils._python_dispatch import TorchDispatchMode\n"
     "class D(TorchDispatchMode):\n    def __torch_dispatch__(self, f, t, a=(), k=None):\n        raise RuntimeError('seen')\n"
     "with D():\n    with m.no_dispatch():\n        r = torch.ones(2) * 2\nr")
case("import torch.utils._mode_utils as m\nfrom torch.utils._python_dispatch import TorchDispatchMode\n"
     "class D(TorchDispatchMode):\n    pass\na, b = D(), D()\n(m.all_same_mode([a, a]), m.all_same_mode([a, b]), m.all_same_mode([]))")


def describe(v, values=True):
    if isinstance(v, torch.Tensor):
        d = {"tensor": type(v).__name__, "dtype": str(v.dtype), "shape": list(v.shape), "requires_grad": v.requires_grad,
             "type": v.type()}
        if values:
            d["values"] = v.tolist()
        return d
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, (tuple, list)):
        return {type(v).__name__: [describe(x, values) for x in v]}
    if isinstance(v, (torch.dtype, torch.device)) or isinstance(v, type):
        return {"repr": repr(v)}
    return {"object": type(v).__name__}


def run_here(code, values):
    torch.manual_seed(0)
    ns = {"torch": torch, "gc": gc, "warnings": warnings}
    *body, last = code.split("\n")
    try:
        if last.startswith(" ") or last.startswith("torch.set_default") or "=" in last.split("(")[0]:
            exec(code, ns)
            return {"value": None}
        if body:
            exec("\n".join(body), ns)
        return {"value": describe(eval(last, ns), values)}
    except Exception as e:  # noqa: BLE001 - the exception is what is recorded
        return {"type": type(e).__name__, "message": str(e)}


def run(code, values):
    """run_here in a forked child, its answer sent back through a pipe (so no case sees another's
    default dtype, device or flags)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = json.dumps(run_here(code, values))
        except BaseException as e:  # noqa: BLE001 - describe() itself failing is an answer too
            out = json.dumps({"type": type(e).__name__, "message": "describe: " + str(e)})
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 65536)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if status != 0 or not chunks:
        return {"crash": status}
    return json.loads(b"".join(chunks))


def main(argv):
    if len(argv) != 2:
        raise SystemExit("usage: cpu_only_api.py OUT.json")
    out = {"torch": torch.__version__, "cuda": torch.version.cuda, "cuda_available": torch.cuda.is_available(),
           "cases": [{"code": c, "values": v, "result": run(c, v)} for c, v in CASES]}
    with open(argv[1], "w") as f:
        json.dump(out, f, indent=0)
        f.write("\n")
    print(f"{len(CASES)} cases")


if __name__ == "__main__":
    main(sys.argv)
