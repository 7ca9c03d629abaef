// The libtorch side of the comparison benchmark: the cases of bench/bench_ctorch.c through
// PyTorch's C++ API (ATen, torch::nn, torch::optim), with the same protocol and timing rule.
//
//   libtorch_bench --threads T --cases ID[,ID...] [--warmup-ms MS] [--batch-ms MS] [--batches N]
//
// at::set_num_threads(T) pins the intra-op threads; the BLAS (OpenBLAS in Debian's build) reads
// OPENBLAS_NUM_THREADS, which the caller sets. Cases the C++ API has no counterpart for
// (dispatch modes, which are Python objects) are reported as skipped.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>
#include <torch/torch.h>
#include <torch/nn.h>
#include <torch/optim.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct Opts {
    double warmup_ms = 20, batch_ms = 30;
    int batches = 3;
};

double now_ns() {
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One case: run() is the timed call; begin/end switch an observer on and off around a batch.
struct Case {
    std::function<void()> run;
    std::function<void()> begin, end;
};

void measure(const std::string& id, Case& c, const Opts& o) {
    long n = 0;
    if (c.begin) c.begin();
    double t0 = now_ns(), el = 0, first = 0;
    while (n < 2 || el < o.warmup_ms * 1e6) {
        c.run();
        n++;
        el = now_ns() - t0;
        if (n == 1) first = el;
    }
    if (c.end) c.end();
    // the rate that sizes the batches leaves out the first call (first-use costs)
    double per = std::max(1.0, (el - first) / (double)(n - 1));
    long iters = std::max(1L, (long)(o.batch_ms * 1e6 / per));
    auto batch = [&](bool observed) {
        if (observed && c.begin) c.begin();
        double s = now_ns();
        for (long i = 0; i < iters; i++) c.run();
        double t = (now_ns() - s) / (double)iters;
        if (observed && c.end) c.end();
        return t;
    };
    // a case with an observer times a batch without it next to each observed batch (in
    // alternating order): its cost is measured under the same load of the machine
    bool paired = (bool)c.begin;
    std::vector<double> ns, plain;
    for (int b = 0; b < o.batches; b++) {
        for (int k = 0; k < (paired ? 2 : 1); k++) {
            bool observed = !paired || k == (b & 1);
            (observed ? ns : plain).push_back(batch(observed));
        }
    }
    auto list = [](const char* key, const std::vector<double>& v) {
        std::printf(", \"%s\": [", key);
        for (size_t b = 0; b < v.size(); b++) std::printf("%s%.2f", b ? ", " : "", v[b]);
        std::printf("]");
    };
    std::printf("{\"case\": \"%s\", \"iters\": %ld", id.c_str(), iters);
    list("ns", ns);
    if (paired) list("plain_ns", plain);
    std::printf("}\n");
    std::fflush(stdout);
}

// A custom op whose CPU kernel returns its input: the cost of dispatching alone.
at::Tensor noop_kernel(const at::Tensor& x) { return x; }

// Sequential(Linear(16, 32), ReLU(), [Linear(32, 32), ReLU()] * (hidden - 1), Linear(32, 4)),
// batch 8, cross_entropy, SGD(lr=0.1); a step is zero_grad(set_to_none=True) (written out: the
// 1.13 C++ optimizer zeroes in place), forward, loss, backward, step.
struct Step {
    torch::nn::Sequential model;
    std::unique_ptr<torch::optim::SGD> opt;
    at::Tensor x, y;
    explicit Step(int hidden) {
        torch::manual_seed(0);
        model->push_back(torch::nn::Linear(16, 32));
        model->push_back(torch::nn::ReLU());
        for (int i = 1; i < hidden; i++) {
            model->push_back(torch::nn::Linear(32, 32));
            model->push_back(torch::nn::ReLU());
        }
        model->push_back(torch::nn::Linear(32, 4));
        opt = std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(0.1));
        x = at::randn({8, 16});
        y = at::randint(0, 4, {8}, at::kLong);
    }
    void run() {
        for (auto& p : model->parameters()) p.mutable_grad().reset();
        auto logits = model->forward(x);
        auto loss = torch::nn::functional::cross_entropy(logits, y);
        loss.backward();
        opt->step();
    }
};

// ---- MiniGPT in torch::nn, module for module as minigpt.py writes it ----
struct CausalSelfAttentionImpl : torch::nn::Module {
    int64_t n_head, d_model;
    torch::nn::Linear qkv{nullptr}, proj{nullptr};
    torch::nn::Dropout attn_drop{nullptr}, resid_drop{nullptr};
    torch::Tensor mask;
    CausalSelfAttentionImpl(int64_t d, int64_t nh, int64_t block, double p) : n_head(nh), d_model(d) {
        qkv = register_module("qkv", torch::nn::Linear(d, 3 * d));
        proj = register_module("proj", torch::nn::Linear(d, d));
        attn_drop = register_module("attn_drop", torch::nn::Dropout(p));
        resid_drop = register_module("resid_drop", torch::nn::Dropout(p));
        mask = register_buffer("mask", torch::tril(torch::ones({block, block})).view({1, 1, block, block}));
    }
    torch::Tensor forward(const torch::Tensor& x) {
        int64_t B = x.size(0), T = x.size(1), C = x.size(2);
        auto parts = qkv(x).split(C, 2);
        auto q = parts[0].view({B, T, n_head, C / n_head}).transpose(1, 2);
        auto k = parts[1].view({B, T, n_head, C / n_head}).transpose(1, 2);
        auto v = parts[2].view({B, T, n_head, C / n_head}).transpose(1, 2);
        auto att = torch::matmul(q, k.transpose(-2, -1)) * (1.0 / std::sqrt((double)k.size(-1)));
        att = att.masked_fill(mask.slice(2, 0, T).slice(3, 0, T) == 0, -std::numeric_limits<double>::infinity());
        att = attn_drop(torch::softmax(att, -1));
        auto y = torch::matmul(att, v).transpose(1, 2).contiguous().view({B, T, C});
        return resid_drop(proj(y));
    }
};
TORCH_MODULE(CausalSelfAttention);

struct BlockImpl : torch::nn::Module {
    torch::nn::LayerNorm ln1{nullptr}, ln2{nullptr};
    CausalSelfAttention attn{nullptr};
    torch::nn::Sequential mlp{nullptr};
    BlockImpl(int64_t d, int64_t nh, int64_t block, double p) {
        ln1 = register_module("ln1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        attn = register_module("attn", CausalSelfAttention(d, nh, block, p));
        ln2 = register_module("ln2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        mlp = register_module("mlp", torch::nn::Sequential(torch::nn::Linear(d, 4 * d), torch::nn::GELU(),
                                                           torch::nn::Linear(4 * d, d), torch::nn::Dropout(p)));
    }
    torch::Tensor forward(torch::Tensor x) {
        x = x + attn(ln1(x));
        return x + mlp->forward(ln2(x));
    }
};
TORCH_MODULE(Block);

struct MiniGPTImpl : torch::nn::Module {
    int64_t vocab;
    torch::nn::Embedding tok_emb{nullptr}, pos_emb{nullptr};
    torch::nn::Dropout drop{nullptr};
    torch::nn::ModuleList blocks{nullptr};
    torch::nn::LayerNorm ln_f{nullptr};
    torch::nn::Linear head{nullptr};
    MiniGPTImpl(int64_t v, int64_t block, int64_t n_layer, int64_t nh, int64_t d, double p) : vocab(v) {
        tok_emb = register_module("tok_emb", torch::nn::Embedding(v, d));
        pos_emb = register_module("pos_emb", torch::nn::Embedding(block, d));
        drop = register_module("drop", torch::nn::Dropout(p));
        blocks = register_module("blocks", torch::nn::ModuleList());
        for (int64_t i = 0; i < n_layer; i++) blocks->push_back(Block(d, nh, block, p));
        ln_f = register_module("ln_f", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})));
        head = register_module("head", torch::nn::Linear(d, v));
    }
    torch::Tensor forward(const torch::Tensor& idx, const torch::Tensor& targets) {
        int64_t T = idx.size(1);
        auto pos = torch::arange(0, T, torch::kLong);
        auto x = drop(tok_emb(idx) + pos_emb(pos));
        for (const auto& b : *blocks) x = b->as<BlockImpl>()->forward(x);
        auto logits = head(ln_f(x));
        return torch::nn::functional::cross_entropy(logits.view({-1, vocab}), targets.view(-1));
    }
};
TORCH_MODULE(MiniGPT);

// minigpt.py's training step with its defaults: forward with cross_entropy, backward,
// clip_grad_norm_(1.0), AdamW (lr 3e-3, betas (0.9, 0.95), weight decay 0.1 on the matrices),
// zero_grad, loss.item()
struct GptStep {
    MiniGPT model{nullptr};
    std::unique_ptr<torch::optim::AdamW> opt;
    at::Tensor x, y;
    GptStep() {
        torch::manual_seed(0);
        model = MiniGPT(600, 32, 2, 4, 64, 0.1);
        std::vector<torch::Tensor> decay, no_decay;
        for (auto& p : model->parameters()) (p.dim() >= 2 ? decay : no_decay).push_back(p);
        using torch::optim::AdamWOptions;
        std::vector<torch::optim::OptimizerParamGroup> groups;
        groups.emplace_back(decay, std::make_unique<AdamWOptions>(AdamWOptions(3e-3).betas({0.9, 0.95}).weight_decay(0.1)));
        groups.emplace_back(no_decay, std::make_unique<AdamWOptions>(AdamWOptions(3e-3).betas({0.9, 0.95}).weight_decay(0.0)));
        opt = std::make_unique<torch::optim::AdamW>(groups, AdamWOptions(3e-3).betas({0.9, 0.95}));
        auto data = torch::randint(0, 600, {4, 33}, torch::kLong);
        x = data.slice(1, 0, 32).contiguous();
        y = data.slice(1, 1, 33).contiguous();
    }
    void run() {
        auto loss = model->forward(x, y);
        loss.backward();
        torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
        opt->step();
        opt->zero_grad();
        (void)loss.item<double>();
    }
};

// "add_1e7" -> ("add", 10000 columns); false when id is no large case (bench/bench_ctorch.c's list)
bool large_case(const std::string& id, std::string& name, int64_t& cols) {
    static const char* names[] = {"add", "add_inplace", "mul_bcast", "sum", "sum0",
                                  "softmax", "softmax0", "layer_norm", "gelu", "adamw"};
    size_t u = id.rfind('_');
    if (u == std::string::npos) return false;
    std::string size = id.substr(u + 1);
    if (size != "1e6" && size != "1e7") return false;
    for (const char* n : names)
        if (id.compare(0, u, n) == 0 && std::strlen(n) == u) {
            name = n;
            cols = size == "1e6" ? 1000 : 10000;
            return true;
        }
    return false;
}

// "exp_n1e4" -> ("exp", 100 rows); false when id is no operator-family case (bench/bench_ctorch.c's list)
bool family_case(const std::string& id, std::string& name, int64_t& n) {
    static const char* names[] = {"exp", "bcast_mul", "gt", "sum_last", "sum_dim0", "var", "cumsum",
                                  "sort", "topk", "index", "gather", "scatter_add", "max_pool2d", "batch_norm"};
    size_t u = id.rfind('_');
    if (u == std::string::npos) return false;
    std::string size = id.substr(u + 1);
    if (size != "n1e2" && size != "n1e4" && size != "n1e6") return false;
    for (const char* nm : names)
        if (id.compare(0, u, nm) == 0 && std::strlen(nm) == u) {
            name = nm;
            n = size == "n1e2" ? 10 : size == "n1e4" ? 100 : 1000;
            return true;
        }
    return false;
}

void run_case(const std::string& id, const Opts& o) {
    static const std::map<std::string, std::string> skipped = {
        {"add1_mode", "no dispatch modes in the C++ API"},
        {"step_mode", "no dispatch modes in the C++ API"},
        {"step_profiler", "not measured (the Python profiler is the peer)"},
        {"step_trace", "no decision trace in libtorch"},
    };
    auto sk = skipped.find(id);
    if (sk != skipped.end()) {
        std::printf("{\"case\": \"%s\", \"skip\": \"%s\"}\n", id.c_str(), sk->second.c_str());
        return;
    }
    Case c;
    at::Tensor a = at::ones({1}), b = at::ones({1});
    at::Tensor x, w, bias;
    std::shared_ptr<Step> step;
    std::shared_ptr<GptStep> gpt;
    std::shared_ptr<torch::optim::AdamW> adamw;
    at::Tensor row;
    std::string large_name, fam_name;
    int64_t cols = 0, fam_n = 0;
    at::Tensor fb, frows, fidx, fimg, frm, frv, fw, fbias;
    auto square = [&](int64_t n) {
        x = at::randn({n, n});
        w = at::randn({n, n});
        bias = at::randn({n});
    };
    if (id == "add1") {
        c.run = [&] { auto r = at::add(a, b); };
    } else if (id == "add1_inplace") {
        c.run = [&] { a.add_(b); };
    } else if (id == "empty1") {
        c.run = [&] { auto r = at::empty({1}); };
    } else if (id == "noop_op") {
        auto op = c10::Dispatcher::singleton().findSchemaOrThrow("ctbench::noop", "").typed<at::Tensor(const at::Tensor&)>();
        c.run = [&a, op] { auto r = op.call(a); };
    } else if (id == "mm32") {
        square(32);
        c.run = [&] { auto r = at::mm(x, w); };
    } else if (id == "linear_fwd" || id == "linear_fwdbwd") {
        x = at::randn({2, 64});
        w = at::randn({600, 64});
        bias = at::randn({600});
        if (id == "linear_fwd") {
            c.run = [&] { auto r = at::linear(x, w, bias); };
        } else {
            w.set_requires_grad(true);
            bias.set_requires_grad(true);
            // y.sum().backward(): the gradients accumulate over the calls
            c.run = [&] { at::linear(x, w, bias).sum().backward(); };
        }
    } else if (id == "step" || id == "step_d4" || id == "step_d16" || id == "step_d64") {
        int hidden = id == "step" ? 1 : std::atoi(id.c_str() + 6);
        step = std::make_shared<Step>(hidden);
        c.run = [&] { step->run(); };
    } else if (id == "minigpt_step") {
        gpt = std::make_shared<GptStep>();
        c.run = [&] { gpt->run(); };
    } else if (id == "addmm256" || id == "addmm2048") {
        square(id == "addmm256" ? 256 : 2048);
        c.run = [&] { auto r = at::addmm(bias, x, w); };
    } else if (id == "mm2048") {
        square(2048);
        c.run = [&] { auto r = at::mm(x, w); };
    } else if (id == "conv2d") {
        x = at::randn({8, 3, 32, 32});
        w = at::randn({16, 3, 3, 3});
        bias = at::randn({16});
        c.run = [&] { auto r = at::conv2d(x, w, bias, {1, 1}, {1, 1}); };
    } else if (family_case(id, fam_name, fam_n)) {
        // ID_n1e2 / _n1e4 / _n1e6: a [10, 10], [100, 100] or [1000, 1000] float32 tensor of randn values
        int64_t n = fam_n;
        x = at::randn({n, n});
        fb = at::randn({n, n});
        row = at::randn({n});
        frows = at::randperm(n);
        fidx = at::randint(0, n, {n, n});
        fimg = x.view({1, 1, n, n});
        frm = at::zeros({n});
        frv = at::ones({n});
        fw = at::randn({n});
        fbias = at::randn({n});
        const std::string& nm = fam_name;
        if (nm == "exp") c.run = [&] { auto r = at::exp(x); };
        else if (nm == "bcast_mul") c.run = [&] { auto r = at::mul(x, row); };
        else if (nm == "gt") c.run = [&] { auto r = at::gt(x, fb); };
        else if (nm == "sum_last") c.run = [&] { auto r = at::sum(x, std::vector<int64_t>{-1}); };
        else if (nm == "sum_dim0") c.run = [&] { auto r = at::sum(x, std::vector<int64_t>{0}); };
        else if (nm == "var") c.run = [&] { auto r = at::var(x, std::vector<int64_t>{-1}); };
        else if (nm == "cumsum") c.run = [&] { auto r = at::cumsum(x, -1); };
        else if (nm == "sort") c.run = [&] { auto r = at::sort(x, -1); };
        else if (nm == "topk") c.run = [&] { auto r = at::topk(x, 5, -1); };
        else if (nm == "index") c.run = [&] { auto r = x.index({frows}); };
        else if (nm == "gather") c.run = [&] { auto r = at::gather(x, 1, fidx); };
        else if (nm == "scatter_add") c.run = [&] { auto r = at::scatter_add(x, 1, fidx, fb); };
        else if (nm == "max_pool2d") c.run = [&] { auto r = at::max_pool2d(fimg, {2, 2}); };
        else c.run = [&] { auto r = at::batch_norm(x, fw, fbias, frm, frv, true, 0.1, 1e-5, false); };
    } else if (large_case(id, large_name, cols)) {
        // ID_1e6 / ID_1e7: a [1000, 1000] or [1000, 10000] float32 tensor of randn values
        x = at::randn({1000, cols});
        w = at::randn({1000, cols});
        row = at::randn({cols});
        bias = at::randn({cols});
        at::Tensor gamma = at::randn({cols});
        const std::string& n = large_name;
        if (n == "add") c.run = [&] { auto r = at::add(x, w); };
        else if (n == "add_inplace") c.run = [&] { x.add_(w); };
        else if (n == "mul_bcast") c.run = [&] { auto r = at::mul(x, row); };
        else if (n == "sum") c.run = [&] { auto r = at::sum(x); };
        else if (n == "sum0") c.run = [&] { auto r = at::sum(x, std::vector<int64_t>{0}); };
        else if (n == "softmax") c.run = [&] { auto r = at::softmax(x, -1); };
        else if (n == "softmax0") c.run = [&] { auto r = at::softmax(x, 0); };
        else if (n == "layer_norm") c.run = [&, gamma] { auto r = at::layer_norm(x, {cols}, gamma, bias, 1e-5); };
        else if (n == "gelu") c.run = [&] { auto r = at::gelu(x); };
        else {
            // adamw: one parameter with a gradient, AdamW with PyTorch's defaults, one step per call
            x.set_requires_grad(true);
            x.mutable_grad() = w;
            adamw = std::make_shared<torch::optim::AdamW>(std::vector<at::Tensor>{x}, torch::optim::AdamWOptions());
            c.run = [&] { adamw->step(); };
        }
    } else {
        std::printf("{\"case\": \"%s\", \"skip\": \"not a case of this program\"}\n", id.c_str());
        return;
    }
    try {
        measure(id, c, o);
    } catch (const std::exception& e) {
        std::string m = e.what();
        std::replace_if(m.begin(), m.end(), [](char ch) { return ch == '"' || ch == '\\' || ch < 0x20; }, ' ');
        std::printf("{\"case\": \"%s\", \"error\": \"%s\"}\n", id.c_str(), m.substr(0, 400).c_str());
    }
    std::fflush(stdout);
}

}  // namespace

TORCH_LIBRARY(ctbench, m) { m.def("noop(Tensor self) -> Tensor"); }
TORCH_LIBRARY_IMPL(ctbench, CPU, m) { m.impl("noop", noop_kernel); }

int main(int argc, char** argv) {
    Opts o;
    int threads = 1;
    std::string cases;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i], v = argv[i + 1];
        if (k == "--threads") threads = std::atoi(v.c_str());
        else if (k == "--cases") cases = v;
        else if (k == "--warmup-ms") o.warmup_ms = std::atof(v.c_str());
        else if (k == "--batch-ms") o.batch_ms = std::atof(v.c_str());
        else if (k == "--batches") o.batches = std::atoi(v.c_str());
    }
    if (cases.empty() || threads < 1) {
        std::fprintf(stderr, "usage: libtorch_bench --threads T --cases ID[,ID...] [--warmup-ms MS] [--batch-ms MS] [--batches N]\n");
        return 2;
    }
    at::set_num_threads(threads);
    at::init_num_threads();
    // the BLAS, found at run time: its threads as it reports them
    int blas_threads = -1;
    std::string blas = "none found";
    if (void* self = dlopen(nullptr, RTLD_LAZY)) {
        auto ob_threads = (int (*)())dlsym(self, "openblas_get_num_threads");
        auto ob_config = (char* (*)())dlsym(self, "openblas_get_config");
        if (ob_threads) {
            blas_threads = ob_threads();
            blas = ob_config ? ob_config() : "OpenBLAS";
        }
    }
    std::printf("{\"meta\": {\"program\": \"libtorch\", \"version\": \"%s\", \"threads\": %d, \"intra_op_threads\": %d, "
                "\"blas\": \"%s\", \"blas_threads\": %d}}\n",
                TORCH_VERSION, threads, at::get_num_threads(), blas.c_str(), blas_threads);
    std::fflush(stdout);
    std::stringstream ss(cases);
    for (std::string id; std::getline(ss, id, ',');)
        if (!id.empty()) run_case(id, o);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::printf("{\"end\": {\"max_rss_kb\": %ld}}\n", ru.ru_maxrss);
    return 0;
}
