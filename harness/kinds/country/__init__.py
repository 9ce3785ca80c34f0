"""Country Road (janko.at): one loop visiting every region once, numbers counting its cells there."""

from __future__ import annotations

from harness.kinds.country.model import KIND as NAME
from harness.kinds.country.model import CountryRoad
from harness.kinds.janko_loop import GenreKind


class CountryRoadKind(GenreKind):
    name = NAME
    janko_names = ("country",)
    model = CountryRoad
    scrape_file = "Country-Road.jsonl.bz2"
    # spread over the sizes, and 023, whose `@` cells lie in no region
    sample = ("Country-Road-001", "Country-Road-005", "Country-Road-023", "Country-Road-035",
              "Country-Road-056", "Country-Road-079", "Country-Road-106", "Country-Road-129",
              "Country-Road-157", "Country-Road-182", "Country-Road-208", "Country-Road-060",
              "Country-Road-194")


KIND = CountryRoadKind()
