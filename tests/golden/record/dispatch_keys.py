"""Records PyTorch's DispatchKey enum, key-set bit layout and TLS defaults (ctorch follows this snapshot)."""
import torch
C = torch._C
print("torch", torch.__version__)
for name, k in C.DispatchKey.__members__.items():
    ks = C.DispatchKeySet(k)
    print("key", name, int(k), hex(ks.raw_repr()))
print("include", C._dispatch_tls_local_include_set(), hex(C._dispatch_tls_local_include_set().raw_repr()))
print("exclude", C._dispatch_tls_local_exclude_set(), hex(C._dispatch_tls_local_exclude_set().raw_repr()))
t = torch.randn(2)
print("cpu", C._dispatch_keys(t), hex(C._dispatch_keys(t).raw_repr()))
