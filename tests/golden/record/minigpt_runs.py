"""MiniGPT (tests/golden/record/minigpt.py, the program `ctorch gpt` mirrors) under PyTorch 2.6 for
seeds 0, 1, 2 and each of: the default options, --attention sdpa, --dropout 0, --tied. Writes one
compact JSON per run into the folder given (the program's own JSON: config, per-phase op counts and
ordered logs, parameter count, losses, first logits, sampled tokens, head weights after training).

Usage (from tests/golden):
    torchref record/minigpt_runs.py torch-2.6/minigpt
"""
import json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import minigpt  # noqa: E402

VARIANTS = {"default": [], "sdpa": ["--attention", "sdpa"], "dropout0": ["--dropout", "0"], "tied": ["--tied"]}

out_dir = sys.argv[1]
os.makedirs(out_dir, exist_ok=True)
for seed in (0, 1, 2):
    for name, extra in VARIANTS.items():
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
        print(path, "losses", d["losses"], "generated", d["generated"][4:])
