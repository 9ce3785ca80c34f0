"""The kind contract and the rules protocols: checked when a kind registers or its rules are looked
up, each failure one error naming what is missing; a kind's rules found in its own folder."""

from __future__ import annotations

import sys
import textwrap
import types

import pytest

from harness import kinds, plugins, registry
from harness.kinds.geradeweg import GeradewegKind
from loopbench_encodings import loop, rules


class Half(kinds.Kind):
    name = "half"

    def check(self, puzzle, solution):
        return []


def test_a_kind_lacking_members_is_refused_naming_each():
    assert kinds.contract_problems(kinds.get("masyu")) == []
    with pytest.raises(TypeError) as err:
        kinds.require(Half, "plug-in half")
    message = str(err.value)
    assert "plug-in half" in message and "no body_lines, draw, parse_body, render_text" in message
    assert "check" not in message.split("required")[0]
    required = {"name", "body_lines", "check", "draw", "parse_body", "render_text"}
    assert set(kinds.required_members()) == required
    assert {"rules", "read_janko_record", "read_url"} <= set(kinds.optional_members())


def test_a_bad_name_and_a_method_shadowed_by_a_value_are_named():
    class Named(GeradewegKind):
        name = "Bad Name"
        describe = "twelve pearls"

    problems = kinds.contract_problems(Named)
    assert any("lower-case word" in p for p in problems) and "`describe` is not callable" in problems


def test_a_plugin_kind_class_is_checked_before_it_is_made(tmp_path, monkeypatch):
    site = tmp_path / "site"
    info = site / "halfkind-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: halfkind\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[loopbench.kinds]\nhalf = halfkind:Half\n")
    (site / "halfkind.py").write_text(textwrap.dedent("""
        from harness.kinds import Kind

        class Half(Kind):
            name = "half"
            def check(self, puzzle, solution):
                return []
    """))
    monkeypatch.syspath_prepend(str(site))
    kinds.kinds.cache_clear()
    plugins.packages.cache_clear()
    try:
        with pytest.raises(TypeError, match=r"plug-in `half = halfkind:Half`.*no body_lines, draw"):
            kinds.kinds()
    finally:
        monkeypatch.undo()
        sys.modules.pop("halfkind", None)
        kinds.kinds.cache_clear()
        plugins.packages.cache_clear()


def test_rules_with_part_of_a_protocol_are_refused_naming_what_they_lack():
    assert rules.problems(rules.of("masyu")) == [] and rules.problems(rules.of("walls")) == []
    loopish = types.SimpleNamespace(loop_problem=lambda p: None, cpsat=lambda p, m: None)
    assert rules.problems(loopish) == ["LoopRules needs cnf"]
    whole = types.SimpleNamespace(cpsat=lambda p, m: None, cpsat_solution=lambda p, v, s: "")
    assert rules.problems(whole) == ["WholeRules needs cpsat_exclude beside cpsat_solution"]
    assert rules.LOOP == ("loop_problem", "cpsat", "cnf") and "cycle_only" in rules.LOOP_OPTIONAL


class Toy(GeradewegKind):
    """A kind outside the project's folders whose rules live beside it (here: Geradeweg's)."""

    name = "toyweg"


class Broken(GeradewegKind):
    name = "brokenweg"

    def rules(self):
        return types.SimpleNamespace(loop_problem=lambda p: None)


@pytest.fixture
def extra_kind(monkeypatch):
    """Add a kind to the registry for one test."""
    own = dict(kinds.kinds())

    def add(kind):
        monkeypatch.setattr(kinds, "kinds", lambda: {**own, kind.name: kind})
        rules.of.cache_clear()

    yield add
    monkeypatch.undo()
    rules.of.cache_clear()


def test_a_kinds_own_rules_are_found_and_serve_every_loop_strategy(extra_kind):
    extra_kind(Toy())
    assert rules.of("toyweg").__name__ == "harness.kinds.geradeweg.rules"
    assert "toyweg" in rules.kinds_with(*loop.RULES, "asp")


def test_a_kinds_incomplete_rules_fail_their_lookup(extra_kind):
    extra_kind(Broken())
    with pytest.raises(TypeError, match=r"kind 'brokenweg'.*LoopRules needs cpsat; LoopRules needs cnf"):
        rules.kinds_with(*loop.RULES)  # what a strategy asks when it is defined


def test_dfs_serves_the_graph_through_its_rules_not_its_name():
    assert rules.of("graph").cycle_only is True
    assert registry.encodings()["dfs"].puzzles == ("masyu", "graph")
    source = (registry.encodings()["dfs"].solve.__code__.co_consts)
    assert "graph" not in source


def test_the_required_methods_are_found_in_the_kinds_folder_else_named_missing():
    class NoDraw(kinds.Kind):
        name = "nodraw"
        package = "harness.kinds.geradeweg"  # has check.py, but no formats.py or draw.py

    assert kinds.contract_problems(NoDraw) == ["no body_lines, draw, parse_body, render_text"]
    for kind in kinds.kinds().values():  # the project's kinds write none of them out
        assert not {"parse_body", "body_lines", "check", "render_text", "draw"} & set(vars(type(kind)))
        assert kinds.contract_problems(kind) == []


def test_a_part_that_fails_to_import_is_a_bug_not_a_missing_part(tmp_path, monkeypatch):
    package = tmp_path / "brokenkind"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "check.py").write_text("import no_such_module_anywhere\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    class BrokenCheck(kinds.Kind):
        name = "brokencheck"

    BrokenCheck.package = "brokenkind"
    try:
        with pytest.raises(ModuleNotFoundError, match="no_such_module_anywhere"):
            kinds.contract_problems(BrokenCheck)
    finally:
        sys.modules.pop("brokenkind", None)


def test_a_kinds_package_is_where_its_class_is_defined_and_a_subclass_elsewhere_inherits_it():
    assert type(kinds.get("masyu")).package == "harness.kinds.masyu"
    assert Toy.package == "harness.kinds.geradeweg"  # defined in this module, not a package
    assert kinds.get("geradeweg").stated(kinds.read_text("geradeweg 2 2\n- 1\n- -\n")).demands == [{(1,)}]
