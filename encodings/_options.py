"""The instance features options apply to (`harness.options.Feature`), named once for every encoding."""

from __future__ import annotations

from harness.options import Feature

from . import loop, rules


def _loop(kind: str) -> bool:
    return kind in loop.kinds()


# every kind with loop rules: a grid puzzle's loop or a graph's Hamiltonian cycle
LOOP = Feature("loop kinds", _loop)
# the loop kinds drawn on a grid, whose unit squares are faces a colouring may give (`loop.colour`)
FACES = Feature("grid loop kinds (faces to colour)", lambda kind: _loop(kind) and kind != "graph")
# the same kinds, for what a graph makes moot: one complete loop there holds every vertex, so it is alone
PUZZLES = Feature("grid loop kinds", lambda kind: _loop(kind) and kind != "graph")
# the loop kinds whose loop problem can name what a loop must hold: cut families other than `loop` act only
# on a loop that holds some of it and misses some (`loop.arrays.LoopArrays.split`, `loop.watch`'s
# `cut_for`); with neither, every single loop is complete, and every wrong model's loops are cut alike
# Castle Wall's and Yajilin's rules give their loop problem neither (`on_grid(grid)`: the rest is rules)
UNMARKED = ("castlewall", "yajilin")
# Country Road's and Moon or Sun's give `hits` groups only (`gridrules.visiting`): no required vertex
HITS_ONLY = ("country", "moonsun")
DEMANDS = Feature("loop kinds with required vertices or hits groups",
                  lambda kind: _loop(kind) and kind not in UNMARKED)
# `cuts=cutset` asks a loop holding some required vertices, not all, for an edge leaving it
REQUIRED = Feature("loop kinds with required vertices",
                   lambda kind: _loop(kind) and kind not in (*UNMARKED, *HITS_ONLY))
# a graph, where every vertex is required: what `loop.split`'s parts and `sat`'s graph defaults assume
GRAPH = Feature("graphs", lambda kind: kind == "graph")


def implied(*hooks: str) -> Feature:
    """The kinds whose rules module gives implied constraints through one of `hooks` (a backend's, such
    as `cnf_implied`) or as clauses every backend takes (`implied_clauses`): Masyu's, Slitherlink's."""
    names = (*hooks, "implied_clauses")
    return Feature("kinds with implied rules", lambda kind: any(hasattr(rules.of(kind), n) for n in names))
