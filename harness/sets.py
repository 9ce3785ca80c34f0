"""The bundled instance sets: listed, shown, resolved into Instances and exported (`python -m harness.sets`).

Each bundle folder declares its sets in its own `instances/<folder>/sets.json` (paths in it relative
to instances/), so a new kind adds its sets without touching a shared file; instances/sets.json
says only which folders are listed first (the project's first kinds, in the order they came), the
rest following by name, and may declare sets too. A collection owns one bundle (`harness.bundles`: a row per
instance, the puzzle in its kind's compact form, the known solution). A subset filters its parent
(`where` on columns, or explicit `names`); a curated set lists `members` as `set/name` across
collections. Instance sources are `collection/name` whichever set reached them: one puzzle, one source.
"""

from __future__ import annotations

import argparse
import glob
import json
import shutil
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from harness import kinds
from harness.bundles import Row, read_bundle, write_bundle
from harness.errors import InstanceError
from harness.instances import INSTANCE_SUFFIXES, Instance, is_instance_file, load_file, load_scrape
from harness.scrape import is_scrape


def _instances_dir() -> Path:
    """The bundled sets' folder: the installed package `loopbench_instances` (the project's instances/)."""
    try:
        return Path(str(resources.files("loopbench_instances")))
    except ModuleNotFoundError:  # a source tree put on sys.path by hand, without the package's name
        return Path(__file__).resolve().parents[1] / "instances"


INSTANCES_DIR = _instances_dir()
MANIFEST = INSTANCES_DIR / "sets.json"


@dataclass(frozen=True)
class SetSpec:
    """One entry of sets.json. Exactly one of data / parent / members says where instances come from."""

    name: str
    description: str
    data: str = ""  # a collection: its bundle, relative to instances/
    parent: str = ""  # a subset of this set ...
    where: dict[str, Any] = field(default_factory=dict)  # ... by column values ...
    names: tuple[str, ...] = ()  # ... or by instance names
    members: tuple[str, ...] = ()  # a curated set: `collection/name` entries
    puzzle: str = ""  # these four are inherited from the parent when left empty
    source: str = ""
    licence: str = ""
    provenance: str = ""  # a note relative to instances/


# --- the manifest -------------------------------------------------------------------------------

@cache
def specs() -> dict[str, SetSpec]:
    """Every set of sets.json, in the manifest's order, with inherited fields filled in."""
    manifest = json.loads(MANIFEST.read_text())
    raw = list(manifest.get("sets", []))
    first = {folder: i for i, folder in enumerate(manifest.get("first", []))}
    for own in sorted(INSTANCES_DIR.glob("*/sets.json"), key=lambda p: (first.get(p.parent.name, len(first)),
                                                                         p.parent.name)):
        raw += json.loads(own.read_text())["sets"]
    items = {}
    for item in raw:
        if item["name"] in items:
            raise ValueError(f"{MANIFEST}: set {item['name']} is declared twice")
        items[item["name"]] = {k: tuple(v) if k in ("names", "members") else v for k, v in item.items()}

    def complete(name: str, seen: tuple[str, ...] = ()) -> SetSpec:
        if name not in items or name in seen:
            raise ValueError(f"{MANIFEST}: {' -> '.join(seen)} names a missing or circular parent {name}")
        item = items[name]
        if sum(map(bool, (item.get("data"), item.get("parent"), item.get("members")))) != 1:
            raise ValueError(f"{MANIFEST}: set {name} needs exactly one of data, parent, members")
        if not item.get("parent"):
            return SetSpec(**item)
        parent = complete(item["parent"], (*seen, name))
        inherited = {k: getattr(parent, k) for k in ("puzzle", "source", "licence", "provenance")}
        return SetSpec(**{**inherited, **{k: v for k, v in item.items() if v}})

    return {name: complete(name) for name in items}


def names() -> list[str]:
    return list(specs())


def spec_of(name: str) -> SetSpec:
    try:
        return specs()[name]
    except KeyError:
        raise KeyError(f"no instance set named {name!r}; known sets: {', '.join(names())}") from None


def rows(name: str) -> list[tuple[str, Row]]:
    """The set's instances as (collection, row) pairs, before any puzzle is parsed."""
    spec = spec_of(name)
    if spec.data:
        return [(name, row) for row in read_bundle(INSTANCES_DIR / spec.data)]
    if spec.members:
        return [_member(name, member) for member in spec.members]
    parent = rows(spec.parent)
    if spec.names:
        by_name = {row["name"]: (origin, row) for origin, row in parent}
        missing = [n for n in spec.names if n not in by_name]
        if missing:
            raise ValueError(f"set {name}: {spec.parent} has no instance {', '.join(missing)}")
        return [by_name[n] for n in spec.names]
    return [(origin, row) for origin, row in parent if matches(row, spec.where)]


def _member(name: str, member: str) -> tuple[str, Row]:
    collection, _, wanted = member.partition("/")
    found = [pair for pair in rows(collection) if pair[1]["name"] == wanted]
    if not found:
        raise ValueError(f"set {name}: member {member} does not exist")
    return found[0]


def matches(row: Row, where: dict[str, Any]) -> bool:
    """Whether a bundle row passes a subset's filter.

    Keys: any column, or `size` (`RxC`); a value is one string or a list of accepted strings.
    `min_cells`/`max_cells` bound rows*cols; `solution: true/false` asks for a known solution or none.
    """
    cells = int(row["rows"]) * int(row["cols"])
    for key, want in where.items():
        if key == "min_cells":
            ok = cells >= want
        elif key == "max_cells":
            ok = cells <= want
        elif key == "solution":
            ok = bool(row["solution"]) == want
        else:
            value = f"{row['rows']}x{row['cols']}" if key == "size" else row.get(key, "")
            ok = value in want if isinstance(want, list) else value == want
        if not ok:
            return False
    return True


# --- instances ----------------------------------------------------------------------------------

def instances(name: str) -> list[Instance]:
    """The set's Instances, each with its known solution; one that does not parse carries its error."""
    # each row is decoded as its own collection's kind, so a curated set may draw on several kinds
    return [_instance(spec_of(origin).puzzle, origin, tuple(row.items())) for origin, row in rows(name)]


@cache  # a row reached through several sets is parsed once; it comes as a hashable tuple of items
def _instance(kind: str, origin: str, items: tuple[tuple[str, str], ...]) -> Instance:
    row = dict(items)
    source = f"{origin}/{row['name']}"
    try:
        puzzle = kinds.get(kind).read_compact(row["puzzle"], int(row["rows"]), int(row["cols"]), source)
    except InstanceError as exc:
        return Instance(name=row["name"], source=source, error=f"{source}: {exc.problem}")
    known = kinds.get(kind).known_answers.get(row.get("known", ""), "")  # the kind's words, as sat/unsat
    return Instance(name=row["name"], source=source, puzzle=puzzle, known_solution=row["solution"],
                    known_answer=known)


def describe(name: str) -> dict[str, Any]:
    """The set in one record: what `python -m harness.sets --json` prints for it."""
    spec = spec_of(name)
    pairs = rows(name)
    shapes = sorted((int(r["rows"]) * int(r["cols"]), f"{r['rows']}x{r['cols']}") for _, r in pairs)
    return {
        "name": name,
        "puzzle": spec.puzzle,
        "count": len(pairs),
        "min_cells": shapes[0][0] if shapes else 0,
        "max_cells": shapes[-1][0] if shapes else 0,
        "smallest": shapes[0][1] if shapes else "",
        "largest": shapes[-1][1] if shapes else "",
        "solutions": sum(1 for _, r in pairs if r["solution"]),
        "known_answers": sum(1 for _, r in pairs if r["solution"] or r.get("known")),
        "source": spec.source,
        "licence": spec.licence,
        "description": spec.description,
        "parent": spec.parent,
        "provenance": spec.provenance,
    }


def table(records: Sequence[dict[str, Any]]) -> str:
    """The sets as an aligned plain-text table."""
    head = ("set", "puzzle", "count", "sizes", "solutions", "source", "licence")
    body = [(r["name"], r["puzzle"], str(r["count"]),
             r["smallest"] if r["smallest"] == r["largest"] else f"{r['smallest']}..{r['largest']}",
             str(r["solutions"]), r["source"], r["licence"]) for r in records]
    widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
    right = {2, 4}  # counts read better right-aligned
    lines = ["  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                       for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
             for row in [head, *body]]
    return "\n".join(lines[:1] + ["  ".join("-" * w for w in widths)] + lines[1:]) + "\n"


def show(name: str) -> str:
    """The set's description, definition and provenance note."""
    spec, record = spec_of(name), describe(name)
    answers = record["known_answers"]  # a solution, or a known answer without one (a theorem's)
    lines = [f"{name}: {spec.description}",
             f"puzzle {record['puzzle']}, {record['count']} instances, {record['smallest']}.."
             f"{record['largest']}, {record['solutions']} with a known solution"
             + (f", {answers} with a known answer" if answers > record["solutions"] else "")]
    if spec.parent:
        how = f"names {', '.join(spec.names)}" if spec.names else json.dumps(spec.where)
        lines.append(f"subset of {spec.parent}: {how}")
    if spec.members:
        lines.append(textwrap.fill(" ".join(spec.members), 100, initial_indent="members: ",
                                   subsequent_indent="  ", break_on_hyphens=False))
    lines.append(f"source: {spec.source}\nlicence: {spec.licence}\n")
    note = (INSTANCES_DIR / spec.provenance).read_text() if spec.provenance else "(no provenance note)\n"
    return "\n".join(lines) + "\n" + note


def export(name: str, folder: Path) -> list[Path]:
    """Write the set as plain-text files (NAME.txt; a known answer as a `# known:` line before the
    header), solutions.tsv and the provenance note."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    known = []
    for inst in instances(name):
        if inst.puzzle is None:
            raise ValueError(inst.error)
        path = folder / f"{inst.name}.txt"
        answer = f"# known: {kinds.known_word(inst.puzzle, inst.known_answer)}\n" if inst.known_answer else ""
        path.write_text(answer + kinds.write_text(inst.puzzle))
        written.append(path)
        if inst.known_solution:
            known.append(f"{inst.name}\t{inst.known_solution}\n")
    if known:
        (folder / "solutions.tsv").write_text("name\tsolution\n" + "".join(known))
    provenance = spec_of(name).provenance
    if provenance:
        shutil.copyfile(INSTANCES_DIR / provenance, folder / "PROVENANCE.md")
    return written


def resolve(spec: str, kind: str | None = None) -> list[Instance]:
    """Expand one --instances spec (a bundled set's name, a file, a directory or a glob) into instances.

    `kind` reads files without a kind line as that kind. Raises FileNotFoundError when the spec
    names nothing, so the CLI can report it cleanly.
    """
    path = Path(spec)
    if not path.exists() and spec in names():  # a file or folder of that name wins
        return instances(spec)
    if path.is_file() and is_scrape(path):  # a janko.at scrape file: a puzzle a line
        return load_scrape(spec, kind)
    if path.is_file():
        files = [path]
    elif path.is_dir():
        files = sorted(p for p in path.iterdir() if is_instance_file(p))
        if not files:
            raise FileNotFoundError(f"--instances {spec}: the folder holds no puzzle files "
                                    f"({', '.join(INSTANCE_SUFFIXES)}, each perhaps .gz)")
    else:
        files = sorted(Path(p) for p in glob.glob(spec) if Path(p).is_file())
    if not files:
        raise FileNotFoundError(f"--instances {spec}: no such instance set, file or directory")
    return [load_file(str(p), kind) for p in files]


def build(corpus: Path, out: Path, only: Sequence[str] | None = None) -> dict[str, list[Any]]:
    """Import the raw corpus with each kind's importer and write its bundles as `out/KIND/STEM.tsv.gz`.

    Returns the entries written, by bundle path relative to `out`.
    """
    written = {}
    for name in only or kinds.names():
        for stem, entries in kinds.get(name).import_corpus(corpus).items():
            write_bundle(out / name / f"{stem}.tsv.gz", entries)
            written[f"{name}/{stem}.tsv.gz"] = entries
    return written


# --- command line -------------------------------------------------------------------------------

def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m harness.sets", description=__doc__.split("\n")[0])
    parser.add_argument("--json", action="store_true", help="print the list as JSON objects")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("list", help="list the sets (the default)")
    p_show = sub.add_parser("show", help="print a set's description and provenance note")
    p_show.add_argument("name")
    p_export = sub.add_parser("export", help="write a set as plain-text files into a folder")
    p_export.add_argument("name")
    p_export.add_argument("folder", type=Path)
    p_build = sub.add_parser("build", help="rebuild the bundles from a copy of the raw corpus")
    p_build.add_argument("corpus", type=Path, help="the raw corpus folder (one sub-folder per collection)")
    p_build.add_argument("--kind", action="append", choices=kinds.names(),
                         help="rebuild only this kind's bundles (repeatable; default: every kind)")
    args = parser.parse_args(argv)

    try:
        if args.command == "show":
            sys.stdout.write(show(args.name))
        elif args.command == "export":
            written = export(args.name, args.folder)
            print(f"wrote {len(written)} instances of {args.name} to {args.folder}")
        elif args.command == "build":
            for path, entries in build(args.corpus, INSTANCES_DIR, args.kind).items():
                solved = sum(1 for e in entries if e.solution)
                print(f"{path}: {len(entries)} instances, {solved} with a known solution")
        elif args.json:
            print(json.dumps([describe(n) for n in names()], indent=1))
        else:
            sys.stdout.write(table([describe(n) for n in names()]))
    except KeyError as exc:
        print(exc.args[0], file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
