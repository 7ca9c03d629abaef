"""torch.optim.SGD: PyTorch's parameter groups and state, with the for-loop update (the implementation
PyTorch picks for CPU tensors) done by ctorch's C SGD, the one C programs use."""
from .. import _C
from .._tensor import Tensor
from ..autograd.grad_mode import enable_grad
from .optimizer import Optimizer, _use_grad_for_differentiable, required, _check_fused

_missing = _C.NotImplementedInCtorch


class SGD(Optimizer):
    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False,
                 foreach=None, differentiable=False, fused=None):
        if isinstance(lr, Tensor):
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
            raise _missing("a Tensor learning rate is not implemented in ctorch")
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay, nesterov=nesterov,
                        maximize=maximize, foreach=foreach, differentiable=differentiable, fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        _check_fused(fused, foreach, differentiable)
        # after PyTorch's own checks: what ctorch's SGD lacks
        if foreach:
            raise _missing("SGD(foreach=True) (the _foreach_* kernels) is not implemented in ctorch")
        if fused:
            raise _missing("SGD(fused=True) is not implemented in ctorch")
        if differentiable:
            raise _missing("SGD(differentiable=True) is not implemented in ctorch")

    def _init_group(self, group, params, grads, momentum_buffer_list):
        for p in group["params"]:
            if p.grad is not None:
                params.append(p)
                grads.append(p.grad)
                if group["momentum"] != 0:
                    momentum_buffer_list.append(self.state[p].get("momentum_buffer"))
        return False

    @_use_grad_for_differentiable
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        for group in self.param_groups:
            params, grads, momentum_buffer_list = [], [], []
            self._init_group(group, params, grads, momentum_buffer_list)
            _single_tensor_sgd(params, grads, momentum_buffer_list, weight_decay=group["weight_decay"],
                               momentum=group["momentum"], lr=group["lr"], dampening=group["dampening"],
                               nesterov=group["nesterov"], maximize=group["maximize"])
            if group["momentum"] != 0:
                for p, momentum_buffer in zip(params, momentum_buffer_list):
                    self.state[p]["momentum_buffer"] = momentum_buffer
        return loss


def _single_tensor_sgd(params, grads, momentum_buffer_list, *, weight_decay, momentum, lr, dampening, nesterov,
                       maximize):
    """PyTorch's for-loop update, run by ctorch's C SGD (ct_sgd_update, include/ctorch/optim.h):
    the new momentum buffers come back into momentum_buffer_list."""
    momentum_buffer_list[:] = _C._sgd(params, grads, momentum_buffer_list, lr, momentum, dampening, weight_decay,
                                      nesterov, maximize)
