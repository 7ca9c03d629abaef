"""MiniGPT (tests/golden/record/minigpt.py, the program `ctorch gpt` mirrors) under PyTorch 2.6 for
seeds 0, 1, 2 and each of: the default options, --attention sdpa, --dropout 0, --tied; and, for
seed 0, other combinations (the CPU flash attention of sdpa without dropout, tied with sdpa, a
small model whose sampling outgrows its block, heavy dropout, a single step); a negative seed;
every option changed at once. Writes one
compact JSON per run into the folder given (the program's own JSON: config, per-phase op counts and
ordered logs, parameter count, losses, first logits, sampled tokens, head weights after training).

Usage (from tests/golden):
    torchref record/minigpt_runs.py torch-2.6/minigpt
    torchref record/minigpt_runs.py torch-2.6/minigpt-2threads --threads 2

minigpt.py's main() pins one intra-op thread (torch.set_num_threads(1)); with --threads N that call
sets N instead, so the same runs are recorded as PyTorch computes them on N threads (layer norm's
weight and bias gradients, summed per thread, then differ in the last bits, and so the losses).
The misuse errors are recorded with one thread only.
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import minigpt  # noqa: E402
import torch  # noqa: E402

THREADS = 1
if "--threads" in sys.argv:
    at = sys.argv.index("--threads")
    THREADS = int(sys.argv[at + 1])
    del sys.argv[at:at + 2]
    pin = torch.set_num_threads
    torch.set_num_threads = lambda n: pin(THREADS)  # main()'s set_num_threads(1) sets THREADS

VARIANTS = {"default": [], "sdpa": ["--attention", "sdpa"], "dropout0": ["--dropout", "0"], "tied": ["--tied"]}
EXTRA = {
    "sdpa-dropout0": ["--attention", "sdpa", "--dropout", "0"],
    "tied-sdpa": ["--tied", "--attention", "sdpa"],
    "small": ["--n-layer", "1", "--n-head", "2", "--d-model", "32", "--vocab", "97", "--block", "8", "--batch", "3",
              "--steps", "3", "--generate", "12", "--lr", "0.01", "--clip", "0.5"],
    "dropout-half": ["--dropout", "0.5", "--steps", "2"],
    "steps1": ["--steps", "1", "--generate", "0"],
}

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)


# What fixes the float32 bits of these runs besides the program (torch_conditions.py).
import torch_conditions  # noqa: E402
torch_conditions.write(os.path.join(out_dir, "conditions.json"))
RUNS = [(seed, name, extra) for seed in (0, 1, 2) for name, extra in VARIANTS.items()]
RUNS += [(0, name, extra) for name, extra in EXTRA.items()]
# a negative seed (manual_seed(-3) seeds with 2^64 - 3), and every option changed at once
RUNS += [(-3, "steps2", ["--steps", "2", "--generate", "3"]),
         (7, "mixed", ["--n-layer", "1", "--n-head", "2", "--d-model", "32", "--vocab", "50", "--block", "8", "--batch", "2",
                       "--tied", "--attention", "sdpa", "--dropout", "0.2", "--steps", "3", "--lr", "0.01", "--clip", "0.5",
                       "--generate", "5"])]
for seed, name, extra in RUNS:
    if True:
        path = os.path.join(out_dir, "seed%d-%s.json" % (seed, name))
        sys.argv = ["minigpt.py", "--seed", str(seed), "--json-out", path] + extra
        saved = sys.stdout
        sys.stdout = open(os.devnull, "w")
        try:
            minigpt.main()
        finally:
            sys.stdout.close()
            sys.stdout = saved
        with open(path) as f:
            d = json.load(f)
        d["config"]["json_out"] = None  # the recording path says nothing about the run
        with open(path, "w") as f:
            f.write("{\n")
            f.write(",\n".join("%s:%s" % (json.dumps(k), json.dumps(v, separators=(",", ":"))) for k, v in d.items()))
            f.write("\n}\n")
        assert torch.get_num_threads() == THREADS
        print(path, "losses", d["losses"], "generated", d["generated"][4:])

if THREADS != 1:
    sys.exit(0)

# Misuse: the error PyTorch raises for a few bad option values (type and message), written to
# ../minigpt_errors.json beside the runs' folder.
BAD = {
    "dropout-above-one": ["--dropout", "1.5"],
    "heads-not-dividing": ["--n-head", "5", "--steps", "1"],
    "negative-lr": ["--lr", "-1"],
}
errors = {}
for name, extra in BAD.items():
    sys.argv = ["minigpt.py", "--seed", "0"] + extra
    saved = sys.stdout
    sys.stdout = open(os.devnull, "w")
    try:
        minigpt.main()
        errors[name] = {"args": extra, "error": None}
    except Exception as e:  # the message is what is recorded
        errors[name] = {"args": extra, "error": {"type": type(e).__name__, "message": str(e)}}
    finally:
        sys.stdout.close()
        sys.stdout = saved
with open(os.path.join(os.path.dirname(os.path.abspath(out_dir)), "minigpt_errors.json"), "w") as f:
    json.dump(errors, f, indent=1)
    f.write("\n")
print(errors)
