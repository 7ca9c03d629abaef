"""torch.profiler: profile (over ctorch's profiler), ProfilerActivity, record_function."""
import enum

from .. import _C
from ..autograd import profiler as _ap
from ..autograd.profiler import record_function  # noqa: F401

_missing = _C.NotImplementedInCtorch


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1
    XPU = 2
    MTIA = 3
    PrivateUse1 = 4


class profile(_ap.profile):
    """torch.profiler.profile: CPU activity only; schedules and trace handlers are not implemented."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False, use_cuda=None,
                 custom_trace_id_callback=None):
        if activities is not None:
            activities = set(activities)
            if not activities or not any(isinstance(a, ProfilerActivity) for a in activities):
                # nothing PyTorch can record (activities=["cpu"] names none): its profile() asserts
                raise AssertionError("No activities specified for the profiler")
            if any(a != ProfilerActivity.CPU for a in activities if isinstance(a, ProfilerActivity)):
                raise _missing("torch.profiler activities other than ProfilerActivity.CPU are not implemented in ctorch")
        for value, name in ((schedule, "schedule"), (on_trace_ready, "on_trace_ready"),
                            (execution_trace_observer, "execution_trace_observer")):
            if value is not None:
                raise _missing(f"torch.profiler.profile({name}=...) is not implemented in ctorch")
        super().__init__(record_shapes=record_shapes, profile_memory=profile_memory, with_stack=with_stack,
                         with_flops=with_flops, with_modules=with_modules, experimental_config=experimental_config,
                         use_cuda=bool(use_cuda), custom_trace_id_callback=custom_trace_id_callback)

    def __enter__(self):
        if self._native is not None and self._running:
            return self  # started again while running: PyTorch's start() re-prepares the same trace
        return super().__enter__()

    def __exit__(self, exc_type, exc, tb):
        # stop() without start(): torch.profiler.profile.stop_trace's assertion
        assert self._native is not None
        return super().__exit__(exc_type, exc, tb)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        assert self._native is not None
        return super().key_averages(group_by_input_shape, group_by_stack_n, group_by_overload_name)

    def step(self):
        raise _missing("torch.profiler.profile.step (ProfilerStep ranges, schedules) is not implemented in ctorch")

    def start(self):
        self.__enter__()

    def stop(self):
        self.__exit__(None, None, None)

    @property
    def profiler(self):
        return self

    def events(self):
        assert self._native is not None
        return self.function_events


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.profiler')
