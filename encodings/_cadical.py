"""CaDiCaL 1.9.5's option names and the range each takes: what `sat`'s `cadical=` option may set.

Read from the option table compiled into python-sat 1.9.dev17's `pysolvers` (symbol
`CaDiCaL195::Options::table`: each entry's name, default, lowest and highest value), which is
CaDiCaL 1.9.5's `src/options.hpp` as PySAT builds it (without `quiet`, `verbose` and `log`:
compiled out). CaDiCaL's own setter answers nothing to a name it does not know and clamps a value
outside the range, so a typo would run with the default in silence: `parse` refuses both.
"""

from __future__ import annotations

# name: (lowest, highest)
RANGES: dict[str, tuple[int, int]] = {
    "arena": (0, 1), "arenacompact": (0, 1), "arenasort": (0, 1), "arenatype": (1, 3), "binary": (0, 1),
    "block": (0, 1), "blockmaxclslim": (1, 2000000000), "blockminclslim": (2, 2000000000),
    "blockocclim": (1, 2000000000), "bump": (0, 1), "bumpreason": (0, 1), "bumpreasondepth": (1, 3),
    "check": (0, 1), "checkassumptions": (0, 1), "checkconstraint": (0, 1), "checkfailed": (0, 1),
    "checkfrozen": (0, 1), "checkproof": (0, 3), "checkwitness": (0, 1), "chrono": (0, 2),
    "chronoalways": (0, 1), "chronolevelim": (0, 2000000000), "chronoreusetrail": (0, 1), "compact": (0, 1),
    "compactint": (1, 2000000000), "compactlim": (0, 1000), "compactmin": (1, 2000000000),
    "condition": (0, 1), "conditionint": (1, 2000000000), "conditionmaxeff": (0, 2000000000),
    "conditionmaxrat": (1, 2000000000), "conditionmineff": (0, 2000000000), "conditionreleff": (1, 100000),
    "cover": (0, 1), "covermaxclslim": (1, 2000000000), "covermaxeff": (0, 2000000000),
    "coverminclslim": (2, 2000000000), "covermineff": (0, 2000000000), "coverreleff": (1, 100000),
    "decompose": (0, 1), "decomposerounds": (1, 16), "deduplicate": (0, 1), "eagersubsume": (0, 1),
    "eagersubsumelim": (1, 1000), "elim": (0, 1), "elimands": (0, 1), "elimaxeff": (0, 2000000000),
    "elimbackward": (0, 1), "elimboundmax": (-1, 2000000), "elimboundmin": (-1, 2000000),
    "elimclslim": (2, 2000000000), "elimequivs": (0, 1), "elimineff": (0, 2000000000),
    "elimint": (1, 2000000000), "elimites": (0, 1), "elimlimited": (0, 1), "elimocclim": (0, 2000000000),
    "elimprod": (0, 10000), "elimreleff": (1, 100000), "elimrounds": (1, 512), "elimsubst": (0, 1),
    "elimsum": (0, 10000), "elimxorlim": (2, 27), "elimxors": (0, 1), "emagluefast": (1, 2000000000),
    "emaglueslow": (1, 2000000000), "emajump": (1, 2000000000), "emalevel": (1, 2000000000),
    "emasize": (1, 2000000000), "ematrailfast": (1, 2000000000), "ematrailslow": (1, 2000000000),
    "externallrat": (0, 1), "flush": (0, 1), "flushfactor": (1, 1000), "flushint": (1, 2000000000),
    "forcephase": (0, 1), "frat": (0, 2), "idrup": (0, 1), "ilb": (0, 1), "ilbassumptions": (0, 1),
    "inprocessing": (0, 1), "instantiate": (0, 1), "instantiateclslim": (2, 2000000000),
    "instantiateocclim": (1, 2000000000), "instantiateonce": (0, 1), "lrat": (0, 1), "lucky": (0, 1),
    "minimize": (0, 1), "minimizedepth": (0, 1000), "otfs": (0, 1), "phase": (0, 1), "probe": (0, 1),
    "probehbr": (0, 1), "probeint": (1, 2000000000), "probemaxeff": (0, 2000000000),
    "probemineff": (0, 2000000000), "probereleff": (1, 100000), "proberounds": (1, 16), "profile": (0, 4),
    "radixsortlim": (0, 2000000000), "realtime": (0, 1), "reduce": (0, 1), "reduceint": (10, 1000000),
    "reducetarget": (10, 100), "reducetier1glue": (1, 2000000000), "reducetier2glue": (1, 2000000000),
    "reluctant": (0, 2000000000), "reluctantmax": (0, 2000000000), "rephase": (0, 1),
    "rephaseint": (1, 2000000000), "report": (0, 1), "reportall": (0, 1), "reportsolve": (0, 1),
    "restart": (0, 1), "restartint": (1, 2000000000), "restartmargin": (0, 100), "restartreusetrail": (0, 1),
    "restoreall": (0, 2), "restoreflush": (0, 1), "reverse": (0, 1), "score": (0, 1),
    "scorefactor": (500, 1000), "seed": (0, 2000000000), "shrink": (0, 3), "shrinkreap": (0, 1),
    "shuffle": (0, 1), "shufflequeue": (0, 1), "shufflerandom": (0, 1), "shufflescores": (0, 1),
    "stabilize": (0, 1), "stabilizefactor": (101, 2000000000), "stabilizeint": (1, 2000000000),
    "stabilizemaxint": (1, 2000000000), "stabilizeonly": (0, 1), "stats": (0, 1), "subsume": (0, 1),
    "subsumebinlim": (0, 2000000000), "subsumeclslim": (0, 2000000000), "subsumeint": (1, 2000000000),
    "subsumelimited": (0, 1), "subsumemaxeff": (0, 2000000000), "subsumemineff": (0, 2000000000),
    "subsumeocclim": (0, 2000000000), "subsumereleff": (1, 100000), "subsumestr": (0, 1), "target": (0, 2),
    "terminateint": (0, 10000), "ternary": (0, 1), "ternarymaxadd": (0, 10000),
    "ternarymaxeff": (0, 2000000000), "ternarymineff": (1, 2000000000), "ternaryocclim": (1, 2000000000),
    "ternaryreleff": (1, 100000), "ternaryrounds": (1, 16), "transred": (0, 1),
    "transredmaxeff": (0, 2000000000), "transredmineff": (0, 2000000000), "transredreleff": (1, 100000),
    "veripb": (0, 4), "vivify": (0, 1), "vivifyinst": (0, 1), "vivifymaxeff": (0, 2000000000),
    "vivifymineff": (0, 2000000000), "vivifyonce": (0, 2), "vivifyredeff": (0, 1000),
    "vivifyreleff": (1, 100000), "walk": (0, 1), "walkmaxeff": (0, 2000000000), "walkmineff": (0, 10000000),
    "walknonstable": (0, 1), "walkredundant": (0, 1), "walkreleff": (1, 100000),
}


def parse(text: str) -> dict[str, int]:
    """`KEY=INTEGER,...` as a dict, every key one of CaDiCaL 1.9.5's options and its value in range."""
    out: dict[str, int] = {}
    for pair in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = (part.strip() for part in pair.partition("="))
        if not sep or not key or not value.lstrip("-").isdigit():
            raise ValueError(f"option cadical: {pair!r} is not KEY=INTEGER")
        if key not in RANGES:
            raise ValueError(f"option cadical: CaDiCaL 1.9.5 has no option {key!r} "
                             f"(its options: {', '.join(RANGES)})")
        lo, hi = RANGES[key]
        if not lo <= int(value) <= hi:
            raise ValueError(f"option cadical: {key}={value} is outside CaDiCaL's range {lo}..{hi}")
        out[key] = int(value)
    return out
