"""The misuse cases: small programs a PyTorch user writes, many of them mistakes, each run alone
with `torch` imported (tests/python/misuse_harness.py says how). A case either raises, and its
outcome is the exception's class and first line, or sets `out`, whose description is its result.
What each case must do is PyTorch 2.6's recorded outcome (tests/golden/torch-2.6/python_misuse.json),
never what is written here.

CASES is a list of (id, code); an id's prefix before the first dot is its group."""
import textwrap

CASES = []
_IDS = set()


def case(cid, code):
    if cid in _IDS:
        raise ValueError(f"duplicate case id {cid}")
    _IDS.add(cid)
    CASES.append((cid, textwrap.dedent(code).strip() + "\n"))


# ---- pieces several cases start with (each case's code is complete in itself) ----
PASS_FN = '''
from torch.overrides import TorchFunctionMode
class M(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))
'''

SEEN_FN = '''
from torch.overrides import TorchFunctionMode
class Seen(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.seen = []
    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        shown = [type(a).__name__ if isinstance(a, torch.Tensor) else repr(a) for a in args]
        self.seen.append((getattr(func, "__name__", "?"), len(args), shown, sorted(kwargs)))
        return func(*args, **kwargs)
'''

NAMES_FN = '''
from torch.overrides import TorchFunctionMode
class Names(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.names = []
    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.append(getattr(func, "__name__", "?"))
        return func(*args, **(kwargs or {}))
'''

LOG_DISPATCH = '''
from torch.utils._python_dispatch import TorchDispatchMode
class Log(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.log = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.log.append(str(func))
        return func(*args, **(kwargs or {}))
'''

ARGS_DISPATCH = '''
from torch.utils._python_dispatch import TorchDispatchMode
def show(a):
    if isinstance(a, torch.Tensor):
        return "T" + str(list(a.shape))
    if isinstance(a, (list, tuple)):
        return [show(b) for b in a]
    return repr(a)
class ArgLog(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.log = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        self.log.append(f"{func} {show(list(args))} {dict((k, show(v)) for k, v in kwargs.items())}")
        return func(*args, **kwargs)
'''

STEP = '''
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
x = torch.randn(5, 4)
y = torch.tensor([0, 1, 1, 0, 1])
'''

# ===================================================================================
# fmode: a pass-through TorchFunctionMode with a Python number where a Tensor goes
# ===================================================================================
for _cid, _expr in [
    ("fmode.add_operator_int", "torch.ones(2) + 1"),
    ("fmode.add_function_int", "torch.add(torch.ones(2), 1)"),
    ("fmode.sub_method_int", "torch.ones(2).sub(1)"),
    ("fmode.mul_function_float", "torch.mul(torch.ones(2), 2.5)"),
    ("fmode.mul_operator_int", "torch.ones(2) * 2"),
    ("fmode.rsub_operator_int", "2 - torch.ones(2)"),
    ("fmode.radd_operator_float", "1.5 + torch.ones(2)"),
    ("fmode.rmul_operator_int", "3 * torch.ones(2)"),
    ("fmode.div_operator_int", "torch.ones(2) / 4"),
    ("fmode.div_method_float", "torch.ones(2).div(0.5)"),
    ("fmode.sub_function_alpha", "torch.sub(torch.ones(2), 1, alpha=3)"),
    ("fmode.add_kwarg_other", "torch.add(torch.ones(2), other=2)"),
    ("fmode.add_bool", "torch.ones(2) + True"),
    ("fmode.eq_method_int", "torch.ones(2).eq(1)"),
    ("fmode.masked_fill_float", "torch.ones(2).masked_fill(torch.tensor([True, False]), 0.5)"),
    ("fmode.clamp_min_int", "torch.tensor([-1.0, 2.0]).clamp_min(0)"),
    ("fmode.full_int_fill", "torch.full((2,), 3)"),
    ("fmode.neg_operator", "-torch.ones(2)"),
]:
    case(_cid, PASS_FN + f"""
with M():
    out = {_expr}
""")

case("fmode.iadd_int", PASS_FN + """
x = torch.ones(2)
with M():
    x += 1
out = x
""")
case("fmode.imul_float", PASS_FN + """
x = torch.ones(2)
with M():
    x *= 0.5
out = x
""")
case("fmode.seen_args_add_operator", SEEN_FN + """
x = torch.ones(2)
with Seen() as m:
    x + 1
out = m.seen
""")
case("fmode.seen_args_sub_method", SEEN_FN + """
x = torch.ones(2)
with Seen() as m:
    x.sub(1)
out = m.seen
""")
case("fmode.seen_args_mul_function", SEEN_FN + """
x = torch.ones(2)
with Seen() as m:
    torch.mul(x, 2.5)
out = m.seen
""")
case("fmode.seen_args_rsub", SEEN_FN + """
x = torch.ones(2)
with Seen() as m:
    2 - x
out = m.seen
""")
case("fmode.seen_args_add_alpha_kwarg", SEEN_FN + """
x = torch.ones(2)
with Seen() as m:
    torch.add(x, x, alpha=2)
out = m.seen
""")
case("fmode.seen_types_add", """
from torch.overrides import TorchFunctionMode
class T(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.types = []
    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.types.append(sorted(t.__name__ for t in types))
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with T() as m:
    x + 1
out = m.types
""")
case("fmode.names_linear_relu", NAMES_FN + """
import torch.nn.functional as F
x, w = torch.ones(1, 2), torch.ones(3, 2)
with Names() as m:
    F.relu(F.linear(x, w))
out = m.names
""")
case("fmode.stack_len_inside_handler", """
from torch.overrides import TorchFunctionMode
class M(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.lens = []
    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.lens.append(torch._C._len_torch_function_stack())
        return func(*args, **(kwargs or {}))
with M() as m:
    torch.ones(2) + 1
out = (m.lens, torch._C._len_torch_function_stack())
""")

# ===================================================================================
# reenter: a mode's handler that enters its own mode again
# ===================================================================================
case("reenter.dispatch_with_self", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        with self:
            return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M():
    out = x + x
""")
case("reenter.dispatch_with_self_caught", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        with self:
            return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M():
    try:
        x + x
        inside = "returned"
    except RecursionError:
        inside = "RecursionError"
    depth = torch._C._len_torch_dispatch_stack()
out = (inside, depth, torch._C._len_torch_dispatch_stack())
""")
case("reenter.function_with_self", """
from torch.overrides import TorchFunctionMode
class M(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        with self:
            return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M():
    out = x + x
""")
case("reenter.function_with_self_caught", """
from torch.overrides import TorchFunctionMode
class M(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        with self:
            return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M():
    try:
        torch.add(x, x)
        inside = "returned"
    except RecursionError:
        inside = "RecursionError"
    depth = torch._C._len_torch_function_stack()
out = (inside, depth, torch._C._len_torch_function_stack())
""")
case("reenter.dispatch_self_once", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.log = []
        self.busy = False
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.log.append((str(func), self.busy, torch._C._len_torch_dispatch_stack()))
        if not self.busy:
            self.busy = True
            try:
                with self:
                    return func(*args, **(kwargs or {}))
            finally:
                self.busy = False
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M() as m:
    y = x + 1
out = (m.log, y, torch._C._len_torch_dispatch_stack())
""")
case("reenter.dispatch_enters_other_mode", LOG_DISPATCH + """
class Outer(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.inner = Log()
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        with self.inner:
            return func(*args, **(kwargs or {}))
x = torch.ones(2)
with Outer() as m:
    y = x * 3
    inside = torch._C._len_torch_dispatch_stack()
out = (y, m.inner.log, inside, torch._C._len_torch_dispatch_stack())
""")
case("reenter.dispatch_enters_other_mode_body_raises", LOG_DISPATCH + """
class Outer(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.inner = Log()
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        with self.inner:
            return func(*args, **(kwargs or {}))
x = torch.ones(2)
with Outer():
    x * 3
    raise ValueError("the user's own error")
""")
case("reenter.dispatch_enters_other_mode_body_raises_state", LOG_DISPATCH + """
class Outer(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.inner = Log()
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        with self.inner:
            return func(*args, **(kwargs or {}))
x = torch.ones(2)
try:
    with Outer():
        x * 3
        raise KeyError("mine")
except KeyError as e:
    caught = repr(e)
out = (caught, torch._C._len_torch_dispatch_stack(), torch._C._len_torch_function_stack())
""")
case("reenter.dispatch_handler_enters_function_mode", PASS_FN + """
from torch.utils._python_dispatch import TorchDispatchMode
class D(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        with M():
            return func(*args, **(kwargs or {}))
x = torch.ones(2)
with D():
    y = x + 2
out = (y, torch._C._len_torch_dispatch_stack(), torch._C._len_torch_function_stack())
""")
case("reenter.handler_leaves_mode_entered", LOG_DISPATCH + """
class Leaky(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.inner = Log()
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.inner.__enter__()
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with Leaky():
    x + 1
out = torch._C._len_torch_dispatch_stack()
""")

# ===================================================================================
# dmode: dispatch-mode stacks entered, exited and left in ways they should not be
# ===================================================================================
case("dmode.enter_non_mode", """
from torch.utils._python_dispatch import TorchDispatchMode
TorchDispatchMode.__enter__(object())
out = torch._C._len_torch_dispatch_stack()
""")
case("dmode.enter_non_mode_state", """
from torch.utils._python_dispatch import TorchDispatchMode
try:
    TorchDispatchMode.__enter__(object())
    r = "entered"
except Exception as e:
    r = type(e).__name__
out = (r, torch._C._len_torch_dispatch_stack())
""")
case("dmode.push_mode_object", """
from torch.utils._python_dispatch import _push_mode
_push_mode(object())
out = torch._C._len_torch_dispatch_stack()
""")
case("dmode.exit_without_enter", LOG_DISPATCH + """
Log().__exit__(None, None, None)
out = torch._C._len_torch_dispatch_stack()
""")
case("dmode.exit_twice", LOG_DISPATCH + """
m = Log()
with m:
    pass
m.__exit__(None, None, None)
out = torch._C._len_torch_dispatch_stack()
""")
case("dmode.out_of_order_exit", LOG_DISPATCH + """
a, b = Log(), Log()
a.__enter__()
b.__enter__()
lens = [torch._C._len_torch_dispatch_stack()]
a.__exit__(None, None, None)
lens.append(torch._C._len_torch_dispatch_stack())
b.__exit__(None, None, None)
lens.append(torch._C._len_torch_dispatch_stack())
out = lens
""")
case("dmode.out_of_order_exit_then_op", LOG_DISPATCH + """
a, b = Log(), Log()
x = torch.ones(2)
a.__enter__()
b.__enter__()
a.__exit__(None, None, None)
x + 1
b.__exit__(None, None, None)
out = (a.log, b.log, torch._C._len_torch_dispatch_stack())
""")
case("dmode.enter_same_twice_manual", LOG_DISPATCH + """
m = Log()
m.__enter__()
m.__enter__()
lens = [torch._C._len_torch_dispatch_stack()]
torch.ones(2) + 1
m.__exit__(None, None, None)
lens.append(torch._C._len_torch_dispatch_stack())
m.__exit__(None, None, None)
lens.append(torch._C._len_torch_dispatch_stack())
out = (lens, m.log)
""")
case("dmode.nested_same_instance", LOG_DISPATCH + """
m = Log()
x = torch.ones(2)
with m:
    with m:
        x + 1
out = (m.log, torch._C._len_torch_dispatch_stack())
""")
case("dmode.left_entered", LOG_DISPATCH + """
m = Log()
m.__enter__()
out = torch._C._len_torch_dispatch_stack()
""")
case("dmode.handler_raises", """
from torch.utils._python_dispatch import TorchDispatchMode
class Bad(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise ValueError(f"refused {func}")
x = torch.ones(2)
with Bad():
    x + 1
""")
case("dmode.handler_raises_state", """
from torch.utils._python_dispatch import TorchDispatchMode
class Bad(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise ValueError(f"refused {func}")
x = torch.ones(2, requires_grad=True)
with Bad():
    try:
        x * 2
    except ValueError as e:
        msg = str(e)
    inside = torch._C._len_torch_dispatch_stack()
out = (msg, inside, torch._C._len_torch_dispatch_stack(), torch.is_grad_enabled())
""")
case("dmode.base_class_handler", """
from torch.utils._python_dispatch import TorchDispatchMode
class Empty(TorchDispatchMode):
    pass
x = torch.ones(2)
with Empty():
    x + 1
""")
case("dmode.stack_len_inside_handler", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.lens = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.lens.append(torch._C._len_torch_dispatch_stack())
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M() as m:
    x + 1
out = m.lens
""")
case("dmode.current_mode", LOG_DISPATCH + """
from torch.utils._python_dispatch import _get_current_dispatch_mode
m = Log()
with m:
    same = _get_current_dispatch_mode() is m
out = (same, _get_current_dispatch_mode())
""")
case("dmode.handler_returns_none", """
from torch.utils._python_dispatch import TorchDispatchMode
class NoneMode(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return None
x = torch.ones(2)
with NoneMode():
    out = x + 1
""")
case("dmode.handler_returns_int_for_add", """
from torch.utils._python_dispatch import TorchDispatchMode
class IntMode(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return 7
x = torch.ones(2)
with IntMode():
    out = x + 1
""")
case("dmode.handler_returns_str_for_local_scalar", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func is torch.ops.aten._local_scalar_dense.default:
            return "not a number"
        return func(*args, **(kwargs or {}))
x = torch.tensor(3.0)
with M():
    out = x.item()
""")
case("dmode.handler_returns_int_for_local_scalar", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        if func is torch.ops.aten._local_scalar_dense.default:
            return 41
        return func(*args, **(kwargs or {}))
x = torch.tensor(3.0)
with M():
    out = x.item()
""")
case("dmode.handler_returns_tuple_for_add", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        r = func(*args, **(kwargs or {}))
        return (r, r)
x = torch.ones(2)
with M():
    out = x + 1
""")
case("dmode.handler_result_identity", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.last = None
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        r = func(*args, **(kwargs or {}))
        if func is torch.ops.aten.add.Tensor:
            r.tag = "set by the handler"
            self.last = r
        return r
x = torch.ones(2)
with M() as m:
    y = x + 1
out = (y is m.last, getattr(y, "tag", None))
""")
case("dmode.handler_result_weakref", """
import weakref
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.refs = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        r = func(*args, **(kwargs or {}))
        if func is torch.ops.aten.mul.Tensor:
            self.refs.append(weakref.ref(r))
        return r
x = torch.ones(2)
with M() as m:
    y = x * 2
out = (len(m.refs), m.refs[0]() is y, m.refs[0]() is not None)
""")
case("dmode.handler_result_attr_requires_grad", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        r = func(*args, **(kwargs or {}))
        if isinstance(r, torch.Tensor):
            r.note = str(func)
        return r
x = torch.ones(2, requires_grad=True)
with M():
    y = x * 2
out = (getattr(y, "note", None), y.requires_grad, y.grad_fn is not None)
""")
case("dmode.func_is_overload", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.facts = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.facts.append((str(func), func.__name__, str(func.overloadpacket), func.name()))
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M() as m:
    x.mul(3)
out = m.facts
""")
case("dmode.types_argument_plain", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.types = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.types.append(tuple(types))
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M() as m:
    x + x
out = m.types
""")
case("dmode.kwargs_seen_by_add_alpha", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.kw = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.kw.append((str(func), len(args), sorted((kwargs or {}).items())))
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M() as m:
    torch.add(x, x, alpha=2)
out = m.kw
""")
case("dmode.number_arg_seen_as", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append((str(func), [type(a).__name__ for a in args]))
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M() as m:
    x + 1
    x * 2.5
out = m.seen
""")
case("dmode.init_without_super", """
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    def __init__(self):
        self.log = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.log.append(str(func))
        return func(*args, **(kwargs or {}))
x = torch.ones(2)
with M() as m:
    x + 1
out = m.log
""")

# function-mode stacks
case("fstack.exit_without_enter", PASS_FN + """
M().__exit__(None, None, None)
out = torch._C._len_torch_function_stack()
""")
case("fstack.enter_non_mode", """
from torch.overrides import TorchFunctionMode
TorchFunctionMode.__enter__(object())
out = torch._C._len_torch_function_stack()
""")
case("fstack.out_of_order_exit", PASS_FN + """
a, b = M(), M()
a.__enter__()
b.__enter__()
lens = [torch._C._len_torch_function_stack()]
a.__exit__(None, None, None)
lens.append(torch._C._len_torch_function_stack())
b.__exit__(None, None, None)
lens.append(torch._C._len_torch_function_stack())
out = lens
""")
case("fstack.handler_raises", """
from torch.overrides import TorchFunctionMode
class Bad(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise ValueError("no functions today")
with Bad():
    torch.ones(2) + 1
""")
case("fstack.handler_raises_state", """
from torch.overrides import TorchFunctionMode
class Bad(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise ValueError("no functions today")
x = torch.ones(2)
with Bad():
    try:
        x + 1
    except ValueError:
        pass
    inside = torch._C._len_torch_function_stack()
out = (inside, torch._C._len_torch_function_stack())
""")
case("fstack.base_class_handler", """
from torch.overrides import TorchFunctionMode
class Empty(TorchFunctionMode):
    pass
with Empty():
    torch.ones(2) + 1
""")
case("fstack.left_entered", PASS_FN + """
M().__enter__()
out = torch._C._len_torch_function_stack()
""")
case("fstack.function_and_dispatch_nested", PASS_FN + LOG_DISPATCH + """
x = torch.ones(2)
with M():
    with Log() as log:
        x + 1
out = (log.log, torch._C._len_torch_function_stack(), torch._C._len_torch_dispatch_stack())
""")

# ===================================================================================
# inplace: in-place operators with operands that are not numbers or tensors
# ===================================================================================
for _cid, _stmt in [
    ("inplace.iadd_none", "t += None"),
    ("inplace.iadd_str", "t += 'a'"),
    ("inplace.isub_str", "t -= 'x'"),
    ("inplace.imul_list", "t *= []"),
    ("inplace.idiv_none", "t /= None"),
    ("inplace.iadd_object", "t += object()"),
    ("inplace.iadd_list_numbers", "t += [1, 2]"),
    ("inplace.add_method_none", "t.add_(None)"),
    ("inplace.mul_method_str", "t.mul_('a')"),
    ("inplace.add_none", "t = t + None"),
    ("inplace.mul_str", "t = t * 'a'"),
    ("inplace.radd_none", "t = None + t"),
    ("inplace.rmul_str", "t = 'ab' * t"),
    ("inplace.add_dict", "t = t + {}"),
]:
    case(_cid, f"""
t = torch.ones(2)
{_stmt}
out = t
""")
case("inplace.iadd_broadcast_grow", """
t = torch.ones(2)
t += torch.ones(3, 2)
out = t
""")
case("inplace.iadd_float_into_int", """
t = torch.ones(2, dtype=torch.long)
t += 1.5
out = t
""")
case("inplace.iadd_float_tensor_into_int", """
t = torch.ones(2, dtype=torch.long)
t += torch.ones(2)
out = t
""")
case("inplace.idiv_int_tensor", """
t = torch.tensor([4, 6])
t /= 2
out = t
""")
case("inplace.mul_int_by_float_tensor", """
t = torch.tensor([1, 2])
t.mul_(torch.tensor([0.5, 0.5]))
out = t
""")

# ===================================================================================
# gather
# ===================================================================================
case("gather.negative_index", "out = torch.tensor([1.0, 2.0, 3.0]).gather(0, torch.tensor([-1]))")
case("gather.index_too_large", "out = torch.tensor([1.0, 2.0, 3.0]).gather(0, torch.tensor([3]))")
case("gather.negative_index_2d", "out = torch.ones(2, 3).gather(1, torch.tensor([[0, -2], [1, 0]]))")
case("gather.index_too_large_2d", "out = torch.ones(2, 3).gather(1, torch.tensor([[0, 5], [1, 0]]))")
case("gather.float_index", "out = torch.ones(3).gather(0, torch.tensor([0.0, 1.0]))")
case("gather.int32_index", "out = torch.ones(3).gather(0, torch.tensor([0, 1], dtype=torch.int32))")
case("gather.index_dims_differ", "out = torch.ones(2, 3).gather(1, torch.tensor([0, 1]))")
case("gather.dim_out_of_range", "out = torch.ones(2, 3).gather(2, torch.tensor([[0], [1]]))")
case("gather.index_larger_than_input", "out = torch.ones(2, 3).gather(1, torch.zeros(3, 1, dtype=torch.long))")
case("gather.result", "out = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).gather(1, torch.tensor([[1, 0], [0, 0]]))")
case("gather.negative_dim_result", "out = torch.tensor([[1.0, 2.0], [3.0, 4.0]]).gather(-1, torch.tensor([[1], [0]]))")

# ===================================================================================
# grad: requires_grad, grad-mode switches and decorators
# ===================================================================================
case("grad.requires_grad_str", "out = torch.ones(2, requires_grad='yes')")
case("grad.requires_grad_int_tensor_factory", "out = torch.ones(2, dtype=torch.long, requires_grad=True)")
case("grad.requires_grad__int", "out = torch.arange(3).requires_grad_()")
case("grad.requires_grad__bool_tensor", "out = torch.tensor([True]).requires_grad_()")
case("grad.requires_grad__str_arg", "out = torch.ones(2).requires_grad_('yes')")
case("grad.requires_grad_setter_str", """
x = torch.ones(2)
x.requires_grad = 'yes'
out = x.requires_grad
""")
case("grad.requires_grad_setter_int", """
x = torch.ones(2)
x.requires_grad = 1
out = x.requires_grad
""")
case("grad.requires_grad_false_on_non_leaf", """
x = torch.ones(2, requires_grad=True)
y = x * 2
y.requires_grad = False
out = y.requires_grad
""")
case("grad.requires_grad_true_on_non_leaf", """
x = torch.ones(2, requires_grad=True)
y = x * 2
y.requires_grad_(True)
out = (y.requires_grad, y.is_leaf)
""")
case("grad.set_grad_enabled_str", "torch.set_grad_enabled('x')\nout = torch.is_grad_enabled()")
case("grad.set_grad_enabled_int", "torch.set_grad_enabled(0)\nout = torch.is_grad_enabled()")
case("grad.set_grad_enabled_none", "torch.set_grad_enabled(None)\nout = torch.is_grad_enabled()")
case("grad.set_grad_enabled_false_call", "torch.set_grad_enabled(False)\nout = torch.is_grad_enabled()")
case("grad.set_grad_enabled_context_raises", """
try:
    with torch.set_grad_enabled(False):
        raise ValueError("inside")
except ValueError:
    pass
out = torch.is_grad_enabled()
""")
case("grad.no_grad_context_raises", """
try:
    with torch.no_grad():
        raise ValueError("inside")
except ValueError:
    pass
out = torch.is_grad_enabled()
""")
case("grad.no_grad_result_requires_grad", """
x = torch.ones(2, requires_grad=True)
with torch.no_grad():
    y = x * 2
out = (y.requires_grad, y.grad_fn)
""")
case("grad.no_grad_generator", """
@torch.no_grad()
def gen():
    yield torch.is_grad_enabled()
    yield torch.is_grad_enabled()
out = (list(gen()), torch.is_grad_enabled())
""")
case("grad.no_grad_generator_between_yields", """
@torch.no_grad()
def gen():
    yield torch.is_grad_enabled()
    yield torch.is_grad_enabled()
g = gen()
first = next(g)
between = torch.is_grad_enabled()
second = next(g)
out = (first, between, second)
""")
case("grad.enable_grad_generator", """
@torch.enable_grad()
def gen():
    yield torch.is_grad_enabled()
with torch.no_grad():
    out = (list(gen()), torch.is_grad_enabled())
""")
case("grad.inference_mode_generator", """
@torch.inference_mode()
def gen():
    yield torch.is_inference_mode_enabled()
out = (list(gen()), torch.is_inference_mode_enabled())
""")
case("grad.set_grad_enabled_generator", """
@torch.set_grad_enabled(False)
def gen():
    yield torch.is_grad_enabled()
out = (list(gen()), torch.is_grad_enabled())
""")
case("grad.no_grad_generator_tensor", """
x = torch.ones(2, requires_grad=True)
@torch.no_grad()
def gen():
    yield x * 2
out = [t.requires_grad for t in gen()]
""")
case("grad.no_grad_decorator_no_parens", """
@torch.no_grad
def f():
    return torch.is_grad_enabled()
out = f()
""")
case("grad.inference_mode_decorator_no_parens", """
@torch.inference_mode
def f():
    return torch.is_inference_mode_enabled()
out = f()
""")
case("grad.no_grad_decorator_function", """
@torch.no_grad()
def f(x):
    return x * 2
out = f(torch.ones(2, requires_grad=True)).requires_grad
""")
case("grad.no_grad_with_args", "out = torch.no_grad(True)")
case("grad.inference_mode_inside_no_grad", """
with torch.no_grad():
    with torch.inference_mode():
        a = torch.is_grad_enabled()
    b = torch.is_inference_mode_enabled()
out = (a, b, torch.is_grad_enabled())
""")
case("grad.inference_mode_false_inside", """
with torch.inference_mode():
    with torch.inference_mode(False):
        out = (torch.is_inference_mode_enabled(), torch.is_grad_enabled())
""")
case("grad.inference_mode_state_inside", """
with torch.inference_mode():
    inside = (torch.is_inference_mode_enabled(), torch.is_grad_enabled(),
              repr(torch._C._dispatch_tls_local_exclude_set()))
out = inside
""")
case("grad.nested_no_grad_enable_grad", """
with torch.no_grad():
    with torch.enable_grad():
        a = torch.is_grad_enabled()
    b = torch.is_grad_enabled()
out = (a, b)
""")
case("grad.enter_no_grad_left", "torch.no_grad().__enter__()\nout = torch.is_grad_enabled()")
case("grad.inference_mode_left_entered", "torch.inference_mode().__enter__()\nout = torch.is_inference_mode_enabled()")
case("grad.no_grad_exit_without_enter", "torch.no_grad().__exit__(None, None, None)\nout = torch.is_grad_enabled()")
case("grad.is_grad_enabled_arg", "out = torch.is_grad_enabled(True)")

# ===================================================================================
# module: nn.Module registration and attribute mistakes
# ===================================================================================
case("module.add_module_dotted", """
import torch.nn as nn
m = nn.Module()
m.add_module('a.b', nn.ReLU())
out = list(m._modules)
""")
case("module.add_module_empty", """
import torch.nn as nn
m = nn.Module()
m.add_module('', nn.ReLU())
out = list(m._modules)
""")
case("module.add_module_int_name", """
import torch.nn as nn
m = nn.Module()
m.add_module(1, nn.ReLU())
out = list(m._modules)
""")
case("module.add_module_non_module", """
import torch.nn as nn
m = nn.Module()
m.add_module('x', 3)
out = list(m._modules)
""")
case("module.add_module_existing_attr", """
import torch.nn as nn
m = nn.Module()
m.foo = 1
m.add_module('foo', nn.ReLU())
out = list(m._modules)
""")
case("module.add_module_none", """
import torch.nn as nn
m = nn.Module()
m.add_module('slot', None)
out = (list(m._modules), m.slot)
""")
case("module.register_module_dotted", """
import torch.nn as nn
m = nn.Module()
m.register_module('a.b', nn.ReLU())
out = list(m._modules)
""")
case("module.register_parameter_dotted", """
import torch.nn as nn
m = nn.Module()
m.register_parameter('a.b', nn.Parameter(torch.ones(2)))
out = list(m._parameters)
""")
case("module.register_parameter_empty", """
import torch.nn as nn
m = nn.Module()
m.register_parameter('', nn.Parameter(torch.ones(2)))
out = list(m._parameters)
""")
case("module.register_parameter_int_name", """
import torch.nn as nn
m = nn.Module()
m.register_parameter(3, nn.Parameter(torch.ones(2)))
out = list(m._parameters)
""")
case("module.register_parameter_tensor", """
import torch.nn as nn
m = nn.Module()
m.register_parameter('w', torch.ones(2))
out = list(m._parameters)
""")
case("module.register_parameter_number", """
import torch.nn as nn
m = nn.Module()
m.register_parameter('w', 3.0)
out = list(m._parameters)
""")
case("module.register_parameter_existing_attr", """
import torch.nn as nn
m = nn.Module()
m.w = 5
m.register_parameter('w', nn.Parameter(torch.ones(2)))
out = list(m._parameters)
""")
case("module.register_parameter_none", """
import torch.nn as nn
m = nn.Module()
m.register_parameter('w', None)
out = (list(m._parameters), m.w, list(m.parameters()))
""")
case("module.register_parameter_before_init", """
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        self.register_parameter('w', nn.Parameter(torch.ones(2)))
out = Net()
""")
case("module.assign_parameter_before_init", """
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        self.w = nn.Parameter(torch.ones(2))
out = Net()
""")
case("module.assign_module_before_init", """
import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        self.lin = nn.Linear(2, 2)
out = Net()
""")
case("module.register_buffer_number", """
import torch.nn as nn
m = nn.Module()
m.register_buffer('b', 3)
out = list(m._buffers)
""")
case("module.register_buffer_dotted", """
import torch.nn as nn
m = nn.Module()
m.register_buffer('a.b', torch.ones(2))
out = list(m._buffers)
""")
case("module.register_buffer_existing_attr", """
import torch.nn as nn
m = nn.Module()
m.b = 1
m.register_buffer('b', torch.ones(2))
out = list(m._buffers)
""")
case("module.assign_tensor_to_parameter", """
import torch.nn as nn
m = nn.Linear(2, 3)
m.weight = torch.ones(3, 2)
out = m.weight
""")
case("module.assign_int_to_child", """
import torch.nn as nn
m = nn.Sequential(nn.ReLU())
m._modules['0']
setattr(m, '0', 5)
out = m[0]
""")
case("module.missing_attribute", """
import torch.nn as nn
out = nn.Linear(2, 3).missing
""")
case("module.no_forward", """
import torch.nn as nn
out = nn.Module()(torch.ones(2))
""")
case("module.forward_wrong_arg_count", """
import torch.nn as nn
out = nn.ReLU()(torch.ones(2), torch.ones(2))
""")
case("module.train_str", """
import torch.nn as nn
out = nn.Linear(2, 2).train('yes')
""")
case("module.train_eval_flags", """
import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 2), nn.Dropout())
m.eval()
a = [c.training for c in m.modules()]
m.train()
out = (a, [c.training for c in m.modules()])
""")
case("module.named_parameters", """
import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1, bias=False))
out = [(n, list(p.shape)) for n, p in m.named_parameters()]
""")
case("module.state_dict_keys", """
import torch.nn as nn
m = nn.Sequential(nn.Linear(2, 3), nn.LayerNorm(3))
out = list(m.state_dict().keys())
""")
case("module.zero_grad_sets_none", """
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
m(torch.ones(1, 2)).sum().backward()
m.zero_grad()
out = [p.grad for p in m.parameters()]
""")
case("module.repr_linear", "import torch.nn as nn\nout = repr(nn.Linear(2, 3))")
case("module.repr_sequential", """
import torch.nn as nn
out = repr(nn.Sequential(nn.Linear(2, 3, bias=False), nn.ReLU(), nn.Dropout(0.1)))
""")
case("module.sequential_index_out_of_range", """
import torch.nn as nn
out = nn.Sequential(nn.ReLU())[5]
""")
case("module.sequential_non_module", """
import torch.nn as nn
out = nn.Sequential(nn.ReLU(), 3)
""")
case("module.sequential_len_slice", """
import torch.nn as nn
s = nn.Sequential(nn.ReLU(), nn.GELU(), nn.ReLU())
out = (len(s), type(s[1:]).__name__, len(s[1:]), type(s[-1]).__name__)
""")
case("module.modulelist_append_int", """
import torch.nn as nn
ml = nn.ModuleList()
ml.append(3)
out = len(ml)
""")
case("module.modulelist_index_out_of_range", """
import torch.nn as nn
out = nn.ModuleList([nn.ReLU()])[1]
""")
case("module.modulelist_call", """
import torch.nn as nn
out = nn.ModuleList([nn.ReLU()])(torch.ones(2))
""")
case("module.parameters_count", """
import torch.nn as nn
m = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 2))
out = sum(p.numel() for p in m.parameters())
""")
case("module.shared_parameter_counted_once", """
import torch.nn as nn
lin = nn.Linear(2, 2)
m = nn.Sequential(lin, lin)
out = len(list(m.parameters()))
""")
case("module.requires_grad_false", """
import torch.nn as nn
m = nn.Linear(2, 2).requires_grad_(False)
out = [p.requires_grad for p in m.parameters()]
""")
case("module.delattr_parameter", """
import torch.nn as nn
m = nn.Linear(2, 2)
del m.bias
out = (list(m._parameters), hasattr(m, 'bias'))
""")

# ===================================================================================
# prof: the profiler entered, exited and read at the wrong times
# ===================================================================================
case("prof.exit_without_enter", """
p = torch.profiler.profile()
p.__exit__(None, None, None)
out = "exited"
""")
case("prof.enter_twice", """
p = torch.profiler.profile()
p.__enter__()
p.__enter__()
out = "entered twice"
""")
# TensorIterator's casts and torch.tensor's calls, as the profiler sees them
for _name, _expr in [
    ("mul_int", 'x * 2'),
    ("mul_float", 'x * 2.0'),
    ("mul_same", 'x * x'),
    ("mul_f64", 'x * xd'),
    ("mul_int64", 'x * xi'),
    ("add_int", 'x + 1'),
    ("mul_inplace_int", 'x.mul_(2)'),
    ("mul_inplace_f64", 'x.mul_(xd)'),
    ("div_ints", 'xi / 2'),
    ("eq_scalar", 'x == 1'),
    ("eq_scalar_same", 'xi == 1'),
    ("eq_scalar_float", 'xi == 1.5'),
    ("half_scalar", 'xh * 0.1'),
    ("half_half", 'xh * xh'),
    ("relu_int", 'torch.relu(xi)'),
    ("neg_int", '-xi'),
    ("sqrt_int", 'torch.sqrt(xi)'),
    ("eq_tensor", 'torch.eq(x, xd)'),
    ("gelu_backward", 'torch.ops.aten.gelu_backward(x, xd)'),
    ("threshold_backward", 'torch.ops.aten.threshold_backward(x, xd, 0)'),
    ("float_", 'xi.float()'),
    ("to_same", 'x.to(torch.float32)'),
    ("sub_inplace", 'x.sub_(xi)'),
    ("bool_add", 'torch.ones(2, dtype=torch.bool) + 1'),
    ("clamp_min_int", 'torch.clamp_min(xi, 1.5)'),
    ("tensor_ctor", 'torch.tensor([1., 2.], requires_grad=True)'),
    ("tensor_ctor_f64", 'torch.tensor(2.0, dtype=torch.float64)'),
]:
    case("prof.casts_" + _name, """
x = torch.ones(2); xd = torch.ones(2, dtype=torch.float64); xi = torch.ones(2, dtype=torch.int64); xh = torch.ones(2, dtype=torch.float16)
with torch.profiler.profile() as p:
    r = %s
out = ([e.name for e in p.events()], r)
""" % _expr)
case("prof.two_profilers_nested", """
with torch.profiler.profile():
    with torch.profiler.profile():
        torch.ones(2) + 1
out = "nested"
""")
case("prof.key_averages_while_recording", """
with torch.profiler.profile() as p:
    torch.ones(2) + 1
    out = len(p.key_averages())
""")
case("prof.events_while_recording", """
with torch.profiler.profile() as p:
    torch.ones(2) + 1
    out = len(p.events())
""")
case("prof.autograd_key_averages_while_recording", """
with torch.autograd.profiler.profile() as p:
    torch.ones(2) + 1
    out = p.key_averages()
""")
case("prof.key_averages_never_entered", """
p = torch.profiler.profile()
out = p.key_averages()
""")
case("prof.table_bad_sort_by", """
with torch.profiler.profile() as p:
    torch.ones(2) + 1
out = p.key_averages().table(sort_by="not_a_column")
""")
case("prof.event_names_add", """
x = torch.ones(2)
with torch.profiler.profile() as p:
    x + x
out = [e.name for e in p.events()]
""")
case("prof.record_function_names", """
x = torch.ones(2)
with torch.profiler.profile() as p:
    with torch.profiler.record_function("my_range"):
        x * 2
out = [e.name for e in p.events()]
""")
case("prof.record_function_exit_without_enter", """
r = torch.profiler.record_function("r")
r.__exit__(None, None, None)
out = "exited"
""")
case("prof.record_function_int_name", """
with torch.profiler.profile() as p:
    with torch.profiler.record_function(3):
        pass
out = [e.name for e in p.events()]
""")
case("prof.zero_grad_sgd", """
import torch.nn as nn
m = nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward()
with torch.profiler.profile() as p:
    opt.zero_grad()
out = [e.name for e in p.events() if "zero_grad" in e.name]
""")
case("prof.zero_grad_adamw", """
import torch.nn as nn
m = nn.Linear(2, 2)
opt = torch.optim.AdamW(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward()
with torch.profiler.profile() as p:
    opt.zero_grad()
out = [e.name for e in p.events() if "zero_grad" in e.name]
""")
case("prof.step_sgd_names", """
import torch.nn as nn
m = nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward()
with torch.profiler.profile() as p:
    opt.step()
out = [e.name for e in p.events() if "Optimizer" in e.name]
""")
case("prof.activities_str", """
with torch.profiler.profile(activities=["cpu"]):
    pass
out = "ran"
""")
case("prof.reuse_after_exit", """
p = torch.profiler.profile()
with p:
    torch.ones(2) + 1
with p:
    torch.ones(2) * 2
out = sorted(set(e.name for e in p.events()))
""")
case("prof.state_after_raise", """
try:
    with torch.profiler.profile():
        raise ValueError("x")
except ValueError:
    pass
with torch.profiler.profile() as p:
    torch.ones(2) + 1
out = [e.name for e in p.events() if e.name.startswith("aten::add")]
""")

# ===================================================================================
# memfmt: memory formats
# ===================================================================================
case("memfmt.is_contiguous_channels_last_4d", "out = torch.ones(2, 3, 4, 5).is_contiguous(memory_format=torch.channels_last)")
case("memfmt.is_contiguous_channels_last_2d", "out = torch.ones(2, 3).is_contiguous(memory_format=torch.channels_last)")
case("memfmt.is_contiguous_contiguous_format", "out = torch.ones(2, 3).is_contiguous(memory_format=torch.contiguous_format)")
case("memfmt.is_contiguous_preserve_format", "out = torch.ones(2, 3).is_contiguous(memory_format=torch.preserve_format)")
case("memfmt.to_channels_last_4d", "x = torch.ones(2, 3, 4, 5).to(memory_format=torch.channels_last)\nout = (x.stride(), x.is_contiguous())")
case("memfmt.to_channels_last_2d", "out = torch.ones(2, 3).to(memory_format=torch.channels_last)")
case("memfmt.contiguous_channels_last_4d", "out = torch.ones(1, 2, 2, 2).contiguous(memory_format=torch.channels_last).stride()")
case("memfmt.empty_channels_last", "out = torch.empty(2, 3, 4, 5, memory_format=torch.channels_last).stride()")
case("memfmt.clone_preserve_transposed", "out = torch.ones(2, 3).t().clone().stride()")

# ===================================================================================
# nan: a NaN-detecting dispatch mode
# ===================================================================================
NAN_MODE = '''
from torch.utils._python_dispatch import TorchDispatchMode
class NaNCheck(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.found = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        r = func(*args, **(kwargs or {}))
        if isinstance(r, torch.Tensor) and r.is_floating_point():
            try:
                if (r != r).any():
                    self.found.append(str(func))
            except NotImplementedError:
                pass
        return r
'''
case("nan.detect_div", NAN_MODE + """
x = torch.tensor([0.0, 1.0])
with NaNCheck() as m:
    x / x
out = m.found
""")
case("nan.detect_sub_inf", NAN_MODE + """
x = torch.tensor([float('inf'), 1.0])
with NaNCheck() as m:
    x - x
out = m.found
""")
case("nan.none_found", NAN_MODE + """
x = torch.tensor([2.0, 1.0])
with NaNCheck() as m:
    x * x + 1
out = m.found
""")
case("nan.detect_mul_zero_inf", NAN_MODE + """
x = torch.tensor([0.0])
y = torch.tensor([float('inf')])
with NaNCheck() as m:
    torch.mul(x, y)
out = m.found
""")
case("nan.ne_self", "x = torch.tensor([float('nan'), 1.0])\nout = x != x")

# ===================================================================================
# trace: what modes and the profiler see of backward, item, Parameter, optimizers, subclasses
# ===================================================================================
case("trace.backward_function_names", NAMES_FN + """
w = torch.ones(2, requires_grad=True)
loss = (w * 3).sum()
with Names() as m:
    loss.backward()
out = (m.names, w.grad)
""")
case("trace.backward_function_names_step", NAMES_FN + STEP + """
with Names() as m:
    loss = F.cross_entropy(model(x), y)
    loss.backward()
out = m.names
""")
case("trace.autograd_backward_function_names", NAMES_FN + """
w = torch.ones(2, requires_grad=True)
loss = (w * w).sum()
with Names() as m:
    torch.autograd.backward(loss)
out = (m.names, w.grad)
""")
case("trace.item_dispatch_log", LOG_DISPATCH + """
loss = torch.tensor([1.5, 2.0]).sum()
with Log() as m:
    v = loss.item()
out = (m.log, v)
""")
case("trace.float_dispatch_log", LOG_DISPATCH + """
t = torch.tensor(2.5)
with Log() as m:
    v = float(t)
out = (m.log, v)
""")
case("trace.tolist_dispatch_log", LOG_DISPATCH + """
t = torch.tensor([1.0, 2.0])
with Log() as m:
    v = t.tolist()
out = (m.log, v)
""")
case("trace.parameter_dispatch_log", LOG_DISPATCH + """
import torch.nn as nn
t = torch.ones(2)
with Log() as m:
    p = nn.Parameter(t)
out = (m.log, type(p).__name__, p.requires_grad)
""")
case("trace.linear_init_dispatch_log", LOG_DISPATCH + """
import torch.nn as nn
torch.manual_seed(0)
with Log() as m:
    nn.Linear(2, 2)
out = m.log
""")
case("trace.zero_grad_sgd_dispatch_log", LOG_DISPATCH + """
import torch.nn as nn
m = nn.Linear(2, 2)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward()
with Log() as log:
    opt.zero_grad()
out = log.log
""")
case("trace.sgd_step_dispatch_log", LOG_DISPATCH + """
import torch.nn as nn
torch.manual_seed(0)
m = nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
m(torch.ones(1, 2)).sum().backward()
with Log() as log:
    opt.step()
out = log.log
""")
case("trace.dropout_arg_log", ARGS_DISPATCH + """
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.ones(2, 3)
with ArgLog() as m:
    F.dropout(x, 0.5, training=True)
out = m.log
""")
case("trace.dropout_module_arg_log", ARGS_DISPATCH + """
import torch.nn as nn
torch.manual_seed(0)
d = nn.Dropout(0.25)
with ArgLog() as m:
    d(torch.ones(4))
out = m.log
""")
case("trace.empty_like_kwargs", ARGS_DISPATCH + """
x = torch.ones(2)
with ArgLog() as m:
    torch.empty_like(x)
out = m.log
""")
case("trace.ones_factory_kwargs", ARGS_DISPATCH + """
with ArgLog() as m:
    torch.ones(2, 3)
out = m.log
""")
case("trace.backward_dispatch_log", LOG_DISPATCH + """
w = torch.ones(2, requires_grad=True)
loss = (w * 3).sum()
with Log() as m:
    loss.backward()
out = m.log
""")
case("trace.softmax_dtype_mode", """
import torch.nn.functional as F
from torch.utils._python_dispatch import TorchDispatchMode
class M(TorchDispatchMode):
    seen = []
    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        M.seen.append((str(func), sorted((kwargs or {}).items())))
        return func(*args, **(kwargs or {}))
x = torch.ones(3)
with M():
    F.softmax(x, 0, dtype=torch.float64)
    F.log_softmax(x, 0, dtype=torch.float64)
out = [(f, [(k, str(v)) for k, v in kw]) for f, kw in M.seen]
""")
case("trace.make_subclass_torch_dispatch", """
class Sub(torch.Tensor):
    seen = []
    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(str(func))
        return torch.zeros(2)
s = torch.Tensor._make_subclass(Sub, torch.ones(2))
r = s + 1
out = (Sub.seen, type(r).__name__, r)
""")
case("trace.make_subclass_type_preserved", """
class Sub(torch.Tensor):
    pass
s = torch.Tensor._make_subclass(Sub, torch.ones(2))
out = (type(s).__name__, type(s + 1).__name__, type(s.sum()).__name__)
""")
case("trace.make_subclass_requires_grad", """
class Sub(torch.Tensor):
    pass
s = torch.Tensor._make_subclass(Sub, torch.ones(2), True)
out = (type(s).__name__, s.requires_grad, s.is_leaf)
""")
case("trace.make_subclass_of_non_tensor_class", """
class NotTensor:
    pass
out = torch.Tensor._make_subclass(NotTensor, torch.ones(2))
""")
case("trace.make_subclass_data_list", """
class Sub(torch.Tensor):
    pass
out = torch.Tensor._make_subclass(Sub, [1.0, 2.0])
""")
case("trace.wrapper_subclass_dispatch", """
from torch.utils._pytree import tree_map
class W(torch.Tensor):
    @staticmethod
    def __new__(cls, elem):
        r = torch.Tensor._make_wrapper_subclass(cls, elem.shape, dtype=elem.dtype)
        r.elem = elem
        return r
    seen = []
    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(str(func))
        un = lambda t: t.elem if isinstance(t, W) else t
        r = func(*tree_map(un, args), **tree_map(un, kwargs or {}))
        return tree_map(lambda t: W(t) if isinstance(t, torch.Tensor) else t, r)
w = W(torch.ones(2))
r = w * 3 + 1
out = (W.seen, type(r).__name__, r.elem)
""")
case("trace.wrapper_subclass_no_handler_result", """
class W(torch.Tensor):
    @staticmethod
    def __new__(cls, elem):
        return torch.Tensor._make_wrapper_subclass(cls, elem.shape, dtype=elem.dtype)
    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        return NotImplemented
w = W(torch.ones(2))
out = w + 1
""")
case("trace.eq_dunder", "out = torch.tensor([1.0, 2.0]).__eq__(torch.tensor([1.0, 3.0]))")
case("trace.eq_operator", "a = torch.tensor([1, 2]); b = torch.tensor([1, 3])\nout = a == b")
case("trace.eq_operator_number", "out = torch.tensor([1, 2]) == 2")
case("trace.eq_dunder_non_tensor", "out = torch.tensor([1, 2]).__eq__('a')")
case("trace.eq_operator_none", "out = torch.tensor([1, 2]) == None")
case("trace.ne_operator", "out = torch.tensor([1, 2]) != torch.tensor([1, 3])")
case("trace.eq_under_function_mode", SEEN_FN + """
a, b = torch.tensor([1, 2]), torch.tensor([1, 3])
with Seen() as m:
    r = a == b
out = (r, m.seen)
""")
case("trace.opoverload_module", "out = torch.ops.aten.add.Tensor.__module__")
case("trace.opoverloadpacket_module", "out = torch.ops.aten.add.__module__")
case("trace.opoverload_name", "out = (torch.ops.aten.add.Tensor.__name__, torch.ops.aten.add.Tensor._overloadname, str(torch.ops.aten.add.Tensor))")
case("trace.opoverload_missing", "out = torch.ops.aten.add.NoSuchOverload")
case("trace.opoverload_call_wrong_args", "out = torch.ops.aten.add.Tensor(torch.ones(2))")
case("trace.repr_tensor_contents_none", "out = torch.ones(2).__repr__(tensor_contents=None)")
case("trace.disabled_torch_function_impl_exists", "out = hasattr(torch._C, '_disabled_torch_function_impl')")
case("trace.subclass_disabled_torch_function", """
class S(torch.Tensor):
    __torch_function__ = torch._C._disabled_torch_function_impl
s = torch.Tensor._make_subclass(S, torch.ones(2))
out = (type(s + 1).__name__, type(s).__name__)
""")
case("trace.tensor_torch_function_direct", """
x = torch.ones(2)
out = torch.Tensor.__torch_function__(torch.add, (torch.Tensor,), (x, x))
""")
case("trace.tensor_torch_function_is_classmethod", """
out = (type(torch.Tensor.__dict__['__torch_function__']).__name__, torch.Tensor.__torch_function__.__self__ is torch.Tensor)
""")
case("trace.subclass_torch_function_sees", """
class S(torch.Tensor):
    seen = []
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(getattr(func, '__name__', '?'))
        return super().__torch_function__(func, types, args, kwargs)
s = torch.Tensor._make_subclass(S, torch.ones(2))
r = s * 2
out = (S.seen, type(r).__name__)
""")

# ===================================================================================
# conv: converting tensors to Python values
# ===================================================================================
for _cid, _expr in [
    ("conv.float_two_elements", "float(torch.ones(2))"),
    ("conv.int_two_elements", "int(torch.ones(2))"),
    ("conv.bool_two_elements", "bool(torch.ones(2))"),
    ("conv.bool_empty", "bool(torch.empty(0))"),
    ("conv.item_two_elements", "torch.ones(2).item()"),
    ("conv.item_empty", "torch.empty(0).item()"),
    ("conv.float_one_element", "float(torch.tensor([2.5]))"),
    ("conv.int_one_element_float", "int(torch.tensor([[2.7]]))"),
    ("conv.int_negative_float", "int(torch.tensor(-2.7))"),
    ("conv.bool_zero", "bool(torch.tensor(0.0))"),
    ("conv.bool_nan", "bool(torch.tensor(float('nan')))"),
    ("conv.item_int64", "torch.tensor(2**40).item()"),
    ("conv.item_bool", "torch.tensor(True).item()"),
    ("conv.index_int_tensor", "[10, 20, 30][torch.tensor(1)]"),
    ("conv.index_float_tensor", "[10, 20, 30][torch.tensor(1.0)]"),
    ("conv.tolist_scalar", "torch.tensor(3.5).tolist()"),
    ("conv.tolist_nested", "torch.tensor([[1, 2], [3, 4]]).tolist()"),
    ("conv.len_scalar", "len(torch.tensor(1.0))"),
    ("conv.len_matrix", "len(torch.ones(3, 2))"),
    ("conv.format_scalar", "'{:.2f}'.format(torch.tensor(1.2345))"),
    ("conv.format_vector", "'{:.2f}'.format(torch.tensor([1.2345, 2.0]))"),
    ("conv.complex_of_tensor", "complex(torch.tensor(1.5))"),
    ("conv.numpy", "torch.ones(2).numpy()"),
    ("conv.range_with_tensor", "list(range(torch.tensor(3)))"),
]:
    case(_cid, f"out = {_expr}")

# ===================================================================================
# index: indexing mistakes
# ===================================================================================
for _cid, _expr in [
    ("index.column_out_of_range", "torch.ones(2, 3)[0, 3]"),
    ("index.row_out_of_range", "torch.ones(2, 3)[2]"),
    ("index.too_many_indices", "torch.ones(2, 3)[0, 0, 0]"),
    ("index.negative_out_of_range", "torch.ones(2, 3)[-3]"),
    ("index.float_index", "torch.ones(2, 3)[0.5]"),
    ("index.str_index", "torch.ones(2, 3)['a']"),
    ("index.scalar_tensor_int", "torch.ones(2, 3)[0, 0][0]"),
    ("index.none_result", "torch.ones(2, 3)[None].shape"),
    ("index.ellipsis_result", "torch.arange(6).reshape(2, 3)[..., 1]"),
    ("index.two_ellipsis", "torch.ones(2, 3)[..., ...]"),
    ("index.slice_result", "torch.arange(6).reshape(2, 3)[:, 1:]"),
    ("index.slice_step_result", "torch.arange(6)[::2]"),
    ("index.negative_step", "torch.arange(6)[::-1]"),
    ("index.zero_step", "torch.arange(6)[::0]"),
    ("index.slice_past_end", "torch.arange(6)[4:100]"),
    ("index.negative_index_result", "torch.arange(6).reshape(2, 3)[-1, -1]"),
    ("index.bool_mask_result", "torch.tensor([1.0, 2.0, 3.0])[torch.tensor([True, False, True])]"),
    ("index.bool_mask_wrong_length", "torch.tensor([1.0, 2.0, 3.0])[torch.tensor([True, False])]"),
    ("index.long_tensor_index", "torch.tensor([1.0, 2.0, 3.0])[torch.tensor([2, 0])]"),
    ("index.long_tensor_out_of_range", "torch.tensor([1.0, 2.0, 3.0])[torch.tensor([3])]"),
    ("index.float_tensor_index", "torch.tensor([1.0, 2.0, 3.0])[torch.tensor([0.0])]"),
    ("index.list_index", "torch.tensor([1.0, 2.0, 3.0])[[0, 2]]"),
    ("index.scalar_tensor_index_0d", "torch.tensor(5.0)[0]"),
    ("index.tuple_of_slices_too_many", "torch.ones(2)[:, :]"),
    ("index.bool_python_index", "torch.ones(2, 3)[True].shape"),
]:
    case(_cid, f"out = {_expr}")
case("index.setitem_number", "x = torch.zeros(2, 3)\nx[0, 1] = 5\nout = x")
case("index.setitem_out_of_range", "x = torch.zeros(2, 3)\nx[2] = 1\nout = x")
case("index.setitem_wrong_shape", "x = torch.zeros(2, 3)\nx[0] = torch.ones(2)\nout = x")
case("index.setitem_str", "x = torch.zeros(2, 3)\nx[0] = 'a'\nout = x")
case("index.setitem_slice_broadcast", "x = torch.zeros(2, 3)\nx[:, 1] = torch.tensor([1.0, 2.0])\nout = x")
case("index.setitem_leaf_requires_grad", "x = torch.zeros(2, requires_grad=True)\nx[0] = 1.0\nout = x")

# ===================================================================================
# gradfn: autograd graph nodes
# ===================================================================================
case("gradfn.register_hook", """
x = torch.ones(2, requires_grad=True)
y = x * 2
seen = []
h = y.grad_fn.register_hook(lambda gi, go: seen.append(len(go)))
y.sum().backward()
out = (type(h).__name__, seen)
""")
case("gradfn.register_prehook", """
x = torch.ones(2, requires_grad=True)
y = x * 2
seen = []
y.grad_fn.register_prehook(lambda go: seen.append(len(go)))
y.sum().backward()
out = seen
""")
case("gradfn.name_with_arg", """
y = torch.ones(2, requires_grad=True) * 2
out = y.grad_fn.name(1)
""")
case("gradfn.name", """
y = torch.ones(2, requires_grad=True) * 2
out = (y.grad_fn.name(), type(y.grad_fn).__name__)
""")
case("gradfn.leaf_has_none", """
x = torch.ones(2, requires_grad=True)
out = x.grad_fn.next_functions
""")
case("gradfn.next_functions", """
x = torch.ones(2, requires_grad=True)
y = (x * 2).sum()
out = [(type(f).__name__ if f is not None else None, i) for f, i in y.grad_fn.next_functions]
""")
case("gradfn.next_functions_constant", """
x = torch.ones(2, requires_grad=True)
c = torch.ones(2)
y = x * c
out = [(type(f).__name__ if f is not None else None, i) for f, i in y.grad_fn.next_functions]
""")
case("gradfn.accumulate_grad_variable", """
x = torch.ones(2, requires_grad=True)
y = x * 2
acc = y.grad_fn.next_functions[0][0]
out = (type(acc).__name__, acc.variable is x, acc.next_functions)
""")
case("gradfn.unknown_attribute", """
y = torch.ones(2, requires_grad=True) * 2
out = y.grad_fn.foo
""")
case("gradfn.saved_tensor", """
x = torch.ones(2, requires_grad=True)
y = x * torch.tensor([3.0, 4.0])
out = y.grad_fn._saved_other
""")
case("gradfn.metadata", """
y = torch.ones(2, requires_grad=True) * 2
out = y.grad_fn.metadata
""")
case("gradfn.set_attribute", """
y = torch.ones(2, requires_grad=True) * 2
y.grad_fn.foo = 1
out = y.grad_fn.foo
""")
case("gradfn.no_grad_result", "out = (torch.ones(2) * 2).grad_fn")
case("gradfn.names_chain", """
x = torch.ones(2, 2, requires_grad=True)
y = x.t().reshape(4).sum()
names = []
f = y.grad_fn
while f is not None:
    names.append(f.name())
    f = f.next_functions[0][0] if f.next_functions else None
out = names
""")

# ===================================================================================
# alloc: sizes PyTorch refuses whatever the machine
# ===================================================================================
case("alloc.empty_2_62", "out = torch.empty(2**62)")
case("alloc.empty_2_62_by_2_62", "out = torch.empty(2**62, 2**62)")
case("alloc.zeros_2_61_by_8", "out = torch.zeros(2**61, 8)")
case("alloc.ones_2_32_by_2_32", "out = torch.ones(2**32, 2**32)")
case("alloc.empty_2_64", "out = torch.empty(2**64)")
case("alloc.full_2_62_double", "out = torch.full((2**62,), 1.0, dtype=torch.float64)")

# ===================================================================================
# arith: elementwise arithmetic, broadcasting and dtype promotion
# ===================================================================================
for _cid, _expr in [
    ("arith.add_shape_mismatch", "torch.ones(2, 3) + torch.ones(2, 2)"),
    ("arith.mul_shape_mismatch", "torch.ones(3) * torch.ones(4)"),
    ("arith.sub_shape_mismatch_dims", "torch.ones(2, 3, 4) - torch.ones(3, 3)"),
    ("arith.div_shape_mismatch", "torch.ones(5) / torch.ones(2)"),
    ("arith.broadcast_result", "(torch.ones(2, 1) + torch.arange(3.0)).shape"),
    ("arith.broadcast_values", "torch.tensor([[1.0], [2.0]]) * torch.tensor([1.0, 10.0, 100.0])"),
    ("arith.broadcast_3d", "(torch.ones(4, 1, 3) + torch.ones(2, 1)).shape"),
    ("arith.promote_int_float", "(torch.tensor([1, 2]) + torch.tensor([0.5, 0.5])).dtype"),
    ("arith.promote_int_python_float", "torch.tensor([1, 2]) * 1.5"),
    ("arith.promote_bool_int", "torch.tensor([True, False]) + 1"),
    ("arith.promote_bool_bool", "torch.tensor([True, False]) + torch.tensor([True, True])"),
    ("arith.promote_float_double", "(torch.ones(2) + torch.ones(2, dtype=torch.float64)).dtype"),
    ("arith.promote_int_scalar_float_tensor", "(torch.ones(2, dtype=torch.float16) * torch.tensor(2.0, dtype=torch.float64)).dtype"),
    ("arith.promote_half_python_float", "(torch.ones(2, dtype=torch.float16) + 1.5).dtype"),
    ("arith.promote_long_zero_dim_double", "(torch.tensor([1, 2]) + torch.tensor(1.0, dtype=torch.float64)).dtype"),
    ("arith.int_div_true", "torch.tensor([3, 4]) / 2"),
    ("arith.int_div_floor_mode", "torch.div(torch.tensor([7, -7]), 2, rounding_mode='floor')"),
    ("arith.int_div_trunc_mode", "torch.div(torch.tensor([7, -7]), 2, rounding_mode='trunc')"),
    ("arith.div_bad_rounding_mode", "torch.div(torch.tensor([7.0]), 2, rounding_mode='round')"),
    ("arith.div_by_zero_float", "torch.tensor([1.0, -1.0, 0.0]) / 0"),
    ("arith.int_div_by_zero_floor", "torch.div(torch.tensor([1]), 0, rounding_mode='floor')"),
    ("arith.add_alpha_float_to_int", "torch.add(torch.tensor([1]), torch.tensor([1]), alpha=0.5)"),
    ("arith.add_alpha_result", "torch.add(torch.ones(2), torch.ones(2), alpha=3)"),
    ("arith.sub_bool", "torch.tensor([True]) - torch.tensor([False])"),
    ("arith.neg_bool", "-torch.tensor([True])"),
    ("arith.add_str_arg", "torch.add(torch.ones(2), 'a')"),
    ("arith.add_too_many_args", "torch.add(torch.ones(2), torch.ones(2), 1, 2)"),
    ("arith.add_bad_kwarg", "torch.add(torch.ones(2), torch.ones(2), beta=2)"),
    ("arith.add_missing_arg", "torch.add(torch.ones(2))"),
    ("arith.add_method_no_args", "torch.ones(2).add()"),
    ("arith.mul_list", "torch.mul(torch.ones(2), [1, 2])"),
    ("arith.add_numbers_only", "torch.add(1, 2)"),
    ("arith.sum_result", "torch.arange(6.0).reshape(2, 3).sum(0)"),
    ("arith.sum_keepdim", "torch.arange(6.0).reshape(2, 3).sum(1, keepdim=True)"),
    ("arith.sum_dim_out_of_range", "torch.ones(2, 3).sum(2)"),
    ("arith.sum_int_dtype", "torch.tensor([1, 2], dtype=torch.int32).sum().dtype"),
    ("arith.sum_bool", "torch.tensor([True, True, False]).sum()"),
    ("arith.sum_dim_tuple", "torch.ones(2, 3, 4).sum((0, 2))"),
    ("arith.sum_repeated_dims", "torch.ones(2, 3).sum((0, 0))"),
    ("arith.sum_dtype_kwarg", "torch.tensor([1, 2]).sum(dtype=torch.float32)"),
    ("arith.sum_str_dim", "torch.ones(2, 3).sum('a')"),
    ("arith.sum_float_dim", "torch.ones(2, 3).sum(0.5)"),
    ("arith.relu_int", "torch.relu(torch.tensor([-1, 2]))"),
    ("arith.relu_bool", "torch.relu(torch.tensor([True]))"),
    ("arith.neg_result", "torch.tensor([1, -2]).neg()"),
    ("arith.clamp_min_result", "torch.tensor([-1.0, 0.5, 2.0]).clamp_min(0.0)"),
    ("arith.bitwise_not_float", "torch.bitwise_not(torch.ones(2))"),
    ("arith.bitwise_not_bool", "torch.bitwise_not(torch.tensor([True, False]))"),
    ("arith.float16_add", "torch.tensor([1.0, 2.0], dtype=torch.float16) + torch.tensor([0.5, 0.25], dtype=torch.float16)"),
    ("arith.bfloat16_mul", "torch.tensor([1.5, 3.0], dtype=torch.bfloat16) * 2"),
    ("arith.int_overflow", "torch.tensor([2**62], dtype=torch.long) * 4"),
    ("arith.large_python_int", "torch.ones(2, dtype=torch.long) + 2**70"),
    ("arith.eq_shape_mismatch", "torch.ones(2).eq(torch.ones(3))"),
    ("arith.allclose_result", "torch.allclose(torch.ones(2), torch.ones(2) + 1e-9)"),
    ("arith.allclose_shape_mismatch", "torch.allclose(torch.ones(2), torch.ones(3))"),
    ("arith.allclose_dtype_mismatch", "torch.allclose(torch.ones(2), torch.ones(2, dtype=torch.float64))"),
    ("arith.equal_shapes_differ", "torch.equal(torch.ones(2), torch.ones(3))"),
]:
    case(_cid, f"out = {_expr}")
case("arith.add_out_kwarg", "r = torch.empty(2)\nout = (torch.add(torch.ones(2), torch.ones(2), out=r), r)")

# ===================================================================================
# mat: matrix products
# ===================================================================================
for _cid, _expr in [
    ("mat.mm_shape_mismatch", "torch.mm(torch.ones(2, 3), torch.ones(2, 3))"),
    ("mat.mm_1d", "torch.mm(torch.ones(3), torch.ones(3, 2))"),
    ("mat.mm_3d", "torch.mm(torch.ones(2, 2, 2), torch.ones(2, 2))"),
    ("mat.mm_dtype_mismatch", "torch.mm(torch.ones(2, 2), torch.ones(2, 2, dtype=torch.float64))"),
    ("mat.mm_int", "torch.mm(torch.ones(2, 2, dtype=torch.long), torch.ones(2, 2, dtype=torch.long))"),
    ("mat.mm_result", "torch.mm(torch.tensor([[1.0, 2.0]]), torch.tensor([[3.0], [4.0]]))"),
    ("mat.matmul_mismatch", "torch.matmul(torch.ones(2, 3), torch.ones(4, 2))"),
    ("mat.matmul_1d_1d", "torch.matmul(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))"),
    ("mat.matmul_1d_mismatch", "torch.matmul(torch.ones(2), torch.ones(3))"),
    ("mat.matmul_2d_1d", "torch.ones(2, 3) @ torch.ones(3)"),
    ("mat.matmul_batched_broadcast", "(torch.ones(4, 2, 3) @ torch.ones(3, 5)).shape"),
    ("mat.matmul_batch_mismatch", "torch.ones(4, 2, 3) @ torch.ones(5, 3, 2)"),
    ("mat.matmul_scalar", "torch.matmul(torch.tensor(2.0), torch.ones(2))"),
    ("mat.matmul_int_float", "torch.ones(2, 2, dtype=torch.long) @ torch.ones(2, 2)"),
    ("mat.matmul_operator_number", "torch.ones(2, 2) @ 2"),
    ("mat.addmm_shape_mismatch", "torch.addmm(torch.ones(3), torch.ones(2, 3), torch.ones(2, 3))"),
    ("mat.addmm_bias_broadcast", "torch.addmm(torch.ones(3), torch.ones(2, 2), torch.ones(2, 3))"),
    ("mat.addmm_bias_bad_shape", "torch.addmm(torch.ones(4), torch.ones(2, 2), torch.ones(2, 3))"),
    ("mat.addmm_beta_alpha", "torch.addmm(torch.ones(1, 1), torch.ones(1, 2), torch.ones(2, 1), beta=0.5, alpha=2)"),
    ("mat.bmm_2d", "torch.bmm(torch.ones(2, 3), torch.ones(3, 2))"),
    ("mat.bmm_batch_mismatch", "torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 2))"),
    ("mat.bmm_inner_mismatch", "torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 2, 2))"),
    ("mat.bmm_result", "torch.bmm(torch.ones(2, 1, 2), torch.ones(2, 2, 1))"),
    ("mat.t_3d", "torch.ones(2, 3, 4).t()"),
    ("mat.t_1d", "torch.ones(3).t().shape"),
    ("mat.mT_property", "torch.ones(2, 3).mT.shape"),
]:
    case(_cid, f"out = {_expr}")

# ===================================================================================
# view: views and reshapes
# ===================================================================================
for _cid, _expr in [
    ("view.two_minus_ones", "torch.ones(6).view(-1, -1)"),
    ("view.wrong_numel", "torch.ones(6).view(5)"),
    ("view.minus_one_not_divisible", "torch.ones(6).view(4, -1)"),
    ("view.minus_one_result", "torch.ones(6).view(3, -1).shape"),
    ("view.zero_and_minus_one", "torch.ones(0).view(0, -1)"),
    ("view.non_contiguous", "torch.ones(2, 3).t().view(6)"),
    ("view.negative_size", "torch.ones(6).view(-2, 3)"),
    ("view.float_size", "torch.ones(6).view(2.0, 3)"),
    ("view.str_size", "torch.ones(6).view('a')"),
    ("view.tuple_size", "torch.ones(6).view((2, 3)).shape"),
    ("view.dtype_view", "torch.ones(2).view(torch.int32)"),
    ("view.dtype_view_size_mismatch", "torch.ones(3).view(torch.float64)"),
    ("view.reshape_impossible", "torch.ones(6).reshape(4, 2)"),
    ("view.reshape_non_contiguous", "torch.arange(6).reshape(2, 3).t().reshape(6)"),
    ("view.reshape_two_minus_ones", "torch.ones(6).reshape(-1, -1)"),
    ("view.reshape_list", "torch.ones(6).reshape([3, 2]).shape"),
    ("view.permute_repeated", "torch.ones(2, 3).permute(0, 0)"),
    ("view.permute_too_few", "torch.ones(2, 3, 4).permute(0, 1)"),
    ("view.permute_out_of_range", "torch.ones(2, 3).permute(0, 2)"),
    ("view.permute_negative", "torch.ones(2, 3, 4).permute(-1, 0, 1).shape"),
    ("view.permute_list", "torch.ones(2, 3, 4).permute([2, 0, 1]).shape"),
    ("view.transpose_out_of_range", "torch.ones(2, 3).transpose(0, 2)"),
    ("view.transpose_one_dim", "torch.ones(2, 3).transpose(0)"),
    ("view.transpose_negative", "torch.ones(2, 3, 4).transpose(-1, -3).shape"),
    ("view.transpose_same_dim", "torch.ones(2, 3).transpose(1, 1).shape"),
    ("view.expand_bad", "torch.ones(2, 3).expand(3, 3)"),
    ("view.expand_fewer_dims", "torch.ones(2, 3).expand(3)"),
    ("view.expand_minus_one", "torch.ones(2, 1).expand(-1, 4).shape"),
    ("view.expand_new_leading", "torch.ones(3).expand(2, 3).stride()"),
    ("view.expand_negative_new_dim", "torch.ones(3).expand(-1, 3)"),
    ("view.expand_as_bad", "torch.ones(2).expand_as(torch.ones(3))"),
    ("view.squeeze_dim_out_of_range", "torch.ones(2, 1).squeeze(2)"),
    ("view.squeeze_non_one", "torch.ones(2, 1).squeeze(0).shape"),
    ("view.squeeze_all", "torch.ones(1, 2, 1).squeeze().shape"),
    ("view.squeeze_tuple", "torch.ones(1, 2, 1).squeeze((0, 2)).shape"),
    ("view.unsqueeze_out_of_range", "torch.ones(2, 3).unsqueeze(3)"),
    ("view.unsqueeze_negative", "torch.ones(2, 3).unsqueeze(-1).shape"),
    ("view.unsqueeze_too_negative", "torch.ones(2, 3).unsqueeze(-4)"),
    ("view.unsqueeze_no_dim", "torch.ones(2).unsqueeze()"),
    ("view.select_out_of_range", "torch.ones(2, 3).select(1, 3)"),
    ("view.select_dim_out_of_range", "torch.ones(2, 3).select(2, 0)"),
    ("view.select_negative_index", "torch.arange(6).reshape(2, 3).select(1, -1)"),
    ("view.select_0d", "torch.tensor(1.0).select(0, 0)"),
    ("view.narrow_too_long", "torch.arange(5).narrow(0, 3, 3)"),
    ("view.narrow_result", "torch.arange(5).narrow(0, 1, 3)"),
    ("view.narrow_negative_start", "torch.arange(5).narrow(0, -2, 2)"),
    ("view.narrow_negative_length", "torch.arange(5).narrow(0, 1, -1)"),
    ("view.split_sizes_wrong_sum", "torch.arange(5).split([2, 2])"),
    ("view.split_zero", "torch.arange(5).split(0)"),
    ("view.split_result", "torch.arange(5).split(2)"),
    ("view.split_sizes_result", "torch.arange(5).split([1, 4])"),
    ("view.split_dim_out_of_range", "torch.arange(5).split(2, 1)"),
    ("view.unbind_result", "torch.arange(4).reshape(2, 2).unbind(1)"),
    ("view.unbind_dim_out_of_range", "torch.arange(4).unbind(1)"),
    ("view.flatten_bad_range", "torch.ones(2, 3, 4).flatten(2, 1)"),
    ("view.flatten_result", "torch.ones(2, 3, 4).flatten(1).shape"),
    ("view.flatten_out_of_range", "torch.ones(2, 3).flatten(0, 5)"),
    ("view.as_strided_out_of_bounds", "torch.ones(4).as_strided((3,), (2,))"),
    ("view.as_strided_result", "torch.arange(6.0).as_strided((2, 2), (1, 2))"),
    ("view.contiguous_after_t", "torch.arange(6).reshape(2, 3).t().contiguous().stride()"),
    ("view.size_dim_out_of_range", "torch.ones(2, 3).size(2)"),
    ("view.size_negative", "torch.ones(2, 3).size(-1)"),
    ("view.stride_dim_out_of_range", "torch.ones(2, 3).stride(5)"),
    ("view.view_as_mismatch", "torch.ones(6).view_as(torch.ones(4))"),
    ("view.reshape_as_result", "torch.arange(6).reshape_as(torch.ones(3, 2))"),
    ("view.T_3d", "torch.ones(2, 3, 4).T.shape"),
    ("view.dim_args_as_list_and_int", "torch.ones(6).view([2], 3)"),
]:
    case(_cid, f"out = {_expr}")
case("view.inplace_on_view_of_leaf", "x = torch.ones(3, requires_grad=True)\nv = x[0:2]\nv.mul_(2)\nout = v")
case("view.view_shares_storage", "x = torch.zeros(4)\nv = x.view(2, 2)\nv[0, 0] = 5\nout = x")
case("view.squeeze_inplace", "x = torch.ones(1, 3)\nx.squeeze_(0)\nout = x.shape")

# ===================================================================================
# cat: cat and stack
# ===================================================================================
for _cid, _expr in [
    ("cat.empty_list", "torch.cat([])"),
    ("cat.different_dims", "torch.cat([torch.ones(2, 3), torch.ones(3)])"),
    ("cat.shape_mismatch", "torch.cat([torch.ones(2, 3), torch.ones(2, 4)])"),
    ("cat.result_dim1", "torch.cat([torch.ones(2, 1), torch.zeros(2, 2)], dim=1)"),
    ("cat.dim_out_of_range", "torch.cat([torch.ones(2), torch.ones(2)], dim=1)"),
    ("cat.tensor_not_list", "torch.cat(torch.ones(2, 2))"),
    ("cat.list_with_number", "torch.cat([torch.ones(2), 1])"),
    ("cat.mixed_dtypes", "torch.cat([torch.ones(1), torch.tensor([2])])"),
    ("cat.zero_dim", "torch.cat([torch.tensor(1.0), torch.tensor(2.0)])"),
    ("cat.tuple_input", "torch.cat((torch.ones(1), torch.zeros(1)))"),
    ("cat.empty_1d_with_2d", "torch.cat([torch.ones(0), torch.ones(2, 2)]).shape"),
    ("cat.two_args", "torch.cat(torch.ones(2), torch.ones(2))"),
    ("stack.different_shapes", "torch.stack([torch.ones(2), torch.ones(3)])"),
    ("stack.empty_list", "torch.stack([])"),
    ("stack.result", "torch.stack([torch.ones(2), torch.zeros(2)], dim=1)"),
    ("stack.dim_out_of_range", "torch.stack([torch.ones(2), torch.ones(2)], dim=3)"),
    ("stack.negative_dim", "torch.stack([torch.ones(2, 3), torch.ones(2, 3)], dim=-1).shape"),
    ("stack.mixed_dtypes", "torch.stack([torch.ones(1), torch.tensor([2])])"),
    ("stack.numbers", "torch.stack([1, 2])"),
]:
    case(_cid, f"out = {_expr}")

# ===================================================================================
# mask: masked_fill and masked_select
# ===================================================================================
for _cid, _expr in [
    ("mask.fill_float_mask", "torch.ones(2).masked_fill(torch.tensor([1.0, 0.0]), 0)"),
    ("mask.fill_int_mask", "torch.ones(2).masked_fill(torch.tensor([1, 0]), 0)"),
    ("mask.fill_result", "torch.ones(2, 2).masked_fill(torch.tensor([[True, False], [False, True]]), -1.0)"),
    ("mask.fill_broadcast_mask", "torch.ones(2, 2).masked_fill(torch.tensor([True, False]), 0.0)"),
    ("mask.fill_bad_mask_shape", "torch.ones(2, 2).masked_fill(torch.tensor([True, False, True]), 0.0)"),
    ("mask.fill_tensor_value_1d", "torch.ones(2).masked_fill(torch.tensor([True, False]), torch.tensor([5.0, 6.0]))"),
    ("mask.fill_float_value_into_int", "torch.tensor([1, 2]).masked_fill(torch.tensor([True, False]), 0.5)"),
    ("mask.fill_inf", "torch.zeros(2).masked_fill(torch.tensor([False, True]), float('-inf'))"),
    ("mask.select_result", "torch.arange(4.0).masked_select(torch.tensor([True, False, True, False]))"),
    ("mask.select_int_mask", "torch.arange(4.0).masked_select(torch.tensor([1, 0, 1, 0]))"),
    ("mask.select_broadcast", "torch.arange(4.0).reshape(2, 2).masked_select(torch.tensor([True, False]))"),
    ("mask.select_bad_shape", "torch.arange(4.0).masked_select(torch.tensor([True, False, True]))"),
]:
    case(_cid, f"out = {_expr}")
case("mask.fill_inplace_leaf", "x = torch.ones(2, requires_grad=True)\nx.masked_fill_(torch.tensor([True, False]), 0.0)\nout = x")

# ===================================================================================
# fn: torch.nn.functional and friends
# ===================================================================================
FN = "import torch.nn.functional as F\n"
for _cid, _expr in [
    ("fn.relu_inplace", "F.relu(torch.tensor([-1.0, 1.0]), inplace=True)"),
    ("fn.relu_list", "F.relu([1.0, -1.0])"),
    ("fn.gelu_result", "F.gelu(torch.tensor([-1.0, 0.0, 1.0]))"),
    ("fn.gelu_tanh_result", "F.gelu(torch.tensor([-1.0, 1.0]), approximate='tanh')"),
    ("fn.gelu_bad_approximate", "F.gelu(torch.ones(2), approximate='fast')"),
    ("fn.gelu_int", "F.gelu(torch.tensor([1, 2]))"),
    ("fn.softmax_no_dim", "F.softmax(torch.ones(2, 3))"),
    ("fn.softmax_result", "F.softmax(torch.tensor([1.0, 2.0, 3.0]), dim=0)"),
    ("fn.softmax_dim_out_of_range", "F.softmax(torch.ones(2, 3), dim=2)"),
    ("fn.softmax_int", "F.softmax(torch.tensor([1, 2]), dim=0)"),
    ("fn.softmax_int_dtype_kwarg", "F.softmax(torch.tensor([1, 2]), dim=0, dtype=torch.float32)"),
    ("fn.log_softmax_result", "F.log_softmax(torch.tensor([[1.0, 2.0], [0.0, 0.0]]), dim=1)"),
    ("fn.log_softmax_dim_out_of_range", "F.log_softmax(torch.ones(2), dim=1)"),
    ("fn.log_softmax_int", "torch.log_softmax(torch.tensor([1, 2]), 0)"),
    ("fn.log_softmax_method", "torch.tensor([0.0, 0.0]).log_softmax(0)"),
    ("fn.linear_shape_mismatch", "F.linear(torch.ones(2, 3), torch.ones(4, 2))"),
    ("fn.linear_bias_mismatch", "F.linear(torch.ones(2, 3), torch.ones(4, 3), torch.ones(3))"),
    ("fn.linear_result", "F.linear(torch.ones(1, 2), torch.tensor([[1.0, 2.0]]), torch.tensor([0.5]))"),
    ("fn.linear_1d_input", "F.linear(torch.ones(3), torch.ones(2, 3))"),
    ("fn.linear_dtype_mismatch", "F.linear(torch.ones(1, 2, dtype=torch.float64), torch.ones(3, 2))"),
    ("fn.linear_weight_1d", "F.linear(torch.ones(2, 3), torch.ones(3))"),
    ("fn.embedding_out_of_range", "F.embedding(torch.tensor([3]), torch.ones(3, 2))"),
    ("fn.embedding_negative", "F.embedding(torch.tensor([-1]), torch.ones(3, 2))"),
    ("fn.embedding_float_indices", "F.embedding(torch.tensor([0.0]), torch.ones(3, 2))"),
    ("fn.embedding_args_swapped", "F.embedding(torch.ones(3, 2), torch.tensor([0]))"),
    ("fn.embedding_result", "F.embedding(torch.tensor([[0, 2]]), torch.arange(6.0).reshape(3, 2))"),
    ("fn.embedding_padding_idx_out_of_range", "F.embedding(torch.tensor([0]), torch.ones(3, 2), padding_idx=5)"),
    ("fn.layer_norm_bad_shape", "F.layer_norm(torch.ones(2, 3), (4,))"),
    ("fn.layer_norm_int_shape", "F.layer_norm(torch.ones(2, 3), 3)"),
    ("fn.layer_norm_result", "F.layer_norm(torch.tensor([[1.0, 2.0, 3.0]]), (3,))"),
    ("fn.layer_norm_weight_mismatch", "F.layer_norm(torch.ones(2, 3), (3,), weight=torch.ones(2))"),
    ("fn.layer_norm_int_input", "F.layer_norm(torch.ones(2, 3, dtype=torch.long), (3,))"),
    ("fn.dropout_p_too_big", "F.dropout(torch.ones(2), p=1.5)"),
    ("fn.dropout_p_negative", "F.dropout(torch.ones(2), p=-0.1)"),
    ("fn.dropout_eval_identity", "F.dropout(torch.ones(3), p=0.5, training=False)"),
    ("fn.dropout_p_one", "F.dropout(torch.ones(3), p=1.0)"),
    ("fn.dropout_p_zero", "F.dropout(torch.ones(3), p=0.0)"),
    ("fn.dropout_int", "F.dropout(torch.tensor([1, 2]), p=0.5)"),
    ("fn.sdpa_shape_mismatch", "F.scaled_dot_product_attention(torch.ones(1, 2, 4), torch.ones(1, 3, 5), torch.ones(1, 3, 4))"),
    ("fn.sdpa_result", "F.scaled_dot_product_attention(torch.ones(1, 2, 2), torch.ones(1, 2, 2), torch.arange(4.0).reshape(1, 2, 2))"),
    ("fn.sdpa_causal_result", "F.scaled_dot_product_attention(torch.ones(1, 2, 2), torch.ones(1, 2, 2), torch.arange(4.0).reshape(1, 2, 2), is_causal=True)"),
    ("fn.sdpa_mask_and_causal", "F.scaled_dot_product_attention(torch.ones(1, 2, 2), torch.ones(1, 2, 2), torch.ones(1, 2, 2), attn_mask=torch.ones(2, 2, dtype=torch.bool), is_causal=True)"),
    ("fn.sdpa_int", "F.scaled_dot_product_attention(torch.ones(1, 2, 2, dtype=torch.long), torch.ones(1, 2, 2, dtype=torch.long), torch.ones(1, 2, 2, dtype=torch.long))"),
    ("fn.sdpa_1d", "F.scaled_dot_product_attention(torch.ones(2), torch.ones(2), torch.ones(2))"),
    ("fn.ce_float_target", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0.0, 1.0]))"),
    ("fn.ce_int32_target", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1], dtype=torch.int32))"),
    ("fn.ce_out_of_range_class", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 3]))"),
    ("fn.ce_negative_class", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, -1]))"),
    ("fn.ce_batch_mismatch", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1, 2]))"),
    ("fn.ce_target_2d", "F.cross_entropy(torch.ones(2, 3), torch.tensor([[0], [1]]))"),
    ("fn.ce_result", "F.cross_entropy(torch.tensor([[1.0, 2.0, 3.0], [1.0, 1.0, 1.0]]), torch.tensor([2, 0]))"),
    ("fn.ce_reduction_none", "F.cross_entropy(torch.zeros(2, 2), torch.tensor([0, 1]), reduction='none')"),
    ("fn.ce_bad_reduction", "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), reduction='avg')"),
    ("fn.ce_ignore_index", "F.cross_entropy(torch.tensor([[1.0, 2.0], [3.0, 0.0]]), torch.tensor([0, -100]))"),
    ("fn.ce_all_ignored", "F.cross_entropy(torch.ones(2, 2), torch.tensor([-100, -100]))"),
    ("fn.ce_1d_input", "F.cross_entropy(torch.tensor([1.0, 2.0, 3.0]), torch.tensor(1))"),
    ("fn.ce_int_input", "F.cross_entropy(torch.tensor([[1, 2]]), torch.tensor([0]))"),
    ("fn.ce_label_smoothing", "F.cross_entropy(torch.tensor([[1.0, 2.0]]), torch.tensor([1]), label_smoothing=0.1)"),
    ("fn.ce_label_smoothing_bad", "F.cross_entropy(torch.tensor([[1.0, 2.0]]), torch.tensor([1]), label_smoothing=1.5)"),
    ("fn.ce_args_swapped", "F.cross_entropy(torch.tensor([0, 1]), torch.ones(2, 3))"),
    ("fn.ce_probabilities_target", "F.cross_entropy(torch.zeros(1, 2), torch.tensor([[0.25, 0.75]]))"),
    ("fn.nll_loss_result", "F.nll_loss(torch.tensor([[-1.0, -2.0]]), torch.tensor([1]))"),
    ("fn.missing_function", "F.silu(torch.ones(2))"),
]:
    case(_cid, FN + f"out = {_expr}")

# ===================================================================================
# factory: tensor-making functions
# ===================================================================================
for _cid, _expr in [
    ("factory.zeros_negative_in_tuple", "torch.zeros((2, -1))"),
    ("factory.zeros_negative", "torch.zeros(-1)"),
    ("factory.ones_float_size", "torch.ones(2.5)"),
    ("factory.ones_float_list", "torch.ones([2.0, 3.0])"),
    ("factory.ones_str_size", "torch.ones('3')"),
    ("factory.ones_none", "torch.ones(None)"),
    ("factory.ones_nested_tuple", "torch.ones((2, (3,)))"),
    ("factory.ones_bad_dtype", "torch.ones(2, dtype='float32')"),
    ("factory.ones_python_dtype", "torch.ones(2, dtype=float).dtype"),
    ("factory.ones_python_int_dtype", "torch.ones(2, dtype=int).dtype"),
    ("factory.ones_bad_kwarg", "torch.ones(2, size=3)"),
    ("factory.ones_zero_size", "torch.ones(0, 3)"),
    ("factory.ones_no_args", "torch.ones()"),
    ("factory.ones_size_object", "torch.ones(torch.Size([2, 1]))"),
    ("factory.zeros_tensor_size", "torch.zeros(torch.tensor(3))"),
    ("factory.zeros_tensor_2_size", "torch.zeros(torch.tensor([2, 3]))"),
    ("factory.empty_negative", "torch.empty(2, -3)"),
    ("factory.empty_shape", "torch.empty(2, 3).shape"),
    ("factory.full_missing_fill", "torch.full((2,))"),
    ("factory.full_int_fill_dtype", "torch.full((2,), 3).dtype"),
    ("factory.full_bool_fill", "torch.full((2,), True)"),
    ("factory.full_float_fill_int_dtype", "torch.full((2,), 1.5, dtype=torch.long)"),
    ("factory.full_size_int", "torch.full(2, 1.0)"),
    ("factory.full_str_fill", "torch.full((2,), 'a')"),
    ("factory.arange_result", "torch.arange(5)"),
    ("factory.arange_float", "torch.arange(0, 1, 0.25)"),
    ("factory.arange_zero_step", "torch.arange(0, 5, 0)"),
    ("factory.arange_wrong_sign", "torch.arange(0, 5, -1)"),
    ("factory.arange_empty", "torch.arange(5, 0)"),
    ("factory.arange_negative_step", "torch.arange(5, 0, -2)"),
    ("factory.arange_str", "torch.arange('5')"),
    ("factory.arange_inf", "torch.arange(0, float('inf'))"),
    ("factory.arange_dtype_float", "torch.arange(3, dtype=torch.float32)"),
    ("factory.arange_tensor_end", "torch.arange(torch.tensor(3))"),
    ("factory.eye_result", "torch.eye(2, 3)"),
    ("factory.eye_negative", "torch.eye(-1)"),
    ("factory.eye_float", "torch.eye(2.0)"),
    ("factory.linspace_result", "torch.linspace(0, 1, 5)"),
    ("factory.linspace_negative_steps", "torch.linspace(0, 1, -1)"),
    ("factory.linspace_no_steps", "torch.linspace(0, 1)"),
    ("factory.linspace_one_step", "torch.linspace(2, 5, 1)"),
    ("factory.linspace_int_dtype", "torch.linspace(0, 10, 4, dtype=torch.long)"),
    ("factory.randint_no_size", "torch.randint(0, 10)"),
    ("factory.randint_low_ge_high", "torch.randint(5, 5, (2,))"),
    ("factory.randint_float_bounds", "torch.randint(0.5, 10, (2,))"),
    ("factory.randint_size_int", "torch.randint(0, 10, 3)"),
    ("factory.randint_dtype", "torch.randint(0, 10, (2,)).dtype"),
    ("factory.randn_negative", "torch.randn(-2)"),
    ("factory.randn_int_dtype", "torch.randn(2, dtype=torch.long)"),
    ("factory.rand_int_dtype", "torch.rand(2, dtype=torch.int32)"),
    ("factory.randn_seeded", "(torch.manual_seed(0), torch.randn(3))[1]"),
    ("factory.rand_seeded", "(torch.manual_seed(1), torch.rand(2, 2))[1]"),
    ("factory.randint_seeded", "(torch.manual_seed(2), torch.randint(0, 100, (4,)))[1]"),
    ("factory.randn_requires_grad", "torch.randn(2, requires_grad=True).requires_grad"),
    ("factory.zeros_like_dtype", "torch.zeros_like(torch.ones(2), dtype=torch.long)"),
    ("factory.zeros_like_list", "torch.zeros_like([1, 2])"),
    ("factory.full_like_result", "torch.full_like(torch.ones(2, dtype=torch.long), 7)"),
    ("factory.ones_like_requires_grad", "torch.ones_like(torch.ones(2, requires_grad=True)).requires_grad"),
    ("factory.scalar_tensor_result", "torch.scalar_tensor(3)"),
    ("factory.new_zeros_result", "torch.ones(2, dtype=torch.float64).new_zeros(3)"),
    ("factory.empty_strided_result", "torch.empty_strided((2, 3), (1, 2)).stride()"),
    ("factory.empty_strided_negative", "torch.empty_strided((2, 3), (-1, 2))"),
    ("factory.empty_like_shape", "torch.empty_like(torch.ones(2, 3)).shape"),
]:
    case(_cid, f"out = {_expr}")

# torch.tensor(data)
for _cid, _expr in [
    ("tensor.ragged", "torch.tensor([[1, 2], [3]])"),
    ("tensor.strings", "torch.tensor(['a', 'b'])"),
    ("tensor.string", "torch.tensor('abc')"),
    ("tensor.mixed_int_float", "torch.tensor([1, 2.5])"),
    ("tensor.mixed_bool_int", "torch.tensor([True, 2])"),
    ("tensor.mixed_number_str", "torch.tensor([1, 'a'])"),
    ("tensor.none", "torch.tensor(None)"),
    ("tensor.none_in_list", "torch.tensor([1.0, None])"),
    ("tensor.empty_list", "torch.tensor([])"),
    ("tensor.nested_empty", "torch.tensor([[], []])"),
    ("tensor.int_dtype_of_floats", "torch.tensor([1.7, -1.7], dtype=torch.long)"),
    ("tensor.bool_values", "torch.tensor([True, False])"),
    ("tensor.big_int", "torch.tensor(2**63)"),
    ("tensor.big_int_list", "torch.tensor([1, 2**64])"),
    ("tensor.tuple_data", "torch.tensor((1.0, 2.0))"),
    ("tensor.list_of_tensors", "torch.tensor([torch.tensor(1.0), torch.tensor(2.0)])"),
    ("tensor.list_of_multi_element_tensors", "torch.tensor([torch.ones(2), torch.ones(2)])"),
    ("tensor.from_tensor", "torch.tensor(torch.ones(2))"),
    ("tensor.requires_grad_int", "torch.tensor([1, 2], requires_grad=True)"),
    ("tensor.requires_grad_float", "torch.tensor([1.0], requires_grad=True)"),
    ("tensor.dict", "torch.tensor({'a': 1})"),
    ("tensor.set", "torch.tensor({1, 2})"),
    ("tensor.generator", "torch.tensor(i for i in range(3))"),
    ("tensor.range", "torch.tensor(range(3))"),
    ("tensor.complex_number", "torch.tensor(1 + 2j).dtype"),
    ("tensor.dtype_python_bool", "torch.tensor([0, 1], dtype=bool)"),
    ("tensor.float_precision", "torch.tensor([0.1, 1e-40, 3.4e38, 1e39])"),
    ("tensor.nan_inf", "torch.tensor([float('nan'), float('inf'), -float('inf')])"),
    ("tensor.bad_device", "torch.tensor([1.0], device='gpu')"),
]:
    case(_cid, f"out = {_expr}")
case("tensor.capital_Tensor_int", "out = torch.Tensor(3).shape")
case("tensor.capital_Tensor_list", "out = torch.Tensor([1, 2])")

# ===================================================================================
# print: repr of tensors (compared as text)
# ===================================================================================
for _cid, _expr in [
    ("print.float_vector", "torch.tensor([1.0, 2.5, -3.0])"),
    ("print.int_matrix", "torch.tensor([[1, 2], [3, 40]])"),
    ("print.bool", "torch.tensor([True, False])"),
    ("print.scalar", "torch.tensor(3.25)"),
    ("print.requires_grad", "torch.ones(2, requires_grad=True)"),
    ("print.grad_fn", "torch.ones(2, requires_grad=True) * 2"),
    ("print.empty", "torch.empty(0)"),
    ("print.empty_2d", "torch.ones(0, 3)"),
    ("print.double", "torch.tensor([1.5], dtype=torch.float64)"),
    ("print.half", "torch.tensor([1.5], dtype=torch.float16)"),
    ("print.int32", "torch.tensor([1, 2], dtype=torch.int32)"),
    ("print.large_values", "torch.tensor([1e10, 1.0])"),
    ("print.small_values", "torch.tensor([1e-5, 1.0])"),
    ("print.nan_inf", "torch.tensor([float('nan'), float('inf'), 1.0])"),
    ("print.long_vector", "torch.arange(1200.0)"),
    ("print.parameter", "torch.nn.Parameter(torch.ones(2))"),
    ("print.size", "torch.ones(2, 3).shape"),
    ("print.dtype", "torch.float32"),
    ("print.device", "torch.ones(1).device"),
    ("print.sum_grad_fn", "torch.ones(2, requires_grad=True).sum()"),
]:
    case(_cid, f"out = repr({_expr})")
case("print.inference_tensor", "with torch.inference_mode():\n    t = torch.ones(2)\nout = repr(t)")
case("print.str_tensor", "out = str(torch.tensor([[0.5, 1.0]]))")
case("print.format_in_fstring", "out = f'{torch.tensor(2.0)}'")

# ===================================================================================
# rng: seeds and generators
# ===================================================================================
for _cid, _code in [
    ("rng.manual_seed_str", "torch.manual_seed('a')\nout = 1"),
    ("rng.manual_seed_float", "torch.manual_seed(1.5)\nout = torch.initial_seed()"),
    ("rng.manual_seed_negative", "torch.manual_seed(-1)\nout = torch.initial_seed()"),
    ("rng.manual_seed_too_big", "torch.manual_seed(2**64)\nout = 1"),
    ("rng.manual_seed_none", "torch.manual_seed(None)\nout = 1"),
    ("rng.manual_seed_numeric_str", "torch.manual_seed('42')\nout = torch.initial_seed()"),
    ("rng.manual_seed_returns", "out = type(torch.manual_seed(3)).__name__"),
    ("rng.generator_seed", "g = torch.Generator().manual_seed(5)\nout = (g.initial_seed(), torch.randn(2, generator=g))"),
    ("rng.generator_device_str", "out = torch.Generator('cpu').device"),
    ("rng.generator_cuda", "out = torch.Generator('cuda')"),
    ("rng.generator_bad_device", "out = torch.Generator('gpu')"),
    ("rng.generator_positional", "g = torch.Generator()\nout = torch.randn(2, g)"),
    ("rng.generator_wrong_type", "out = torch.randn(2, generator=5)"),
    ("rng.generator_seed_str", "out = torch.Generator().manual_seed('x')"),
    ("rng.same_seed_same_draws", "g1 = torch.Generator().manual_seed(7)\ng2 = torch.Generator().manual_seed(7)\nout = torch.equal(torch.rand(3, generator=g1), torch.rand(3, generator=g2))"),
    ("rng.get_set_state", "torch.manual_seed(0)\ns = torch.get_rng_state()\na = torch.rand(2)\ntorch.set_rng_state(s)\nout = torch.equal(a, torch.rand(2))"),
    ("rng.generator_get_state", "g = torch.Generator().manual_seed(1)\nout = g.get_state().shape"),
    ("rng.generator_set_state_bad", "g = torch.Generator()\ng.set_state(torch.zeros(3))\nout = 1"),
    ("rng.seed_returns_int", "out = type(torch.Generator().seed()).__name__"),
    ("rng.randint_generator", "g = torch.Generator().manual_seed(3)\nout = torch.randint(0, 10, (5,), generator=g)"),
    ("rng.normal_inplace_int", "out = torch.zeros(2, dtype=torch.long).normal_()"),
    ("rng.uniform_bad_range", "out = torch.zeros(2).uniform_(1, 0)"),
    ("rng.normal_negative_std", "out = torch.zeros(2).normal_(0, -1)"),
    ("rng.multinomial_result", "torch.manual_seed(0)\nout = torch.multinomial(torch.tensor([0.0, 1.0, 0.0]), 2, replacement=True)"),
    ("rng.multinomial_too_many", "out = torch.multinomial(torch.tensor([0.5, 0.5]), 3)"),
    ("rng.multinomial_negative", "out = torch.multinomial(torch.tensor([-0.5, 1.0]), 1)"),
]:
    case(_cid, _code)

# ===================================================================================
# nn: layers used wrongly
# ===================================================================================
NN = "import torch.nn as nn\ntorch.manual_seed(0)\n"
for _cid, _code in [
    ("nn.linear_zero_in", "m = nn.Linear(0, 3)\nout = (m.weight.shape, m(torch.ones(2, 0)))"),
    ("nn.linear_negative_in", "out = nn.Linear(-1, 3)"),
    ("nn.linear_float_features", "out = nn.Linear(2.5, 3)"),
    ("nn.linear_str_features", "out = nn.Linear('2', 3)"),
    ("nn.linear_wrong_input", "out = nn.Linear(4, 2)(torch.ones(3, 5))"),
    ("nn.linear_1d_input", "out = nn.Linear(3, 2)(torch.ones(3)).shape"),
    ("nn.linear_3d_input", "out = nn.Linear(3, 2)(torch.ones(4, 5, 3)).shape"),
    ("nn.linear_int_input", "out = nn.Linear(2, 3)(torch.ones(1, 2, dtype=torch.long))"),
    ("nn.linear_double_input", "out = nn.Linear(2, 3)(torch.ones(1, 2, dtype=torch.float64))"),
    ("nn.linear_list_input", "out = nn.Linear(2, 3)([[1.0, 2.0]])"),
    ("nn.linear_missing_arg", "out = nn.Linear(2)"),
    ("nn.linear_bad_kwarg", "out = nn.Linear(2, 3, bais=False)"),
    ("nn.linear_weight_shape", "m = nn.Linear(2, 3)\nout = (m.weight.shape, m.bias.shape, m.in_features)"),
    ("nn.linear_init_values", "out = nn.Linear(2, 2).weight"),
    ("nn.linear_dtype_kwarg", "out = nn.Linear(2, 2, dtype=torch.float64).weight.dtype"),
    ("nn.linear_device_cuda", "out = nn.Linear(2, 2, device='cuda')"),
    ("nn.embedding_out_of_range", "out = nn.Embedding(3, 2)(torch.tensor([3]))"),
    ("nn.embedding_float_index", "out = nn.Embedding(3, 2)(torch.tensor([1.0]))"),
    ("nn.embedding_negative_index", "out = nn.Embedding(3, 2)(torch.tensor([-1]))"),
    ("nn.embedding_negative_num", "out = nn.Embedding(-1, 2)"),
    ("nn.embedding_padding_idx_bad", "out = nn.Embedding(3, 2, padding_idx=3)"),
    ("nn.embedding_padding_idx_zero_row", "out = nn.Embedding(3, 2, padding_idx=1).weight[1]"),
    ("nn.embedding_python_int", "out = nn.Embedding(3, 2)(1)"),
    ("nn.embedding_shape", "out = nn.Embedding(5, 4)(torch.tensor([[0, 1], [2, 3]])).shape"),
    ("nn.layernorm_wrong_size", "out = nn.LayerNorm(4)(torch.ones(2, 3))"),
    ("nn.layernorm_int_input", "out = nn.LayerNorm(3)(torch.ones(2, 3, dtype=torch.long))"),
    ("nn.layernorm_list_shape", "out = nn.LayerNorm([2, 3])(torch.ones(4, 2, 3)).shape"),
    ("nn.layernorm_no_affine", "out = list(nn.LayerNorm(3, elementwise_affine=False).parameters())"),
    ("nn.layernorm_result", "out = nn.LayerNorm(2)(torch.tensor([[1.0, 3.0]]))"),
    ("nn.dropout_bad_p", "out = nn.Dropout(1.5)"),
    ("nn.dropout_negative_p", "out = nn.Dropout(-0.5)"),
    ("nn.dropout_eval", "d = nn.Dropout(0.9)\nd.eval()\nout = d(torch.ones(3))"),
    ("nn.dropout_train_values", "out = nn.Dropout(0.5)(torch.ones(8))"),
    ("nn.gelu_bad_approximate", "out = nn.GELU(approximate='bad')(torch.ones(2))"),
    ("nn.relu_module_result", "out = nn.ReLU()(torch.tensor([-2.0, 3.0]))"),
    ("nn.relu_inplace_module", "x = torch.tensor([-2.0, 3.0])\nnn.ReLU(inplace=True)(x)\nout = x"),
    ("nn.sequential_shape_mismatch", "out = nn.Sequential(nn.Linear(2, 3), nn.Linear(2, 3))(torch.ones(1, 2))"),
    ("nn.sequential_forward_result", "out = nn.Sequential(nn.Linear(2, 2), nn.ReLU())(torch.ones(1, 2))"),
    ("nn.cross_entropy_loss_module", "out = nn.CrossEntropyLoss()(torch.zeros(2, 3), torch.tensor([0, 2]))"),
    ("nn.cross_entropy_loss_bad_target", "out = nn.CrossEntropyLoss()(torch.zeros(2, 3), torch.tensor([0.0, 2.0]))"),
    ("nn.parameter_int", "out = nn.Parameter(torch.arange(3))"),
    ("nn.parameter_list", "out = nn.Parameter([1.0, 2.0])"),
    ("nn.parameter_no_grad", "p = nn.Parameter(torch.ones(2), requires_grad=False)\nout = (p.requires_grad, type(p).__name__)"),
    ("nn.parameter_leaf", "p = nn.Parameter(torch.ones(2) * 3)\nout = (p.is_leaf, p.requires_grad, p.grad_fn)"),
    ("nn.parameter_of_non_leaf", "x = torch.ones(2, requires_grad=True)\np = nn.Parameter(x * 2)\nout = (p.is_leaf, p.grad_fn)"),
    ("nn.parameter_empty", "out = nn.Parameter()"),
    ("nn.parameter_isinstance", "p = nn.Parameter(torch.ones(1))\nout = (isinstance(p, torch.Tensor), isinstance(p * 2, nn.Parameter))"),
    ("nn.init_normal_int", "out = nn.init.normal_(torch.zeros(2, dtype=torch.long))"),
    ("nn.init_zeros_result", "out = nn.init.zeros_(torch.ones(2))"),
    ("nn.init_kaiming_1d", "out = nn.init.kaiming_uniform_(torch.empty(3))"),
    ("nn.clip_grad_norm_no_grads", "m = nn.Linear(2, 2)\nout = nn.utils.clip_grad_norm_(m.parameters(), 1.0)"),
    ("nn.clip_grad_norm_result", "w = torch.ones(2, requires_grad=True)\n(w * torch.tensor([3.0, 4.0])).sum().backward()\nn = nn.utils.clip_grad_norm_([w], 1.0)\nout = (n, w.grad)"),
    ("nn.module_call_kwarg", "out = nn.Linear(2, 2)(input=torch.ones(1, 2)).shape"),
    ("nn.module_call_no_args", "out = nn.Linear(2, 2)()"),
]:
    case(_cid, NN + _code)

# ===================================================================================
# optim: optimizers
# ===================================================================================
OPT = "import torch.nn as nn\ntorch.manual_seed(0)\nm = nn.Linear(2, 1)\n"
for _cid, _code in [
    ("optim.sgd_empty_list", "out = torch.optim.SGD([], lr=0.1)"),
    ("optim.sgd_tensor_params", "out = torch.optim.SGD(torch.ones(2, requires_grad=True), lr=0.1)"),
    ("optim.sgd_negative_lr", "out = torch.optim.SGD(m.parameters(), lr=-1)"),
    ("optim.sgd_negative_momentum", "out = torch.optim.SGD(m.parameters(), lr=0.1, momentum=-0.5)"),
    ("optim.sgd_negative_weight_decay", "out = torch.optim.SGD(m.parameters(), lr=0.1, weight_decay=-1)"),
    ("optim.sgd_nesterov_no_momentum", "out = torch.optim.SGD(m.parameters(), lr=0.1, nesterov=True)"),
    ("optim.sgd_no_lr", "opt = torch.optim.SGD(m.parameters())\nout = opt.defaults['lr']"),
    ("optim.sgd_str_lr", "out = torch.optim.SGD(m.parameters(), lr='0.1')"),
    ("optim.sgd_duplicate_params", "out = torch.optim.SGD([m.weight, m.weight], lr=0.1)"),
    ("optim.sgd_non_leaf_param", "x = torch.ones(2, requires_grad=True)\nout = torch.optim.SGD([x * 2], lr=0.1)"),
    ("optim.sgd_params_generator_used_twice", "ps = m.parameters()\nlist(ps)\nout = torch.optim.SGD(ps, lr=0.1)"),
    ("optim.sgd_int_param", "out = torch.optim.SGD([torch.ones(2, dtype=torch.long)], lr=0.1)"),
    ("optim.sgd_list_of_numbers", "out = torch.optim.SGD([1.0, 2.0], lr=0.1)"),
    ("optim.sgd_step_before_backward", "opt = torch.optim.SGD(m.parameters(), lr=0.1)\nw = m.weight.clone()\nopt.step()\nout = torch.equal(w, m.weight)"),
    ("optim.sgd_step_result", "opt = torch.optim.SGD(m.parameters(), lr=0.5)\nm(torch.ones(1, 2)).sum().backward()\nopt.step()\nout = (m.weight, m.bias)"),
    ("optim.sgd_momentum_two_steps", "opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)\nfor _ in range(2):\n    opt.zero_grad()\n    m(torch.ones(1, 2)).sum().backward()\n    opt.step()\nout = m.weight"),
    ("optim.zero_grad_set_to_none", "opt = torch.optim.SGD(m.parameters(), lr=0.1)\nm(torch.ones(1, 2)).sum().backward()\nopt.zero_grad()\nout = m.weight.grad"),
    ("optim.zero_grad_set_to_zero", "opt = torch.optim.SGD(m.parameters(), lr=0.1)\nm(torch.ones(1, 2)).sum().backward()\nopt.zero_grad(set_to_none=False)\nout = m.weight.grad"),
    ("optim.param_groups", "opt = torch.optim.SGD([{'params': [m.weight]}, {'params': [m.bias], 'lr': 0.5}], lr=0.1)\nout = [(len(g['params']), g['lr']) for g in opt.param_groups]"),
    ("optim.param_groups_overlap", "out = torch.optim.SGD([{'params': [m.weight]}, {'params': [m.weight]}], lr=0.1)"),
    ("optim.param_group_missing_params", "out = torch.optim.SGD([{'lr': 0.1}], lr=0.1)"),
    ("optim.state_dict_keys", "opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)\nm(torch.ones(1, 2)).sum().backward()\nopt.step()\nsd = opt.state_dict()\nout = (sorted(sd), sorted(sd['state']), sorted(sd['param_groups'][0]))"),
    ("optim.adamw_bad_betas", "out = torch.optim.AdamW(m.parameters(), betas=(1.5, 0.999))"),
    ("optim.adamw_negative_lr", "out = torch.optim.AdamW(m.parameters(), lr=-0.01)"),
    ("optim.adamw_negative_eps", "out = torch.optim.AdamW(m.parameters(), eps=-1e-8)"),
    ("optim.adamw_negative_weight_decay", "out = torch.optim.AdamW(m.parameters(), weight_decay=-0.1)"),
    ("optim.adamw_betas_one_value", "out = torch.optim.AdamW(m.parameters(), betas=(0.9,))"),
    ("optim.adamw_empty", "out = torch.optim.AdamW([])"),
    ("optim.adamw_tensor_params", "out = torch.optim.AdamW(torch.ones(2, requires_grad=True))"),
    ("optim.adamw_step_result", "opt = torch.optim.AdamW(m.parameters(), lr=0.1)\nm(torch.ones(1, 2)).sum().backward()\nopt.step()\nout = m.weight"),
    ("optim.adamw_step_before_backward", "opt = torch.optim.AdamW(m.parameters(), lr=0.1)\nw = m.weight.clone()\nopt.step()\nout = (torch.equal(w, m.weight), len(opt.state))"),
    ("optim.adamw_change_lr", "opt = torch.optim.AdamW(m.parameters(), lr=0.1)\nopt.param_groups[0]['lr'] = 0.01\nm(torch.ones(1, 2)).sum().backward()\nopt.step()\nout = m.weight"),
    ("optim.step_closure", "opt = torch.optim.SGD(m.parameters(), lr=0.1)\ndef closure():\n    opt.zero_grad()\n    loss = m(torch.ones(1, 2)).sum()\n    loss.backward()\n    return loss\nout = opt.step(closure)"),
    ("optim.add_param_group", "opt = torch.optim.SGD([m.weight], lr=0.1)\nopt.add_param_group({'params': [m.bias], 'lr': 0.2})\nout = [g['lr'] for g in opt.param_groups]"),
    ("optim.repr_sgd", "out = repr(torch.optim.SGD(m.parameters(), lr=0.1))"),
]:
    case(_cid, OPT + _code)

# ===================================================================================
# autograd: backward misuse
# ===================================================================================
for _cid, _code in [
    ("autograd.backward_twice", "x = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward()\ny.backward()\nout = x.grad"),
    ("autograd.backward_twice_retain", "x = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\ny.backward(retain_graph=True)\ny.backward()\nout = x.grad"),
    ("autograd.backward_twice_no_saved", "x = torch.ones(2, requires_grad=True)\ny = (x + 1).sum()\ny.backward()\ny.backward()\nout = x.grad"),
    ("autograd.backward_non_scalar", "x = torch.ones(2, requires_grad=True)\n(x * 2).backward()\nout = x.grad"),
    ("autograd.backward_non_scalar_gradient", "x = torch.ones(2, requires_grad=True)\n(x * 2).backward(torch.tensor([1.0, 0.5]))\nout = x.grad"),
    ("autograd.backward_gradient_wrong_shape", "x = torch.ones(2, requires_grad=True)\n(x * 2).backward(torch.ones(3))\nout = x.grad"),
    ("autograd.backward_gradient_int", "x = torch.ones(2, requires_grad=True)\n(x * 2).backward(torch.ones(2, dtype=torch.long))\nout = x.grad"),
    ("autograd.backward_gradient_list", "x = torch.ones(2, requires_grad=True)\n(x * 2).backward([1.0, 1.0])\nout = x.grad"),
    ("autograd.backward_no_grad_fn", "x = torch.ones(2)\nx.sum().backward()\nout = x.grad"),
    ("autograd.backward_leaf_requires_grad", "x = torch.tensor(2.0, requires_grad=True)\nx.backward()\nout = x.grad"),
    ("autograd.backward_under_no_grad", "x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    y = (x * 2).sum()\ny.backward()\nout = x.grad"),
    ("autograd.backward_inside_no_grad", "x = torch.ones(2, requires_grad=True)\ny = (x * 2).sum()\nwith torch.no_grad():\n    y.backward()\nout = x.grad"),
    ("autograd.grad_accumulates", "x = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\n(x * 3).sum().backward()\nout = x.grad"),
    ("autograd.inplace_on_leaf", "x = torch.ones(2, requires_grad=True)\nx.add_(1)\nout = x"),
    ("autograd.inplace_on_leaf_no_grad", "x = torch.ones(2, requires_grad=True)\nwith torch.no_grad():\n    x.add_(1)\nout = (x, x.requires_grad, x.is_leaf)"),
    ("autograd.inplace_on_leaf_operator", "x = torch.ones(2, requires_grad=True)\nx *= 2\nout = x"),
    ("autograd.inplace_saved_tensor", "x = torch.ones(2, requires_grad=True)\ny = x * 2\nz = (y * y).sum()\ny.add_(1)\nz.backward()\nout = x.grad"),
    ("autograd.inplace_saved_tensor_relu", "x = torch.tensor([-1.0, 2.0], requires_grad=True)\ny = torch.relu(x * 1)\ns = y.sum()\ny.mul_(2)\ns.backward()\nout = x.grad"),
    ("autograd.inplace_not_saved", "x = torch.ones(2, requires_grad=True)\ny = x + 1\nz = y.sum()\ny.mul_(3)\nz.backward()\nout = x.grad"),
    ("autograd.inplace_version_counter", "x = torch.ones(2)\na = x._version\nx.add_(1)\nx.mul_(2)\nout = (a, x._version)"),
    ("autograd.grad_of_non_leaf", "import warnings\nx = torch.ones(2, requires_grad=True)\ny = x * 2\ny.sum().backward()\nwith warnings.catch_warnings(record=True) as ws:\n    warnings.simplefilter('always')\n    g = y.grad\nout = (g, [(w.category.__name__, str(w.message)[:60]) for w in ws])"),
    ("autograd.retain_grad", "x = torch.ones(2, requires_grad=True)\ny = x * 2\ny.retain_grad()\ny.sum().backward()\nout = y.grad"),
    ("autograd.grad_of_leaf_no_requires", "out = torch.ones(2).grad"),
    ("autograd.set_grad_wrong_shape", "x = torch.ones(2, requires_grad=True)\nx.grad = torch.ones(3)\nout = x.grad"),
    ("autograd.set_grad_wrong_dtype", "x = torch.ones(2, requires_grad=True)\nx.grad = torch.ones(2, dtype=torch.float64)\nout = x.grad"),
    ("autograd.set_grad_number", "x = torch.ones(2, requires_grad=True)\nx.grad = 1.0\nout = x.grad"),
    ("autograd.set_grad_none", "x = torch.ones(2, requires_grad=True)\n(x * 2).sum().backward()\nx.grad = None\nout = x.grad"),
    ("autograd.data_use", "x = torch.ones(2, requires_grad=True)\nd = x.data\nd.mul_(3)\nout = (x, d.requires_grad, d.is_leaf)"),
    ("autograd.data_set", "x = torch.ones(2, requires_grad=True)\nx.data = torch.zeros(3)\nout = x"),
    ("autograd.data_versions", "x = torch.ones(2, requires_grad=True)\nd = x.data\nd.mul_(3)\nout = (x._version, d._version, d.data_ptr() == x.data_ptr(), d.grad_fn)"),
    ("autograd.data_set_int_requires_grad", "x = torch.ones(2, requires_grad=True)\nx.data = torch.zeros(2, dtype=torch.int64)\nout = x"),
    ("autograd.data_set_number", "x = torch.ones(2)\nx.data = 3\nout = x"),
    ("autograd.data_delete", "x = torch.ones(2)\ndel x.data\nout = x"),
    ("autograd.data_set_keeps_grad", "w = torch.ones(2, requires_grad=True)\n(w * 2).sum().backward()\nw.data = torch.zeros(2, dtype=torch.float64)\n(w * 2).sum().backward()\nout = (w.dtype, w.grad, w._version, w.is_leaf)"),
    ("autograd.data_set_non_leaf", "a = torch.ones(3, requires_grad=True)\nb = a * 2\nb.data = torch.zeros(3)\nout = (b, type(b.grad_fn).__name__)"),
    ("autograd.data_set_self", "q = torch.ones(2)\nq.data = q\nout = q"),
    ("autograd.data_set_more_dims", "z = torch.ones(2)\nz.data = torch.arange(32.).view(2, 2, 2, 2, 2)\nout = (z.shape, z.stride(), z.sum())"),
    ("autograd.data_of_view", "v = torch.arange(6.).view(2, 3)[0]\nout = (v.data._base is None, v._base is not None, v._is_view(), v.data._is_view())"),
    ("autograd.data_under_mode", "from torch.utils._python_dispatch import TorchDispatchMode\nclass M(TorchDispatchMode):\n    seen = []\n    def __torch_dispatch__(self, func, types, args=(), kwargs=None):\n        M.seen.append(str(func))\n        return func(*args, **(kwargs or {}))\nx = torch.ones(2, requires_grad=True)\nwith M():\n    d = x.data\n    x.data = torch.zeros(2)\nout = (M.seen, d.requires_grad, x)"),
    ("autograd.parameter_data", "p = torch.nn.Parameter(torch.ones(2))\nd = p.data\np.data = torch.zeros(2)\nout = (type(d).__name__, p)"),
    ("autograd.detach_inplace_view", "out = torch.arange(4.).view(2, 2)[0].detach_()"),
    ("autograd.detach_inplace", "x = torch.ones(2, requires_grad=True)\ny = x * 2\ny.detach_()\nout = (y.requires_grad, y.grad_fn, y.is_leaf, y._version)"),
    ("autograd.detach_inplace_shared", "x = torch.ones(2, requires_grad=True)\nd = x.detach()\nd.zero_()\nout = x"),
    ("autograd.detach_then_backward", "x = torch.ones(2, requires_grad=True)\ny = (x * 2).detach().sum()\ny.backward()\nout = x.grad"),
    ("autograd.numpy_requires_grad", "out = torch.ones(2, requires_grad=True).numpy()"),
    ("autograd.inference_tensor_in_autograd", "with torch.inference_mode():\n    t = torch.ones(2)\nw = torch.ones(2, requires_grad=True)\ny = (w * t).sum()\ny.backward()\nout = w.grad"),
    ("autograd.inference_tensor_requires_grad", "with torch.inference_mode():\n    t = torch.ones(2)\nt.requires_grad_()\nout = t.requires_grad"),
    ("autograd.inference_tensor_inplace_outside", "with torch.inference_mode():\n    t = torch.ones(2)\nt.add_(1)\nout = t"),
    ("autograd.inference_tensor_is_inference", "with torch.inference_mode():\n    t = torch.ones(2)\nout = (t.is_inference(), torch.ones(2).is_inference(), t.requires_grad)"),
    ("autograd.inference_tensor_save_for_backward", "with torch.inference_mode():\n    t = torch.ones(2)\nw = torch.ones(2, requires_grad=True)\nout = w * t"),
    ("autograd.backward_create_graph", "x = torch.ones(2, requires_grad=True)\n(x * x).sum().backward(create_graph=True)\nout = x.grad.requires_grad"),
    ("autograd.backward_inputs", "x = torch.ones(2, requires_grad=True)\nw = torch.ones(2, requires_grad=True)\n(x * w).sum().backward(inputs=[x])\nout = (x.grad, w.grad)"),
    ("autograd.autograd_grad", "x = torch.ones(2, requires_grad=True)\nout = torch.autograd.grad((x * 3).sum(), x)"),
    ("autograd.backward_int_tensor", "x = torch.ones(2, requires_grad=True)\ny = (x * 2).sum().long()\ny.backward()\nout = x.grad"),
    ("autograd.backward_matmul_grads", "torch.manual_seed(0)\na = torch.randn(2, 3, requires_grad=True)\nb = torch.randn(3, 2, requires_grad=True)\n(a @ b).sum().backward()\nout = (a.grad, b.grad)"),
    ("autograd.backward_broadcast_grad", "a = torch.ones(2, 1, requires_grad=True)\nb = torch.ones(3, requires_grad=True)\n(a * b).sum().backward()\nout = (a.grad, b.grad)"),
    ("autograd.backward_relu_grad", "x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)\ntorch.relu(x).sum().backward()\nout = x.grad"),
    ("autograd.backward_cross_entropy", STEP + "loss = F.cross_entropy(model(x), y)\nloss.backward()\nout = (loss, model[0].bias.grad)"),
    ("autograd.is_leaf_values", "x = torch.ones(2, requires_grad=True)\nout = (x.is_leaf, (x * 2).is_leaf, torch.ones(2).is_leaf, (torch.ones(2) * 2).is_leaf)"),
    ("autograd.requires_grad_propagates", "x = torch.ones(2, requires_grad=True)\nout = ((x * 2).requires_grad, (x.detach() * 2).requires_grad)"),
    ("autograd.function_apply", "class F(torch.autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        return x * 2\n    @staticmethod\n    def backward(ctx, g):\n        return g * 2\nout = F.apply(torch.ones(2))"),
    ("autograd.backward_on_view_of_leaf", "x = torch.ones(4, requires_grad=True)\nx.view(2, 2)[0].sum().backward()\nout = x.grad"),
]:
    case(_cid, _code)

# ===================================================================================
# device: devices
# ===================================================================================
for _cid, _code in [
    ("device.to_cuda", "out = torch.ones(2).to('cuda')"),
    ("device.cuda_method", "out = torch.ones(2).cuda()"),
    ("device.to_cpu", "x = torch.ones(2)\nout = x.to('cpu') is x"),
    ("device.to_bad_string", "out = torch.ones(2).to('gpu')"),
    ("device.device_bad", "out = torch.device('tpu')"),
    ("device.device_cpu_index", "out = (str(torch.device('cpu', 0)), torch.device('cpu').type)"),
    ("device.device_negative_index", "out = torch.device('cpu', -2)"),
    ("device.factory_device_cuda", "out = torch.ones(2, device='cuda')"),
    ("device.factory_device_cpu", "out = torch.ones(2, device='cpu').device"),
    ("device.is_cuda", "out = (torch.ones(1).is_cuda, torch.ones(1).device.type)"),
    ("device.cuda_is_available", "out = torch.cuda.is_available()"),
    ("device.to_dtype_and_device", "out = torch.ones(2).to('cpu', torch.float64)"),
    ("device.to_other_tensor", "out = torch.ones(2).to(torch.ones(1, dtype=torch.float64)).dtype"),
    ("device.to_int", "out = torch.ones(2).to(3)"),
    ("device.to_bad_kwarg", "out = torch.ones(2).to(dtype=torch.float64, device='cpu', memory='x')"),
    ("device.device_equality", "out = torch.ones(1).device == torch.device('cpu')"),
]:
    case(_cid, _code)

# ===================================================================================
# size and dtype
# ===================================================================================
for _cid, _expr in [
    ("size.index_out_of_range", "torch.ones(2, 3).shape[2]"),
    ("size.set_item", "torch.ones(2).shape.__setitem__(0, 3)"),
    ("size.numel", "torch.ones(2, 3).shape.numel()"),
    ("size.slice_type", "type(torch.ones(2, 3, 4).shape[1:]).__name__"),
    ("size.add_tuple", "torch.ones(2).shape + (3,)"),
    ("size.equals_tuple", "torch.ones(2, 3).shape == (2, 3)"),
    ("size.from_floats", "torch.Size([2.0, 3.0])"),
    ("size.from_str", "torch.Size('ab')"),
    ("size.negative_values", "torch.Size([-1, 2])"),
    ("size.unpack", "(lambda a, b: a * b)(*torch.ones(2, 3).shape)"),
    ("size.size_method_dim", "torch.ones(2, 3).size(dim=1)"),
    ("size.size_str_dim", "torch.ones(2, 3).size('a')"),
    ("dtype.to_int", "torch.tensor([1.7, -1.2]).to(torch.int64)"),
    ("dtype.long_method", "torch.tensor([2.9, -2.9]).long()"),
    ("dtype.bool_method", "torch.tensor([0.0, 0.1]).bool()"),
    ("dtype.half_roundtrip", "torch.tensor([0.1]).half().float()"),
    ("dtype.bfloat16_roundtrip", "torch.tensor([0.1]).bfloat16().float()"),
    ("dtype.int_overflow_cast", "torch.tensor([300.0]).to(torch.uint8)"),
    ("dtype.str_dtype", "torch.ones(2).to('float64')"),
    ("dtype.type_method", "torch.ones(2).type()"),
    ("dtype.type_method_dtype", "torch.ones(2).type(torch.float64)"),
    ("dtype.is_floating_point", "(torch.float16.is_floating_point, torch.int64.is_floating_point, torch.bool.is_signed)"),
    ("dtype.itemsize", "(torch.float64.itemsize, torch.ones(2, dtype=torch.int16).element_size())"),
    ("dtype.default_dtype", "torch.get_default_dtype()"),
    ("dtype.set_default_dtype_int", "torch.set_default_dtype(torch.int64)"),
    ("dtype.compare_names", "(torch.float == torch.float32, torch.long is torch.int64, str(torch.half))"),
    ("dtype.uint8_arith", "torch.tensor([250], dtype=torch.uint8) + 10"),
    ("dtype.int8_neg", "-torch.tensor([-128], dtype=torch.int8)"),
    ("dtype.complex_tensor", "torch.ones(2, dtype=torch.complex64)"),
]:
    case(_cid, f"out = {_expr}")

# ===================================================================================
# keys: dispatch-key functions
# ===================================================================================
for _cid, _expr in [
    ("keys.plain_tensor", "repr(torch._C._dispatch_keys(torch.ones(2)))"),
    ("keys.requires_grad_tensor", "repr(torch._C._dispatch_keys(torch.ones(2, requires_grad=True)))"),
    ("keys.non_tensor", "torch._C._dispatch_keys(3)"),
    ("keys.tls_include", "repr(torch._C._dispatch_tls_local_include_set())"),
    ("keys.has_key", "torch._C._dispatch_keys(torch.ones(2)).has(torch._C.DispatchKey.CPU)"),
    ("keys.dump_unknown_op", "torch._C._dispatch_dump('aten::no_such_op')"),
    ("keys.set_excluded_then_read", "(torch._C._dispatch_tls_set_dispatch_key_excluded(torch._C.DispatchKey.AutogradCPU, True), repr(torch._C._dispatch_tls_local_exclude_set()))[1]"),
]:
    case(_cid, f"out = {_expr}")

case("keys.tls_exclude_inference", "with torch.inference_mode():\n    out = repr(torch._C._dispatch_tls_local_exclude_set())")
case("keys.tls_include_under_mode", LOG_DISPATCH + "with Log():\n    out = repr(torch._C._dispatch_tls_local_include_set())")

# ===================================================================================
# missing: things a PyTorch user reaches for that ctorch lacks
# ===================================================================================
for _cid, _expr in [
    ("missing.exp", "torch.tensor([0.0, 1.0]).exp()"),
    ("missing.pow_operator", "torch.tensor([2.0, 3.0]) ** 2"),
    ("missing.gt_operator", "torch.tensor([-1.0, 1.0]) > 0"),
    ("missing.lt_operator", "torch.tensor([-1.0, 1.0]) < 0"),
    ("missing.mean", "torch.tensor([1.0, 2.0]).mean()"),
    ("missing.sigmoid", "torch.sigmoid(torch.tensor([0.0]))"),
    ("missing.tanh", "torch.tanh(torch.tensor([0.0]))"),
    ("missing.log", "torch.log(torch.tensor([1.0]))"),
    ("missing.sqrt", "torch.tensor([4.0]).sqrt()"),
    ("missing.abs", "torch.tensor([-4.0]).abs()"),
    ("missing.max", "torch.tensor([1.0, 3.0]).max()"),
    ("missing.argmax", "torch.tensor([1.0, 3.0]).argmax()"),
    ("missing.std", "torch.tensor([1.0, 3.0]).std()"),
    ("missing.cumsum", "torch.tensor([1.0, 3.0]).cumsum(0)"),
    ("missing.sort", "torch.sort(torch.tensor([3.0, 1.0])).values"),
    ("missing.topk", "torch.tensor([3.0, 1.0, 2.0]).topk(2).values"),
    ("missing.where", "torch.where(torch.tensor([True, False]), torch.ones(2), torch.zeros(2))"),
    ("missing.abs_inplace", "torch.ones(2).abs_()"),
    ("missing.floor_divide", "torch.tensor([7, 8]) // 2"),
    ("missing.remainder", "torch.tensor([7, 8]) % 3"),
    ("missing.adam", "torch.optim.Adam([torch.ones(2, requires_grad=True)], lr=0.1).defaults['lr']"),
    ("missing.rmsprop", "type(torch.optim.RMSprop([torch.ones(2, requires_grad=True)])).__name__"),
    ("missing.lr_scheduler", "type(torch.optim.lr_scheduler.StepLR(torch.optim.SGD([torch.ones(2, requires_grad=True)], lr=0.1), 1)).__name__"),
    ("missing.dataloader", "len(list(torch.utils.data.DataLoader([1, 2, 3], batch_size=2)))"),
    ("missing.tensor_dataset", "len(torch.utils.data.TensorDataset(torch.ones(3, 2)))"),
    ("missing.save", "torch.save(torch.ones(2), __import__('io').BytesIO())"),
    ("missing.from_numpy", "torch.from_numpy"),
    ("missing.conv2d", "type(torch.nn.Conv2d(1, 1, 3)).__name__"),
    ("missing.mse_loss", "torch.nn.functional.mse_loss(torch.ones(2), torch.zeros(2))"),
    ("missing.sigmoid_module", "torch.nn.Sigmoid()(torch.zeros(1))"),
    ("missing.batchnorm", "type(torch.nn.BatchNorm1d(3)).__name__"),
    ("missing.flip", "torch.ones(2, 2).flip(0)"),
    ("missing.repeat", "torch.ones(2).repeat(2)"),
    ("missing.chunk", "len(torch.ones(4).chunk(2))"),
    ("missing.zeros_sum_to_size", "torch.ones(2, 2).sum_to_size(2, 1)"),
    ("missing.jacobian", "torch.autograd.functional.jacobian(lambda x: x * 2, torch.ones(2))"),
    ("missing.iterate_tensor", "[float(v) for v in torch.tensor([1.0, 2.0])]"),
    ("missing.in_operator", "2.0 in torch.tensor([1.0, 2.0])"),
    ("missing.deepcopy", "__import__('copy').deepcopy(torch.ones(2))"),
    ("missing.einsum", "torch.einsum('i,i->', torch.ones(2), torch.ones(2))"),
    ("missing.clamp_method", "torch.tensor([-1.0, 2.0]).clamp(0, 1)"),
    ("missing.compile", "torch.compile(lambda x: x)(torch.ones(1))"),
    ("missing.module_forward_hook", "type(torch.nn.Linear(2, 2).register_forward_hook(lambda *a: None)).__name__"),
    ("missing.module_attribute_typo", "torch.nn.Linear(2, 2).wieght"),
    ("missing.optimizer_step_hook", "type(torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1).register_step_post_hook(lambda *a: None)).__name__"),
    ("missing.optimizer_attribute_typo", "torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1).param_group"),
]:
    case(_cid, f"out = {_expr}")

# ===================================================================================
# args: arguments the front-end accepts, each as PyTorch honours it, refuses it (a value or a
# type PyTorch refuses) or says it is not implemented
# ===================================================================================
ARGS = "import torch.nn as nn\nimport torch.nn.functional as F\nx = torch.ones(2)\n"
TO_COPY_LOG = ARGS_DISPATCH + "def to_copies(log):\n    return [line for line in log if '_to_copy' in line]\n"
for _cid, _code in [
    # Tensor.to and the conversions: PyTorch's three signatures, the overload each call makes
    ("args.to_two_dtypes", "out = x.to(torch.float64, torch.float32)"),
    ("args.to_two_devices", "out = x.to('cpu', 'cpu')"),
    ("args.to_non_blocking_int", "out = x.to(torch.float64, non_blocking=1)"),
    ("args.to_non_blocking_int_alone", "out = x.to(non_blocking=1)"),
    ("args.to_none", "out = x.to(None) is x"),
    ("args.to_none_dtype", "out = x.to(None, torch.float64)"),
    ("args.to_copy_alone", "y = x.to(copy=True)\nout = (y is x, y)"),
    ("args.to_device_copy", "y = x.to('cpu', copy=True)\nout = (y is x, y)"),
    ("args.to_dtype_twice", "out = x.to(torch.float64, dtype=torch.float64)"),
    ("args.to_memory_format_int", "out = x.to(memory_format=1)"),
    ("args.to_positional_memory_format", "out = x.to(torch.float64, True, True, torch.preserve_format)"),
    ("args.to_too_many", "out = x.to(1, 2, 3, 4, 5)"),
    ("args.to_bool_number", "out = x.to(True)"),
    ("args.to_float_number", "out = x.to(1.5)"),
    ("args.to_tensor_kwarg", "out = x.to(tensor=torch.ones(1, dtype=torch.float64))"),
    ("args.to_layout", "out = x.to(torch.strided)"),
    ("args.to_keywords_last_first", "out = x.to(zz=1, aa=1, mm=1)"),
    ("args.to_python_type", "out = x.to(int)"),
    ("args.float_positional_memory_format", "out = x.float(torch.preserve_format)"),
    ("args.double_memory_format", "out = x.double(memory_format=torch.contiguous_format)"),
    ("args.float_bad_keyword", "out = x.float(foo=1)"),
    ("args.cpu_positional", "out = x.cpu(torch.preserve_format)"),
    ("args.cpu_memory_format_none", "out = x.cpu(memory_format=None) is x"),
    ("args.cuda_float_device", "out = x.cuda(1.5)"),
    ("args.cuda_bad_keyword", "out = x.cuda(foo=1)"),
    ("args.type_dtype", "out = x.type(torch.float64)"),
    ("args.type_same_dtype", "out = x.type(torch.float32) is x"),
    ("args.type_non_blocking_int", "out = x.type(torch.float64, 1)"),
    ("args.type_bad_string", "out = x.type('float')"),
    ("args.type_int", "out = x.type(5)"),
    ("args.type_none_non_blocking", "out = x.type(None, True)"),
    # torch.device's two signatures
    ("args.device_bool_index", "out = torch.device('cpu', True)"),
    ("args.device_bool_index_keyword", "out = torch.device('cpu', index=True)"),
    ("args.device_float_index", "out = torch.device('cpu', 1.0)"),
    ("args.device_str_index", "out = torch.device('cpu', 'a')"),
    ("args.device_no_arguments", "out = torch.device()"),
    ("args.device_bad_keyword", "out = torch.device('cpu', foo=1)"),
    ("args.device_device_and_index", "out = torch.device(torch.device('cpu'), 0)"),
    ("args.device_keywords", "out = torch.device(type='cpu', index=0)"),
    ("args.device_none_index", "out = torch.device('cpu', None)"),
    # the C extension's arguments
    ("args.method_out_one_overload", "out = x.add(x, out=torch.empty(2))"),
    ("args.method_out_overloads", "out = x.sum(out=torch.empty(()))"),
    ("args.method_keywords_last_first", "out = x.sum(foo=1, bar=2, baz=3)"),
    ("args.function_keywords_last_first", "out = torch.sum(x, 0, foo=1, bar=2, baz=3)"),
    ("args.new_empty_strided_requires_grad", "out = x.new_empty_strided((2,), (1,), requires_grad=True).requires_grad"),
    ("args.new_empty_strided_requires_grad_int", "out = x.new_empty_strided((2,), (1,), requires_grad=1)"),
    ("args.layout_sparse", "out = torch.zeros(2, layout=torch.sparse_coo).layout"),
    ("args.tensor_pin_memory", "out = torch.tensor([1.0], pin_memory=True)"),
    ("args.allclose_equal_nan_int", "out = torch.allclose(x, x, equal_nan=1)"),
    ("args.allclose_rtol_str", "out = torch.allclose(x, x, rtol='a')"),
    ("args.allclose_atol_str_positional", "out = torch.allclose(x, x, 1e-5, 'a')"),
    ("args.allclose_rtol_bool", "out = torch.allclose(x, x, rtol=True)"),
    ("args.set_num_threads_float", "out = torch.set_num_threads(1.5)"),
    ("args.set_num_threads_bool", "out = torch.set_num_threads(True)"),
    ("args.parameter_requires_grad_int", "out = nn.Parameter(torch.ones(1), requires_grad=1)"),
    ("args.make_subclass_require_grad_keyword", "out = torch.Tensor._make_subclass(torch.Tensor, x, require_grad=0)"),
    ("args.is_contiguous_positional", "out = x.is_contiguous(torch.contiguous_format)"),
    ("args.requires_grad_keyword_int", "out = x.requires_grad_(requires_grad=1)"),
    ("args.cuda_manual_seed_str", "out = torch.cuda.manual_seed('abc')"),
    ("args.cuda_manual_seed_all_none", "out = torch.cuda.manual_seed_all(None)"),
    ("args.cuda_manual_seed_int", "out = torch.cuda.manual_seed(3)"),
    ("args.dtype_facts", "out = [(d.is_complex, d.is_signed, d.itemsize, d.is_floating_point) for d in (torch.uint8, "
                         "torch.int8, torch.int16, torch.int32, torch.int64, torch.complex64, torch.complex128, "
                         "torch.bool, torch.float16, torch.bfloat16, torch.float32, torch.float64)]"),
    # nn: the legacy reduction arguments, the implicit softmax dimension, devices, Module.to
    ("args.cross_entropy_size_average", "out = F.cross_entropy(torch.tensor([[1.0, 2.0], [3.0, 1.0]]), "
                                        "torch.tensor([1, 0]), size_average=False)"),
    ("args.cross_entropy_reduce_false", "out = F.cross_entropy(torch.tensor([[1.0, 2.0], [3.0, 1.0]]), "
                                        "torch.tensor([1, 0]), reduce=False)"),
    ("args.cross_entropy_legacy_mean", "out = F.cross_entropy(torch.tensor([[1.0, 2.0], [3.0, 1.0]]), "
                                       "torch.tensor([1, 0]), size_average=True, reduce=True)"),
    ("args.cross_entropy_elementwise_mean", "out = F.cross_entropy(torch.tensor([[1.0, 2.0], [3.0, 1.0]]), "
                                            "torch.tensor([1, 0]), reduction='elementwise_mean')"),
    ("args.cross_entropy_reduction_list", "out = F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), "
                                          "reduction=['sum'])"),
    ("args.cross_entropy_reduction_none", "out = F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), "
                                          "reduction=None)"),
    ("args.cross_entropy_ignore_index_float", "out = F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), "
                                              "ignore_index=1.5)"),
    ("args.cross_entropy_ignore_index_bool", "out = F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), "
                                             "ignore_index=True)"),
    ("args.cross_entropy_label_smoothing_str", "out = F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), "
                                               "label_smoothing='a')"),
    ("args.cross_entropy_label_smoothing_int", "out = F.cross_entropy(torch.tensor([[1.0, 2.0], [3.0, 1.0]]), "
                                               "torch.tensor([1, 0]), label_smoothing=1)"),
    ("args.nll_loss_size_average", "out = F.nll_loss(torch.tensor([[1.0, 2.0], [3.0, 1.0]]), torch.tensor([1, 0]), "
                                   "size_average=False)"),
    ("args.nll_loss_elementwise_mean", "out = F.nll_loss(torch.tensor([[1.0, 2.0], [3.0, 1.0]]), torch.tensor([1, 0]), "
                                       "reduction='elementwise_mean')"),
    ("args.cross_entropy_loss_reduce", "out = nn.CrossEntropyLoss(reduce=False).reduction"),
    ("args.cross_entropy_loss_size_average", "out = nn.CrossEntropyLoss(size_average=False)(torch.tensor([[1.0, 2.0], "
                                             "[3.0, 1.0]]), torch.tensor([1, 0]))"),
    ("args.softmax_implicit_dim_1d", "out = F.softmax(torch.tensor([1.0, 2.0]))"),
    ("args.softmax_implicit_dim_3d", "out = F.softmax(torch.arange(8.0).reshape(2, 2, 2))"),
    ("args.log_softmax_implicit_dim_2d", "out = F.log_softmax(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))"),
    ("args.log_softmax_implicit_dim_4d", "out = F.log_softmax(torch.ones(1, 2, 1, 2))"),
    ("args.softmax_implicit_dim_0d", "out = F.softmax(torch.tensor(1.0))"),
    ("args.embedding_device_cuda", "out = nn.Embedding(3, 2, device='cuda')"),
    ("args.layernorm_device_cuda", "out = nn.LayerNorm(3, device='cuda')"),
    ("args.layernorm_device_cpu", "out = nn.LayerNorm(3, device='cpu').weight"),
    ("args.module_zero_grad_keep", "m = nn.Linear(2, 2)\nm(torch.ones(2)).sum().backward()\nm.zero_grad(set_to_none=False)\n"
                                   "out = (m.weight.grad, m.bias.grad.requires_grad)"),
    ("args.module_init_positional", "out = nn.Module(1)"),
    ("args.module_init_keyword", "out = nn.Module(a=1)"),
    ("args.sequential_keyword", "out = nn.Sequential(a=1)"),
    ("args.module_to_non_blocking", "m = nn.Linear(2, 2)\nout = m.to('cpu', non_blocking=True) is m"),
    ("args.module_to_non_blocking_alone", "m = nn.Linear(2, 2)\nout = m.to(non_blocking=True) is m"),
    ("args.module_to_float64", "m = nn.Linear(2, 2)\nw = m.weight\nm(torch.ones(2)).sum().backward()\nm.to(torch.float64)\n"
                               "out = (w is m.weight, m.weight.dtype, m.weight.grad.dtype, m.weight.requires_grad, "
                               "m.weight.is_leaf, type(m.weight).__name__, m.bias.dtype)"),
    ("args.module_to_keyword_dtype", "m = nn.Sequential(nn.Linear(2, 2), nn.LayerNorm(2))\nm.to(dtype=torch.float16)\n"
                                     "out = [p.dtype for p in m.parameters()]"),
    ("args.module_to_int_buffer", "m = nn.Module()\nm.register_buffer('b', torch.tensor([1, 2]))\n"
                                  "m.register_buffer('f', torch.ones(1))\nm.to(torch.float64)\nout = (m.b.dtype, m.f.dtype)"),
    ("args.module_to_int_dtype", "out = nn.Linear(2, 2).to(torch.int64)"),
    ("args.module_to_copy", "out = nn.ReLU().to(copy=False)"),
    ("args.module_to_positional_copy", "out = nn.ReLU().to(torch.float64, False, False)"),
    ("args.module_to_cuda_no_parameters", "out = nn.ReLU().to('cuda')"),
    ("args.module_to_cuda_parameters", "out = nn.Linear(2, 2).to('cuda')"),
    ("args.module_to_index", "out = nn.ReLU().to(0)"),
    ("args.module_to_bad_keyword", "out = nn.Linear(2, 2).to(foo=1)"),
    ("args.module_to_none", "m = nn.Linear(2, 2)\nout = m.to(None) is m"),
    ("args.module_to_two_devices", "out = nn.Linear(2, 2).to('cpu', 'cpu')"),
    ("args.module_to_tensor", "m = nn.Linear(2, 2)\nout = m.to(torch.ones(1, dtype=torch.float64)).weight.dtype"),
    ("args.module_to_memory_format", "m = nn.Linear(2, 2)\nout = m.to(memory_format=torch.channels_last) is m"),
    ("args.module_double", "m = nn.Linear(2, 2)\nm.register_buffer('n', torch.tensor([3]))\nm.double()\n"
                           "out = (m.weight.dtype, m.bias.dtype, m.n.dtype)"),
    ("args.module_half_then_float", "m = nn.Linear(2, 2)\nm.half()\nd = m.weight.dtype\nm.float()\nout = (d, m.weight.dtype)"),
    ("args.module_cpu", "m = nn.Linear(2, 2)\nw = m.weight\nout = (m.cpu() is m, m.weight is w)"),
    ("args.module_cuda_no_parameters", "out = nn.ReLU().cuda()"),
    ("args.module_cuda_parameters", "out = nn.Linear(2, 2).cuda()"),
    # optim: PyTorch's own checks before what ctorch lacks
    ("args.sgd_set_in_group", "w = torch.ones(2, requires_grad=True)\nout = torch.optim.SGD([{'params': {w}}], lr=0.1)"),
    ("args.add_param_group_tensor", "w = torch.ones(2, requires_grad=True)\no = torch.optim.SGD([w], lr=0.1)\n"
                                    "out = o.add_param_group(torch.ones(2, requires_grad=True))"),
    ("args.sgd_foreach_and_fused", "out = torch.optim.SGD([torch.ones(2, requires_grad=True)], lr=0.1, foreach=True, "
                                   "fused=True)"),
    ("args.sgd_fused_differentiable", "out = torch.optim.SGD([torch.ones(2, requires_grad=True)], lr=0.1, fused=True, "
                                      "differentiable=True)"),
    ("args.sgd_nesterov_before_foreach", "out = torch.optim.SGD([torch.ones(2, requires_grad=True)], lr=0.1, "
                                         "nesterov=True, foreach=True)"),
    ("args.sgd_tensor_lr_two_elements", "out = torch.optim.SGD([torch.ones(2, requires_grad=True)], lr=torch.ones(2))"),
    ("args.adamw_foreach_and_fused", "out = torch.optim.AdamW([torch.ones(2, requires_grad=True)], foreach=True, "
                                     "fused=True)"),
    ("args.adamw_fused_differentiable", "out = torch.optim.AdamW([torch.ones(2, requires_grad=True)], fused=True, "
                                        "differentiable=True)"),
    ("args.adamw_weight_decay_negative_int", "out = torch.optim.AdamW([torch.ones(2, requires_grad=True)], "
                                             "weight_decay=-1)"),
    ("args.adamw_eps_negative_int", "out = torch.optim.AdamW([torch.ones(2, requires_grad=True)], eps=-1)"),
    ("args.adamw_lr_negative_int", "out = torch.optim.AdamW([torch.ones(2, requires_grad=True)], lr=-1)"),
    ("args.adamw_betas_int", "out = torch.optim.AdamW([torch.ones(2, requires_grad=True)], betas=(0, 0.999))"),
    ("args.adamw_betas_out_of_range", "out = torch.optim.AdamW([torch.ones(2, requires_grad=True)], betas=(0.9, 1.0))"),
    ("args.sgd_named_parameters", "w = torch.ones(2, requires_grad=True)\no = torch.optim.SGD([('w', w)], lr=0.1)\n"
                                  "out = (o.param_groups[0]['param_names'], o.param_groups[0]['params'][0] is w)"),
    ("args.sgd_named_and_unnamed", "out = torch.optim.SGD([('w', torch.ones(2, requires_grad=True)), "
                                   "torch.ones(2, requires_grad=True)], lr=0.1)"),
    ("args.adamw_named_parameters_step", "w = torch.ones(2, requires_grad=True)\nw.grad = torch.ones(2)\n"
                                         "o = torch.optim.AdamW([('w', w)], lr=0.1)\no.step()\nout = w"),
    ("args.optim_groups_names_mixed", "o = torch.optim.SGD([{'params': [('a', torch.ones(1, requires_grad=True))]}], "
                                      "lr=0.1)\nout = o.add_param_group({'params': [torch.ones(1, requires_grad=True)]})"),
    # autograd.backward: PyTorch's checks of the call, then what the engine lacks
    ("args.backward_inputs_empty", "w = torch.ones(2, requires_grad=True)\ntorch.autograd.backward(w.sum(), inputs=[])"),
    ("args.tensor_backward_inputs_empty", "w = torch.ones(2, requires_grad=True)\nw.sum().backward(inputs=[])"),
    ("args.backward_grad_variables_and_tensors", "w = torch.ones(2, requires_grad=True)\n"
                                                 "torch.autograd.backward(w.sum(), torch.tensor(2.0), "
                                                 "grad_variables=torch.tensor(2.0))"),
    ("args.backward_grad_variables", "w = torch.ones(2, requires_grad=True)\n"
                                     "torch.autograd.backward(w.sum(), grad_variables=torch.tensor(2.0))\nout = w.grad"),
    ("args.backward_create_graph_non_scalar", "w = torch.ones(2, requires_grad=True)\n(w * 2).backward(create_graph=True)"),
    # utils
    ("args.tree_map_arity", "import torch.utils._pytree as pt\nout = pt.tree_map(lambda a, b: a + b, [1, 2], [3])"),
    ("args.tree_map_node_type", "import torch.utils._pytree as pt\nout = pt.tree_map(lambda a, b: a + b, [1, 2], (3, 4))"),
    ("args.tree_map_keys", "import torch.utils._pytree as pt\nout = pt.tree_map(lambda a, b: a + b, {'a': 1}, {'b': 2})"),
    ("args.tree_map_prefix", "import torch.utils._pytree as pt\nout = pt.tree_map(lambda a, b: [a] + b, [5, 6], "
                             "[[7, 9], [1, 2]])"),
    ("args.tree_map_dict_kinds", "import collections\nimport torch.utils._pytree as pt\n"
                                 "out = pt.tree_map(lambda a, b: a + b, {'a': 1}, collections.OrderedDict(a=2))"),
    ("args.tree_map_only_predicate", "import torch.utils._pytree as pt\n"
                                     "out = pt.tree_map_only(lambda v: isinstance(v, int), lambda v: v * 2, [1, 'a'])"),
    ("args.tree_map_only_not_a_type", "import torch.utils._pytree as pt\nout = pt.tree_map_only(3, lambda v: v, [1])"),
    ("args.dispatch_mode_key_int", "from torch.utils._python_dispatch import TorchDispatchMode\n"
                                   "out = TorchDispatchMode(1)"),
    ("args.dispatch_mode_key", "from torch.utils._python_dispatch import TorchDispatchMode\n"
                               "out = type(TorchDispatchMode(torch._C.DispatchKey.CPU)).__name__"),
]:
    case(_cid, ARGS + _code)

for _cid, _code in [
    # the kwargs _to_copy receives: what to.dtype / to.dtype_layout / the engine were given
    ("args.to_non_blocking_logged", "with ArgLog() as m:\n    x.to(torch.float64, non_blocking=True)\nout = m.log"),
    ("args.to_copy_logged", "with ArgLog() as m:\n    x.to(copy=True)\nout = m.log"),
    ("args.to_device_copy_non_blocking_logged", "with ArgLog() as m:\n    x.to('cpu', non_blocking=True, copy=True)\n"
                                                "out = m.log"),
    ("args.type_non_blocking_logged", "with ArgLog() as m:\n    x.type(torch.float64, non_blocking=True)\nout = m.log"),
    ("args.half_memory_format_logged", "with ArgLog() as m:\n    x.half(memory_format=torch.contiguous_format)\n"
                                       "out = m.log"),
    ("args.log_softmax_dtype_logged", "with ArgLog() as m:\n    F.log_softmax(x, 0, dtype=torch.float64)\n"
                                      "out = to_copies(m.log)"),
    ("args.to_copy_backward_logged", "w = torch.ones(2, requires_grad=True)\ny = w.double().sum()\nwith ArgLog() as m:\n"
                                     "    y.backward()\nout = to_copies(m.log)"),
    ("args.root_grad_cast_logged", "w = torch.ones(2, requires_grad=True)\ny = w * 2\nwith ArgLog() as m:\n"
                                   "    y.backward(torch.ones(2, dtype=torch.float64))\nout = (to_copies(m.log), w.grad)"),
    ("args.new_empty_strided_logged", "with ArgLog() as m:\n    x.new_empty_strided((2,), (1,), requires_grad=True)\n"
                                      "out = m.log"),
]:
    case(_cid, ARGS + TO_COPY_LOG + _code)

# the profiler's options, as a CPU-only PyTorch takes them (event names only: times vary)
PROF_NAMES = "def names(events):\n    return sorted(set(e.name for e in events))\n"
for _cid, _code in [
    ("args.prof_to_cpu_names", "with torch.profiler.profile() as p:\n    y = x.to('cpu')\nout = (y is x, names(p.events()))"),
    ("args.prof_use_cuda", "with torch.autograd.profiler.profile(use_cuda=True) as p:\n    x + 1\n"
                           "out = names(p.function_events)"),
    ("args.prof_use_device_cuda", "with torch.autograd.profiler.profile(use_device='cuda') as p:\n    x + 1\n"
                                  "out = names(p.function_events)"),
    ("args.prof_use_device_cpu", "with torch.autograd.profiler.profile(use_device='cpu') as p:\n    x + 1\n"
                                 "out = names(p.function_events)"),
    ("args.prof_use_device_xpu", "with torch.autograd.profiler.profile(use_device='xpu') as p:\n    x + 1\n"
                                 "out = names(p.function_events)"),
    ("args.prof_use_device_mtia", "with torch.autograd.profiler.profile(use_device='mtia') as p:\n    x + 1"),
    ("args.prof_use_cpu_false", "with torch.autograd.profiler.profile(use_cpu=False) as p:\n    x + 1"),
    ("args.prof_use_cpu_false_kineto", "with torch.autograd.profiler.profile(use_cpu=False, use_kineto=True) as p:\n"
                                       "    x + 1"),
    ("args.prof_use_kineto", "with torch.autograd.profiler.profile(use_kineto=True) as p:\n    x + 1\n"
                             "out = names(p.function_events)"),
    ("args.prof_acc_events_one_run", "with torch.autograd.profiler.profile(acc_events=True) as p:\n    x + 1\n"
                                     "out = names(p.function_events)"),
    ("args.prof_reenter", "p = torch.autograd.profiler.profile()\nwith p:\n    x + 1\nwith p:\n    x * 1"),
    ("args.prof_disabled_enter", "with torch.autograd.profiler.profile(enabled=False) as p:\n    x + 1\nout = p"),
    ("args.prof_disabled_options", "p = torch.autograd.profiler.profile(enabled=False, with_flops=True, use_cpu=False)\n"
                                   "with p:\n    x + 1\nout = p.enabled"),
    ("args.prof_disabled_events", "p = torch.autograd.profiler.profile(enabled=False)\nwith p:\n    x + 1\n"
                                  "out = p.function_events"),
    ("args.prof_positional_options", "p = torch.autograd.profiler.profile(True, True)"),
    ("args.prof_key_averages_overload_name", "with torch.autograd.profiler.profile() as p:\n    x + 1\n"
                                             "out = p.key_averages(group_by_overload_name=True)"),
    ("args.profiler_activities_cpu_cuda", "A = torch.profiler.ProfilerActivity\n"
                                          "with torch.profiler.profile(activities=[A.CPU, A.CUDA]) as p:\n    x + 1\n"
                                          "out = names(p.events())"),
    ("args.profiler_activities_cuda", "A = torch.profiler.ProfilerActivity\n"
                                      "with torch.profiler.profile(activities=[A.CUDA]) as p:\n    x + 1"),
    ("args.profiler_activities_cuda_made", "A = torch.profiler.ProfilerActivity\n"
                                           "out = type(torch.profiler.profile(activities=[A.CUDA])).__name__"),
    ("args.profiler_activities_xpu", "A = torch.profiler.ProfilerActivity\n"
                                     "with torch.profiler.profile(activities=[A.XPU]) as p:\n    x + 1"),
    ("args.profiler_activities_mtia", "A = torch.profiler.ProfilerActivity\n"
                                      "with torch.profiler.profile(activities=[A.CPU, A.MTIA]) as p:\n    x + 1"),
    ("args.profiler_activities_privateuse1", "A = torch.profiler.ProfilerActivity\n"
                                             "with torch.profiler.profile(activities=[A.CPU, A.PrivateUse1]) as p:\n"
                                             "    x + 1\nout = names(p.events())"),
    ("args.profiler_activities_empty", "with torch.profiler.profile(activities=[]) as p:\n    x + 1\n"
                                       "out = names(p.events())"),
    ("args.profiler_use_cuda_true", "with torch.profiler.profile(use_cuda=True) as p:\n    x + 1\nout = names(p.events())"),
    ("args.profiler_use_cuda_false", "with torch.profiler.profile(use_cuda=False) as p:\n    x + 1\n"
                                     "out = names(p.events())"),
    ("args.profiler_use_cuda_false_only_cuda", "A = torch.profiler.ProfilerActivity\n"
                                               "out = torch.profiler.profile(activities=[A.CUDA], use_cuda=False)"),
    ("args.profiler_on_trace_ready", "seen = []\n"
                                     "with torch.profiler.profile(on_trace_ready=lambda q: seen.append(names(q.events()))):\n"
                                     "    x + 1\nout = seen"),
    ("args.profiler_on_trace_ready_when", "seen = []\nwith torch.profiler.profile(on_trace_ready=lambda q: seen.append(1)):\n"
                                          "    x + 1\n    seen.append(0)\nout = seen"),
    ("args.profiler_on_trace_ready_start_stop", "seen = []\np = torch.profiler.profile(on_trace_ready=lambda q: seen.append(1))\n"
                                                "p.start()\nx + 1\np.stop()\np.start()\nx * 1\np.stop()\nout = seen"),
    ("args.profiler_step_no_schedule", "with torch.profiler.profile() as p:\n    x + 1\n    p.step()\n    x * 2\n"
                                       "    p.step()\nout = names(p.events())"),
    ("args.profiler_acc_events_one_run", "with torch.profiler.profile(acc_events=True) as p:\n    x + 1\n"
                                         "out = names(p.events())"),
    ("args.profiler_two_runs", "p = torch.profiler.profile()\np.start()\nx + 1\np.stop()\np.start()\nx * 1\np.stop()\n"
                               "out = names(p.events())"),
    ("args.profiler_no_table", "with torch.profiler.profile() as p:\n    x + 1\nout = p.table()"),
    ("args.profiler_no_function_events", "with torch.profiler.profile() as p:\n    x + 1\nout = p.function_events"),
    ("args.profiler_key_averages_overload_name", "with torch.profiler.profile() as p:\n    x + 1\n"
                                                 "out = p.key_averages(group_by_overload_name=True)"),
    ("args.profiler_key_averages_stack_n", "with torch.profiler.profile() as p:\n    x + 1\n"
                                           "out = len(p.key_averages(group_by_stack_n=5)) == len(p.key_averages())"),
    ("args.event_list_key_averages_shapes", "with torch.profiler.profile(record_shapes=True) as p:\n    x + 1\n"
                                            "out = sorted(e.key for e in p.events().key_averages(group_by_input_shapes=True))"),
    ("args.event_list_key_averages_positional", "with torch.profiler.profile() as p:\n    x + 1\n"
                                           "out = p.events().key_averages(True, 0, 1)"),
    ("args.table_row_limit_float", "with torch.profiler.profile() as p:\n    x + 1\n"
                                   "out = p.key_averages().table(row_limit=1.5).count('\\n')"),
    ("args.table_row_limit_whole_float", "with torch.profiler.profile() as p:\n    x + 1\n"
                                         "out = p.key_averages().table(row_limit=2.0).count('\\n')"),
    ("args.table_row_limit_none", "with torch.profiler.profile() as p:\n    x + 1\n"
                                  "out = p.key_averages().table(row_limit=None).count('\\n')"),
    ("args.table_header", "with torch.profiler.profile() as p:\n    x + 1\nt = p.key_averages().table(header='HEAD')\n"
                          "lines = t.splitlines()\nout = (lines[0] == '=' * (len(lines[2]) - 2), lines[1], len(lines))"),
    ("args.table_wide_name_column", "with torch.profiler.profile() as p:\n    x + 1\n"
                                    "out = p.key_averages().table(max_name_column_width=200).splitlines()[1]"),
    ("args.table_no_name_cap", "with torch.profiler.profile() as p:\n    x + 1\n"
                               "out = p.key_averages().table(max_name_column_width=None).splitlines()[1]"),
    ("args.table_narrow_name_column", "with torch.profiler.profile() as p:\n    x + 1\n"
                                      "out = p.key_averages().table(max_name_column_width=10).splitlines()[1]"),
    ("args.table_src_column", "with torch.profiler.profile() as p:\n    x + 1\n"
                              "out = p.key_averages().table(max_src_column_width=5).splitlines()[1]"),
    ("args.table_positional", "with torch.profiler.profile() as p:\n    x + 1\n"
                              "out = p.key_averages().table('cpu_time_total', 3, 75, 55, 80, 'H').splitlines()[1:3]"),
    ("args.table_bad_keyword", "with torch.profiler.profile() as p:\n    x + 1\nout = p.key_averages().table(foo=1)"),
    ("args.table_top_level_only", "with torch.profiler.profile() as p:\n    x + 1\n"
                                  "out = p.key_averages().table(top_level_events_only=True).count('\\n')"),
]:
    case(_cid, ARGS + PROF_NAMES + _code)

WRAPPER = '''
class W(torch.Tensor):
    @staticmethod
    def __new__(cls, e, **kw):
        return torch.Tensor._make_wrapper_subclass(cls, e.shape, **kw)
    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))
'''
case("args.init_subclass_keywords", "class T(torch.Tensor, foo=1):\n    pass\nout = T")
case("args.wrapper_requires_grad_int", WRAPPER + "out = W(torch.ones(2), requires_grad=1)")
case("args.wrapper_requires_grad", WRAPPER + "out = W(torch.ones(2), requires_grad=True).requires_grad")
case("args.wrapper_dtype_absent", WRAPPER + "out = W(torch.ones(2), dtype=torch.int32).dtype")

# in place on a leaf that requires grad and is itself a view (of a base that does not): the view is named first
case("inplace.leaf_view_reshape", "t = torch.tensor([1.5, 2.0]).reshape(2).requires_grad_()\nt.exp_()")
case("inplace.leaf_view_slice", "t = torch.tensor([1.5, 2.0])[0:2].requires_grad_()\nt.mul_(2)")
case("inplace.leaf_plain", "t = torch.tensor([1.5, 2.0], requires_grad=True)\nt.add_(1)")
