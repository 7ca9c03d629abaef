"""What Module.zero_grad and Optimizer.zero_grad do to each gradient."""


def zero_grads(params, set_to_none):
    """Each parameter's grad set to None, or detached from its graph and filled with zeros."""
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
            continue
        if p.grad.grad_fn is not None:
            p.grad.detach_()
        else:
            p.grad.requires_grad_(False)
        p.grad.zero_()
