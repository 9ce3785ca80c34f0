"""`python -m harness.select features|train`: the features CSV from the FHCP corpus, the rule from runs.

    python -m harness.select features --corpus DIR   # DIR of graphN.hcp.gz: results/selector/features.csv
    python -m harness.select train     # encodings/auto.json from results/fhcp's databases; prints the table

`train` reads only committed files (the databases of `cells.DATABASES`, the features CSV), fits the
rule on the public graphs outside fhcp-sample, writes it, and prints the figures the `selector` table
kind puts in results/selector/README.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness.select import cells, featurefile
from harness.select import table as selector_table
from harness.select import train as training
from loopbench_encodings.loop import choose


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.select", description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    f = sub.add_parser("features", help="write the features CSV of every graph*.hcp.gz in a folder")
    f.add_argument("--corpus", type=Path, required=True, help="the folder of graphN.hcp.gz files")
    f.add_argument("--out", type=Path, default=featurefile.FEATURES_CSV)
    t = sub.add_parser("train", help="fit the rule on the stored runs and write it")
    t.add_argument("--db", type=Path, action="append",
                   help=f"a database, again for more (default: {', '.join(cells.DATABASES)})")
    t.add_argument("--candidates", type=lambda text: tuple(text.split(",")), default=cells.CANDIDATES,
                   help=f"the configurations to choose between, comma-separated (default: "
                        f"{','.join(cells.CANDIDATES)}); with others, write the rule elsewhere (--out)")
    t.add_argument("--features", type=Path, default=featurefile.FEATURES_CSV)
    t.add_argument("--out", type=Path, default=choose.RULE_FILE)
    args = p.parse_args(argv)
    try:
        if args.command == "features":
            print(f"{featurefile.write(args.corpus, args.out)} graphs: {args.out}")
            return 0
        databases = args.db or [Path(d) for d in cells.DATABASES]
        found = training.data(databases, args.features, args.candidates)
        rule = training.train(found, databases, args.features)
        args.out.write_text(rule.to_json(), encoding="utf-8")
        print(f"{args.out}: {rule}")
        rows, choices = training.evaluation(found, rule)
        print(selector_table.render(rows) + "\n" + selector_table.legend(found, rule, choices,
                                                                          [str(d) for d in databases]))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
