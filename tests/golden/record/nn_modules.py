"""torch.nn modules MiniGPT uses, recorded with PyTorch 2.6 for tests/test_nn_modules.c: MiniGPT's
named_parameters (names, shapes) untied and tied, each module's parameters after manual_seed(0),
forward values, reprs, train/eval behaviour and the errors of misuse.

Usage (from tests/golden):  torchref record/nn_modules.py torch-2.6/nn_modules.json
"""
import json, os, sys
import torch, torch.nn as nn, torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import minigpt  # noqa: E402

out = {}
for tied in (False, True):
    torch.manual_seed(0)
    m = minigpt.MiniGPT(minigpt.Config(tied=tied))
    out["named_parameters_tied" if tied else "named_parameters"] = [[n, list(p.shape)] for n, p in m.named_parameters()]
    out["n_params_tied" if tied else "n_params"] = sum(p.numel() for p in m.parameters())

x = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4) / 7 - 1
torch.manual_seed(0)
emb = nn.Embedding(10, 4)
out["embedding_weight"] = emb.weight.flatten().tolist()
out["embedding_forward"] = emb(torch.tensor([[3, 0], [9, 3]])).flatten().tolist()
ln = nn.LayerNorm(4)
with torch.no_grad():
    ln.weight.mul_(1.5)
    ln.bias.add_(0.25)
out["layer_norm_forward"] = ln(x).flatten().tolist()
ln_nb = nn.LayerNorm(4, bias=False)
out["layer_norm_no_bias_names"] = [n for n, _ in ln_nb.named_parameters()]
out["layer_norm_no_bias_forward"] = ln_nb(x).flatten().tolist()
out["gelu_tanh_forward"] = nn.GELU("tanh")(x).flatten().tolist()
drop = nn.Dropout(0.25)
torch.manual_seed(5)
out["dropout_train_forward"] = drop(x).flatten().tolist()
drop.eval()
out["dropout_eval_is_input"] = drop(x) is x
seq = nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Dropout(0.1))
seq.eval()
out["eval_flags"] = [mod.training for mod in seq.modules()]
seq.train()
out["train_flags"] = [mod.training for mod in seq.modules()]
out["reprs"] = {"embedding": repr(emb), "layer_norm": repr(ln), "layer_norm_no_bias": repr(ln_nb), "gelu": repr(nn.GELU()),
                "gelu_tanh": repr(nn.GELU("tanh")), "dropout": repr(drop)}


def err(tag, f):
    try:
        f()
        out.setdefault("errors", {})[tag] = None
    except Exception as e:
        out.setdefault("errors", {})[tag] = [type(e).__name__, str(e)]


err("dropout_p", lambda: nn.Dropout(1.5))
err("dropout_negative_p", lambda: nn.Dropout(-0.1))
err("gelu_approximate", lambda: nn.GELU("erf")(x))
err("layer_norm_shape", lambda: nn.LayerNorm(3)(x))
err("embedding_out_of_range", lambda: emb(torch.tensor([10])))
err("embedding_float_indices", lambda: emb(torch.tensor([1.0])))
err("module_list_forward", lambda: nn.ModuleList([nn.ReLU()])(x))
json.dump(out, open(sys.argv[1], "w"), indent=1)
print(json.dumps(out["errors"], indent=1), out["reprs"])
