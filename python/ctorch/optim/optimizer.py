"""torch.optim.Optimizer: parameter groups, state, zero_grad, and step() run as PyTorch runs it:
inside record_function("Optimizer.step#<Class>.step") (a dispatch mode logs
profiler._record_function_enter_new / _exit around the updates), with grad mode off."""
import functools
from collections import defaultdict

from .. import _C
from .._grads import zero_grads
from .._missing import attribute as _missing_attribute


def _typename(o):
    from .. import typename
    return typename(o)


def _class_repr(o):
    """repr(type(o)) as PyTorch's would read: torch's classes under their torch names."""
    t = type(o)
    module = t.__module__
    if t.__name__ == "Tensor" and module == "ctorch._tensor":
        module = "torch"
    elif module == "ctorch" or module.startswith("ctorch."):
        module = "torch" + module[len("ctorch"):]
    return f"<class '{t.__qualname__}'>" if module == "builtins" else f"<class '{module}.{t.__qualname__}'>"
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


def _check_fused(fused, foreach, differentiable):
    """The checks PyTorch's optimizers make of fused= against the other implementation options."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


class Optimizer:
    def __getattr__(self, name):
        # called only when the usual lookup fails: a method PyTorch's Optimizer has and
        # ctorch's lacks says so
        raise _missing_attribute("Optimizer", name, type(self).__name__)

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
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {_class_repr(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group["params"] = list(params)
        # named parameters: (name, tensor) pairs, the names kept as the group's param_names
        names = [p[0] for p in param_group["params"] if isinstance(p, tuple)]
        param_group["params"] = [p[1] if isinstance(p, tuple) else p for p in param_group["params"]]
        if names:
            if len(names) != len(param_group["params"]):
                raise ValueError("all optimizer params should be with/without names. Some param names are missing")
            param_group["param_names"] = names
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not self.defaults.get("differentiable", None) and not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError(f"parameter group didn't specify a value of required optimization parameter {name}")
            param_group.setdefault(name, default)
        if len({id(p) for p in param_group["params"]}) != len(param_group["params"]):
            import warnings
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                          "an error; see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)
        seen = set()
        for group in self.param_groups:
            seen.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                txt = "with names" if "param_names" in param_group else "without names"
                raise ValueError(f"all optimizer param groups should be with/without names. cannot add param group "
                                 f"{txt} to the optimizer")
        if any(id(p) in seen for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Inside record_function("Optimizer.zero_grad#<Class>.zero_grad"), as PyTorch's: each grad
        set to None, or detached from its graph and filled with zeros."""
        with record_function(f"Optimizer.zero_grad#{self.__class__.__name__}.zero_grad"):
            for group in self.param_groups:
                zero_grads(group["params"], set_to_none)

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
