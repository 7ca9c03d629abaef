"""linear(x, W, b) from Python, for the decision-trace test: with CTORCH_SHOW_DISPATCH_TRACE=2 the
trace of this call must be the one `ctorch trace` prints for the same call made from C."""
import torch
import torch.nn.functional as F

x = torch.randn(2, 64, requires_grad=True)
W = torch.randn(600, 64, requires_grad=True)
b = torch.randn(600, requires_grad=True)
F.linear(x, W, b)
