"""torch.utils.weak: weak references that compare by identity, and a dictionary keyed by them,
so tensors (whose == is elementwise and whose hash is their identity) can be keys that do not
keep them alive."""
import collections.abc
import weakref

ref = weakref.ref
WeakRef = weakref.ref


class WeakIdRef(weakref.ref):
    """A weak reference equal to another exactly when both reach the same live object (or are
    the same reference), hashed by the object's id taken when it was made."""

    __slots__ = ["_id"]

    def __init__(self, key, callback=None):
        self._id = id(key)
        super().__init__(key, callback)

    def __call__(self):
        r = super().__call__()
        if hasattr(r, "_fix_weakref"):
            r._fix_weakref()
        return r

    def __hash__(self):
        return self._id

    def __eq__(self, other):
        a, b = self(), other()
        if a is not None and b is not None:
            return a is b
        return self is other


class _WeakHashRef(weakref.ref):
    """A weak reference that compares and hashes by the object's own __eq__ and __hash__."""

    __slots__ = ["_id"]

    def __init__(self, key, callback=None):
        self._id = hash(key)
        super().__init__(key, callback)

    def __hash__(self):
        return self._id

    def __eq__(self, other):
        a, b = self(), other()
        if a is not None and b is not None:
            return hash(a) == hash(b) and a == b
        return self is other


class WeakIdKeyDictionary(collections.abc.MutableMapping):
    """A dictionary whose keys are held by WeakIdRef: a key is found by identity, and its entry
    goes when the key dies."""

    def __init__(self, dict=None, ref_type=WeakIdRef):
        self.data = {}
        self.ref_type = ref_type
        selfref = weakref.ref(self)

        def remove(k):
            d = selfref()
            if d is not None:
                d.data.pop(k, None)
        self._remove = remove
        if dict is not None:
            self.update(dict)

    def __getitem__(self, key):
        return self.data[self.ref_type(key)]

    def __setitem__(self, key, value):
        self.data[self.ref_type(key, self._remove)] = value

    def __delitem__(self, key):
        del self.data[self.ref_type(key)]

    def __contains__(self, key):
        try:
            wr = self.ref_type(key)
        except TypeError:
            return False
        return wr in self.data

    def __len__(self):
        return sum(1 for k in list(self.data) if k() is not None)

    def __iter__(self):
        for wr in list(self.data):
            obj = wr()
            if obj is not None:
                yield obj

    def keyrefs(self):
        return list(self.data)

    def copy(self):
        new = WeakIdKeyDictionary(ref_type=self.ref_type)
        for k, v in self.items():
            new[k] = v
        return new

    __copy__ = copy

    def __repr__(self):
        return f"<{type(self).__name__} at {id(self):#x}>"


WeakTensorKeyDictionary = WeakIdKeyDictionary


class TensorWeakRef:
    """A weak reference to a tensor, called to get it back (None once it is gone)."""

    __slots__ = ["ref"]

    def __init__(self, tensor):
        from .._C import TensorBase
        assert isinstance(tensor, TensorBase)
        self.ref = weakref.ref(tensor)

    def __call__(self):
        return self.ref()
