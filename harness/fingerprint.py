"""Code fingerprints: a short hash of the code an encoding runs, so changed code means new runs.

An encoding's fingerprint hashes, by content, every project module it uses and the versions of
the solver packages it imports. "Uses" is the encoding's module and, transitively, every project
module it imports (at the top or inside a function, found by reading the source, not by running
it), with the `__init__` of every package on the way (Python runs those on import). A module that
loads its own package's modules by name (`pkgutil.iter_modules(...__path__)`: the kind registry)
takes every module of its package along, since which one is loaded is only known at run time; for
the package named by puzzle kind (`harness.kinds`) only the kinds the encoding serves. The kinds it
serves (their checker and readers judge every run, their rules build its model) are in every
fingerprint: each kind's package and the modules of it that `Kind` finds by name (`model`,
`formats`, `check`, `draw`: `harness.kinds.contract.modules_of`), and for an encoding that looks
rules up (`loopbench_encodings.rules`) each served kind's rules module (`Kind.rules()`); `sat`
changing leaves `lazy`'s fingerprint as it was, and so does a new puzzle kind.

A second fingerprint, `harness_fingerprint` (its own column), covers the code that runs, times
and judges every run whatever the encoding: the modules `HARNESS_ROOTS` names and every project
module they import (the same reading of the sources), which today are the supervisor and its
overlay of limits (`harness.run.supervise`), the worker and its measures (`harness.run.worker`:
CPU, peak RSS, the per-run budgets), the run itself (`harness.run.execute`: the solve clocks,
the judging of an answer), the uniqueness check (`harness.unique`), the budget and clocks an
encoding reads (`harness.encoding`), the puzzle reading and the kind registry (`harness.instances`,
`harness.kinds` and the modules it is made of), the registry, provenance and errors modules; not
the kinds' own folders (checkers, readers: in each encoding's fingerprint, for the kinds it
serves) nor the helpers only they import, no encoding, no
analysis. `describe_harness()` lists them. Both fingerprints are in the run key, so changing how a
run is timed or judged means new runs, never rows of two runners under one key.

The coordinator finds each encoding's modules once per sweep (parsing ~20 files, a fraction of a
second) and sends the list with every run; a worker hashes those files once per encoding (a few
milliseconds, no parsing), and a run whose worker's fingerprint differs from the coordinator's is
not stored: the code changed under the sweep.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import json
import platform
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path

PROJECT = ("harness", "loopbench_encodings")  # the import names of the project's packages
PLUGIN_CALLS = ("import_module", "iter_modules")  # a module calling these loads modules by name
LENGTH = 16  # hex digits kept: 64 bits tell a few thousand versions apart without a collision
# Every encoding's runs are judged by the checker and read by the readers of its puzzle kinds.
JUDGE = "harness.kinds"
# Plug-in packages whose modules are named after puzzle kinds: an encoding's fingerprint takes in
# only the kinds it serves, so adding or changing another kind leaves its runs as they are.
KIND_PACKAGES = ("harness.kinds",)
# The lookup of each kind's rules (`Kind.rules()`, loaded by name): an encoding that imports it takes
# in the rules modules of the kinds it serves.
RULES = "loopbench_encodings.rules"
# Import names whose distribution is named otherwise (the rest are looked up, slower).
DISTRIBUTIONS = {"pysat": "python-sat", "ortools": "ortools", "networkx": "networkx", "clingo": "clingo"}


# The harness code every run goes through (the harness fingerprint covers these and what they import).
HARNESS_ROOTS = ("harness.run.supervise", "harness.run.worker", "harness.run.execute", "harness.unique",
                 "harness.encoding")


@dataclass(frozen=True)
class Scope:
    """What a fingerprint covers: project modules by name, and the solver packages the encoding imports."""

    modules: tuple[str, ...]
    imports: tuple[str, ...]

    def as_dict(self) -> dict[str, list[str]]:
        return {"modules": list(self.modules), "imports": list(self.imports)}


def scope(encoding: str) -> Scope:
    """The modules the named encoding uses, found by reading the sources now (a few ms per file)."""
    from harness import kinds, registry
    from harness.kinds.contract import modules_of

    cls = registry.encodings()[encoding]
    served = None if cls.puzzles is None else tuple(cls.puzzles)
    found = modules(cls.__module__, served) | modules(JUDGE, served)
    uses_rules = RULES in found  # it looks the kinds' rules up (`rules.of`): they build its model
    for kind in kinds.kinds().values():  # a plug-in kind's package too: its checker judges the runs
        if served is None or kind.name in served:
            rules = kind.rules() if uses_rules else None
            for module in (type(kind).__module__, *modules_of(kind), *([rules.__name__] if rules else [])):
                found |= modules(module, served)
    return Scope(tuple(sorted(found)), tuple(sorted(cls.imports)))


ENCODINGS_PREFIX = PROJECT[1]
KINDS_PREFIX = "harness.kinds."  # the kinds' own modules: in the fingerprints of the encodings serving them


def harness_scope() -> Scope:
    """The runner, measurement, checking and uniqueness code every run uses (not the kinds' own modules)."""
    found: dict[str, Path] = {}
    for root in HARNESS_ROOTS:
        found |= modules(root, ())  # no kind: each encoding's fingerprint holds the kinds it serves
    # The proof check makes a puzzle's clauses again (harness.proof.base) and reads what its kind states
    # (harness.kinds.demands): encoding and kind code, which only rows with a proof depend on, and the
    # logging encoding's own fingerprint covers both (its modules and the kinds it serves). The
    # registry and readers `harness.kinds` is made of stay: every run's puzzle is read through them.
    shared = modules(JUDGE, ())
    return Scope(tuple(sorted(m for m in found if not m.startswith(ENCODINGS_PREFIX)
                              and (not m.startswith(KINDS_PREFIX) or m in shared))), ())


def describe_harness() -> dict[str, object]:
    """What the harness fingerprint covers: each module's file and content hash, and Python's version."""
    code = harness_scope()
    return {
        "harness_fingerprint": digest(code),
        "modules": {name: f"{_source(name)} {_digest(_source(name))[:12]}" for name in code.modules},
        "packages": packages(code.imports),
    }


def compute(encoding: str) -> str:
    """The fingerprint of the named encoding's code as it is on disk now (not cached)."""
    return digest(scope(encoding))


def digest(code: Scope) -> str:
    """Hash the scope's files by content, with the package versions: cheap, no parsing."""
    files = {}
    for name in code.modules:
        path = _source(name)
        files[name] = _digest(path) if path is not None else None  # a module gone is a change too
    blob = json.dumps({"modules": files, "packages": packages(code.imports)}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:LENGTH]


@cache
def loaded(modules: tuple[str, ...], imports: tuple[str, ...]) -> str:
    """The fingerprint of a scope as this process first saw it: what a worker reports for its code."""
    return digest(Scope(modules, imports))


def describe(encoding: str) -> dict[str, object]:
    """What the fingerprint covers: each module's file and content hash, and the package versions."""
    code = scope(encoding)
    return {
        "fingerprint": digest(code),
        "modules": {name: f"{_source(name)} {_digest(_source(name))[:12]}" for name in code.modules},
        "packages": packages(code.imports),
    }


def modules(root: str, kinds: tuple[str, ...] | None = None) -> dict[str, Path]:
    """The project modules `root` uses (itself included), by name, with their source files.

    `kinds`: the puzzle kinds to take from a kind-named plug-in package (None: all of them).
    """
    found: dict[str, Path] = {}
    todo = [root]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        path = _source(name)
        if path is None:
            continue
        found[name] = path
        todo += _parents(name)
        imported, plugins = _imports(name, path)
        todo += imported
        if plugins is not None:
            todo += [m for m in _submodules(plugins)
                     if kinds is None or plugins not in KIND_PACKAGES or m.rpartition(".")[2] in kinds]
    return found


def packages(imports: tuple[str, ...] | list[str]) -> dict[str, str | None]:
    """Python's version and the version of each distribution that provides one of `imports`."""
    versions: dict[str, str | None] = {"python": platform.python_version()}
    for module in imports:
        top = module.split(".")[0]
        for dist in [DISTRIBUTIONS[top]] if top in DISTRIBUTIONS else _distributions().get(top, [top]):
            try:
                versions[dist] = metadata.version(dist)
            except metadata.PackageNotFoundError:
                versions[dist] = None
    return dict(sorted(versions.items()))


@cache
def _distributions() -> dict[str, list[str]]:
    return metadata.packages_distributions()  # reads every installed distribution: ~0.5 s, once


def _in_project(name: str) -> bool:
    """The project's packages, and the plug-ins' (their code is hashed as the project's is)."""
    from harness import plugins

    return name.split(".")[0] in PROJECT + plugins.packages()


@cache
def _source(name: str) -> Path | None:
    """The source file of a project module (a package's `__init__.py`); None if not a project module."""
    if not _in_project(name):
        return None
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _is_package(name: str) -> bool:
    path = _source(name)
    return path is not None and path.name == "__init__.py"


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _imports(name: str, path: Path) -> tuple[list[str], str | None]:
    """The project modules `name` imports anywhere in its source (all its package's, for a plug-in loader)."""
    data = path.read_bytes()
    return _scan(name, str(path), hashlib.sha256(data).hexdigest(), data)


@cache  # keyed by the content's hash, so each version of a file is parsed once per process
def _scan(name: str, path: str, digest: str, data: bytes) -> tuple[list[str], str | None]:
    """The project modules imported, and the package whose modules it loads by name (or None)."""
    tree = ast.parse(data, path)
    package = name if _is_package(name) else name.rpartition(".")[0]
    out: list[str] = []
    plugins = False
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            out.append(base)
            out += [f"{base}.{alias.name}" for alias in node.names]  # `from pkg import module`
        elif isinstance(node, ast.Call) and not plugins:
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            # A loader of its own package's modules names them from `__name__`, `__package__` or `__path__`.
            plugins = called in PLUGIN_CALLS and any(
                isinstance(n, ast.Name) and n.id in ("__name__", "__package__", "__path__")
                for arg in node.args for n in ast.walk(arg))
    return [m for m in out if _in_project(m)], package if plugins else None


def _submodules(package: str) -> list[str]:
    """Every module and sub-package directly in `package` (what a plug-in loader may load)."""
    path = _source(package)
    if path is None or path.name != "__init__.py":
        return []
    folder = path.parent
    names = [f"{package}.{p.stem}" for p in folder.glob("*.py") if p.stem != "__init__"]
    names += [f"{package}.{p.parent.name}" for p in folder.glob("*/__init__.py")]
    return sorted(names)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()
