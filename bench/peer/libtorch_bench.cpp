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
#include <torch/nn.h>
#include <torch/optim.h>
#include <torch/version.h>

#include <dlfcn.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
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
    } else if (id == "addmm256" || id == "addmm2048") {
        square(id == "addmm256" ? 256 : 2048);
        c.run = [&] { auto r = at::addmm(bias, x, w); };
    } else if (id == "mm2048") {
        square(2048);
        c.run = [&] { auto r = at::mm(x, w); };
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
