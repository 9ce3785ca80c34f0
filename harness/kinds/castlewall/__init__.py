"""Castle Wall (janko.at): one loop between walls, their colours inside or outside, their numbers lengths."""

from __future__ import annotations

from harness.kinds.castlewall.model import KIND as NAME
from harness.kinds.castlewall.model import CastleWall
from harness.kinds.janko_loop import GenreKind


class CastleWallKind(GenreKind):
    name = NAME
    janko_names = ("castlewall",)
    model = CastleWall
    scrape_file = "Castle-Wall.jsonl.bz2"
    # spread over the sizes, 8x8 to 50x50
    sample = ("Castle-Wall-021", "Castle-Wall-006", "Castle-Wall-028", "Castle-Wall-034",
              "Castle-Wall-062", "Castle-Wall-037", "Castle-Wall-057", "Castle-Wall-075",
              "Castle-Wall-010", "Castle-Wall-058", "Castle-Wall-080", "Castle-Wall-020")


KIND = CastleWallKind()
