"""torch.signal.windows: window functions built from linspace, arange and elementwise math, with the
checks and messages of PyTorch 2.6's torch/signal/windows/windows.py (hamming, hann, general_hamming
and nuttall are general_cosine with fixed coefficients, so their errors name general_cosine)."""
import math
from collections.abc import Iterable

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine", "general_hamming",
           "hamming", "hann", "kaiser", "nuttall"]


def _torch():
    import ctorch
    return ctorch


def _checks(name, M, dtype, layout):
    t = _torch()
    if M < 0:
        raise ValueError(f"{name} requires non-negative window length, got M={M}")
    if layout is not t.strided:
        raise ValueError(f"{name} is implemented for strided tensors only, got: {layout}")
    if dtype not in (t.float32, t.float64):
        raise ValueError(f"{name} expects float32 or float64 dtypes, got: {dtype}")


def _trivial(M, dtype, layout, device, requires_grad):
    """The windows of length 0 and 1 (an empty tensor and [1.]), or None."""
    t = _torch()
    if M == 0:
        return t.empty((0,), dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)
    if M == 1:
        return t.ones((1,), dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)
    return None


def _prologue(name, M, dtype, layout):
    if dtype is None:
        dtype = _torch().get_default_dtype()
    _checks(name, M, dtype, layout)
    return dtype


def _strided():
    return _torch().strided


def exponential(M, *, center=None, tau=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    t = _torch()
    layout = t.strided if layout is None else layout
    dtype = _prologue("exponential", M, dtype, layout)
    if tau <= 0:
        raise ValueError(f"Tau must be positive, got: {tau} instead.")
    if sym and center is not None:
        raise ValueError("Center must be None for symmetric windows")
    if M == 0:
        return _trivial(M, dtype, layout, device, requires_grad)
    if center is None:
        center = (M if not sym and M > 1 else M - 1) / 2.0
    if M == 1:
        return _trivial(M, dtype, layout, device, requires_grad)
    start = -center
    constant = 1 / tau
    k = t.linspace(start=start * constant, end=(start + (M - 1)) * constant, steps=M, dtype=dtype, layout=layout,
                   device=device, requires_grad=requires_grad)
    return t.exp(-t.abs(k))


def cosine(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    t = _torch()
    layout = t.strided if layout is None else layout
    dtype = _prologue("cosine", M, dtype, layout)
    triv = _trivial(M, dtype, layout, device, requires_grad)
    if triv is not None:
        return triv
    start = 0.5
    constant = math.pi / (M + 1 if not sym and M > 1 else M)
    k = t.linspace(start=start * constant, end=(start + (M - 1)) * constant, steps=M, dtype=dtype, layout=layout,
                   device=device, requires_grad=requires_grad)
    return t.sin(k)


def gaussian(M, *, std=1.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    t = _torch()
    layout = t.strided if layout is None else layout
    dtype = _prologue("gaussian", M, dtype, layout)
    if std <= 0:
        raise ValueError(f"Standard deviation must be positive, got: {std} instead.")
    triv = _trivial(M, dtype, layout, device, requires_grad)
    if triv is not None:
        return triv
    start = -(M if not sym and M > 1 else M - 1) / 2.0
    constant = 1 / (std * math.sqrt(2))
    k = t.linspace(start=start * constant, end=(start + (M - 1)) * constant, steps=M, dtype=dtype, layout=layout,
                   device=device, requires_grad=requires_grad)
    return t.exp(-k ** 2)


def kaiser(M, *, beta=12.0, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    t = _torch()
    layout = t.strided if layout is None else layout
    dtype = _prologue("kaiser", M, dtype, layout)
    if beta < 0:
        raise ValueError(f"beta must be non-negative, got: {beta} instead.")
    triv = _trivial(M, dtype, layout, device, requires_grad)
    if triv is not None:
        return triv
    # beta as a tensor of the window's dtype (no NaN from a Python float's precision)
    beta = t.tensor(beta, dtype=dtype, device=device)
    start = -beta
    constant = 2.0 * beta / (M if not sym else M - 1)
    end = t.minimum(beta, start + (M - 1) * constant)
    k = t.linspace(start, end, M, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)
    return t.i0(t.sqrt(beta * beta - t.pow(k, 2))) / t.i0(beta)


def hamming(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_hamming(M, sym=sym, dtype=dtype, layout=layout, device=device, requires_grad=requires_grad)


def hann(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_hamming(M, alpha=0.5, sym=sym, dtype=dtype, layout=layout, device=device,
                           requires_grad=requires_grad)


def blackman(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    t = _torch()
    layout = t.strided if layout is None else layout
    dtype = _prologue("blackman", M, dtype, layout)
    return general_cosine(M, a=[0.42, 0.5, 0.08], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def bartlett(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    t = _torch()
    layout = t.strided if layout is None else layout
    dtype = _prologue("bartlett", M, dtype, layout)
    triv = _trivial(M, dtype, layout, device, requires_grad)
    if triv is not None:
        return triv
    start = -1
    constant = 2 / (M if not sym else M - 1)
    k = t.linspace(start=start, end=start + (M - 1) * constant, steps=M, dtype=dtype, layout=layout, device=device,
                   requires_grad=requires_grad)
    return 1 - t.abs(k)


def general_cosine(M, *, a, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    t = _torch()
    layout = t.strided if layout is None else layout
    dtype = _prologue("general_cosine", M, dtype, layout)
    triv = _trivial(M, dtype, layout, device, requires_grad)
    if triv is not None:
        return triv
    if not isinstance(a, Iterable):
        raise TypeError("Coefficients must be a list/tuple")
    if not a:
        raise ValueError("Coefficients cannot be empty")
    constant = 2 * math.pi / (M if not sym else M - 1)
    k = t.linspace(start=0, end=(M - 1) * constant, steps=M, dtype=dtype, layout=layout, device=device,
                   requires_grad=requires_grad)
    a_i = t.tensor([(-1) ** i * w for i, w in enumerate(a)], device=device, dtype=dtype, requires_grad=requires_grad)
    i = t.arange(a_i.shape[0], dtype=a_i.dtype, device=a_i.device, requires_grad=a_i.requires_grad)
    return (a_i.unsqueeze(-1) * t.cos(i.unsqueeze(-1) * k)).sum(0)


def general_hamming(M, *, alpha=0.54, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_cosine(M, a=[alpha, 1.0 - alpha], sym=sym, dtype=dtype, layout=layout, device=device,
                          requires_grad=requires_grad)


def nuttall(M, *, sym=True, dtype=None, layout=None, device=None, requires_grad=False):
    return general_cosine(M, a=[0.3635819, 0.4891775, 0.1365995, 0.0106411], sym=sym, dtype=dtype, layout=layout,
                          device=device, requires_grad=requires_grad)
