"""Importing the package is cheap: sympy, the MLIR front end, drawing, the interpreter and the port
of rocMLIR's rules are imported on first use of one of their names. Each check runs a fresh
interpreter, since this test session has long since imported everything."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
LAZY = ("sympy", "viewalgebra.maps.sympy_formulas", "viewalgebra.mlir", "viewalgebra.draw",
        "viewalgebra.interpret", "viewalgebra.rocmlir")
"""Modules that ``import viewalgebra`` and ``viewalgebra --help`` must leave unimported."""


def python(*args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    return result


def test_import_leaves_the_lazy_modules_out():
    code = f"import sys, viewalgebra; print(sorted(m for m in {LAZY!r} if m in sys.modules))"
    assert python("-c", code).stdout == "[]\n"


def test_every_public_name_is_its_submodules_object():
    code = """if True:
        import importlib, json, sys, types
        import viewalgebra as va
        values = {name: getattr(va, name) for name in va.__all__}  # first access, in __all__ order
        wrong = [name for name, value in values.items()
                 if (sys.modules.get(f"viewalgebra.{name}") is not value  # a namespace: va.isl
                     if isinstance(value, types.ModuleType)
                     else getattr(sys.modules[value.__module__], name) is not value)
                 or name in va._LAZY and getattr(importlib.import_module(va._LAZY[name], "viewalgebra"),
                                                 name) is not value]
        print(json.dumps({"wrong": wrong, "again": [n for n in va.__all__ if getattr(va, n) is not values[n]],
                          "lazy_not_public": sorted(set(va._LAZY) - set(va.__all__)),
                          "dir": dir(va) == va.__all__}))
    """
    assert json.loads(python("-c", code).stdout) == {"wrong": [], "again": [], "lazy_not_public": [],
                                                     "dir": True}


def test_star_import_and_unknown_names():
    code = """if True:
        from viewalgebra import *
        import viewalgebra as va
        assert all(name in globals() for name in va.__all__)
        try:
            va.no_such_name
        except AttributeError as e:
            print(e)
    """
    assert python("-c", code).stdout == "module 'viewalgebra' has no attribute 'no_such_name'\n"


def test_help_works_and_imports_neither_sympy_nor_the_front_ends():
    assert python("-m", "viewalgebra", "--help").stdout.startswith("usage: viewalgebra")
    # The same run through runpy (what -m does), reporting the lazy modules that got imported.
    code = f"""if True:
        import atexit, runpy, sys
        atexit.register(lambda: print(sorted(m for m in {LAZY!r} if m in sys.modules)))
        sys.argv = ["viewalgebra", "--help"]
        runpy.run_module("viewalgebra", run_name="__main__", alter_sys=True)
    """
    out = python("-c", code).stdout
    assert out.startswith("usage: viewalgebra") and out.endswith("\n[]\n")
