"""No import circle between the modules of `harness/` and `encodings/`, function-local imports counted.

The imports are read with `ast` (nothing is imported): every `import` and `from … import` of a
project module, at module level or inside a function, except under `if TYPE_CHECKING:`, which
never runs. A function-local import still runs both modules into each other, so hiding a circle
in a function does not break it; only moving code to where it belongs does.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"harness": "harness", "encodings": "loopbench_encodings"}  # folder: import name


def modules() -> dict[str, Path]:
    """Every module of the two packages by its import name (a package by its `__init__.py`)."""
    out = {}
    for folder, name in PACKAGES.items():
        for path in (ROOT / folder).rglob("*.py"):
            parts = [name, *path.relative_to(ROOT / folder).with_suffix("").parts]
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and ast.unparse(node.test).endswith("TYPE_CHECKING")


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project modules `name` imports: `from a import b` names a.b when that is a module, else a."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    pending: list[ast.AST] = [ast.parse(path.read_text(), str(path))]
    while pending:
        for node in ast.iter_child_nodes(pending.pop()):
            if _type_checking(node):
                continue
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names if a.name in known)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                for alias in node.names:
                    target = f"{base}.{alias.name}"
                    out.add(target if target in known else base)
            pending.append(node)
    return out & set(known)


def import_graph() -> nx.DiGraph:
    known = modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(known)
    for name, path in known.items():
        graph.add_edges_from((name, other) for other in imported(name, path, known) if other != name)
    return graph


def test_the_reader_sees_function_local_and_relative_imports():
    graph = import_graph()
    assert len(graph) > 150
    assert graph.has_edge("harness.kinds.registry", "harness.plugins")  # module level
    assert graph.has_edge("loopbench_encodings.rules", "harness.kinds")  # inside a function
    assert graph.has_edge("loopbench_encodings.loop.colour", "loopbench_encodings.loop.graph")  # relative
    assert not graph.has_edge("loopbench_encodings.loop.arrays", "loopbench_encodings.loop")  # TYPE_CHECKING


def test_no_import_circle():
    circles = [sorted(part) for part in nx.strongly_connected_components(import_graph()) if len(part) > 1]
    assert circles == [], "modules that import each other, directly or around a circle: " + "; ".join(
        " <-> ".join(part) for part in circles)
