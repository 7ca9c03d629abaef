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


def _removed(name):
    """An attribute of torch.autograd.profiler.profile that torch.profiler.profile does not have."""
    def get(self):
        raise AttributeError(f"'profile' object has no attribute '{name}'")
    return property(get)


class profile(_ap.profile):
    """torch.profiler.profile: the CPU activity (other activities a CPU-only build names but has
    not are dropped, as PyTorch drops them); on_trace_ready called when a run stops; schedules are
    not implemented (without one, step() marks nothing)."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, execution_trace_observer=None, acc_events=False, use_cuda=None,
                 custom_trace_id_callback=None):
        activities_set = set(activities) if activities else {ProfilerActivity.CPU}
        if use_cuda is not None:
            import warnings
            warnings.warn("`use_cuda` is deprecated, use `activities` argument instead", FutureWarning, stacklevel=2)
            if use_cuda:
                activities_set.add(ProfilerActivity.CUDA)
            elif ProfilerActivity.CUDA in activities_set:
                activities_set.remove(ProfilerActivity.CUDA)
        assert len(activities_set) > 0, "No valid profiler activities found"
        # _KinetoProfile keeps the activities as given (use_cuda's changes only count for the check above)
        self.activities = set(activities) if activities else {ProfilerActivity.CPU}
        self.use_device = next((d for a, d in ((ProfilerActivity.CUDA, "cuda"), (ProfilerActivity.XPU, "xpu"),
                                               (ProfilerActivity.MTIA, "mtia"),
                                               (ProfilerActivity.PrivateUse1, "privateuseone"))
                                if a in self.activities), None)
        for value, name in ((schedule, "schedule"), (execution_trace_observer, "execution_trace_observer")):
            if value is not None:
                raise _missing(f"torch.profiler.profile({name}=...) is not implemented in ctorch")
        self._options = (with_flops, profile_memory, with_stack, with_modules, experimental_config,
                         custom_trace_id_callback)
        for flag, name in ((with_flops, "with_flops"), (profile_memory, "profile_memory"),
                           (with_stack, "with_stack"), (with_modules, "with_modules"),
                           (experimental_config is not None, "experimental_config"),
                           (custom_trace_id_callback is not None, "custom_trace_id_callback")):
            if flag:
                raise _missing(f"torch.profiler.profile({name}=...) is not implemented in ctorch")
        self.enabled = True
        self.record_shapes = record_shapes
        self.on_trace_ready = on_trace_ready
        self.acc_events = acc_events
        self.step_num = 0
        self._native = None
        self._running = False
        self._events = None

    def start(self):
        if self._native is not None and self._running:
            return  # started again while running: PyTorch's start() re-prepares the same trace
        # prepare_trace makes the autograd profile now, with its checks (devices this build lacks)
        _ap._profiler_config(self.use_device, ProfilerActivity.CPU in self.activities, True, *self._options)
        if self._native is not None and self.acc_events:
            raise _missing("torch.profiler.profile(acc_events=True) over more than one run is not implemented in "
                           "ctorch")
        self._start()

    def stop(self):
        # stop() without start(): torch.profiler.profile.stop_trace's assertion
        assert self._native is not None
        self._stop()
        if self.on_trace_ready:
            self.on_trace_ready(self)

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.stop()

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        assert self._native is not None
        return self._key_averages(group_by_input_shape, group_by_stack_n)

    key_averages.__qualname__ = "_KinetoProfile.key_averages"  # where PyTorch's messages find it

    def step(self):
        """The next step: without a schedule every step records (PyTorch's default schedule), so
        there is nothing to change."""
        self.step_num += 1

    @property
    def profiler(self):
        return self

    def events(self):
        assert self._native is not None
        return _ap.profile.function_events.fget(self)

    # torch.autograd.profiler.profile's, which torch.profiler.profile has not
    table = _removed("table")
    function_events = _removed("function_events")
    self_cpu_time_total = _removed("self_cpu_time_total")

    def __str__(self):
        return object.__repr__(self)


from .._missing import module_getattr as _module_getattr  # noqa: E402

__getattr__ = _module_getattr('torch.profiler')
