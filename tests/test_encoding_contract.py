"""The encoding contract: registry discovery, option checking and typed option values."""

import pytest

from harness import registry
from harness.encoding import Outcome


def test_registry_finds_encodings_by_module():
    found = registry.encodings()
    assert "dummy" in found
    assert all(name == cls.name for name, cls in found.items())


def test_unknown_encoding_and_option_are_clear_errors():
    with pytest.raises(ValueError, match="unknown encoding 'nope'"):
        registry.create("nope")
    with pytest.raises(ValueError, match="has no option colour"):
        registry.create("dummy", colour="red")


def test_options_take_the_type_of_their_default():
    enc = registry.create("dummy", seconds="0.5", status="sat")
    assert enc.options["seconds"] == 0.5
    assert enc.options["behave"] == "ok"


def test_a_bad_option_value_names_the_option():
    with pytest.raises(ValueError, match="option seconds: 'x' is not a float"):
        registry.create("dummy", seconds="x")


def test_outcome_rejects_runner_statuses():
    with pytest.raises(ValueError):
        Outcome("timeout")
