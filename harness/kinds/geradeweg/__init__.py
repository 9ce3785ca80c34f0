"""Geradeweg (janko.at): a loop through every number, each straight run touching a number as long as it."""

from __future__ import annotations

from harness.kinds.geradeweg.model import KIND as NAME
from harness.kinds.geradeweg.model import Geradeweg
from harness.kinds.janko_loop import GenreKind


class GeradewegKind(GenreKind):
    name = NAME
    janko_names = ("geradeweg",)
    model = Geradeweg
    scrape_file = "Geradeweg.jsonl.bz2"
    # spread over the sizes, and the three 0s (040, 073); not 077, which has more than one answer
    sample = ("Geradeweg-001", "Geradeweg-005", "Geradeweg-068", "Geradeweg-009", "Geradeweg-015",
              "Geradeweg-030", "Geradeweg-040", "Geradeweg-044", "Geradeweg-051", "Geradeweg-059",
              "Geradeweg-067", "Geradeweg-073", "Geradeweg-076", "Geradeweg-020")


KIND = GeradewegKind()
