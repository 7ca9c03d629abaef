"""torch.optim.AdamW: the parameter groups are handed to ctorch's C optimizer (include/ctorch/optim.h),
whose step() runs PyTorch's single-tensor update inside record_function("Optimizer.step#AdamW.step")
and whose zero_grad() opens "Optimizer.zero_grad#AdamW.zero_grad", as PyTorch 2.6 does on the CPU."""
from .. import _C


def _typename(o):
    from .. import typename
    return typename(o)
from .._tensor import Tensor
from .optimizer import Optimizer

_missing = _C.NotImplementedInCtorch
_OPTIONS = ("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize")


def _options(group):
    b1, b2 = group["betas"]
    return (float(group["lr"]), float(b1), float(b2), float(group["eps"]), float(group["weight_decay"]),
            bool(group["amsgrad"]), bool(group["maximize"]))


class AdamW(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        for name, value in (("lr", lr), ("betas[0]", betas[0]), ("betas[1]", betas[1])):
            if isinstance(value, Tensor):
                raise _missing(f"a Tensor {name} for AdamW is not implemented in ctorch")
        if foreach:
            raise _missing("AdamW(foreach=True) (the _foreach_* update) is not implemented in ctorch")
        if fused:
            raise _missing("AdamW(fused=True) is not implemented in ctorch")
        if capturable:
            raise _missing("AdamW(capturable=True) is not implemented in ctorch")
        if differentiable:
            raise _missing("AdamW(differentiable=True) is not implemented in ctorch")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused)
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, "
                            f"but got {_typename(params)}")
        params = list(params)
        groups = params if params and isinstance(params[0], dict) else [{"params": params}]
        # the C optimizer checks the options (PyTorch's ValueErrors) and the parameters first
        c_groups = []
        for g in groups:
            ps = g["params"]
            ps = [ps] if isinstance(ps, Tensor) else list(ps)
            c_groups.append((ps,) + _options({**defaults, **g}))
        self._c = _C._adamw_new(c_groups, _options(defaults))
        super().__init__(params, defaults)
        self._c_options = [_options(g) for g in self.param_groups]

    def _check_groups(self):
        if len(self.param_groups) != len(self._c_options) or any(
                _options(g) != o for g, o in zip(self.param_groups, self._c_options)):
            raise _missing("changing AdamW's param_groups after construction is not implemented in ctorch")

    def step(self, closure=None):
        self._check_groups()
        loss = None
        if closure is not None:
            from ..autograd.grad_mode import enable_grad
            with enable_grad():
                loss = closure()
        _C._optimizer_step(self._c)
        return loss

    step._ctorch_profiled = True  # the C step opens its own record_function range

    def zero_grad(self, set_to_none=True):
        _C._optimizer_zero_grad(self._c, bool(set_to_none))

    def add_param_group(self, param_group):
        if getattr(self, "_c_options", None) is not None:
            raise _missing("AdamW.add_param_group after construction is not implemented in ctorch")
        super().add_param_group(param_group)
