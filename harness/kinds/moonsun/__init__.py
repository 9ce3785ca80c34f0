"""Moon or Sun (janko.at): one loop visiting each region once, through all its moons or all its suns."""

from __future__ import annotations

from harness.kinds.janko_loop import GenreKind
from harness.kinds.moonsun.model import KIND as NAME
from harness.kinds.moonsun.model import MoonSun


class MoonSunKind(GenreKind):
    name = NAME
    janko_names = ("moonsun",)
    model = MoonSun
    scrape_file = "Moonsun.jsonl.bz2"
    # spread over the sizes, 10x10 to 25x40
    sample = ("Moonsun-001", "Moonsun-016", "Moonsun-031", "Moonsun-092", "Moonsun-115", "Moonsun-055",
              "Moonsun-126", "Moonsun-058", "Moonsun-030", "Moonsun-138", "Moonsun-060", "Moonsun-150")


KIND = MoonSunKind()
