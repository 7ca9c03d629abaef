"""What the misuse runner (tests/python/misuse.py, under ctorch) and its recorder
(tests/golden/record/python_misuse.py, under PyTorch 2.6) share: how a case runs in a forked
child, and how its outcome and the thread's state after it are written down.

A case is a snippet of code run with `torch` imported. Its outcome is either the exception it
raised (class name and the first line of str(exception)) or, when it returns, a deterministic
text of the variable `out` it sets (describe()). After the snippet, raised or not, the child
reads the state a misuse may leave behind (STATE): grad mode, inference mode, the lengths of
the dispatch-mode and function-mode stacks and the thread-local dispatch key sets.

Each case runs in a child forked from a parent that has imported torch and run nothing else;
the child reports over a pipe as JSON and leaves with os._exit(0). A child that dies by a
signal, exits non-zero, leaves without a report or outlives the timeout is a crash; its
stdout and stderr go to a file of its own, whose tail the caller can show."""
import faulthandler
import hashlib
import json
import os
import re
import select
import signal
import sys
import tempfile
import time

ADDR = re.compile(r"0x[0-9a-fA-F]+")

# (label, expression over torch): what is read after each case
STATE = [
    ("grad_enabled", "torch.is_grad_enabled()"),
    ("inference_mode", "torch.is_inference_mode_enabled()"),
    ("dispatch_stack", "torch._C._len_torch_dispatch_stack()"),
    ("function_stack", "torch._C._len_torch_function_stack()"),
    ("tls_include", "repr(torch._C._dispatch_tls_local_include_set())"),
    ("tls_exclude", "repr(torch._C._dispatch_tls_local_exclude_set())"),
]
# the torch._C functions STATE needs: a runner checks them before any case runs
STATE_FUNCTIONS = ["_len_torch_dispatch_stack", "_len_torch_function_stack", "_dispatch_tls_local_include_set",
                   "_dispatch_tls_local_exclude_set"]


def norm(text):
    return ADDR.sub("0xADDR", text)


def code_hash(code):
    """Names a case's code in a recording, so that a case changed after its recording is seen."""
    return hashlib.sha256(code.encode()).hexdigest()[:16]


def first_line(exc):
    try:
        text = str(exc)
    except Exception as e:  # noqa: BLE001 - a str() that fails is itself the outcome
        return f"<str() raised {type(e).__name__}>"
    return norm(text.split("\n", 1)[0])


def _float(x):
    # six significant digits: a wrong answer shows, a last-bit difference of a reduction does not
    return "%.6g" % x


def describe(value, torch, depth=0):
    """A deterministic text for a case's result: Python scalars, strings and containers by value,
    tensors by class, dtype, shape, requires_grad and values; anything else by its class name."""
    if depth > 8:
        return "<too deep>"
    d = lambda v: describe(v, torch, depth + 1)  # noqa: E731
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, float):
        return _float(value)
    if isinstance(value, complex):
        return f"complex({_float(value.real)}, {_float(value.imag)})"
    if isinstance(value, str):
        return repr(norm(value))
    if isinstance(value, bytes):
        return repr(value)
    if isinstance(value, torch.Tensor):
        try:
            values = d(value.tolist())
        except Exception as e:  # noqa: BLE001 - a tensor whose values cannot be read is described as such
            values = f"<tolist raised {type(e).__name__}>"
        return (f"{type(value).__name__}(dtype={value.dtype}, shape={list(value.shape)}, "
                f"requires_grad={value.requires_grad}, values={values})")
    if isinstance(value, torch.Size):
        return f"Size({list(value)})"
    if isinstance(value, torch.dtype):
        return str(value)
    if isinstance(value, torch.device):
        return f"device({str(value)!r})"
    if isinstance(value, list):
        return "[" + ", ".join(d(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(d(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{d(k)}: {d(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(d(v) for v in value)) + "}"
    if isinstance(value, type):
        return f"<class {value.__name__}>"
    if isinstance(value, BaseException):
        return f"<exception {type(value).__name__}: {first_line(value)}>"
    return f"<object {type(value).__name__}>"


def read_state(torch):
    state = {}
    for label, expr in STATE:
        try:
            value = eval(expr, {"torch": torch})  # noqa: S307 - the harness's own expressions
            state[label] = value if isinstance(value, (bool, int, str)) else repr(value)
        except Exception as e:  # noqa: BLE001 - a state that cannot be read differs from any recorded one
            state[label] = f"<raised {type(e).__name__}: {first_line(e)}>"
    return state


_NO_OUT = object()


def _asan_loaded():
    """AddressSanitizer's runtime is in this process: its own report of a fatal signal names the C
    frames where it happened, which faulthandler's handler (first to run, then re-raising) would hide."""
    try:
        with open("/proc/self/maps") as f:
            return "libasan" in f.read()
    except OSError:
        return False


_ASAN = _asan_loaded()


def execute(case_id, code, torch):
    """Runs one case here (in the child) and returns its report."""
    ns = {"torch": torch, "__name__": "__misuse_case__"}
    exc = None
    try:
        exec(compile(code, f"<case {case_id}>", "exec"), ns)  # noqa: S102 - running the case is the point
    except BaseException as e:  # noqa: BLE001 - whatever the case raises is its outcome
        exc = e
    state = read_state(torch)
    if exc is not None:
        return {"type": type(exc).__name__, "first_line": first_line(exc), "result": None, "state": state}
    out = ns.get("out", _NO_OUT)
    try:
        result = "<no out>" if out is _NO_OUT else describe(out, torch)
    except BaseException as e:  # noqa: BLE001 - a result that cannot be described is shown as such
        result = f"<describe raised {type(e).__name__}: {first_line(e)}>"
    return {"type": None, "first_line": None, "result": result, "state": state}


def run_in_child(case_id, code, torch, timeout):
    """Forks, runs the case in the child and returns (report or None, crash text or None, output
    tail). The parent runs nothing of the case."""
    r, w = os.pipe()
    out_file = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        code_ = 3
        try:
            os.close(r)
            os.dup2(out_file.fileno(), 1)
            os.dup2(out_file.fileno(), 2)
            if not _ASAN:  # a fatal signal prints the Python stack into the case's output
                faulthandler.enable()
            data = json.dumps(execute(case_id, code, torch)).encode()
            while data:
                data = data[os.write(w, data):]
            os.close(w)
            code_ = 0
        except BaseException:  # noqa: BLE001 - the harness itself failed: say so, leave non-zero
            import traceback
            traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code_)
    os.close(w)
    chunks, hung = [], False
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            hung = True
            break
        ready, _, _ = select.select([r], [], [], left)
        if not ready:
            continue
        chunk = os.read(r, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(r)
    if hung:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        status_text = f"hung: killed after {timeout:g} s"
    else:
        status_text = None
        end = time.monotonic() + timeout
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > end:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                status_text = f"hung after its report: killed after {timeout:g} s"
                break
            time.sleep(0.001)
        if status_text is None:
            if os.WIFSIGNALED(status):
                sig = os.WTERMSIG(status)
                try:
                    name = signal.Signals(sig).name
                except ValueError:
                    name = str(sig)
                status_text = f"killed by signal {sig} ({name})"
            elif os.WEXITSTATUS(status) != 0:
                status_text = f"exited with status {os.WEXITSTATUS(status)}"
    out_file.seek(0)
    output = out_file.read().decode(errors="replace")
    out_file.close()
    report = None
    if status_text is None:
        try:
            report = json.loads(b"".join(chunks).decode())
        except ValueError:
            status_text = "exited 0 without a report"
    return report, status_text, output
