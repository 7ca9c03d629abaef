"""Functions of the torch namespace backed by operators (each picks an overload the way PyTorch's
argument parser does; function modes see them), plus torch.tensor and torch.allclose."""
from . import _C

_fn = _C._function
__all__ = []


def _def(name, overloads, factory=False):
    globals()[name] = _fn(name, overloads, factory=factory)
    __all__.append(name)


allclose = _C.allclose


def tensor(data, **kwargs):
    """torch.tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False): a new
    leaf holding a copy of data (nested lists of numbers); function modes see the call as written."""
    if _C._has_torch_function((data,)):
        r = _C._handle_torch_function(tensor, "torch.tensor", (data,), kwargs)
        if r is not _C._NOT_HANDLED:
            return r
    return _C.tensor(data, **kwargs)

# factories (requires_grad= accepted, set on the result)
for _name, _ovs in {
    "empty": ["aten::empty.memory_format"],
    "empty_strided": ["aten::empty_strided"],
    "zeros": ["aten::zeros"],
    "ones": ["aten::ones"],
    "full": ["aten::full"],
    "randn": ["aten::randn", "aten::randn.generator"],
    "rand": ["aten::rand", "aten::rand.generator"],
    "randint": ["aten::randint.low", "aten::randint.low_generator", "aten::randint", "aten::randint.generator"],
    "zeros_like": ["aten::zeros_like"],
    "ones_like": ["aten::ones_like"],
    "empty_like": ["aten::empty_like"],
    "full_like": ["aten::full_like"],
    "scalar_tensor": ["aten::scalar_tensor"],
    "arange": ["aten::arange", "aten::arange.start", "aten::arange.start_step"],
    "eye": ["aten::eye"],
    "linspace": ["aten::linspace"],
    "randn_like": ["aten::randn_like"],
    "rand_like": ["aten::rand_like"],
}.items():
    _def(_name, _ovs, factory=True)

for _name, _ovs in {
    "add": ["aten::add.Tensor"],
    "sub": ["aten::sub.Tensor"],
    "mul": ["aten::mul.Tensor"],
    "div": ["aten::div.Tensor", "aten::div.Tensor_mode"],
    "neg": ["aten::neg"],
    "relu": ["aten::relu"],
    "relu_": ["aten::relu_"],
    "clamp_min": ["aten::clamp_min", "aten::clamp_min.Tensor"],
    "eq": ["aten::eq.Scalar", "aten::eq.Tensor"],
    "bitwise_not": ["aten::bitwise_not"],
    "masked_fill": ["aten::masked_fill.Scalar", "aten::masked_fill.Tensor"],
    "masked_select": ["aten::masked_select"],
    "gather": ["aten::gather"],
    "sum": ["aten::sum", "aten::sum.dim_IntList"],
    "mm": ["aten::mm"],
    "addmm": ["aten::addmm"],
    "matmul": ["aten::matmul"],
    "t": ["aten::t"],
    "transpose": ["aten::transpose.int"],
    "permute": ["aten::permute"],
    "reshape": ["aten::reshape"],
    "flatten": ["aten::flatten.using_ints"],
    "unsqueeze": ["aten::unsqueeze"],
    "squeeze": ["aten::squeeze.dim", "aten::squeeze", "aten::squeeze.dims"],
    "select": ["aten::select.int"],
    "detach": ["aten::detach"],
    "clone": ["aten::clone"],
    "log_softmax": ["aten::log_softmax.int"],
    "as_strided": ["aten::as_strided"],
    "threshold_backward": ["aten::threshold_backward"],
    # common ones ctorch lacks, so that the error names the operator
    "mean": ["aten::mean", "aten::mean.dim"],
    "exp": ["aten::exp"],
    "log": ["aten::log"],
    "sqrt": ["aten::sqrt"],
    "abs": ["aten::abs"],
    "pow": ["aten::pow.Tensor_Scalar", "aten::pow.Tensor_Tensor"],
    "max": ["aten::max", "aten::max.dim"],
    "min": ["aten::min", "aten::min.dim"],
    "argmax": ["aten::argmax"],
    "softmax": ["aten::softmax.int"],
    "sigmoid": ["aten::sigmoid"],
    "tanh": ["aten::tanh"],
    "bmm": ["aten::bmm"],
    "where": ["aten::where.self"],
    "cat": ["aten::cat"],
    "stack": ["aten::stack"],
    "isclose": ["aten::isclose"],
    "tril": ["aten::tril"],
    "multinomial": ["aten::multinomial"],
    "embedding": ["aten::embedding"],
    "layer_norm": ["aten::layer_norm"],
    "dropout": ["aten::dropout"],
    "narrow": ["aten::narrow"],
    "equal": ["aten::equal"],
}.items():
    _def(_name, _ovs)

del _name, _ovs
