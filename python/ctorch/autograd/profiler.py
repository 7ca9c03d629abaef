"""torch.autograd.profiler: profile (ctorch's profiler: PyTorch's event names, nesting, input
shapes and key_averages tables), FunctionEvent trees and record_function."""
import ast

from .. import _C

_missing = _C.NotImplementedInCtorch


class FunctionEvent:
    """One recorded range (torch.autograd.profiler_util.FunctionEvent's main fields). Times in us."""

    def __init__(self, id, name, thread, start_us, end_us, input_shapes, sequence_nr):
        self.id = id
        self.name = name
        self.key = name
        self.thread = thread
        self.time_range = (start_us, end_us)
        self.input_shapes = input_shapes
        self.sequence_nr = sequence_nr
        self.cpu_children = []
        self.cpu_parent = None
        self.count = 1
        self.device_type = "CPU"
        self.is_async = False

    @property
    def cpu_time_total(self):
        return self.time_range[1] - self.time_range[0]

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self):
        return self.cpu_time_total

    def __repr__(self):
        return (f"<FunctionEvent id={self.id} name={self.name} cpu_time={self.cpu_time_total:.3f}us "
                f"cpu_parent={self.cpu_parent.id if self.cpu_parent else None} input_shapes={self.input_shapes}>")


class EventList(list):
    """prof.function_events: the events in start order; tables come from the same profiler."""

    def __init__(self, events, prof):
        super().__init__(events)
        self._prof = prof

    def table(self, sort_by=None, row_limit=100, **kwargs):
        return self._prof.key_averages().table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        return self._prof.key_averages(group_by_input_shape=group_by_input_shape, group_by_stack_n=group_by_stack_n)

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def export_chrome_trace(self, path):
        self._prof.export_chrome_trace(path)


class FunctionEventAvg:
    """A row of key_averages(): key, count, times (us) and input shapes."""

    def __init__(self, row):
        self.key = row.get("name")
        self.count = int(row["count"])
        self.input_shapes = row.get("input_shapes")
        self.self_cpu_time_total = row["self_cpu_time_total_us"]
        self.cpu_time_total = row["cpu_time_total_us"]
        self.cpu_time = row["cpu_time_avg_us"]
        self.row = row

    def __repr__(self):
        return f"<FunctionEventAvg key={self.key} self_cpu_time={self.self_cpu_time_total} cpu_time={self.cpu_time_total} count={self.count}>"


_TABLE_DEFAULTS = {"max_src_column_width": 75, "max_name_column_width": 55, "max_shapes_column_width": 80,
                   "header": None, "top_level_events_only": False}


class _KeyAverages(list):
    """prof.key_averages(): its table() is laid out exactly as PyTorch's."""

    def __init__(self, native, group_by_input_shape):
        import json
        self._native = native
        self._by_shape = group_by_input_shape
        rows = json.loads(native.table_json(None, 1 << 30, group_by_input_shape))
        super().__init__(FunctionEventAvg(r) for r in (rows.get("rows", rows) if isinstance(rows, dict) else rows))

    def table(self, sort_by=None, row_limit=100, **kwargs):
        for k, v in kwargs.items():
            if k not in _TABLE_DEFAULTS:
                raise TypeError(f"table() got an unexpected keyword argument '{k}'")
            if v != _TABLE_DEFAULTS[k]:
                raise _missing(f"key_averages().table({k}={v!r}) is not implemented in ctorch")
        try:
            return self._native.table(sort_by, row_limit, self._by_shape)
        except ValueError as e:
            # an unknown sort key: PyTorch's getattr(event, sort_by) raises the AttributeError
            if "object has no attribute" in str(e):
                raise AttributeError(str(e)) from None
            raise


class profile:
    """torch.autograd.profiler.profile: records this thread's operators while the block runs."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None):
        for flag, name in ((use_cuda, "use_cuda"), (use_device not in (None, "cpu"), "use_device"),
                           (with_flops, "with_flops"), (profile_memory, "profile_memory"),
                           (with_stack, "with_stack"), (with_modules, "with_modules"),
                           (experimental_config is not None, "experimental_config"),
                           (custom_trace_id_callback is not None, "custom_trace_id_callback")):
            if flag:
                raise _missing(f"profile({name}=...) is not implemented in ctorch")
        if not use_cpu:
            raise _missing("profile(use_cpu=False) is not implemented in ctorch")
        self.enabled = enabled
        self.record_shapes = record_shapes
        self._native = None
        self._running = False
        self._events = None

    def __enter__(self):
        if self.enabled:
            self._native = _C._profiler_start(self.record_shapes)
            self._running = True
            self._events = None
        return self

    def __exit__(self, exc_type, exc, tb):
        if not self.enabled:
            return False
        if not self._running:
            raise RuntimeError("Can't disable Kineto profiler when it's not running")
        self._running = False
        self._native.stop()
        return False

    def _check(self):
        if self._native is None:
            raise RuntimeError("Profiler didn't finish running")

    @property
    def function_events(self):
        self._check()
        if self._events is None:
            events = []
            for i, (name, parent, start, end, thread, seq, shapes) in enumerate(self._native.events()):
                shp = ast.literal_eval(shapes) if shapes else []
                e = FunctionEvent(i, name, thread, start / 1000.0, end / 1000.0, shp, seq)
                if parent >= 0:
                    e.cpu_parent = events[parent]
                    events[parent].cpu_children.append(e)
                events.append(e)
            self._events = EventList(events, self)
        return self._events

    def events(self):
        return self.function_events

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0, group_by_overload_name=False):
        self._check()
        if group_by_stack_n or group_by_overload_name:
            raise _missing("key_averages(group_by_stack_n / group_by_overload_name) is not implemented in ctorch")
        return _KeyAverages(self._native, group_by_input_shape)

    def table(self, sort_by=None, row_limit=100, **kwargs):
        return self.key_averages().table(sort_by=sort_by, row_limit=row_limit, **kwargs)

    def export_chrome_trace(self, path):
        self._check()
        self._native.export_chrome_trace(path)
        return path

    @property
    def self_cpu_time_total(self):
        return self.function_events.self_cpu_time_total

    def _tree(self):
        """The event tree as text (one line per event, two spaces per level, input shapes)."""
        self._check()
        return self._native.tree()

    def __str__(self):
        return self.table()


class record_function:
    """with record_function(name): a user range; dispatch modes see profiler._record_function_enter_new
    and profiler._record_function_exit (the operators PyTorch's record_function calls)."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self.record = None

    def __enter__(self):
        self.record = _enter(self.name, self.args)
        return self

    def __exit__(self, exc_type, exc, tb):
        record, self.record = self.record, None
        assert record is not None  # exited without entering: PyTorch's record_function asserts
        _exit(record)
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with record_function(self.name, self.args):
                return fn(*args, **kwargs)
        return wrapper


_enter = _C._op_overload("profiler::_record_function_enter_new")
_exit = _C._op_overload("profiler::_record_function_exit._RecordFunction")
