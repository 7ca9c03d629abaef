"""torch.backends.cuda in a CPU-only build: not built; the matmul and scaled-dot-product flags
keep PyTorch's defaults and may be set (they change nothing on the CPU)."""


def is_built():
    return False


class cuBLASModule:
    """torch.backends.cuda.matmul: its three flags, any other name an AttributeError as PyTorch's."""

    _defaults = {"allow_tf32": False, "allow_fp16_reduced_precision_reduction": True,
                 "allow_bf16_reduced_precision_reduction": True}

    def __init__(self):
        object.__setattr__(self, "_flags", dict(self._defaults))

    def __getattr__(self, name):
        flags = object.__getattribute__(self, "_flags")
        if name in flags:
            return flags[name]
        raise AttributeError(f"Unknown attribute {name}")

    def __setattr__(self, name, value):
        if name not in self._flags:
            raise AttributeError(f"Unknown attribute {name}")
        self._flags[name] = value


matmul = cuBLASModule()

_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def flash_sdp_enabled():
    return _sdp["flash"]


def enable_flash_sdp(enabled):
    _sdp["flash"] = bool(enabled)


def mem_efficient_sdp_enabled():
    return _sdp["mem_efficient"]


def enable_mem_efficient_sdp(enabled):
    _sdp["mem_efficient"] = bool(enabled)


def math_sdp_enabled():
    return _sdp["math"]


def enable_math_sdp(enabled):
    _sdp["math"] = bool(enabled)


def cudnn_sdp_enabled():
    return _sdp["cudnn"]


def enable_cudnn_sdp(enabled):
    _sdp["cudnn"] = bool(enabled)


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.backends.cuda')
