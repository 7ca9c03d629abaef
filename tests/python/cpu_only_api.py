"""Replays tests/golden/torch-2.6/cpu_only_api.json (recorded by tests/golden/record/cpu_only_api.py
under PyTorch 2.6 built without CUDA) under ctorch: each case runs the way the recorder ran it (its
run(): a forked child, the same describe()), and its value or exception (class and message) must
be the recorded one. The recording's cases must be the recorder's current ones.

Prints `cpu_only_api: M/N recorded calls answer as PyTorch 2.6`, each difference, and fails on
any difference but those KNOWN lists, each of which must still differ the way it says (a case
that starts to match is reported, to be taken off the list).

Usage: ctorch python tests/python/cpu_only_api.py RECORDING.json"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "golden", "record"))

import cpu_only_api as recorder  # noqa: E402

rec = json.load(open(sys.argv[1]))
cases = rec["cases"]
if [(c["code"], c["values"]) for c in cases] != list(recorder.CASES):
    raise SystemExit("cpu_only_api: the recording's cases are not the recorder's: record it again")
if rec["cuda"] is not None or rec["cuda_available"]:
    raise SystemExit("cpu_only_api: the recording was made by a PyTorch built with CUDA")

# the differences ctorch knows of: case code -> (the exception ctorch raises instead, or None for
# another value, why)
_PARSER = ("TypeError", "the generated bindings' parser lists an operator's overloads in schema words where "
                        "PyTorch's lists its Python signatures")
KNOWN = {"torch.empty(6).random_(from_=3, to=7)": _PARSER, "torch.empty(6).random_(1.5)": _PARSER}
# answers of ctorch's own: PyTorch's build has oneDNN, ctorch has not (and no mkldnn operators)
KNOWN["torch.backends.mkldnn.is_available()"] = (None, "ctorch is not built with oneDNN, so it says False")

failures, known, now_match = [], [], []
for c in cases:
    got = recorder.run(c["code"], c["values"])
    if got == c["result"]:
        if c["code"] in KNOWN:
            now_match.append(c["code"])
        continue
    if c["code"] in KNOWN and got.get("type") == KNOWN[c["code"]][0] and (got.get("type") or "value" in got):
        known.append(c["code"])
        continue
    failures.append((c["code"], c["result"], got))
print(f"cpu_only_api: {len(cases) - len(failures) - len(known)}/{len(cases)} recorded calls answer as PyTorch 2.6, "
      f"{len(known)} known differences, {len(failures)} other differences")
for code in known:
    print(f"known: {code!r}: {KNOWN[code][1]}")
for code in now_match:
    print(f"now answers as PyTorch 2.6 (take it off KNOWN): {code!r}")
for code, want, got in failures:
    print(f"--- {code!r}\n  PyTorch: {json.dumps(want)[:300]}\n  ctorch:  {json.dumps(got)[:300]}")
sys.exit(1 if failures else 0)
