"""What a --seed value does in PyTorch 2.6, for tests/test_cli.c.

The seed scripts read --seed with argparse (type=int) and hand the int to torch.manual_seed and
torch.Generator().manual_seed. This records, for the texts a user may type:
  - "parse": argparse's result: {"text", "value"} with the int as a decimal string, or
    {"text", "error"} with str(ArgumentError) ("argument --seed: invalid int value: 'x'");
    for an int, what torch.manual_seed(value) then does: "initial_seed" (a decimal string),
    or "seed_error" with its message;
  - "seeds": for ints at and inside the edges of the range manual_seed accepts, the
    generator's initial_seed() and the first draws after torch.manual_seed(s): rand(4),
    randn(20) (the 16-wide block path), randn(3) (the scalar path), randint(0, 2**40, (3,));
    all as IEEE bit patterns / two's complement, as decimal strings (JSON numbers above 2^53
    would not survive a double); plus y[0, :4] of the lab's linear(x, W, b) after
    torch.manual_seed(s), as the lab's REPORT.md prints it (json.dumps of the list);
  - "overflow": torch.manual_seed's and Generator.manual_seed's error for ints outside
    [-2^63, 2^64 - 1], and the step script's make_batch(seed + 1) for seed = 2^64 - 1.

Run under PyTorch 2.6 from the repository root:
    ../shared/tools/torchref tests/golden/record/seed_range.py tests/golden/torch-2.6/seed_range.json
"""
import argparse
import json
import sys

import numpy as np
import torch
import torch.nn.functional as F

MASK64 = (1 << 64) - 1


def bits(t):
    t = t.contiguous().reshape(-1)
    if t.dtype == torch.float32:
        return [str(int(v)) for v in t.numpy().view(np.uint32)]
    if t.dtype == torch.int64:
        return [str(int(v) & MASK64) for v in t.numpy()]
    raise TypeError(t.dtype)


def parse(text):
    p = argparse.ArgumentParser(exit_on_error=False)
    p.add_argument("--seed", type=int, default=0)
    try:
        value = p.parse_args(["--seed=" + text]).seed
    except argparse.ArgumentError as e:
        return {"text": text, "error": str(e)}
    rec = {"text": text, "value": str(value)}
    try:
        torch.manual_seed(value)
        rec["initial_seed"] = str(torch.initial_seed())
    except RuntimeError as e:
        rec["seed_error"] = str(e)
    return rec


def error_of(fn, *args):
    try:
        fn(*args)
    except Exception as e:  # the message is what is recorded
        return {"type": type(e).__name__, "message": str(e)}
    return None


out = {"torch": torch.__version__, "parse": [], "seeds": [], "overflow": []}

TEXTS = ["0", "42", "+7", "007", "-0", "-1", "1_000", " 12 ", "\t-3\n", "18446744073709551615",
         "-9223372036854775808", "18446744073709551616", "-9223372036854775809", "", "-", "+",
         "abc", "1.5", "1e3", "0x10", "--1", "+-1", "1__0", "_1", "1_", "12a", "99999999999999999999999",
         "\x0b7\x1f", "\x0c7\x0b\r", "- 1", "1 2", "it's", "x\ty\\", "say \"hi\"", "both ' and \"", "\x01\x7f"]
for text in TEXTS:
    out["parse"].append(parse(text))

SEEDS = [0, 1, 42, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1,
         -1, -2, -2**31, -2**32, -2**63 + 1, -2**63]
for s in SEEDS:
    torch.manual_seed(s)
    rec = {"seed": str(s), "initial_seed": str(torch.initial_seed())}
    rec["rand4"] = bits(torch.rand(4))
    rec["randn20"] = bits(torch.randn(20))
    rec["randn3"] = bits(torch.randn(3))
    rec["randint"] = bits(torch.randint(0, 2**40, (3,)))
    g = torch.Generator().manual_seed(s)
    assert g.initial_seed() == torch.default_generator.initial_seed()
    torch.manual_seed(s)
    x = torch.randn(2, 64)
    W = torch.randn(600, 64)
    b = torch.randn(600)
    rec["lab_y_row"] = json.dumps(F.linear(x, W, b)[0, :4].tolist())
    out["seeds"].append(rec)

for s in [2**64, -2**63 - 1, 10**30, -10**30]:
    out["overflow"].append({"seed": str(s), "torch.manual_seed": error_of(torch.manual_seed, s),
                            "Generator.manual_seed": error_of(lambda v: torch.Generator().manual_seed(v), s)})
# the step script's make_batch(seed + 1) with seed = 2^64 - 1 (make_model(seed) succeeds)
out["step_batch_overflow"] = error_of(lambda v: torch.Generator().manual_seed(v + 1), 2**64 - 1)

with open(sys.argv[1], "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print("recorded", len(out["parse"]), "texts,", len(out["seeds"]), "seeds", file=sys.stderr)
