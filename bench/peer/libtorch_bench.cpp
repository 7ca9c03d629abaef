// The peer side of bench_dispatch: the same operations through libtorch (PyTorch's C++ API),
// timed the same way. Prints "name ns_per_call" lines for bench_dispatch to read.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

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

int main(int argc, char** argv) {
    long iters = argc > 1 ? std::atol(argv[1]) : 200000;
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
    return 0;
}
