"""`ctorch python [-i] [-c CODE | -m MODULE | - | SCRIPT.py] [ARGS]`: runs code as python3 would, with
ctorch importable as `torch`.

The ctorch command (tools/ctorch/cmd_python.c) runs
`python3 -s [-i] -c "import ctorch._run; ctorch._run.main()" MODE [TARGET] ARGS...`, MODE being one
of `script`, `-c`, `-m`, `-` or `none` (no script: the interactive session when the interpreter was
given -i, else the script read from stdin). The code runs in the interpreter's own `__main__`
namespace (the -c line's), with sys.argv and sys.path[0] set as python3 sets them, so that after
it, -i's interactive session sees its names. A traceback shows the user's frames, not this
module's.
"""
import os
import sys

PROGRAM = "ctorch python"


def _fresh_main_namespace():
    """Empties __main__ (the -c line's namespace) down to what python3's __main__ holds."""
    g = sys.modules["__main__"].__dict__
    builtins = g["__builtins__"]
    g.clear()
    g.update(__name__="__main__", __doc__=None, __package__=None, __loader__=None, __spec__=None,
             __builtins__=builtins)
    return g


def _report(exc):
    """Prints exc as python3 prints an uncaught exception, from the first frame outside this file."""
    tb = exc.__traceback__
    here = os.path.normcase(os.path.abspath(__file__))
    while tb is not None and os.path.normcase(os.path.abspath(tb.tb_frame.f_code.co_filename)) == here:
        tb = tb.tb_next
    exc = exc.with_traceback(tb)
    sys.last_type, sys.last_value, sys.last_traceback = type(exc), exc, tb
    sys.excepthook(type(exc), exc, tb)


def _run_source(source, filename, g):
    exec(compile(source, filename, "exec"), g)


def main():
    """Runs what sys.argv[1:] names; returns when the interactive session is to follow, else
    exits with the status python3 would."""
    status = _main(sys.argv[1], sys.argv[2:])
    if status and not sys.flags.interactive:
        sys.exit(status)


def _main(mode, rest):
    from . import _alias
    _alias.install()
    interactive = bool(sys.flags.interactive)
    g = _fresh_main_namespace()
    try:
        if mode == "script":
            script, args = rest[0], rest[1:]
            sys.argv = [script] + args
            if os.path.isdir(script):  # a folder with __main__.py, as python3 runs it
                sys.path[0] = script
                import runpy
                runpy.run_path(script, run_name="__main__")
                return 0
            try:
                with open(script, "rb") as f:
                    source = f.read()
            except OSError as e:
                print(f"{PROGRAM}: can't open file {os.path.abspath(script)!r}: [Errno {e.errno}] {e.strerror}",
                      file=sys.stderr)
                return 0 if interactive else 2
            sys.path[0] = os.path.dirname(os.path.realpath(script))
            g["__file__"] = os.path.abspath(script)  # python3's since 3.9, in tracebacks too
            _run_source(source, g["__file__"], g)
        elif mode == "-c":
            sys.argv = ["-c"] + rest[1:]
            sys.path[0] = ""
            _run_source(rest[0], "<string>", g)
        elif mode == "-m":
            # what python3 -m does: the module's file becomes sys.argv[0], the current folder is
            # searched first
            import runpy
            sys.argv = ["-m"] + rest[1:]
            sys.path[0] = os.getcwd()
            runpy._run_module_as_main(rest[0], alter_argv=True)
        elif mode == "-":
            sys.argv = ["-"] + rest
            sys.path[0] = ""
            g["__file__"] = "<stdin>"
            _run_source(sys.stdin.read(), "<stdin>", g)
        else:  # no script: the interactive session, or the script that stdin holds
            sys.argv = [""] + rest
            sys.path[0] = ""
            if interactive:
                print(f"Python {sys.version} on {sys.platform}\n"
                      'Type "help", "copyright", "credits" or "license" for more information.', file=sys.stderr)
            else:
                g["__file__"] = "<stdin>"
                _run_source(sys.stdin.read(), "<stdin>", g)
    except SystemExit as e:
        if not interactive:
            raise
        _report(e)  # python3 -i shows it and goes on to the session
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        _report(e)
        return 0 if interactive else 1
    return 0
