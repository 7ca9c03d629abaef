// The peer side of bench_dispatch: the same operations through libtorch (PyTorch's C++ API),
// timed the same way. Prints "name ns_per_call" lines for bench_dispatch to read.
//
// minigpt_step: one training step of MiniGPT (tests/golden/record/minigpt.py with its default
// options: vocab 600, block 32, 2 layers, 4 heads, d_model 64, dropout 0.1, manual attention,
// batch 4) written with libtorch's torch::nn and torch::optim: forward with cross_entropy,
// backward, clip_grad_norm_(1.0), AdamW (lr 3e-3, betas (0.9, 0.95), weight decay 0.1 on the
// matrices) and zero_grad.
#include <torch/torch.h>
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <vector>

template <typename F>
static double ns_per_call(F f, long iters) {
    for (long i = 0; i < iters / 10; i++) f();  // warm up
    double best = 1e300;
    for (int rep = 0; rep < 5; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < iters; i++) f();
        auto t1 = std::chrono::steady_clock::now();
        double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / iters;
        if (ns < best) best = ns;
    }
    return best;
}

// A custom op whose CPU kernel returns its input: the cost of dispatching alone.
static at::Tensor noop_kernel(const at::Tensor& x) { return x; }
TORCH_LIBRARY(ctbench, m) { m.def("noop(Tensor self) -> Tensor"); }
TORCH_LIBRARY_IMPL(ctbench, CPU, m) { m.impl("noop", noop_kernel); }

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

// ns per MiniGPT training step: 3 steps to warm up, then the best of 5 loops of `steps` steps.
static double minigpt_step_ns(long steps) {
    torch::manual_seed(0);
    MiniGPT model(600, 32, 2, 4, 64, 0.1);
    std::vector<torch::Tensor> decay, no_decay;
    for (auto& p : model->parameters()) (p.dim() >= 2 ? decay : no_decay).push_back(p);
    using torch::optim::AdamWOptions;
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(decay, std::make_unique<AdamWOptions>(AdamWOptions(3e-3).betas({0.9, 0.95}).weight_decay(0.1)));
    groups.emplace_back(no_decay, std::make_unique<AdamWOptions>(AdamWOptions(3e-3).betas({0.9, 0.95}).weight_decay(0.0)));
    torch::optim::AdamW opt(groups, AdamWOptions(3e-3).betas({0.9, 0.95}));
    auto data = torch::randint(0, 600, {4, 33}, torch::kLong);
    auto x = data.slice(1, 0, 32).contiguous(), y = data.slice(1, 1, 33).contiguous();
    auto step = [&] {
        auto loss = model->forward(x, y);
        loss.backward();
        torch::nn::utils::clip_grad_norm_(model->parameters(), 1.0);
        opt.step();
        opt.zero_grad();
        (void)loss.item<double>(); // losses.append(l.item())
    };
    for (int i = 0; i < 3; i++) step();
    double best = 1e300;
    for (int rep = 0; rep < 5; rep++) {
        auto t0 = std::chrono::steady_clock::now();
        for (long i = 0; i < steps; i++) step();
        auto t1 = std::chrono::steady_clock::now();
        double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / steps;
        if (ns < best) best = ns;
    }
    return best;
}

int main(int argc, char** argv) {
    long iters = argc > 1 ? std::atol(argv[1]) : 200000;
    long steps = argc > 2 ? std::atol(argv[2]) : 20;
    at::set_num_threads(1);
    at::Tensor a = at::ones({1}), b = at::ones({1});
    at::Tensor a32 = at::ones({32, 32}), b32 = at::ones({32, 32});
    auto noop = c10::Dispatcher::singleton().findSchemaOrThrow("ctbench::noop", "").typed<at::Tensor(const at::Tensor&)>();
    std::printf("add_1elem %.1f\n", ns_per_call([&] { auto c = at::add(a, b); }, iters));
    std::printf("add_inplace_1elem %.1f\n", ns_per_call([&] { a.add_(b, 0.0); }, iters));
    std::printf("empty_1elem %.1f\n", ns_per_call([&] { auto c = at::empty({1}); }, iters));
    std::printf("noop_op %.1f\n", ns_per_call([&] { auto c = noop.call(a); }, iters));
    std::printf("mm_32x32 %.1f\n", ns_per_call([&] { auto c = at::mm(a32, b32); }, iters / 10));
    at::Tensor ag = at::ones({1}).set_requires_grad(true);
    std::printf("add_1elem_requires_grad %.1f\n", ns_per_call([&] { auto c = at::add(ag, b); }, iters));
    std::printf("minigpt_step %.1f\n", minigpt_step_ns(steps));
    return 0;
}
