"""The integer dtypes uint8, int8, int16 and int32 through ctorch's operators and Python API,
recorded with PyTorch 2.6 (tests/golden/torch-2.6/int_dtypes.out) and replayed by `ctorch python`
(the python_int_dtypes test compares the outputs line by line, tests/python/check_scripts.py):
dtype objects and torch.iinfo, promote_types / result_type over every pair and with Python
scalars, casts between every pair on edge values, printing, tolist/item, factories, the
pointwise ops, reductions, indexing and the messages.

Usage (under real PyTorch 2.6, with the reference tool, from the project root):
    the reference tool: tests/golden/record/int_dtypes.py > tests/golden/torch-2.6/int_dtypes.out

Everything printed is deterministic."""
import torch

INTS = [torch.uint8, torch.int8, torch.int16, torch.int32]
ALL = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.float32,
       torch.float64, torch.bool, torch.bfloat16]


def show(label, fn):
    try:
        r = fn()
    except Exception as e:  # noqa: BLE001 - the exception kind and message are what is recorded
        print(f"{label}: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        return
    if isinstance(r, torch.Tensor):
        r = f"{r.dtype} {list(r.shape)} {r.tolist()}"
    print(f"{label}: {r}")


def name(d):
    return str(d)[len("torch."):]


print("== dtype objects")
for d in INTS:
    show(f"{d} facts", lambda: (d.itemsize, d.is_signed, d.is_floating_point, d.is_complex, repr(d)))
    show(f"{d} iinfo", lambda: (torch.iinfo(d).min, torch.iinfo(d).max, torch.iinfo(d).bits, torch.iinfo(d).dtype))
show("aliases", lambda: (torch.short is torch.int16, torch.int is torch.int32))
show("iinfo repr", lambda: [repr(torch.iinfo(d)) for d in INTS + [torch.int64]])
show("iinfo float", lambda: torch.iinfo(torch.float32))
show("iinfo bool", lambda: torch.iinfo(torch.bool))
show("iinfo int", lambda: torch.iinfo(3))
show("promote_types not a dtype", lambda: torch.promote_types(1, torch.int8))
show("can_cast not a dtype", lambda: torch.can_cast(torch.int8, 3))
show("result_type numbers", lambda: (torch.result_type(1, 2), torch.result_type(2, 1.5), torch.result_type(True, False)))
show("result_type number first", lambda: torch.result_type(2, torch.ones(2, dtype=torch.int8)))
show("result_type keywords", lambda: torch.result_type(tensor=torch.ones(2, dtype=torch.uint8), other=-1))

print("== promote_types / result_type / can_cast")
for a in ALL:
    print(name(a), " ".join(name(torch.promote_types(a, b)) for b in ALL))
for a in ALL:
    print("can_cast", name(a), " ".join(str(int(torch.can_cast(a, b))) for b in ALL))
for a in ALL:
    t = torch.ones(2, dtype=a)
    z = torch.ones((), dtype=a)
    row = [name(torch.result_type(t, s)) for s in (1, 2.5, True)]
    row += [name(torch.result_type(t, torch.ones((), dtype=b))) for b in ALL]
    row += [name(torch.result_type(z, torch.ones(2, dtype=b))) for b in ALL]
    print("result_type", name(a), " ".join(row))

print("== casts")
FLOATS = [-1.0, 300.0, -129.0, 127.5, -0.5, 0.99, 255.0, 256.0, 40000.0, 65535.9, 1e10, -1e10, 2.0 ** 31,
          2.0 ** 32 + 5, float("nan"), float("inf"), float("-inf")]
INTVALS = [0, 1, -1, 127, 128, 255, 256, -129, 32767, 32768, -32769, 2 ** 31, 2 ** 31 - 1, -2 ** 31 - 1, 2 ** 40 + 7]
for src in ALL:
    if src.is_floating_point:
        base = torch.tensor(FLOATS, dtype=src)
    elif src == torch.bool:
        base = torch.tensor([True, False, True])
    else:
        base = torch.tensor(INTVALS).to(src)
    for dst in ALL:
        show(f"cast {name(src)}->{name(dst)}", lambda: base.to(dst))
        show(f"cast {name(src)}->{name(dst)} 0-dim", lambda: base[1].to(dst).item())
show("cast strided", lambda: torch.tensor(FLOATS)[::2].to(torch.uint8))
show("cast long run", lambda: torch.tensor(FLOATS * 9).to(torch.int16)[-17:])
show("copy_", lambda: torch.zeros(3, dtype=torch.int8).copy_(torch.tensor([1.7, -300.0, 99.0])))
show("copy_ from int32", lambda: torch.zeros(3).copy_(torch.tensor([1, 2, 3], dtype=torch.int32)))
show("type()", lambda: [torch.ones(1, dtype=d).type() for d in INTS])
show("methods", lambda: [torch.tensor([1.5, -2.5]).int(), torch.tensor([1.5, -2.5]).short(),
                         torch.tensor([1.5, -2.5]).char(), torch.tensor([1.5, -2.5]).byte()])

print("== printing")
for d in INTS:
    print(torch.tensor([1, 2], dtype=d))
    print(repr(torch.tensor([[0, 100], [7, 12]], dtype=d)))
    print(torch.tensor(5, dtype=d))
    print(torch.zeros(0, dtype=d))
    print(torch.arange(12, dtype=d).reshape(3, 4))
print(torch.tensor([-128, 127], dtype=torch.int8))
print(torch.tensor([2 ** 31 - 1, -2 ** 31], dtype=torch.int32))
print(torch.arange(2000, dtype=torch.int32))
print(torch.ones(3, dtype=torch.int32, requires_grad=False))
show("str", lambda: str(torch.tensor([3, 4], dtype=torch.uint8)))

print("== tolist / item")
for d in INTS:
    t = torch.tensor([[1, 2], [3, 4]], dtype=d)
    show(f"{d} tolist", lambda: t.tolist())
    show(f"{d} item", lambda: (t[1, 0].item(), type(t[1, 0].item()).__name__))
    show(f"{d} int/float/bool", lambda: (int(t[0, 1]), float(t[0, 1]), bool(t[0, 0])))

print("== factories")
for d in INTS:
    show(f"empty {d}", lambda: torch.empty(2, 3, dtype=d).shape)
    show(f"zeros {d}", lambda: torch.zeros(2, dtype=d))
    show(f"ones {d}", lambda: torch.ones(2, 2, dtype=d))
    show(f"full {d}", lambda: torch.full((3,), 7, dtype=d))
    show(f"full float fill {d}", lambda: torch.full((2,), 2.9, dtype=d))
    show(f"full overflow {d}", lambda: torch.full((2,), 300, dtype=d))
    show(f"arange {d}", lambda: torch.arange(5, dtype=d))
    show(f"arange step {d}", lambda: torch.arange(1, 10, 3, dtype=d))
    show(f"tensor {d}", lambda: torch.tensor([1, 2, 3], dtype=d))
    show(f"tensor floats {d}", lambda: torch.tensor([1.9, -1.9], dtype=d))
    show(f"zeros_like {d}", lambda: torch.zeros_like(torch.ones(2, dtype=d)))
    show(f"ones_like float {d}", lambda: torch.ones_like(torch.ones(2), dtype=d))
    show(f"empty_like {d}", lambda: torch.empty_like(torch.ones(3, dtype=d)).dtype)
    show(f"fill_ {d}", lambda: torch.zeros(3, dtype=d).fill_(5))
    show(f"fill_ negative {d}", lambda: torch.zeros(3, dtype=d).fill_(-200))
    show(f"fill_ float {d}", lambda: torch.zeros(3, dtype=d).fill_(-2.7))
    show(f"fill_ overflow {d}", lambda: torch.zeros(3, dtype=d).fill_(1 << 40))
    show(f"fill_ tensor {d}", lambda: torch.zeros(3, dtype=d).fill_(torch.tensor(9)))
    show(f"zero_ {d}", lambda: torch.ones(3, dtype=d).zero_())
    show(f"requires_grad {d}", lambda: torch.ones(2, dtype=d, requires_grad=True))
    show(f"requires_grad_ {d}", lambda: torch.ones(2, dtype=d).requires_grad_())
show("tensor inference", lambda: torch.tensor([1, 2]).dtype)
show("tensor from int32 tensors", lambda: torch.tensor(torch.tensor([1, 2], dtype=torch.int32)).dtype)
show("tensor bool to uint8", lambda: torch.tensor([True, False], dtype=torch.uint8))
show("tensor overflow", lambda: torch.tensor([300], dtype=torch.uint8))
show("tensor neg uint8", lambda: torch.tensor([-1], dtype=torch.uint8))
show("tensor int32 overflow", lambda: torch.tensor([2 ** 40], dtype=torch.int32))
show("arange overflow", lambda: torch.arange(0, 300, 100, dtype=torch.uint8))

print("== pointwise")
for d in INTS:
    a = torch.tensor([1, 2, 100, 120], dtype=d)
    b = torch.tensor([3, 2, 100, 10], dtype=d)
    show(f"add {d}", lambda: a + b)
    show(f"add alpha {d}", lambda: torch.add(a, b, alpha=2))
    show(f"sub {d}", lambda: a - b)
    show(f"mul {d}", lambda: a * b)
    show(f"div {d}", lambda: a / b)
    show(f"add scalar {d}", lambda: a + 1)
    show(f"add float scalar {d}", lambda: a + 0.5)
    show(f"mul bool scalar {d}", lambda: a * True)
    show(f"add int64 {d}", lambda: a + torch.tensor([1, 1, 1, 1]))
    show(f"add int64 0-dim {d}", lambda: a + torch.tensor(1000))
    show(f"add float32 {d}", lambda: a + torch.ones(4))
    show(f"add_ float {d}", lambda: a.clone().add_(torch.ones(4)))
    show(f"add_ scalar {d}", lambda: a.clone().add_(300))
    show(f"mul_ scalar float {d}", lambda: a.clone().mul_(1.5))
    show(f"neg {d}", lambda: -a)
    show(f"eq {d}", lambda: a == b)
    show(f"eq scalar {d}", lambda: a == 100)
    show(f"where {d}", lambda: torch.where(a == b, a, b + 1))
    show(f"where mixed {d}", lambda: torch.where(torch.tensor([True, False, True, False]), a, torch.zeros(4)))
    show(f"masked_fill {d}", lambda: a.masked_fill(torch.tensor([True, False, True, False]), 7))
    show(f"masked_fill float {d}", lambda: a.masked_fill(torch.tensor([True, False, False, False]), 2.5))
    show(f"clamp_min {d}", lambda: a.clamp_min(3))
    show(f"relu {d}", lambda: torch.relu(a))
    show(f"sum {d}", lambda: a.sum())
    show(f"sum dim {d}", lambda: a.reshape(2, 2).sum(0))
    show(f"sum dtype {d}", lambda: a.sum(dtype=d))
    show(f"argmax {d}", lambda: a.argmax())
    show(f"max {d}", lambda: a.max())
    show(f"cat {d}", lambda: torch.cat([a, b]))
    show(f"cat mixed {d}", lambda: torch.cat([a, torch.ones(1, dtype=torch.int64)]))
    show(f"stack {d}", lambda: torch.stack([a, b]))
    show(f"index_select idx {d}", lambda: torch.ops.aten.index_select(torch.arange(6.0).reshape(3, 2), 0, torch.tensor([2, 0], dtype=d)))
    show(f"index_select self {d}", lambda: torch.ops.aten.index_select(a, 0, torch.tensor([3, 0])))
    show(f"gather idx {d}", lambda: torch.ones(2, 2).gather(1, torch.tensor([[0], [1]], dtype=d)))
    show(f"gather self {d}", lambda: a.reshape(2, 2).gather(1, torch.tensor([[1], [0]])))
    show(f"embedding idx {d}", lambda: torch.nn.functional.embedding(torch.tensor([1, 0], dtype=d),
                                                                     torch.arange(6.0).reshape(3, 2)))
    show(f"view/transpose {d}", lambda: a.reshape(2, 2).t().contiguous())
    show(f"mm {d}", lambda: torch.mm(a.reshape(2, 2), b.reshape(2, 2)))
    show(f"softmax {d}", lambda: torch.softmax(a, 0))
show("uint8 wrap add", lambda: torch.tensor([250], dtype=torch.uint8) + torch.tensor([10], dtype=torch.uint8))
show("int8 wrap mul", lambda: torch.tensor([100], dtype=torch.int8) * torch.tensor([3], dtype=torch.int8))
show("int32 wrap mul", lambda: torch.tensor([2 ** 31 - 1], dtype=torch.int32) * torch.tensor([2 ** 31 - 1], dtype=torch.int32))
show("int16 wrap neg", lambda: -torch.tensor([-32768], dtype=torch.int16))
show("uint8 neg", lambda: -torch.tensor([1, 0, 255], dtype=torch.uint8))
show("uint8 sub", lambda: torch.tensor([1], dtype=torch.uint8) - torch.tensor([2], dtype=torch.uint8))
show("uint8 + int8", lambda: torch.tensor([200], dtype=torch.uint8) + torch.tensor([-1], dtype=torch.int8))
show("uint8 + -1", lambda: torch.tensor([200], dtype=torch.uint8) + (-1))
show("int8 + 1000", lambda: torch.tensor([1], dtype=torch.int8) + 1000)
show("bool + uint8", lambda: torch.tensor([True]) + torch.tensor([7], dtype=torch.uint8))
show("int32 div 0", lambda: torch.tensor([1, 0, -1], dtype=torch.int32) / 0)
show("int32 sum big", lambda: torch.full((3,), 2 ** 31 - 1, dtype=torch.int32).sum())
show("uint8 sum", lambda: torch.full((4,), 255, dtype=torch.uint8).sum())
show("uint8 sum dtype", lambda: torch.full((4,), 255, dtype=torch.uint8).sum(dtype=torch.uint8))
show("alpha float on int", lambda: torch.add(torch.ones(2, dtype=torch.int32), torch.ones(2, dtype=torch.int32), alpha=0.5))
show("add_ int32 from int64", lambda: torch.ones(2, dtype=torch.int32).add_(torch.ones(2)))
show("mul_ int32 by float", lambda: torch.ones(2, dtype=torch.int32).mul_(torch.ones(2)))
show("clamp_min overflow", lambda: torch.tensor([1, 5], dtype=torch.int8).clamp_min(1000))
show("bitwise_not", lambda: [~torch.tensor([1, 0, -3], dtype=d) for d in INTS])
show("uint8 index_select out of range", lambda: torch.ops.aten.index_select(torch.ones(2), 0, torch.tensor([5], dtype=torch.int32)))


def embedding_grad():
    w = torch.ones(3, 2, requires_grad=True)
    torch.nn.functional.embedding(torch.tensor([1, 1, 0], dtype=torch.int32), w).sum().backward()
    return w.grad


show("embedding backward int32", embedding_grad)
show("masked_fill overflow", lambda: torch.tensor([1, 5], dtype=torch.int8).masked_fill(torch.tensor([True, False]), 1000))

print("== random")
for d in INTS:
    torch.manual_seed(0)
    show(f"randint {d}", lambda: torch.randint(0, 100, (6,), dtype=d))
    show(f"randint low {d}", lambda: torch.randint(-3, 4, (6,), dtype=d) if d.is_signed else torch.randint(3, 9, (6,), dtype=d))
    torch.manual_seed(1)
    show(f"randint too high {d}", lambda: torch.randint(0, 2 ** 33, (2,), dtype=d))
show("randint_like", lambda: torch.randint(0, 3, (2,), dtype=torch.int16).dtype)

print("== matrix products")
for d in INTS:
    m = torch.tensor([[1, 2], [3, 4]], dtype=d)
    show(f"matmul {d}", lambda: m @ m)
    show(f"bmm {d}", lambda: torch.bmm(m.unsqueeze(0), m.unsqueeze(0)))
show("mm int32 wraps", lambda: torch.mm(torch.full((1, 2), 2 ** 30, dtype=torch.int32), torch.full((2, 1), 4, dtype=torch.int32)))
show("mm mixed", lambda: torch.mm(torch.ones(2, 2, dtype=torch.int32), torch.ones(2, 2, dtype=torch.int16)))
show("bmm int32 wraps", lambda: torch.bmm(torch.full((1, 1, 2), 2 ** 30 + 3, dtype=torch.int32),
                                          torch.full((1, 2, 1), 4, dtype=torch.int32)))
show("bmm int8 big", lambda: torch.bmm(torch.full((1, 20, 30), 3, dtype=torch.int8), torch.full((1, 30, 20), 5, dtype=torch.int8))[0, :2, :2])
show("mm int16 big", lambda: torch.mm(torch.full((20, 30), 300, dtype=torch.int16), torch.full((30, 20), 7, dtype=torch.int16))[:2, :2])

print("== losses and assignment")
for d in INTS:
    show(f"cross_entropy target {d}", lambda: torch.nn.functional.cross_entropy(torch.arange(6.0).reshape(2, 3),
                                                                                torch.tensor([0, 2], dtype=d)))


def assign(d, v):
    t = torch.zeros(2, 2, dtype=d)
    t[0, 1] = v
    return t


for d in INTS:
    show(f"setitem {d}", lambda: assign(d, 100))
    show(f"setitem float {d}", lambda: assign(d, -7.9))
    show(f"setitem negative {d}", lambda: assign(d, -1))
    show(f"setitem overflow {d}", lambda: assign(d, 70000))
    show(f"setitem float overflow {d}", lambda: assign(d, 1e10))

print("== operators without a Python binding yet, through torch.ops.aten")
for d in INTS:
    a = torch.tensor([1, 2, 100, 120], dtype=d)
    b = torch.tensor([3, 2, 100, 10], dtype=d)
    show(f"clamp {d}", lambda: torch.ops.aten.clamp(a, 2, 100))
    show(f"clamp float {d}", lambda: torch.ops.aten.clamp(a, 1.5, 3.5))
    show(f"clamp overflow {d}", lambda: torch.ops.aten.clamp(a, 0, 1000))
    show(f"clamp_max overflow {d}", lambda: torch.ops.aten.clamp_max(a, -70000))
    show(f"maximum {d}", lambda: torch.ops.aten.maximum(a, b))
    show(f"maximum mixed {d}", lambda: torch.ops.aten.maximum(a, torch.tensor([1.5])))
    show(f"addcmul {d}", lambda: torch.ops.aten.addcmul(a, a, b))
    show(f"where scalar {d}", lambda: torch.ops.aten.where(a == b, a, 7))
    show(f"sum dim dtype {d}", lambda: torch.ops.aten.sum.dim_IntList(a, [0], dtype=torch.int8))
