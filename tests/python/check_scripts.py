"""Runs Python programs through `ctorch python` and compares what they print with PyTorch 2.6's
recorded output. Run by ctest with the system interpreter (it imports no torch itself).

  check_scripts.py CTORCH seed GOLDEN.json SCRIPT N...   the seed step tracer's JSON for each seed N
                                                         must be the recorded "result" text exactly
  check_scripts.py CTORCH ref SCRIPT RECORDED.out [--rtol R] [--exact-if CONDITIONS.json]
                                                         line by line, apart from what a run cannot
                                                         repeat (below)
  check_scripts.py CTORCH minigpt SCRIPT RECORDING.json...
                                                         minigpt.py run with each recording's options:
                                                         op logs (every phase, in order), op counts,
                                                         parameter count and sampled tokens exactly;
                                                         losses, first logits and head weights the
                                                         same floats where the run's conditions are
                                                         the recording's (conditions.json beside it),
                                                         else losses within a relative 1e-5, logits
                                                         and weights within 1e-4 (+1e-6)
  check_scripts.py CTORCH run SCRIPT [ARGS]              the script must exit 0 (it checks itself)
  check_scripts.py CTORCH trace SCRIPT                   with CTORCH_SHOW_DISPATCH_TRACE=2, the script's
                                                         aten::linear call must be traced exactly as
                                                         `ctorch trace` traces the same call from C

What `ref` lets differ, and nothing else:
  - object addresses (0x...) and the local version label after "+" in X.Y.Z+label;
  - in profiler tables (between dashed rules) the time and percentage columns, and which rows a
    time-sorted table with a row limit shows: the header and rules must be the same, the table
    as long, every row well formed, and a row whose name and input shapes the recording also
    shows must have the same call count;
  - the "Self CPU time total" figure;
  - with --rtol, numbers in a line may differ by that relative amount (a float32 product summed
    in another order), unless --exact-if names conditions (CPU capability, BLAS kernel set,
    OPENBLAS_CORETYPE, as `ctorch -V` reports them) that are this run's: then none.
Each script runs in a fresh temporary folder (scripts may write files into their current one).
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ADDR = re.compile(r"0x[0-9a-fA-F]+")
LOCAL_VERSION = re.compile(r"\b(\d+\.\d+\.\d+)\+\S+")
RULE = re.compile(r"^-+(  -+)*  $")
TIME = r"-?[0-9.]+(?:us|ms|s|ns)"
ROW = re.compile(r"^(?P<name>.{55})  (?P<selfpct>[ 0-9.]{11}%)  (?P<self>[ 0-9.a-z]{12})  (?P<totpct>[ 0-9.]{11}%)  "
                 r"(?P<tot>[ 0-9.a-z]{12})  (?P<avg>[ 0-9.a-z]{12})  (?P<calls>[ 0-9]{12})  (?:(?P<shapes>.*)  )?$")
NUMBER = re.compile(r"-?\d+\.\d+(?:e[-+]?\d+)?")


def run(ctorch, script, args, cwd, env=None, stream="stdout"):
    cmd = [ctorch, "python", script] + list(args) if script else [ctorch] + list(args)
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, **(env or {})))
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"FAIL: {' '.join(cmd)} exited {p.returncode}")
    return p.stdout if stream == "stdout" else p.stderr


def top_level_call(text, head):
    """The lines of the depth-0 trace entry that starts with head, up to the next depth-0 entry."""
    lines = text.splitlines()
    start = next((k for k, ln in enumerate(lines) if ln.startswith(head)), None)
    if start is None:
        return []
    end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith(" [") or not lines[k].startswith("  ")),
               len(lines))
    return lines[start:end]


def norm(line):
    return LOCAL_VERSION.sub(r"\1+LOCAL", ADDR.sub("0xADDR", line))


def close_numbers(a, b, rtol):
    """a and b equal once every number is compared within rtol."""
    if NUMBER.sub("N", a) != NUMBER.sub("N", b):
        return False
    for x, y in zip(NUMBER.findall(a), NUMBER.findall(b)):
        x, y = float(x), float(y)
        if abs(x - y) > rtol * max(abs(x), abs(y)):
            return False
    return True


def table_rows(lines):
    """{(name, shapes): calls} of every profiler table row in lines."""
    out = {}
    for ln in lines:
        m = ROW.match(ln)
        if m:
            out[(m["name"].strip(), (m["shapes"] or "").strip())] = int(m["calls"])
    return out


def compare_ref(got_text, want_text, rtol, label):
    got, want = got_text.splitlines(), want_text.splitlines()
    recorded_rows = table_rows(want)
    problems = []
    i = j = 0
    in_table = 0  # rules seen in the current table: 1 after the top rule, 2 after the header's
    while i < len(got) and j < len(want):
        g, w = got[i], want[j]
        if RULE.match(w):
            if g != w:
                problems.append(f"line {j + 1}: table rule\n  want: {w}\n  got:  {g}")
            in_table = in_table + 1 if in_table < 2 else 0
        elif in_table == 2:
            mg, mw = ROW.match(g), ROW.match(w)
            if not mg or not mw:
                problems.append(f"line {j + 1}: table row\n  want: {w}\n  got:  {g}")
            else:
                key = (mg["name"].strip(), (mg["shapes"] or "").strip())
                for field in ("self", "tot", "avg"):
                    if not re.fullmatch(r"\s*" + TIME, mg[field]):
                        problems.append(f"line {j + 1}: {field} is not a time: {g}")
                if key in recorded_rows and recorded_rows[key] != int(mg["calls"]):
                    problems.append(f"line {j + 1}: {key} called {mg['calls'].strip()} times, "
                                    f"PyTorch {recorded_rows[key]}")
        elif w.startswith("Self CPU time total: "):
            if not re.fullmatch(r"Self CPU time total: " + TIME, g):
                problems.append(f"line {j + 1}:\n  want: {w}\n  got:  {g}")
        else:
            ng, nw = norm(g), norm(w)
            if ng != nw and not (rtol and close_numbers(ng, nw, rtol)):
                problems.append(f"line {j + 1}:\n  want: {w}\n  got:  {g}")
        i += 1
        j += 1
    if len(got) != len(want):
        problems.append(f"{len(got)} lines, PyTorch printed {len(want)}")
    for p in problems:
        print(f"{label}: {p}")
    print(f"{label}: {len(want)} recorded lines, {len(problems)} differences")
    return not problems


def minigpt_args(config, json_out):
    """minigpt.py's command line for a recording's vars(args)."""
    args = []
    for key, value in config.items():
        if key == "json_out":
            continue
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            if value:
                args.append(flag)
        else:
            args += [flag, repr(value) if isinstance(value, float) else str(value)]
    return args + ["--json-out", json_out]


def worst_rel(got, want):
    """The largest |g - w| / |w| over two lists of floats (inf when the lengths differ)."""
    if len(got) != len(want):
        return float("inf")
    return max((abs(g - w) / abs(w) if w else (0.0 if g == w else float("inf")) for g, w in zip(got, want)),
               default=0.0)


def run_conditions(ctorch, cwd):
    """What fixes a run's float32 bits besides the program, as `ctorch -V` reports it for this
    environment: the CPU capability, the BLAS's kernel set, and OPENBLAS_CORETYPE if set."""
    facts = dict(line.split(": ", 1) for line in run(ctorch, None, ["-V"], cwd).splitlines() if ": " in line)
    core = re.search(r"\(core (.*)\)$", facts.get("BLAS", ""))
    return {"cpu_capability": facts.get("CPU capability"), "blas_core": core.group(1) if core else None,
            "OPENBLAS_CORETYPE": os.environ.get("OPENBLAS_CORETYPE")}


def check_minigpt(ctorch, script, recording, cwd):
    """minigpt.py against one PyTorch 2.6 recording. Ops, logs, parameter count and tokens must be
    equal. Where the recording's conditions (conditions.json beside it) are this run's, PyTorch's
    printed output must be byte-identical and every loss, logit and weight the same float;
    elsewhere (another CPU level, BLAS kernel set or forced OPENBLAS_CORETYPE, whose float32 bits
    differ for PyTorch too) losses must agree within a relative 1e-5."""
    want = json.load(open(recording))
    out = os.path.join(cwd, "out.json")
    printed = run(ctorch, script, minigpt_args(want["config"], out), cwd)
    got = json.load(open(out))
    label = os.path.basename(recording)
    cond_file = os.path.join(os.path.dirname(recording), "conditions.json")
    recorded = json.load(open(cond_file)) if os.path.exists(cond_file) else None
    here = run_conditions(ctorch, cwd)
    exact = recorded is not None and all(recorded.get(k) == v for k, v in here.items())
    problems = []
    shown = json.dumps({k: want[k] for k in ("ops", "n_params", "losses", "generated")}, indent=1) + "\n"
    if json.loads(printed) != {k: got[k] for k in ("ops", "n_params", "losses", "generated")}:
        problems.append("the printed JSON is not the run's")
    got["config"]["json_out"] = want["config"]["json_out"]  # the one option this check adds
    for key in ("config", "ops", "log", "n_params", "generated"):
        if got[key] != want[key]:
            detail = ""
            if key == "log":
                for phase in want["log"]:
                    g, w = got["log"].get(phase, []), want["log"][phase]
                    k = next((k for k, (a, b) in enumerate(zip(g, w)) if a != b), min(len(g), len(w)))
                    if g != w:
                        detail += f" {phase}: first difference at op {k}: " \
                                  f"{g[k] if k < len(g) else 'end'} vs PyTorch {w[k] if k < len(w) else 'end'};"
            problems.append(f"{key} differs from PyTorch's{detail}")
    losses = worst_rel(got["losses"], want["losses"])
    if losses > (0.0 if exact else 1e-5):
        problems.append(f"losses {got['losses']} vs PyTorch {want['losses']}")
    for key in ("logits_first", "head_weight_after"):
        g, w = got[key], want[key]
        if len(g) != len(w) or any((a != b) if exact else abs(a - b) > 1e-6 + 1e-4 * abs(b) for a, b in zip(g, w)):
            problems.append(f"{key} {g} vs PyTorch {w}")
    if exact and printed != shown:
        problems.append("the printed output is not byte-identical to PyTorch's")
    for p in problems:
        print(f"{label}: {p}")
    if exact:
        verdict = "bit-identical required (this run's conditions are the recording's)"
    else:
        why = "no conditions recorded" if recorded is None else ", ".join(
            f"{k} {here[k]} (recorded {recorded.get(k)})" for k in here if recorded.get(k) != here[k])
        verdict = f"within 1e-5 required ({why})"
    print(f"{label}: ops, logs, {got['n_params']} parameters and {len(got['generated'])} tokens "
          f"{'equal' if not problems else 'checked'}; losses within a relative {losses:.3g}, {verdict}; printed output "
          f"{'identical' if printed == shown else 'not byte-identical'} to PyTorch's")
    return not problems


def main(argv):
    ctorch, mode = os.path.abspath(argv[1]), argv[2]
    ok = True
    with tempfile.TemporaryDirectory() as cwd:
        if mode == "seed":
            golden = json.load(open(argv[3]))
            script = os.path.abspath(argv[4])
            for seed in argv[5:]:
                want = json.dumps(golden["seeds"][seed]["result"], indent=2) + "\n"
                got = run(ctorch, script, ["--seed", seed], cwd)
                same = got == want
                ok &= same
                print(f"seed {seed}: {len(want)} bytes of JSON, {'identical' if same else 'DIFFERENT'} to PyTorch {golden['torch']}")
                if not same:
                    for n, (g, w) in enumerate(zip(got.splitlines(), want.splitlines())):
                        if g != w:
                            print(f"  first difference, line {n + 1}:\n  want: {w}\n  got:  {g}")
                            break
        elif mode == "ref":
            script, recorded = os.path.abspath(argv[3]), argv[4]
            rtol = float(argv[argv.index("--rtol") + 1]) if "--rtol" in argv else 0.0
            if "--exact-if" in argv:  # no tolerance where the run's conditions are the recording's
                cond = json.load(open(argv[argv.index("--exact-if") + 1]))
                here = run_conditions(ctorch, cwd)
                if all(cond.get(k) == v for k, v in here.items()):
                    rtol = 0.0
                    print(f"{os.path.basename(script)}: this run's conditions are the recording's: numbers must be equal")
                else:
                    print(f"{os.path.basename(script)}: numbers within a relative {rtol:g} (" + ", ".join(
                        f"{k} {here[k]} (recorded {cond.get(k)})" for k in here if cond.get(k) != here[k]) + ")")
            got = run(ctorch, script, [], cwd)
            ok = compare_ref(got, open(recorded).read(), rtol, os.path.basename(script))
        elif mode == "trace":
            head = " [call] op=[aten::linear], key=[AutogradCPU]"
            from_c = top_level_call(run(ctorch, None, ["trace"], cwd), head)
            from_py = top_level_call(run(ctorch, os.path.abspath(argv[3]), [], cwd,
                                         {"CTORCH_SHOW_DISPATCH_TRACE": "2"}, "stderr"), head)
            ok = bool(from_c) and from_c == from_py
            print(f"linear's trace: {len(from_c)} lines from C, {len(from_py)} from Python, "
                  f"{'identical' if ok else 'DIFFERENT'}")
            for k, (c, p) in enumerate(zip(from_c, from_py)):
                if c != p:
                    print(f"  first difference, line {k + 1}:\n  C:      {c}\n  Python: {p}")
                    break
        elif mode == "minigpt":
            script = os.path.abspath(argv[3])
            for recording in argv[4:]:
                ok &= check_minigpt(ctorch, script, recording, cwd)
        elif mode == "run":
            sys.stdout.write(run(ctorch, os.path.abspath(argv[3]), argv[4:], cwd))
        else:
            raise SystemExit(f"unknown mode {mode}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
