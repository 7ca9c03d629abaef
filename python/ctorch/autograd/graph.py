"""torch.autograd.graph: the Node type every grad_fn is an instance of."""
from .. import _C

Node = _C.Node
