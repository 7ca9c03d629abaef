"""torch.utils._pytree: flatten / unflatten / map over nested tuples, lists, dicts and namedtuples
(anything else, None included, is a leaf, as in PyTorch's pytree)."""
from collections import OrderedDict, namedtuple


class TreeSpec:
    __slots__ = ("type", "context", "children_specs")

    def __init__(self, type, context, children_specs):
        self.type = type
        self.context = context
        self.children_specs = children_specs

    @property
    def num_leaves(self):
        return 1 if self.type is None else sum(c.num_leaves for c in self.children_specs)

    def is_leaf(self):
        return self.type is None

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.type == other.type and self.context == other.context
                and self.children_specs == other.children_specs)

    def __repr__(self):
        if self.type is None:
            return "*"
        return f"TreeSpec({self.type.__name__}, {self.context!r}, {self.children_specs!r})"


LeafSpec = lambda: TreeSpec(None, None, [])  # noqa: E731


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _children(x):
    """(children, context, type) of a container node, or None for a leaf (None is a leaf)."""
    if _is_namedtuple(x):
        return list(x), type(x), namedtuple
    t = type(x)
    if t is tuple or t is list:
        return list(x), None, t
    if t is dict or t is OrderedDict:
        keys = list(x.keys())
        return [x[k] for k in keys], keys, t
    return None


# Module-level recursion, no closures: a recursive nested function is a reference cycle that would
# keep every leaf (tensors handed back to ctorch included) alive until the cycle collector runs.
def _flatten(x, is_leaf, leaves):
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return TreeSpec(None, None, [])
    c = _children(x)
    if c is None:
        leaves.append(x)
        return TreeSpec(None, None, [])
    kids, ctx, t = c
    return TreeSpec(t, ctx, [_flatten(k, is_leaf, leaves) for k in kids])


def tree_flatten(tree, is_leaf=None):
    leaves = []
    spec = _flatten(tree, is_leaf, leaves)
    return leaves, spec


def _build(s, it):
    if s.type is None:
        return next(it)
    kids = [_build(c, it) for c in s.children_specs]
    if s.type is namedtuple:
        return s.context(*kids)
    if s.type is tuple:
        return tuple(kids)
    if s.type is list:
        return kids
    return s.type(zip(s.context, kids))


def tree_unflatten(leaves, spec):
    return _build(spec, iter(leaves))


def tree_leaves(tree, is_leaf=None):
    return tree_flatten(tree, is_leaf)[0]


def _node_type(x):
    return namedtuple if _is_namedtuple(x) else type(x)


def _flatten_up_to(spec, tree, out):
    """TreeSpec.flatten_up_to: the subtrees of tree at spec's leaves, tree having spec's structure
    down to them (dicts of either kind match by keys), with PyTorch's ValueErrors."""
    if spec.type is None:
        out.append(tree)
        return
    node_type = _node_type(tree)
    dicts = (dict, OrderedDict)
    both_dicts = spec.type in dicts and node_type in dicts
    if node_type != spec.type and not both_dicts:
        raise ValueError(f"Node type mismatch; expected {spec.type!r}, but got {node_type!r}.")
    if len(tree) != len(spec.children_specs):
        raise ValueError(f"Node arity mismatch; expected {len(spec.children_specs)}, but got {len(tree)}.")
    if both_dicts:
        got, expected = set(tree), set(spec.context)
        if got != expected:
            message = ""
            if expected - got:
                message += f"; missing key(s): {expected - got}"
            if got - expected:
                message += f"; extra key(s): {got - expected}"
            raise ValueError(f"Node keys mismatch{message}.")
        kids = [tree[k] for k in spec.context]
    else:
        kids, context, _ = _children(tree)
        if context != spec.context:
            raise ValueError(f"Node context mismatch for node type {spec.type!r}; expected {spec.context!r}, but got "
                             f"{context!r}.")
    for kid, child in zip(kids, spec.children_specs):
        _flatten_up_to(child, kid, out)


def tree_map(fn, tree, *rests, is_leaf=None):
    """fn over the leaves of tree and the matching subtrees of each of rests (which have tree's
    structure, or tree's as a prefix)."""
    leaves, spec = tree_flatten(tree, is_leaf)
    others = []
    for r in rests:
        subtrees = []
        _flatten_up_to(spec, r, subtrees)
        others.append(subtrees)
    return tree_unflatten([fn(*xs) for xs in zip(leaves, *others)], spec)


def _map_only_pred(type_or_types_or_pred):
    import types
    if isinstance(type_or_types_or_pred, (type, tuple, types.UnionType)):
        return lambda x: isinstance(x, type_or_types_or_pred)
    if callable(type_or_types_or_pred):
        return type_or_types_or_pred
    raise TypeError("Argument must be a type, a tuple of types, or a callable.")


def tree_map_only(type_or_types_or_pred, fn, tree, is_leaf=None):
    """fn over the leaves that are of the type(s), or that the predicate accepts."""
    pred = _map_only_pred(type_or_types_or_pred)
    return tree_map(lambda x: fn(x) if pred(x) else x, tree, is_leaf=is_leaf)


def tree_all(pred, tree, is_leaf=None):
    return all(pred(x) for x in tree_leaves(tree, is_leaf))


def tree_any(pred, tree, is_leaf=None):
    return any(pred(x) for x in tree_leaves(tree, is_leaf))
