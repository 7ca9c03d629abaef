"""Records what PyTorch 2.6's profiler does for the parts tests/test_profiler_parts.c checks:
profile_memory, threads, with_stack's table layout.

Usage (under real PyTorch 2.6, from tests/golden):
    torchref record/profiler_parts.py torch-2.6/profiler_parts.json

Recorded:
  memory   a program (linear(x[64,32], w[16,32], b[16]) -> relu -> sum, then `del y` inside the
           profile) under profile(profile_memory=True): key_averages() rows in order (key,
           count, cpu_memory_usage, self_cpu_memory_usage) and the table's header line;
  threads  the same linear run three times on the profiling thread and three times on a
           threading.Thread started inside the profile: how many aten::linear events and
           distinct threads the profiler saw;
  tables   _build_table on hand-made FunctionEventAvg rows (times, memory sizes across the
           b/Kb/Mb/Gb steps and negative ones, stacks of several frames, long frames that
           trim_path cuts), with profile_memory on, and key_averages(group_by_stack_n=n) keys.
"""
import json
import sys
import threading

import torch
from torch.autograd.profiler_util import FunctionEventAvg, _build_table
from torch.profiler import ProfilerActivity, profile

out = {"torch": torch.__version__}
torch.manual_seed(0)
x = torch.ones(64, 32)
w = torch.ones(16, 32)
b = torch.ones(16)

with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
    y = torch.nn.functional.linear(x, w, b)
    z = y.relu()
    s = z.sum()
    del y
avg = prof.key_averages()
out["memory"] = {
    "rows": [[e.key, e.count, e.cpu_memory_usage, e.self_cpu_memory_usage] for e in avg],
    "header": avg.table().splitlines()[1],
}


def work():
    for _ in range(3):
        torch.nn.functional.linear(x, w, b)


with profile(activities=[ProfilerActivity.CPU]) as prof:
    work()
    t = threading.Thread(target=work)
    t.start()
    t.join()
evs = prof.events()
out["threads"] = {
    "linear_events": sum(1 for e in evs if e.name == "aten::linear"),
    "threads": len(set(e.thread for e in evs)),
}


def row(key, count, total, self_, mem, self_mem, stack):
    e = FunctionEventAvg()
    e.key = key
    e.count = count
    e.cpu_time_total = total
    e.self_cpu_time_total = self_
    e.cpu_memory_usage = mem
    e.self_cpu_memory_usage = self_mem
    e.stack = stack
    e.input_shapes = ""
    e.node_id = -1
    e.is_async = False
    e.is_legacy = False
    e.use_device = None
    return e


cases = [
    ("memory_sizes", [
        ["aten::addmm", 1, 348.022, 307.354, 4096, 4096, []],
        ["aten::linear", 1, 564.713, 29.235, 4096, 0, []],
        ["aten::sum", 2, 35.5, 31.25, 4, 4, []],
        ["[memory]", 1, 0.0, 0.0, -4096, -4096, []],
        ["aten::empty", 3, 12.0, 12.0, 1023, 1023, []],
        ["aten::cat", 1, 12.0, 12.0, 1536 * 1024, -1536, []],
        ["aten::big", 1, 1.0, 1.0, 3 * 1024 ** 3 + 5, 5 * 1024 ** 2, []],
        ["aten::neg", 1, 1.0, 1.0, -(3 * 1024 ** 3), -1025, []],
    ], True),
    ("stacks", [
        ["aten::addmm", 2, 100.0, 80.0, 0, 0, ["model.c(12): forward", "main.c(40): main"]],
        ["aten::relu", 1, 10.0, 10.0, 0, 0, ["model.c(13): forward"]],
        ["aten::sum", 1, 5.0, 5.0, 0, 0, []],
        ["aten::mm", 1, 7.0, 7.0, 0, 0,
         ["/a/very/long/path/to/some/source/directory/of/the/project/src/nn/modules/linear_layer.c(120): ct_linear_forward_impl"]],
    ], False),
    ("stacks_memory", [
        ["aten::addmm", 1, 100.0, 80.0, 4096, 4096, ["model.c(12): forward"]],
        ["aten::relu", 1, 10.0, 10.0, 0, -2048, []],
    ], True),
]
out["tables"] = []
for name, rows, mem in cases:
    evs = [row(*r) for r in rows]
    out["tables"].append({"name": name, "profile_memory": mem, "rows": rows,
                          "text": _build_table(evs, sort_by=None, row_limit=100, profile_memory=mem)})

json.dump(out, open(sys.argv[1], "w"), indent=1)
