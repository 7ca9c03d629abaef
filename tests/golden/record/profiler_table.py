"""Records PyTorch 2.6's profiler aggregation and key_averages().table(...) text for fixed event
lists, for tests/test_profiler_table.c.

Usage (under real PyTorch 2.6, from tests/golden):
    torchref record/profiler_table.py torch-2.6/profiler_table.json

No profiler runs here: each configuration is a list of raw events (what the recorder sees:
name, start/end in integer nanoseconds from the trace start, thread, RecordScope, input shapes)
turned into FunctionEvents exactly the way torch.autograd.profiler.profile._parse_kineto_results
does it (names dropped by _filter_name, names rewritten by _rewrite_name(with_wildcard=True),
start_us = rel_start_ns / 1000, end_us = rel_end_ns / 1000, then the stable sort by
[start, -end]), then EventList._build_tree() (_populate_cpu_children, _remove_dup_nodes,
_set_backward_stacktraces), key_averages(group_by_input_shapes=...) and table(...).

Recorded per configuration:
  events  the raw events in the order the C test hands them over, each with `parent`, the index
          of the innermost enclosing raw event on its thread (what the recorder stores; -1 for
          none), input_shapes as str() of the list and the list itself;
  kept    indices of the raw events that survive filtering and _remove_dup_nodes, with
          final_parent (the raw index of cpu_parent after _remove_dup_nodes, -1 for none);
  rows    key_averages() in its order: key, input_shapes (str, only when grouped), count and
          the exact cpu_time_total / self_cpu_time_total floats (json writes repr, which reads
          back to the same double);
  tables  for each (sort_by, row_limit, header): the table text, or the exception raised.
row_cases build FunctionEventAvg rows by hand (values no event list can produce: a zero sum
of self times with non-zero entries, count 0, negative and huge times) and record the table.
"""
import ast
import json
import random
import sys

from torch.autograd.profiler_util import (
    EventList,
    FunctionEvent,
    FunctionEventAvg,
    _filter_name,
    _rewrite_name,
)

FUNCTION, BACKWARD_FUNCTION, USER_SCOPE = 0, 1, 3


# ---- building raw events ------------------------------------------------------------------------

class Tree:
    """Lays out nested ranges: a node is (name, shapes, children, opts); times in ns."""

    def __init__(self, thread=1):
        self.events = []
        self.thread = thread

    def node(self, t, name, shapes=None, children=(), pre=1000, post=1000, gap=500,
             scope=FUNCTION, dur=None):
        """Adds the range starting at t; returns its end. With dur, a leaf of that length."""
        ev = {"name": name, "start_ns": t, "end_ns": None, "thread": self.thread, "scope": scope,
              "shapes": shapes}
        self.events.append(ev)
        if dur is not None:
            ev["end_ns"] = t + dur
            return t + dur
        cur = t + pre
        for i, ch in enumerate(children):
            if i:
                cur += gap
            cur = self.node(cur, *ch[:2], **(ch[2] if len(ch) > 2 else {}))
        ev["end_ns"] = cur + post
        return ev["end_ns"]


def leaf(name, dur, shapes=None, scope=FUNCTION):
    return (name, shapes, {"dur": dur, "scope": scope})


def op(name, children, shapes=None, **kw):
    return (name, shapes, dict(kw, children=children))


def flat(specs, thread=1, start=0, gap=0):
    """Top-level leaves one after another: specs are (name, dur[, shapes])."""
    evs, t = [], start
    for s in specs:
        evs.append({"name": s[0], "start_ns": t, "end_ns": t + s[1], "thread": thread,
                    "scope": FUNCTION, "shapes": s[2] if len(s) > 2 else None})
        t += s[1] + gap
    return evs


def sort_key(e):
    return (e["start_ns"], -e["end_ns"])


def assign_parents(events):
    """The innermost enclosing event on the same thread, by the interval rule of
    EventList._populate_cpu_children (raw events, filtered names included)."""
    order = sorted(range(len(events)), key=lambda i: (events[i]["thread"],) + sort_key(events[i]))
    parent = [-1] * len(events)
    stacks = {}
    for i in order:
        e = events[i]
        st = stacks.setdefault(e["thread"], [])
        while st:
            p = events[st[-1]]
            if e["start_ns"] >= p["end_ns"] or e["end_ns"] > p["end_ns"]:
                st.pop()
            else:
                parent[i] = st[-1]
                break
        st.append(i)
    return parent


# ---- PyTorch's pipeline --------------------------------------------------------------------------

def function_events(events):
    fes = []
    for i, e in enumerate(events):
        if _filter_name(e["name"]):
            continue
        fes.append(FunctionEvent(
            id=i,
            name=_rewrite_name(name=e["name"], with_wildcard=True),
            trace_name=_rewrite_name(name=e["name"], with_wildcard=False),
            thread=e["thread"],
            start_us=e["start_ns"] / 1000,
            end_us=e["end_ns"] / 1000,
            fwd_thread=e["thread"],
            input_shapes=e["shapes"] if e["shapes"] is not None else [],
            stack=[],
            scope=e["scope"],
            sequence_nr=-1,
            is_user_annotation=e["scope"] == USER_SCOPE,
        ))
    fes.sort(key=lambda evt: [evt.time_range.start, -evt.time_range.end])
    return fes


def run_tables(evlist, specs):
    out = []
    for sort_by, row_limit, header in specs:
        rec = {"sort_by": sort_by, "row_limit": row_limit, "header": header}
        try:
            rec["table"] = evlist.table(sort_by=sort_by, row_limit=row_limit, header=header)
        except Exception as ex:  # recorded: the C side gives the same message
            rec["error"] = {"type": type(ex).__name__, "message": str(ex)}
        out.append(rec)
    return out


naive_differs = 0  # self times where Python's compensated sum() differs from a plain loop


def record(name, events, group, specs, shuffle_seed=None):
    global naive_differs
    if shuffle_seed is None:
        events = sorted(events, key=sort_key)
    else:  # hand the events over out of order: the pipeline sorts them (stably)
        events = list(events)
        random.Random(shuffle_seed).shuffle(events)
    parent = assign_parents(events)
    fes = function_events(events)
    el = EventList(fes, use_device=None, profile_memory=False, with_flops=False)
    el._populate_cpu_children()
    # The recorder's parent, skipping filtered ancestors, must be PyTorch's cpu_parent.
    for fe in fes:
        p = parent[fe.id]
        while p != -1 and _filter_name(events[p]["name"]):
            p = parent[p]
        assert (fe.cpu_parent.id if fe.cpu_parent else -1) == p, (name, fe.id)
    el._remove_dup_nodes()
    el._set_backward_stacktraces()
    el._tree_built = True
    for fe in el:
        naive = 0
        for ch in fe.cpu_children:
            naive += ch.cpu_time_total
        if fe.cpu_time_total - naive != fe.self_cpu_time_total:
            naive_differs += 1
    ka = el.key_averages(group_by_input_shapes=group)
    evs_out = []
    for i, e in enumerate(events):
        shapes = e["shapes"] if e["shapes"] is not None else []
        evs_out.append({"name": e["name"], "start_ns": e["start_ns"], "end_ns": e["end_ns"],
                        "thread": e["thread"], "scope": e["scope"], "parent": parent[i],
                        "input_shapes": str(shapes), "shapes": shapes})
    return {
        "name": name,
        "group_by_input_shape": group,
        "events": evs_out,
        "kept": [fe.id for fe in el],
        "final_parent": [fe.cpu_parent.id if fe.cpu_parent else -1 for fe in el],
        "rows": [{"key": r.key, "input_shapes": str(r.input_shapes) if group else None,
                  "count": r.count, "cpu_time_total": r.cpu_time_total,
                  "self_cpu_time_total": r.self_cpu_time_total} for r in ka],
        "tables": run_tables(ka, specs),
    }


def avg_rows(rows):
    """FunctionEventAvg objects set by hand: (key, count, cpu_total, self_total[, shapes])."""
    out = []
    for r in rows:
        a = FunctionEventAvg()
        a.key, a.count, a.cpu_time_total, a.self_cpu_time_total = r[0], r[1], r[2], r[3]
        a.input_shapes = r[4] if len(r) > 4 else ""
        a.node_id = -1  # as key_averages leaves it (FunctionEvent's default); 0 adds a Node ID column
        out.append(a)
    return out


def record_rows(name, rows, specs):
    el = EventList(avg_rows(rows), use_device=None, profile_memory=False, with_flops=False)
    return {
        "name": name,
        "rows": [{"key": r[0], "input_shapes": str(r[4]) if len(r) > 4 else None, "count": r[1],
                  "cpu_time_total": r[2], "self_cpu_time_total": r[3]} for r in rows],
        "tables": run_tables(el, specs),
    }


# ---- the configurations ------------------------------------------------------------------------

ALL_SORTS = [(None, 100, None), ("cpu_time_total", 100, None), ("self_cpu_time_total", 100, None),
             ("cpu_time", 100, None), ("count", 100, None)]
configs = []


def nested_basic():
    t = Tree()
    linear = op("aten::linear", [
        op("aten::t", [op("aten::transpose", [leaf("aten::as_strided", 1700)], pre=2300, post=900)],
           pre=1200, post=800),
        op("aten::addmm", [
            op("aten::expand", [leaf("aten::as_strided", 1300)], pre=1900, post=700),
            op("aten::copy_", [], pre=15200, post=0),
            leaf("aten::resolve_conj", 400),
            leaf("aten::resolve_conj", 300),
        ], pre=3100, post=12000),
    ], pre=4100, post=2600)
    end = t.node(0, linear[0], linear[1], **linear[2])
    total = op("aten::sum", [leaf("aten::as_strided", 800), leaf("aten::fill_", 2100)], pre=5000, post=1500)
    t.node(end + 3000, total[0], total[1], **total[2])
    return t.events


def add(name, events, group=False, specs=None, **kw):
    configs.append(record(name, events, group, specs or ALL_SORTS, **kw))


add("nested_basic", nested_basic(),
    specs=ALL_SORTS + [("cpu_time_total", 3, None), ("self_cpu_time_total", 1, None)])

# Duplicate nodes: a parent with a single child of the same name absorbs it (chains in one pass);
# a same-name parent with two children keeps them; a filtered sibling does not count as a child;
# a filtered node between two same-name nodes does not separate them.
t = Tree()
cur = t.node(0, "aten::sum", None, [op("aten::sum", [leaf("aten::fill_", 3000), leaf("aten::as_strided", 700)],
                                        pre=2000, post=1000)], pre=1500, post=500)
cur = t.node(cur + 1000, "aten::add", None, [op("aten::add", [op("aten::add", [leaf("aten::mul", 2500)])])])
cur = t.node(cur + 1000, "aten::foo", None, [leaf("aten::foo", 1200), leaf("aten::bar", 900)])
cur = t.node(cur + 1000, "aten::x", None, [op("aten::y", [leaf("aten::x", 600)])])
cur = t.node(cur + 1000, "aten::clone", None, [leaf("aten::clone", 4100), leaf("aten::is_leaf", 100)])
cur = t.node(cur + 1000, "aten::view", None, [op("aten::_version", [leaf("aten::view", 300)])])
cur = t.node(cur + 1000, "aten::mm", None, [op("aten::mm", [leaf("aten::empty", 200), leaf("aten::copy_", 5200)])])
add("dup_nodes", t.events)
add("dup_nodes_grouped", [dict(e, shapes=[[2, 3]] if e["name"] != "aten::foo" else [[4]]) for e in t.events],
    group=True, specs=[(None, 100, None), ("cpu_time_total", 100, None)])

# Names around the 52/55 boundary: a name of 52 or more characters is cut to 52 + "...".
def names_of(lengths, prefix="aten::"):
    return [(prefix + "n" * (n - len(prefix) - 3) + f"{n:03d}") for n in lengths]


add("long_names", flat([(n, 1000 + 37 * i) for i, n in enumerate(names_of([20, 50, 51, 52, 53, 54, 55, 56, 80, 200]))]),
    specs=[(None, 100, None), ("cpu_time_total", 100, None)])
add("names_max_50", flat([(n, 2000) for n in names_of([10, 49, 50])]), specs=[(None, 100, None)])
add("names_max_51", flat([(n, 2000) for n in names_of([10, 51])]), specs=[(None, 100, None)])
add("names_max_52", flat([(n, 2000) for n in names_of([10, 52])]), specs=[(None, 100, None)])
add("names_max_53", flat([(n, 2000) for n in names_of([10, 53])]), specs=[(None, 100, None)])
add("names_short", flat([("a", 10), ("bb", 20), ("", 5)]), specs=[(None, 100, None), ("count", 2, None)])
# Non-ASCII user ranges: widths and the cut count characters, not bytes.
t = Tree()
cur = t.node(0, "förward_pass_ü", None, [leaf("aten::add", 1000), leaf("λ" * 60, 500, scope=USER_SCOPE)],
             scope=USER_SCOPE)
t.node(cur + 10, "数据加载", None, [leaf("aten::copy_", 2000)], scope=USER_SCOPE)
add("non_ascii_names", t.events, specs=[(None, 100, None), ("cpu_time_total", 100, None)])

# Times across us, ms and s, with the unit boundaries and .0005 ties.
DURS = [0, 1, 499, 500, 999, 999_499, 999_500, 999_501, 999_999, 1_000_000, 1_234_500, 1_235_500, 2_000_500,
        999_999_499, 999_999_500, 999_999_999, 1_000_000_000, 1_234_567_891, 3_600_000_000_000]
add("time_scales", flat([(f"aten::op{i:02d}", d) for i, d in enumerate(DURS)], gap=7),
    specs=[(None, 100, None), ("cpu_time_total", 100, None)])
t = Tree()
t.node(0, "outer", None, [op("middle", [leaf("inner", 999_999_500), leaf("tiny", 3)], pre=1_234_500, post=499_500)],
       pre=2_000_000_000, post=1)
add("time_scales_nested", t.events)

# Zero-duration events: inside a range, at its start (a child), at its end (not a child).
evs = [
    {"name": "aten::empty", "start_ns": 1000, "end_ns": 1000, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::linear", "start_ns": 1000, "end_ns": 9000, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::empty", "start_ns": 4000, "end_ns": 4000, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::add", "start_ns": 5000, "end_ns": 7500, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::empty", "start_ns": 7500, "end_ns": 7500, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::empty", "start_ns": 9000, "end_ns": 9000, "thread": 1, "scope": 0, "shapes": None},
]
add("zero_duration", evs)
add("all_zero_duration", flat([("aten::empty", 0), ("aten::view", 0), ("aten::empty", 0)]),
    specs=[(None, 100, None), ("cpu_time_total", 100, "zeros")])

# Ties: equal totals, self times and counts keep their first-occurrence order (stable sort).
add("ties", flat([("c", 1000), ("a", 2000), ("b", 1000), ("a", 0), ("d", 1000), ("b", 1000), ("e", 2000),
                  ("d", 1000)], gap=3), specs=ALL_SORTS + [("key", 100, None)])

# row_limit below, at and above the row count, 0 and -1 (no limit); the total counts every row.
RL = flat([(f"aten::r{i}", 1000 * (i + 1)) for i in range(6)])
add("row_limits", RL, specs=[("cpu_time_total", n, None) for n in (0, 1, 2, 6, 7, 100, -1)] + [(None, 3, None)])

# Input shapes: grouping, the 80-character column, "[]" rows, shapes strings of 76..81 characters.
def shapes_of_len(n):
    """A shapes list whose str() has exactly n characters: [[1], [1], ..., [10...0]]."""
    m, r = divmod(n, 5)
    s = [[1] for _ in range(m)]
    s[-1] = [10 ** r]
    assert len(str(s)) == n, (n, s)
    return s


t = Tree()
cur = 0
ADDMM = [[600], [2, 64], [64, 600], [], []]
for shapes, d in [(ADDMM, 3000), ([[2, 64]], 1000), (ADDMM, 2000), ([], 500), ([[2, 600], []], 700),
                  ([[2, 64]], 100), (shapes_of_len(76), 10), (shapes_of_len(77), 20), (shapes_of_len(80), 30),
                  (shapes_of_len(81), 40), ([[1] * 40], 50), ([[5]] * 30, 60)]:
    name = "aten::addmm" if len(shapes) == 5 else "aten::mm" if len(shapes) == 1 else "aten::sum"
    cur = t.node(cur, name, shapes, dur=d) + 10
add("input_shapes_grouped", t.events, group=True, specs=ALL_SORTS + [("cpu_time_total", 4, "by shape")])
add("input_shapes_ungrouped", t.events, group=False, specs=[(None, 100, None), ("cpu_time_total", 100, None)])
add("input_shapes_short", [dict(e, shapes=[[3]]) for e in flat([("aten::a", 10), ("aten::b", 20)])], group=True,
    specs=[(None, 100, None)])
add("input_shapes_all_empty", flat([("aten::ones", 100, []), ("aten::zeros", 300, [])]), group=True,
    specs=[(None, 100, None)])

# The header argument (None, empty, text).
add("header", nested_basic(), specs=[(None, 100, ""), (None, 100, "Profiler output"),
                                     ("cpu_time_total", 2, "a header longer than the table is wide, which is fine")])

# Filtered names (_filter_name) vanish; their children belong to the enclosing range.
t = Tree()
cur = t.node(0, "my_block", None, [
    leaf("profiler::_record_function_enter_new", 800),
    op("aten::is_leaf", [leaf("aten::add", 1000), leaf("aten::mul", 2000)]),
    leaf("aten::output_nr", 100),
    op("aten::_version", [op("aten::_version", [leaf("aten::sub", 300)])]),
    leaf("profiler::_record_function_exit", 200),
    leaf("[memory]", 0),
    leaf("profiler::_record_function_enter", 90),
], scope=USER_SCOPE)
t.node(cur + 5, "[OutOfMemory]", None, [leaf("aten::empty", 400)])
add("filtered_names", t.events)
add("all_filtered", flat([("aten::is_leaf", 100), ("aten::_version", 200)]),
    specs=[(None, 100, None), ("foo", 5, None)])
add("empty", [], specs=[(None, 100, None), ("nonexistent", 100, "h")])

# ProfilerStep#N is shown as ProfilerStep*; the rewritten names also merge as duplicates.
t = Tree()
cur = t.node(0, "ProfilerStep#1", None, [leaf("aten::add", 1000)], scope=USER_SCOPE)
cur = t.node(cur + 10, "ProfilerStep#2", None, [leaf("aten::add", 1300), leaf("aten::mul", 200)], scope=USER_SCOPE)
cur = t.node(cur + 10, "ProfilerStep#3", None, [op("ProfilerStep#4", [leaf("aten::add", 10)], scope=USER_SCOPE)],
             scope=USER_SCOPE)
cur = t.node(cur + 10, "ProfilerStep#", None, [leaf("aten::add", 20)], scope=USER_SCOPE)
add("profiler_steps", t.events)

# A user range and an op with the same name are different rows; nested, they merge.
t = Tree()
cur = t.node(0, "my_op", None, [leaf("aten::add", 1000)], scope=USER_SCOPE)
cur = t.node(cur + 10, "my_op", None, dur=2000)
cur = t.node(cur + 10, "my_op", None, [leaf("aten::mul", 100)], scope=USER_SCOPE)
cur = t.node(cur + 10, "aten::add", None, [leaf("aten::add", 100)], scope=USER_SCOPE)
add("user_annotations", t.events)

# Two threads interleaved in time.
t1, t2 = Tree(thread=1), Tree(thread=2)
t1.node(0, "aten::linear", None, [leaf("aten::t", 3000), op("aten::addmm", [leaf("aten::copy_", 4000)])])
t2.node(1500, "aten::linear", None, [leaf("aten::t", 2000), op("aten::addmm", [leaf("aten::copy_", 2500)])])
t2.node(30000, "aten::sum", None, [leaf("aten::sum", 700)])
add("two_threads", t1.events + t2.events)

# Out of order input, identical ranges: the pipeline sorts by (start, -end) stably.
evs = [
    {"name": "aten::a", "start_ns": 0, "end_ns": 5000, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::b", "start_ns": 0, "end_ns": 5000, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::b", "start_ns": 0, "end_ns": 5000, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::c", "start_ns": 0, "end_ns": 3000, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::d", "start_ns": 3000, "end_ns": 5000, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::e", "start_ns": 6000, "end_ns": 6000, "thread": 1, "scope": 0, "shapes": None},
    {"name": "aten::e", "start_ns": 6000, "end_ns": 6000, "thread": 1, "scope": 0, "shapes": None},
]
configs.append(record("identical_ranges", evs, False, ALL_SORTS))


def shuffled(events, seed):
    """The same events handed over in a shuffled order (ties between identical ranges keep
    the order they have in the list given to the pipeline, both here and in C)."""
    return record("shuffled_" + str(seed), events, False, [(None, 100, None), ("cpu_time_total", 100, None)],
                  shuffle_seed=seed)


configs.append(shuffled(nested_basic(), 7))

# Sort keys that are constant for CPU-only rows keep the order; cuda/xpu/privateuse1 read as
# device; unknown keys raise AttributeError with the replaced name.
add("sort_keys_misc", flat([("b", 100), ("a", 300), ("c", 200), ("a", 300)]),
    specs=[("device_time_total", 100, None), ("cuda_time_total", 100, None), ("self_cuda_time_total", 100, None),
           ("xpu_time", 100, None), ("privateuse1_time_total", 100, None), ("device_time", 100, None),
           ("self_device_time_total", 100, None), ("cpu_memory_usage", 100, None),
           ("self_cpu_memory_usage", 100, None), ("cuda_memory_usage", 100, None),
           ("self_cuda_memory_usage", 100, None), ("flops", 100, None), ("node_id", 100, None),
           ("is_async", 100, None), ("is_remote", 100, None), ("is_legacy", 100, None), ("key", 100, None),
           ("foo", 100, None), ("cuda_foo", 100, None), ("", 100, None), ("xpucuda", 100, None)])

# Random trees with ns values on 100 ns / 500 ns grids: ms values land on .0005 ties, where the
# float arithmetic (end/1000 - start/1000, compensated sums of children, sums in sort order)
# decides the last digit.
def random_forest(seed, n_top, names, grid, max_depth=5, threads=(1,)):
    rng = random.Random(seed)
    events = []

    def build(th, t, depth):
        name = rng.choice(names)
        shapes = rng.choice([None, [[2, 3]], [[600], [2, 64], [64, 600], [], []], []])
        start = t
        t += rng.randrange(0, 40) * grid
        if depth < max_depth and rng.random() < 0.7:
            for _ in range(rng.randrange(1, 5)):
                t = build(th, t, depth + 1) + rng.randrange(0, 3) * grid
        else:
            t += rng.choice([0, 1, 7, 13, 999, 1234, 2469, 99999]) * grid
        t += rng.randrange(0, 20) * grid
        events.append({"name": name, "start_ns": start, "end_ns": t, "thread": th, "scope": FUNCTION,
                       "shapes": shapes})
        return t

    for th in threads:
        t = rng.randrange(0, 1000) * grid
        for _ in range(n_top):
            t = build(th, t, 0) + rng.randrange(1, 100) * grid
    return events


NAMES = ["aten::add", "aten::mm", "aten::sum", "aten::copy_", "aten::empty", "aten::t", "aten::view",
         "aten::is_leaf", "autograd::engine::evaluate_function: AddmmBackward0"]
for seed, grid in [(1, 100), (2, 500), (3, 1), (4, 300)]:
    evs = random_forest(seed, 5, NAMES, grid, threads=(1, 2) if seed == 4 else (1,))
    add(f"random_{seed}", evs, specs=ALL_SORTS + [("cpu_time_total", 5, "top 5")])
    add(f"random_{seed}_grouped", evs, group=True, specs=[(None, 100, None), ("self_cpu_time_total", 100, None)])

# Python's sum() of floats (3.12+) is compensated (Neumaier): a parent's self time is its total
# minus that sum of its children's totals. Near the trace start the children's totals carry
# enough low-order bits for it to matter; these parents (one per thread, all starting at 0) have
# self times on .0005 ms ties that the compensated and the plain sum round differently.
def compensated_cases(count):
    rng = random.Random(5)
    events, found = [], 0
    while found < count:
        k = rng.randrange(3, 8)
        t = rng.randrange(1, 5) * 100
        ch = []
        for _ in range(k):
            d = rng.randrange(1, 3000) * rng.choice([1, 100, 7, 1000])
            ch.append((t, t + d))
            t += d + rng.randrange(0, 3) * 100
        vals = [b / 1000 - a / 1000 for a, b in ch]
        plain = 0
        for v in vals:
            plain += v
        for self_ns in (1_000_500, 1_234_500, 2_000_500):
            end = self_ns + sum(b - a for a, b in ch)
            if end < t:
                continue
            tot = end / 1000
            if f"{(tot - sum(vals)) / 1000:.3f}" != f"{(tot - plain) / 1000:.3f}":
                found += 1
                th = 10 + found
                events.append({"name": f"parent_{found}", "start_ns": 0, "end_ns": end, "thread": th,
                               "scope": FUNCTION, "shapes": None})
                events += [{"name": "child", "start_ns": a, "end_ns": b, "thread": th, "scope": FUNCTION,
                            "shapes": None} for a, b in ch]
                break
    return events


add("compensated_sums", compensated_cases(6), specs=[(None, 100, None), ("self_cpu_time_total", 100, None)])

# The lab's linear forward + backward (the event tree in shared/reference/torch-2.6/profiler_trees.out),
# with fixed times.
LAB_TREE = """\
aten::linear  [[2, 64], [600, 64], [600]]
  aten::t  [[600, 64]]
    aten::transpose  [[600, 64], [], []]
      aten::as_strided  [[600, 64], [], [], []]
  aten::addmm  [[600], [2, 64], [64, 600], [], []]
    aten::expand  [[600], [], []]
      aten::as_strided  [[600], [], [], []]
    aten::copy_  [[2, 600], [2, 600], []]
    aten::resolve_conj  [[2, 600]]
    aten::resolve_conj  [[2, 64]]
aten::sum  [[2, 600], []]
  aten::as_strided  [[], [], [], []]
  aten::fill_  [[1, 1], []]
aten::ones_like  [[], [], [], [], [], []]
  aten::empty_like  [[], [], [], [], [], []]
    aten::empty_strided  [[], [], [], [], [], []]
  aten::fill_  [[], []]
autograd::engine::evaluate_function: SumBackward0
  SumBackward0  [[]]
    aten::expand  [[], [], []]
      aten::as_strided  [[], [], [], []]
autograd::engine::evaluate_function: AddmmBackward0
  AddmmBackward0  [[2, 600]]
    aten::t  [[64, 600]]
      aten::transpose  [[64, 600], [], []]
        aten::as_strided  [[64, 600], [], [], []]
    aten::mm  [[2, 600], [600, 64]]
      aten::resolve_conj  [[2, 64]]
      aten::resolve_conj  [[600, 64]]
      aten::clone  [[2, 600], []]
        aten::empty_like  [[2, 600], [], [], [], [], []]
          aten::empty  [[], [], [], [], [], []]
        aten::copy_  [[2, 600], [2, 600], []]
    aten::t  [[2, 600]]
      aten::transpose  [[2, 600], [], []]
        aten::as_strided  [[2, 600], [], [], []]
    aten::mm  [[600, 2], [2, 64]]
      aten::resolve_conj  [[600, 64]]
      aten::resolve_conj  [[2, 64]]
      aten::clone  [[600, 2], []]
        aten::empty_like  [[600, 2], [], [], [], [], []]
          aten::empty  [[], [], [], [], [], []]
        aten::copy_  [[600, 2], [600, 2], []]
    aten::t  [[600, 64]]
      aten::transpose  [[600, 64], [], []]
        aten::as_strided  [[600, 64], [], [], []]
  aten::sum  [[2, 600], [], [], []]
    aten::fill_  [[1, 600], []]
  aten::view  [[1, 600], []]
autograd::engine::evaluate_function: torch::autograd::AccumulateGrad
  torch::autograd::AccumulateGrad  [[600]]
    aten::detach  [[600]]
      detach  [[600]]
autograd::engine::evaluate_function: torch::autograd::AccumulateGrad
  torch::autograd::AccumulateGrad  [[2, 64]]
    aten::detach  [[2, 64]]
      detach  [[2, 64]]
autograd::engine::evaluate_function: TBackward0
  TBackward0  [[64, 600]]
    aten::t  [[64, 600]]
      aten::transpose  [[64, 600], [], []]
        aten::as_strided  [[64, 600], [], [], []]
autograd::engine::evaluate_function: torch::autograd::AccumulateGrad
  torch::autograd::AccumulateGrad  [[600, 64]]
    aten::detach  [[600, 64]]
      detach  [[600, 64]]
"""


def lab_events():
    """The tree with times: each range spends 1.1-250 us before, between and after its
    children (a fixed pseudo-random sequence), like a real CPU run of the lab."""
    rng = random.Random(2026)
    lines = []
    for ln in LAB_TREE.splitlines():
        depth = (len(ln) - len(ln.lstrip(" "))) // 2
        body = ln.strip()
        name, _, shp = body.partition("  ")
        lines.append((depth, name, ast.literal_eval(shp) if shp else []))
    events = []
    pos = [0]

    def build(i, t):
        depth, name, shapes = lines[i]
        ev = {"name": name, "start_ns": t, "end_ns": None, "thread": 1,
              "scope": BACKWARD_FUNCTION if name.startswith("autograd::engine") or name.endswith("Backward0")
              or name == "torch::autograd::AccumulateGrad" else FUNCTION, "shapes": shapes}
        events.append(ev)
        t += rng.randrange(1100, 250000)
        j = i + 1
        while j < len(lines) and lines[j][0] > depth:
            if lines[j][0] == depth + 1:
                t = build(j, t) + rng.randrange(100, 30000)
            j += 1
        t += rng.randrange(1100, 250000)
        ev["end_ns"] = t
        return t

    t, i = 0, 0
    while i < len(lines):
        if lines[i][0] == 0:
            t = build(i, t) + rng.randrange(5000, 90000)
        i += 1
    return events


add("lab_linear", lab_events(),
    specs=[("cpu_time_total", 10, None), (None, 100, None), ("self_cpu_time_total", 100, None), ("count", 5, None)])
add("lab_linear_grouped", lab_events(), group=True,
    specs=[("cpu_time_total", 15, None), (None, 100, None), ("cpu_time", 100, None)])

# ---- rows given directly -------------------------------------------------------------------------

row_cases = [
    # the self times add up to 0 with non-zero entries: _format_time_share asserts
    record_rows("assert_zero_total", [("a", 1, 1.0, 1.0), ("b", 1, 1.0, -1.0)], [(None, 100, None)]),
    # ...but a row_limit that stops before the first non-zero row prints NaN
    record_rows("zero_total_limited", [("z", 1, 0.0, 0.0), ("a", 1, 1.0, 1.0), ("b", 1, 1.0, -1.0)],
                [(None, 1, None)]),
    record_rows("count_zero", [("never", 0, 0.0, 0.0), ("once", 1, 2.5, 2.5)], ALL_SORTS),
    record_rows("negative_and_huge", [("neg", 3, -5.0, -1234.5678), ("big", 2, 1e300, 1e12), ("small", 7, 1e-9, 5e-7),
                                      ("mid", 1, 999999.9995, 0.0005)], ALL_SORTS),
    record_rows("round_half", [("a", 1, 1.0005, 0.0015), ("b", 3, 2.0025, 0.0025), ("c", 1, 1234.5, 1234.5),
                               ("d", 1, 1000000.5, 0.125), ("e", 1, 999.9995, 999.9995)], ALL_SORTS),
    record_rows("shapes_rows", [("a", 1, 1.0, 1.0, [[1, 2]]), ("b", 1, 2.0, 2.0, []), ("c", 2, 3.0, 3.0, [[3], [4]])],
                [(None, 100, None), ("cpu_time_total", 100, None)]),
]

def dump_compact(obj, level=0):
    """json.dumps with one line per event, row and table: readable diffs, a small file."""
    pad = " " * (level + 1)
    if isinstance(obj, dict) and level <= 2:
        items = [f"{pad}{json.dumps(k)}: {dump_compact(v, level + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + " " * level + "}"
    if isinstance(obj, list) and level <= 3 and obj and isinstance(obj[0], (dict, list)):
        items = [pad + dump_compact(v, level + 1) for v in obj]
        return "[\n" + ",\n".join(items) + "\n" + " " * level + "]"
    return json.dumps(obj, ensure_ascii=True)


out = {
    "torch_version": __import__("torch").__version__,
    "configs": configs,
    "row_cases": row_cases,
}
text = dump_compact(out) + "\n"
assert json.loads(text) == out
with open(sys.argv[1], "w") as f:
    f.write(text)
n_tables = sum(len(c["tables"]) for c in configs) + sum(len(c["tables"]) for c in row_cases)
print(f"{len(configs)} event lists, {len(row_cases)} row cases, {n_tables} tables; "
      f"compensated sum() differs from a plain loop for {naive_differs} self times")
