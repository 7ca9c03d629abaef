"""torch.optim.AdamW: the parameter groups are handed to ctorch's C optimizer (include/ctorch/optim.h),
whose step() runs PyTorch's single-tensor update inside record_function("Optimizer.step#AdamW.step")
and whose zero_grad() opens "Optimizer.zero_grad#AdamW.zero_grad", as PyTorch 2.6 does on the CPU."""
from .. import _C
from .._tensor import Tensor
from .optimizer import Optimizer, _check_fused

_missing = _C.NotImplementedInCtorch
_OPTIONS = ("lr", "betas", "eps", "weight_decay", "amsgrad", "maximize")


def _options(group):
    b1, b2 = group["betas"]
    return (float(group["lr"]), float(b1), float(b2), float(group["eps"]), float(group["weight_decay"]),
            bool(group["amsgrad"]), bool(group["maximize"]))


class AdamW(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        # PyTorch's checks, in its order and words, before what ctorch lacks
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
            raise _missing("a Tensor lr for AdamW is not implemented in ctorch")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not ((isinstance(betas[0], float) and isinstance(betas[1], float))
                or (isinstance(betas[0], Tensor) and isinstance(betas[1], Tensor))):
            raise ValueError("betas must be either both floats or both Tensors")
        for i, b in enumerate(betas[:2]):
            if isinstance(b, Tensor):
                if not capturable and foreach:
                    raise ValueError(f"betas[{i}] as a Tensor is not supported for capturable=False and foreach=True")
                if b.numel() != 1:
                    raise ValueError(f"Tensor betas[{i}] must be 1-element")
                raise _missing(f"a Tensor betas[{i}] for AdamW is not implemented in ctorch")
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)
        if foreach:
            raise _missing("AdamW(foreach=True) (the _foreach_* update) is not implemented in ctorch")
        if fused:
            raise _missing("AdamW(fused=True) is not implemented in ctorch")
        if capturable:
            raise _missing("AdamW(capturable=True) is not implemented in ctorch")
        if differentiable:
            raise _missing("AdamW(differentiable=True) is not implemented in ctorch")
        # the C optimizer over the groups Optimizer made (its checks are PyTorch's, already passed)
        self._c = _C._adamw_new([(g["params"],) + _options(g) for g in self.param_groups], _options(defaults))
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
