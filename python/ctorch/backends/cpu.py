"""torch.backends.cpu."""
from .._C import _get_cpu_capability


def get_cpu_capability():
    """The CPU capability the kernels run at: "AVX512", "AVX2" or "NO AVX", as PyTorch names it
    (ctorch's level: the best of this CPU and build, or the one CTORCH_CPU_CAPABILITY pins)."""
    return _get_cpu_capability()
