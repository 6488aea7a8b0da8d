"""The package's rooms (README.md, "What is here"): no module imports a module that imports it
back, directly or through others, type-only imports included; every module is short or says at
its top why it is not. Read from the source with ``ast``, so nothing is imported."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parent.parent / "viewalgebra"
LONG = 500
"""Lines past which a module says why in its docstring (a paragraph starting ``Long:``)."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports anywhere in its text (``if TYPE_CHECKING``
    and function bodies included): ``from .x import y`` counts ``x.y`` when that is a module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            for alias in node.names:
                if f"{target}.{alias.name}" in modules:
                    found.add(f"{target}.{alias.name}")
                elif target in modules:
                    found.add(target)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in modules)
    found.discard(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_imports_one_that_imports_it_back() -> None:
    modules = _modules()
    graph = {name: imports(name, path, modules) for name, path in modules.items()}
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle_through_three_modules() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_every_module_is_short_or_says_why() -> None:
    long = []
    for name, path in _modules().items():
        lines = path.read_text().count("\n")
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        if lines > LONG and "\nLong: " not in f"\n{doc}":
            long.append(f"{name}: {lines} lines")
    assert long == []


def test_each_room_has_a_docstring_that_names_its_concern() -> None:
    rooms = [p for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()]
    assert {p.name for p in rooms} >= {"_analyses", "_audit", "_cli", "_draw", "_engine", "_kernel", "_maps", "_mlir",
                                       "_regularize", "_rocmlir"}
    assert [p.name for p in rooms if not ast.get_docstring(ast.parse((p / "__init__.py").read_text()))] == []


ROOMS = ("_common", "_engine", "_maps", "_analyses", "_rocmlir", "_layouts", "_recipes", "_kernel", "_regularize", "_mlir", "_draw",
         "_audit", "_cli")
"""The rooms, lowest first (README.md): a room imports only from itself and the rooms before it,
and, of the public modules, only ``errors``."""


def test_each_room_imports_only_from_the_rooms_below_it() -> None:
    modules = _modules()
    wrong = []
    for name, path in modules.items():
        parts = name.split(".")
        if len(parts) < 2 or parts[1] not in ROOMS:
            continue
        rank = ROOMS.index(parts[1])
        for target in imports(name, path, modules):
            room = target.split(".")[1] if "." in target else ""
            if room in ROOMS and ROOMS.index(room) > rank or room not in ROOMS and room != "errors":
                wrong.append(f"{name} imports {target}")
    assert wrong == []
