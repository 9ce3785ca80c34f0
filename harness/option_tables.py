"""docs/ENCODINGS.md's option and preset tables, made from the declarations (`-m harness.option_tables`).

`--write` puts them in the page between BEGIN and END; tests/test_options.py fails when the committed
page differs from what the declarations give, so the tables never drift from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

from harness import options, registry
from harness.presets import PRESETS

PAGE = Path(__file__).resolve().parent.parent / "docs" / "ENCODINGS.md"
BEGIN = "<!-- option tables: made by `python -m harness.option_tables --write`; do not edit by hand -->"
END = "<!-- end of option tables -->"


def section() -> str:
    """The generated part: one table per project encoding (plug-ins' are not the page's), then the presets."""
    parts = [BEGIN, "", "## Options", "",
             "Each encoding's options as declared (`python -m harness.run --describe NAME` prints the "
             "same). An option applies to the kinds named; given on another kind, `harness.solve` refuses "
             "it and a sweep leaves it out of that kind's runs with a note. A default \"on graph\" is the "
             "kind's own.", ""]
    for name, cls in registry.encodings().items():
        if not cls.__module__.startswith(registry.PACKAGE + "."):
            continue
        parts += [f"### `{name}`", "", options.markdown(cls), ""]
    parts += ["## Presets", "",
              "Named configurations (`harness.presets`), given wherever an encoding is (`--encoding "
              "cegar-split`, `cegar-split:fix=false`); their runs are labelled with the name.", "",
              "| preset | encoding | options | what it is |", "|---|---|---|---|"]
    for name, preset in PRESETS.items():
        given = ", ".join(f"`{k}={v}`" for k, v in preset.options.items())
        parts.append(f"| `{name}` | `{preset.encoding}` | {given} | {preset.help} |")
    return "\n".join([*parts, "", END])


def page(text: str) -> str:
    """The page's text with its generated part made again (appended when it has none)."""
    if BEGIN in text and END in text:
        head, _, rest = text.partition(BEGIN)
        return head + section() + rest.partition(END)[2]
    return text.rstrip("\n") + "\n\n" + section() + "\n"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    made = page(PAGE.read_text())
    if argv == ["--write"]:
        PAGE.write_text(made)
        return 0
    sys.stdout.write(made)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
