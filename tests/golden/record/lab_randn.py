"""The lab's inputs as raw float32 bit patterns: torch.manual_seed(42); x = randn(2, 64);
W = randn(600, 64); b = randn(600). Output: {"x": [...], "W": [...], "b": [...]} (uint32 each)."""
import json, sys, torch
torch.manual_seed(42)
x = torch.randn(2, 64); W = torch.randn(600, 64); b = torch.randn(600)
bits = lambda t: t.contiguous().view(torch.int32).flatten().tolist()
u = lambda l: [v & 0xffffffff for v in l]
json.dump({"x": u(bits(x)), "W": u(bits(W)), "b": u(bits(b))}, open(sys.argv[1], "w"))
