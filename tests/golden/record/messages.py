"""Records PyTorch 2.6's messages for mistakes whose wording ctorch must match: sizes whose
storage size overflows, an allocation the machine cannot satisfy, requires_grad on an integer
tensor, and reading a profiler's results while it is still recording. tests/test_misuse.c
replays each through ctorch's C API.

Usage (under real PyTorch 2.6, from tests/golden):
    torchref record/messages.py torch-2.6/messages.json

Output: a JSON object {case name: {"type": exception class name, "message": str(exception)}}.
"""
import json
import sys

import torch


def err(fn):
    try:
        r = fn()
    except Exception as e:  # the exception PyTorch raises is what is recorded
        return {"type": type(e).__name__, "message": str(e)}
    return {"type": None, "message": None, "returned": r if isinstance(r, (str, int)) or r is None else repr(r)}


cases = {}
# storage size overflow (c10::computeStorageNbytesContiguous)
cases["empty_2^62x2^62_float32"] = err(lambda: torch.empty(2**62, 2**62))
cases["empty_2^32x2^32_float32"] = err(lambda: torch.empty(2**32, 2**32))
cases["empty_2^61x8_float32"] = err(lambda: torch.empty(2**61, 8))
cases["empty_2^62_float64"] = err(lambda: torch.empty(2**62, dtype=torch.float64))
# out of memory (c10::alloc_cpu): the bytes asked for
cases["empty_2^48_float32"] = err(lambda: torch.empty(2**48))
cases["empty_2^47x2_int64"] = err(lambda: torch.empty(2**47, 2, dtype=torch.int64))
# requires_grad on integer tensors
cases["requires_grad__int64"] = err(lambda: torch.zeros(2, dtype=torch.int64).requires_grad_())
cases["requires_grad__bool"] = err(lambda: torch.zeros(2, dtype=torch.bool).requires_grad_())


def set_attr():
    t = torch.zeros(2, dtype=torch.int64)
    t.requires_grad = True


cases["requires_grad_setter_int64"] = err(set_attr)
cases["tensor_requires_grad_int64"] = err(lambda: torch.tensor([1, 2], requires_grad=True))


class Wrapper(torch.Tensor):
    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        return NotImplemented


cases["wrapper_subclass_requires_grad_int64"] = err(
    lambda: repr(type(torch.Tensor._make_wrapper_subclass(Wrapper, (2,), dtype=torch.int64, requires_grad=True))))


# reading a profiler's results while it records
def while_running(what):
    def run():
        with torch.profiler.profile() as p:
            torch.ones(2) + 1
            return what(p)
    return run


cases["profiler_key_averages_while_running"] = err(while_running(lambda p: len(p.key_averages())))
cases["profiler_key_averages_table_while_running"] = err(while_running(lambda p: p.key_averages().table()))
cases["profiler_events_while_running"] = err(while_running(lambda p: len(p.events())))
cases["profiler_export_chrome_trace_while_running"] = err(
    while_running(lambda p: p.export_chrome_trace("/tmp/messages_trace.json")))


def autograd_profiler(what):
    def run():
        with torch.autograd.profiler.profile() as p:
            torch.ones(2) + 1
            return what(p)
    return run


cases["autograd_profiler_key_averages_while_running"] = err(autograd_profiler(lambda p: len(p.key_averages())))
cases["autograd_profiler_table_while_running"] = err(autograd_profiler(lambda p: p.table()))
cases["autograd_profiler_export_chrome_trace_while_running"] = err(
    autograd_profiler(lambda p: p.export_chrome_trace("/tmp/messages_trace.json")))

out = json.dumps(cases, indent=1, sort_keys=True) + "\n"
if len(sys.argv) > 1:
    with open(sys.argv[1], "w") as f:
        f.write(out)
else:
    sys.stdout.write(out)
