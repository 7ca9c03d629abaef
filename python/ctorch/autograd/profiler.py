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

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        return self._prof.key_averages().table(sort_by, row_limit, max_src_column_width, max_name_column_width,
                                               max_shapes_column_width, header, top_level_events_only)

    def key_averages(self, group_by_input_shapes=False, group_by_stack_n=0):
        return self._prof._key_averages(group_by_input_shapes, group_by_stack_n)

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


def _row_limit(row_limit):
    """_build_table stops when its count of rows equals row_limit: a value no count equals (a
    negative or fractional number, None, a string) lists every row."""
    if isinstance(row_limit, (int, float)) and row_limit == int(row_limit) and row_limit >= 0:
        return int(row_limit)
    return -1


class _KeyAverages(list):
    """prof.key_averages(): its table() is laid out exactly as PyTorch's."""

    def __init__(self, native, group_by_input_shape):
        import json
        self._native = native
        self._by_shape = group_by_input_shape
        rows = json.loads(native.table_json(None, 1 << 30, group_by_input_shape))
        super().__init__(FunctionEventAvg(r) for r in (rows.get("rows", rows) if isinstance(rows, dict) else rows))

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        if top_level_events_only:
            raise _missing("key_averages().table(top_level_events_only=True) is not implemented in ctorch")
        # the name column is as wide as the longest name and 4, capped by max_name_column_width
        natural = max((len(e.key) for e in self), default=0) + 4
        if min(natural, 55) != (natural if max_name_column_width is None else min(natural, max_name_column_width)):
            raise _missing(f"key_averages().table(max_name_column_width={max_name_column_width!r}) narrower than its "
                           "names is not implemented in ctorch")
        try:
            text = self._native.table(sort_by, _row_limit(row_limit), self._by_shape)
        except ValueError as e:
            # an unknown sort key: PyTorch's getattr(event, sort_by) raises the AttributeError
            if "object has no attribute" in str(e):
                raise AttributeError(str(e)) from None
            raise
        # the shapes column is capped as the name column; the source column needs stacks, which
        # ctorch does not record, so its width changes nothing
        lines = text.split("\n", 2)
        if max_shapes_column_width != 80 and len(lines) > 1 and "Input Shapes" in lines[1]:
            raise _missing(f"key_averages().table(max_shapes_column_width={max_shapes_column_width!r}) is not "
                           "implemented in ctorch")
        if header is not None and text:
            # a line of "=" as long as the table's lines, then the header, above the table
            text = "=" * (len(text.split("\n", 1)[0]) - 2) + "\n" + f"{header}\n" + text
        return text


_VALID_DEVICE_OPTIONS = ("cuda", "xpu", "mtia")


def _profiler_config(use_device, use_cpu, use_kineto, with_flops, profile_memory, with_stack, with_modules,
                     experimental_config, custom_trace_id_callback):
    """What profile.__init__ does with its options on a CPU-only build: devices named but absent are
    dropped with PyTorch's warnings, its assertions, then what ctorch's profiler lacks."""
    import warnings
    if not use_cpu:
        assert use_kineto, "Device-only events supported only with Kineto (use_kineto=True)"
    if use_device is not None:
        if use_device not in _VALID_DEVICE_OPTIONS:
            warnings.warn(f"The {use_device} is not a valid device option.")
            use_device = None
        elif use_device == "cuda":
            warnings.warn("CUDA is not available, disabling CUDA profiling")
            use_device = None
        elif use_device == "xpu":
            warnings.warn("XPU is not available, disabling XPU profiling")
            use_device = None
    if use_device == "mtia":
        raise AssertionError("Legacy MTIA profiling is not supported. Requires use_kineto=True on MTIA devices.")
    assert use_cpu, "No activities specified for the profiler"
    for flag, name in ((with_flops, "with_flops"), (profile_memory, "profile_memory"), (with_stack, "with_stack"),
                       (with_modules, "with_modules"), (experimental_config is not None, "experimental_config"),
                       (custom_trace_id_callback is not None, "custom_trace_id_callback")):
        if flag:
            raise _missing(f"profile({name}=...) is not implemented in ctorch")


def _no_function_events():
    return AttributeError("'profile' object has no attribute '_function_events'")


# key_averages() is an EventList in PyTorch: its table's messages name that class
_KeyAverages.table.__qualname__ = "EventList.table"


class profile:
    """torch.autograd.profiler.profile: records this thread's operators while the block runs (once:
    the context manager is not reentrant, as PyTorch's)."""

    def __init__(self, enabled=True, *, use_cuda=False, use_device=None, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None, acc_events=False, custom_trace_id_callback=None):
        self.enabled = enabled
        if not enabled:
            return  # PyTorch sets nothing else: the profile records nothing and has no results
        if use_cuda:
            import warnings
            warnings.warn("The attribute `use_cuda` will be deprecated soon, please use ``use_device = 'cuda'`` "
                          "instead.", FutureWarning, stacklevel=2)
            use_device = "cuda"
        # acc_events keeps the events of earlier cycles, which this context manager runs once
        _profiler_config(use_device, use_cpu, use_kineto, with_flops, profile_memory, with_stack, with_modules,
                         experimental_config, custom_trace_id_callback)
        self.record_shapes = record_shapes
        self.entered = False
        self._native = None
        self._running = False
        self._events = None

    def __enter__(self):
        if not self.enabled:
            return None
        if self.entered:
            raise RuntimeError("Profiler context manager is not reentrant")
        self.entered = True
        self._start()
        return self

    def __exit__(self, exc_type, exc, tb):
        if not self.enabled:
            return None
        self._stop()
        return False

    def _start(self):
        self._native = _C._profiler_start(self.record_shapes)
        self._running = True
        self._events = None

    def _stop(self):
        if not self._running:
            raise RuntimeError("Can't disable Kineto profiler when it's not running")
        self._running = False
        self._native.stop()

    def _check(self):
        if not self.enabled:
            raise _no_function_events()
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

    def _key_averages(self, group_by_input_shape, group_by_stack_n):
        # with no stacks recorded, grouping by their first n frames groups as without
        self._check()
        return _KeyAverages(self._native, group_by_input_shape)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        return self._key_averages(group_by_input_shape, group_by_stack_n)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        return self._key_averages(False, 0).table(sort_by, row_limit, max_src_column_width, max_name_column_width,
                                                  max_shapes_column_width, header, top_level_events_only)

    def export_chrome_trace(self, path):
        if not self.enabled:
            raise AttributeError("'profile' object has no attribute 'kineto_results'")
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
        if not self.enabled:
            raise _no_function_events()
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
