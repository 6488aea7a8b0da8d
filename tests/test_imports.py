"""Importing the package is cheap: sympy, the MLIR front end, drawing, the interpreter and the port
of rocMLIR's rules are imported on first use of one of their names. Each check runs a fresh
interpreter, since this test session has long since imported everything."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
LAZY = ("sympy", "viewalgebra._maps.sympy_formulas", "viewalgebra._mlir", "viewalgebra._draw",
        "viewalgebra._kernel.interpret", "viewalgebra._rocmlir", "viewalgebra.text", "viewalgebra.mlir",
        "viewalgebra.draw", "viewalgebra.kernel", "viewalgebra.rocmlir", "viewalgebra._recipes",
        "viewalgebra.gridwise")
"""Modules that ``import viewalgebra`` and ``viewalgebra --help`` must leave unimported."""


def python(*args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    return result


def test_import_leaves_the_lazy_modules_out():
    code = f"import sys, viewalgebra; print(sorted(m for m in {LAZY!r} if m in sys.modules))"
    assert python("-c", code).stdout == "[]\n"


def test_every_public_name_is_its_modules_object():
    code = """if True:
        import importlib, json, sys, types
        import viewalgebra as va
        values = {name: getattr(va, name) for name in va.__all__}  # first access, in __all__ order
        wrong = [name for name, value in values.items()
                 if (sys.modules.get(f"viewalgebra.{name}") is not value  # a namespace: va.isl
                     if isinstance(value, types.ModuleType)
                     else getattr(sys.modules[value.__module__], name) is not value)
                 or name in va._LAZY and va._LAZY[name] != f".{name}"
                 and getattr(importlib.import_module(va._LAZY[name], "viewalgebra"), name) is not value]
        print(json.dumps({"wrong": wrong, "again": [n for n in va.__all__ if getattr(va, n) is not values[n]],
                          "lazy_not_public": sorted(set(va._LAZY) - set(va.__all__)),
                          "dir": dir(va) == va.__all__}))
    """
    assert json.loads(python("-c", code).stdout) == {"wrong": [], "again": [], "lazy_not_public": [],
                                                     "dir": True}


def test_the_front_door_is_small_and_every_name_has_one_tier():
    import types

    import viewalgebra as va

    assert len(va.__all__) <= 36  # values, verbs, namespaces (va.layouts the latest) and the analyses beside rocMLIR's utilities
    tiers = {"va": va.__all__} | {f"va.{name}": getattr(va, name).__all__ for name in va.__all__
                                  if isinstance(getattr(va, name), types.ModuleType)}
    homes: dict[str, list[str]] = {}
    for tier, names in tiers.items():
        assert names == sorted(names), tier
        for name in names:
            homes.setdefault(name, []).append(tier)
            module = va if tier == "va" else getattr(va, tier.removeprefix("va."))
            assert getattr(module, name) is not None
    # Each name has one home; the error root is also listed with the errors it is the root of, and
    # va.layouts.evaluate (a layout's own function) is another function than va.evaluate (a map's).
    assert {name: where for name, where in homes.items() if len(where) > 1} == {
        "ViewAlgebraError": ["va", "va.errors"], "evaluate": ["va", "va.layouts"]}
    assert va.layouts.evaluate is not va.evaluate


def test_the_old_names_of_the_package_root_still_work_with_a_warning():
    import warnings

    import viewalgebra as va

    assert set(va._MOVED).isdisjoint(va.__all__) and set(va._RENAMED).isdisjoint(va.__all__)
    for name, tier in va._MOVED.items():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = getattr(va, name)
        assert value is getattr(getattr(va, tier), name), name
        assert [str(w.message) for w in caught] == [f"va.{name} is deprecated: use va.{tier}.{name}"]
        assert caught[0].category is DeprecationWarning and caught[0].filename == __file__
    for name, advice in va._RENAMED.items():
        with pytest.warns(DeprecationWarning, match=re.escape(f"va.{name} is deprecated: use {advice}")):
            assert callable(getattr(va, name))


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
