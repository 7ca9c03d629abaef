"""torch.tensor(data) and factories with requires_grad/dtype, recorded with PyTorch 2.6: the
dispatch-mode log of each (torch.tensor dispatches aten.lift_fresh; a factory only its own op),
the function-mode name torch.tensor is seen under, dtypes and leaf-ness, and Tensor.tolist()."""
import torch, json
from torch.utils._python_dispatch import TorchDispatchMode
from torch.overrides import TorchFunctionMode
class Log(TorchDispatchMode):
    def __init__(self): super().__init__(); self.log=[]
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.log.append(str(func)); return func(*args, **(kwargs or {}))
class FLog(TorchFunctionMode):
    def __init__(self): super().__init__(); self.log=[]
    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.log.append(getattr(func, "__name__", str(func))); return func(*args, **(kwargs or {}))
out = {}
with Log() as m: a = torch.tensor([1.0, 2.0, 3.0])
out["tensor_float"] = m.log
with Log() as m: b = torch.tensor([[1, 2], [3, 4]])
out["tensor_int_2d"] = m.log
out["tensor_int_2d_dtype"] = str(b.dtype)
with Log() as m: c = torch.tensor([1.0, 2.0], requires_grad=True)
out["tensor_requires_grad"] = m.log
out["tensor_requires_grad_is_leaf"] = c.is_leaf
with Log() as m: d = torch.tensor([1.5, 2.5], dtype=torch.float64)
out["tensor_dtype_f64"] = m.log
with Log() as m: e = torch.tensor(2.5)
out["tensor_scalar"] = m.log
out["tensor_scalar_dim"] = e.dim()
with Log() as m: f = torch.ones(2, 3, requires_grad=True)
out["ones_requires_grad"] = m.log
with Log() as m: g = torch.zeros(2, dtype=torch.float64, requires_grad=True)
out["zeros_f64_requires_grad"] = m.log
with FLog() as fm: h = torch.tensor([1.0])
out["tensor_function_mode"] = fm.log
out["tolist_2d"] = torch.tensor([[1.5, 2.0], [3.0, 4.25]]).tolist()
out["tolist_int"] = torch.tensor([[1, 2], [3, 4]]).tolist()
out["tolist_scalar"] = torch.tensor(3.5).tolist()
out["tolist_str"] = {
    "f32_2d": str(torch.tensor([[1.5, 2.0], [3.0, 4.25]]).tolist()),
    "f32_tenth": str(torch.tensor([0.1, -2.5e-5, 1e16]).tolist()),
    "f64_tenth": str(torch.tensor([0.1, 1.0 / 3], dtype=torch.float64).tolist()),
    "i64_2d": str(torch.tensor([[1, 2], [3, -(2**62)]]).tolist()),
    "bool": str(torch.tensor([True, False]).tolist()),
    "scalar": str(torch.tensor(3.5).tolist()),
    "empty": str(torch.tensor([]).tolist()),
    "i64_as_f32": str(torch.tensor([1, 2, 16777217], dtype=torch.float32).tolist()),
}
errors = {}
for name, fn in [("tensor_int_requires_grad", lambda: torch.tensor([1, 2], requires_grad=True)),
                 ("ones_int_requires_grad", lambda: torch.ones(2, dtype=torch.int64, requires_grad=True))]:
    try:
        fn(); errors[name] = None
    except Exception as e:
        errors[name] = [type(e).__name__, str(e)]
out["errors"] = errors
print(json.dumps(out, indent=1))
