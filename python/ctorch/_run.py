"""`ctorch python SCRIPT.py [ARGS]`: runs a script as __main__ with ctorch importable as `torch`."""
import os
import runpy
import sys


def main():
    if len(sys.argv) < 2:
        print("usage: ctorch python SCRIPT.py [ARGS]", file=sys.stderr)
        return 2
    from . import _alias
    _alias.install()
    script = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
