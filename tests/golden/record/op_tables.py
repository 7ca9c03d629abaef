"""For every aten operator PyTorch 2.6 registers (and the profiler's two): its schema, the keys it
has registrations for, and the computed dispatch-table entry (kernel kind) for each runtime key
ctorch implements. tests/test_op_tables.c compares ctorch's ops with their entries; recording every
operator, not only ctorch's, means an operator added to src/ops/ops.def finds its entry here
already. Output: op_tables.json."""
import json, re, torch
C = torch._C
OPS = """aten::empty.memory_format aten::empty_strided aten::empty_like aten::zeros aten::ones aten::ones_like
aten::full aten::fill_.Scalar aten::zero_ aten::copy_ aten::t aten::transpose.int aten::permute aten::view
aten::expand aten::as_strided aten::detach aten::alias aten::add.Tensor aten::add_.Tensor aten::add.Scalar aten::sum
aten::sum.dim_IntList aten::mm aten::addmm aten::linear aten::matmul aten::numpy_T aten::relu aten::threshold_backward
aten::log_softmax.int aten::_log_softmax aten::_log_softmax_backward_data aten::cross_entropy_loss aten::nll_loss
aten::nll_loss_nd aten::nll_loss_forward aten::nll_loss_backward aten::_unsafe_view aten::mul.Tensor aten::mul_.Tensor
aten::mul.Scalar aten::sub.Tensor aten::div.Tensor aten::div.Scalar aten::clone aten::lift_fresh aten::_to_copy aten::to.dtype
aten::to.dtype_layout aten::resolve_conj aten::resolve_neg aten::clamp_min aten::randn aten::randn.generator aten::rand
aten::rand.generator aten::randint.low aten::randint.low_generator aten::normal_ aten::uniform_ aten::random_.from
aten::neg aten::exp aten::log aten::mean aten::mean.dim aten::reshape aten::contiguous aten::unsqueeze aten::squeeze.dim
aten::flatten.using_ints aten::sum.dim_IntList aten::lerp_.Scalar aten::sub_.Tensor aten::div_.Tensor aten::neg_ aten::mul_.Scalar
aten::add_.Scalar aten::scalar_tensor aten::select.int aten::slice.Tensor aten::squeeze aten::_reshape_alias aten::bmm
aten::gather aten::masked_fill_.Scalar aten::where.self aten::ne.Scalar aten::eq.Scalar aten::index_select aten::max.dim
aten::argmax aten::exp_ aten::sort aten::item aten::_local_scalar_dense aten::is_same_size aten::ones_like aten::full_like
aten::zeros_like aten::rsub.Scalar aten::sqrt aten::pow.Tensor_Scalar aten::abs aten::sign aten::maximum aten::empty.names
aten::new_empty_strided aten::squeeze_.dim aten::select_backward aten::dot aten::mv aten::new_empty aten::new_zeros
aten::lerp.Scalar aten::add_.Scalar aten::sub.Scalar aten::sub_.Scalar aten::div_.Scalar aten::clamp aten::where.ScalarSelf aten::ge.Scalar
aten::_foreach_add_.List aten::masked_fill.Scalar aten::sum.IntList_out aten::zeros.names aten::exp_ aten::expand_as aten::view_as aten::reshape_as
aten::bitwise_not aten::masked_select aten::detach_
aten::arange aten::arange.start aten::arange.start_step aten::embedding aten::embedding_backward
aten::embedding_dense_backward aten::layer_norm aten::native_layer_norm aten::native_layer_norm_backward aten::gelu
aten::gelu_backward aten::softmax.int aten::_softmax aten::_softmax_backward_data aten::_safe_softmax aten::split.Tensor
aten::split_with_sizes aten::narrow aten::cat aten::stack aten::tril aten::bernoulli_.float aten::exponential_
aten::multinomial aten::div_.Scalar aten::reciprocal aten::addcmul_ aten::addcdiv_ aten::linalg_vector_norm
aten::_foreach_norm.Scalar aten::_foreach_mul_.Tensor aten::scaled_dot_product_attention
aten::_scaled_dot_product_attention_math aten::_scaled_dot_product_flash_attention_for_cpu
aten::_scaled_dot_product_flash_attention_for_cpu_backward aten::dropout aten::native_dropout aten::where.Scalar
aten::eq.Tensor aten::all.dim aten::logical_not aten::max aten::min aten::maximum.out aten::unbind.int aten::exp
aten::tanh aten::erf aten::rsqrt aten::lerp_.Tensor aten::clamp_max aten::_foreach_mul_.Scalar aten::where.ScalarOther
aten::where.ScalarSelf aten::ones.names aten::full.names aten::addcmul aten::addcdiv aten::lerp.Tensor
aten::slice_backward aten::lerp.Scalar
profiler::_record_function_enter_new profiler::_record_function_exit._RecordFunction""".split()
# every other aten operator, in name order after the list above
OPS += sorted(n for n in C._dispatch_get_all_op_names() if n.startswith("aten::"))
KEYS = ["Undefined", "CPU", "BackendSelect", "Python", "ADInplaceOrView", "AutogradOther", "AutogradCPU",
        "AutocastCPU", "PythonTLSSnapshot", "PythonDispatcher"]
REGKEYS = ["CPU", "BackendSelect", "ADInplaceOrView", "Autograd", "AutogradCPU", "CompositeImplicitAutograd",
           "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional", "AutocastCPU"]
out = {}
seen = set()
for op in OPS:
    if op in seen: continue
    seen.add(op)
    try:
        dump = C._dispatch_dump(op); table = C._dispatch_dump_table(op)
    except Exception as e:
        out[op] = {"error": str(e)}; continue
    schema = re.search(r"^schema: (.*)$", dump, re.M).group(1)
    regs = {}
    for line in dump.splitlines():
        m = re.match(r"^(\w+)(\[alias\])?: (fallthrough )?registered", line)
        if m and m.group(1) in REGKEYS:
            regs[m.group(1)] = "fallthrough" if m.group(3) else "kernel"
    ent = {}
    for line in table.splitlines():
        m = re.match(r"^(\w+): (fallthrough )?registered at .* \[(.*)\]$", line)
        if m and m.group(1) in KEYS:
            ent[m.group(1)] = ("fallthrough " if m.group(2) else "") + m.group(3)
        m = re.match(r"^(\w+): ambiguous_autogradother \[ambiguous autogradother\]$", line)
        if m and m.group(1) in KEYS:
            ent[m.group(1)] = "ambiguous autogradother"
    out[op] = {"schema": schema, "registrations": regs, "table": ent}
import sys
json.dump(out, open(sys.argv[1] if len(sys.argv) > 1 else "op_tables.json", "w"), indent=1, sort_keys=True)
print(len(out))
