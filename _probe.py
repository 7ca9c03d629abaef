import torch, numpy as np, math
print(torch.__config__.show())
torch.manual_seed(0)
e = torch.empty(5).exponential_()
print(e.tolist())
# emulate: mt19937 random64
g = torch.Generator().manual_seed(0)
# draw raw via random_ full range
torch.manual_seed(0)
b = torch.empty(10).bernoulli_(0.9)
print(b.tolist())
torch.manual_seed(0)
p = torch.softmax(torch.randn(1, 600), -1)
torch.manual_seed(1)
print(torch.multinomial(p, 1))
print(torch.multinomial(torch.tensor([0.2,0.3,0.5]), 1))
