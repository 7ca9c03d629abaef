"""Records torch._C._dispatch_dump / _dispatch_dump_table for the ops ctorch implements, and the full key set printout."""
import torch
C = torch._C
print(C._dispatch_keyset_full())
for op in ["aten::addmm", "aten::linear", "aten::add.Tensor", "aten::t", "aten::empty.memory_format", "aten::detach", "aten::add_.Tensor", "aten::mm", "aten::sum.dim_IntList"]:
    print("=== dump", op)
    print(C._dispatch_dump(op))
    print("=== table", op)
    print(C._dispatch_dump_table(op))
