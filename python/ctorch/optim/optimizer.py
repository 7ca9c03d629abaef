"""torch.optim.Optimizer: parameter groups, state, zero_grad, and step() run as PyTorch runs it:
inside record_function("Optimizer.step#<Class>.step") (a dispatch mode logs
profiler._record_function_enter_new / _exit around the updates), with grad mode off."""
import functools
from collections import defaultdict

from .. import _C


def _typename(o):
    from .. import typename
    return typename(o)
from .._tensor import Tensor
from ..autograd.profiler import record_function

_missing = _C.NotImplementedInCtorch


class _RequiredParameter:
    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


def _use_grad_for_differentiable(func):
    @functools.wraps(func)
    def _use_grad(self, *args, **kwargs):
        prev_grad = _C.is_grad_enabled()
        try:
            _C._set_grad_enabled(self.defaults["differentiable"])
            ret = func(self, *args, **kwargs)
        finally:
            _C._set_grad_enabled(prev_grad)
        return ret

    return _use_grad


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = defaultdict(dict)
        self.param_groups = []
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {_typename(params)}")
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        step = cls.__dict__.get("step")
        if step is not None and not getattr(step, "_ctorch_profiled", False):
            cls.step = _profile_hook_step(step)

    def add_param_group(self, param_group):
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        else:
            param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + type(param).__name__)
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
        if any(id(p) in seen for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Inside record_function("Optimizer.zero_grad#<Class>.zero_grad"), as PyTorch's: each grad
        set to None, or detached from its graph and filled with zeros."""
        with record_function(f"Optimizer.zero_grad#{self.__class__.__name__}.zero_grad"):
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is not None:
                        if set_to_none:
                            p.grad = None
                        else:
                            if p.grad.grad_fn is not None:
                                p.grad.detach_()
                            else:
                                p.grad.requires_grad_(False)
                            p.grad.zero_()

    def state_dict(self):
        raise _missing("Optimizer.state_dict is not implemented in ctorch")

    def load_state_dict(self, state_dict):
        raise _missing("Optimizer.load_state_dict is not implemented in ctorch")

    def step(self, closure=None):
        raise NotImplementedError

    def __repr__(self):
        s = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            s += "\n"
            s += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    s += f"    {key}: {group[key]}\n"
        s += ")"
        return s


def _profile_hook_step(func):
    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        profile_name = f"Optimizer.step#{self.__class__.__name__}.step"
        with record_function(profile_name):
            return func(self, *args, **kwargs)

    wrapper._ctorch_profiled = True
    return wrapper
