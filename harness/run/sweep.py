"""A sweep: instances x encodings x seeds, minus the runs already stored, run and stored as they finish."""

from __future__ import annotations

import hashlib
import random
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import uuid4

from tqdm.auto import tqdm

from harness import fingerprint, provenance, registry
from harness.encoding import Limits
from harness.instances import Instance, repeated
from harness.outcomes import Status
from harness.run import canary, choose, fits, steps
from harness.run.execute import identity
from harness.run.store import Store
from harness.schema import DEFAULT_DB


@dataclass
class Sweep:
    """What to run and how; `options` are the command line's key=value strings, given to every encoding
    (a key `ENCODING.KEY` only to that encoding, so a sweep can pit one encoding's option against another
    encoding side by side: `--option sat.implied=true`). An entry of `encodings` may be a configuration,
    `NAME:KEY=VALUE[:KEY=VALUE...]` (`sat:cuts=cutset`, NAME an encoding or a preset, `harness.presets`):
    that encoding with these options on top, so one sweep runs an encoding under several option sets
    side by side (one sweep, one load)."""

    instances: list[Instance]
    encodings: list[str]
    options: dict[str, str] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=lambda: [0])
    time_s: float = 60.0
    memory_mb: int = 4096
    wall_cap_s: float | None = None  # None: 1.5 x time_s + 5 (supervise.wall_cap)
    # The harness's own work in a run (proof check, reading): CPU seconds and MB of its own (None: the
    # run's limits), counted apart from the solve's (harness.run.worker.Phases).
    check_time_s: float | None = None
    check_memory_mb: int | None = None
    db: Path = DEFAULT_DB
    executor: str = "local"
    jobs: int = 1
    scheduler: str | None = None
    slurm: dict[str, Any] | None = None  # --executor slurm's settings (harness.run.slurm.settings)
    order_seed: int = 0
    runs_per_worker: int | None = None  # local executor: retire workers after this many runs (1: fresh each)
    unique: bool = False  # ask each solved run again with its solution excluded (the `unique` column)
    instance_specs: list[str] = field(default_factory=list)
    argv: list[str] | None = None
    rerun: bool = False  # run again what is stored (same code, same everything): new rows, new keys
    pin: bool = True  # local executor: each job's worker on a core of its own (harness.run.cores)
    cores_per_run: int = 1  # local executor: the cores each job's worker is pinned to
    # seconds between the machine canary's readings (harness.run.canary; 0: none): not part of the plan
    canary_every: float = field(default_factory=canary.default_every)
    # each (entry, kind)'s resolution, made once (`resolve`): the options and those left out
    resolutions: dict[tuple[str, str | None], tuple[dict[str, Any], tuple[str, ...]]] = field(
        default_factory=dict, repr=False, compare=False)

    def resolved_options(self) -> dict[str, dict[str, Any]]:
        """Each entry's options for no kind in particular (each at its plain default unless given): what
        the `sweeps` table records, and the check of the command line before any run starts, on each
        kind of the sweep's instances that the entry serves too (its defaults there).

        Raises ValueError for an unknown encoding or preset, an option it does not know or a bad value
        (on a kind: naming it), options the encoding refuses as it is made (`Encoding.take`), or an
        `ENCODING.KEY` option for an encoding the sweep does not run.
        """
        targeted = {k.partition(".")[0] for k in self.options if "." in k}
        missing = targeted - {registry.entry(text).encoding for text in self.encodings}
        if missing:
            raise ValueError(f"options for {', '.join(sorted(missing))}, which this sweep does not run")
        kinds = sorted({i.kind for i in self.instances if i.kind is not None})
        for text in self.encodings:
            encoding = registry.encodings()[registry.entry(text).encoding]
            for kind in filter(encoding.serves, kinds):
                try:  # the options, and what the encoding refuses as it is made (`command`: no program)
                    encoding.made(self.resolve(text, kind)[0])
                except ValueError as exc:
                    raise ValueError(f"{text} on {kind} instances: {exc}") from None
        return {text: self.resolve(text, None)[0] for text in self.encodings}

    def resolve(self, text: str, kind: str | None) -> tuple[dict[str, Any], tuple[str, ...]]:
        """One entry's options for instances of `kind` (`registry.Entry.resolve`), resolved once per
        sweep: the options and the given ones left out there (doing nothing on that kind)."""
        if (text, kind) not in self.resolutions:
            found = registry.entry(text)
            # for no kind (the record), each kind's clashes are left to its own resolution
            resolved = found.resolve(kind, strict=False, extra=self.options_of(found.encoding),
                                     per_kind=kind is None)
            self.resolutions[text, kind] = resolved.options, resolved.dropped
        return self.resolutions[text, kind]

    def options_of(self, encoding: str) -> dict[str, str]:
        """The command line's options for one encoding: the plain ones and its own `ENCODING.KEY` ones."""
        out = {k: v for k, v in self.options.items() if "." not in k}
        out.update({k.partition(".")[2]: v for k, v in self.options.items() if k.startswith(encoding + ".")})
        return out


def configuration(entry: str) -> tuple[str, dict[str, str]]:
    """An `encodings` entry's encoding name and the options it gives, a preset's with those on top
    (`sat:cuts=cutset:phase=solver`, `cegar-split:fix=false`)."""
    found = registry.entry(entry)
    return found.encoding, {**found.base, **found.given}


@dataclass
class Report:
    """What a sweep planned and stored; the command line asks the analysis side to summarize `keys`
    (`harness.analysis.sweep_summary`)."""

    sweep_id: str
    planned: int
    skipped: int  # planned runs already in the database
    recorded: int
    failed: int
    unsupported: int = 0  # instance x encoding pairs left out of the plan: the encoding lacks the kind
    keys: frozenset[str] = frozenset()  # the run keys of the planned runs, stored now or before
    notes: list[str] = field(default_factory=list)  # options left out where they do nothing (`plan`)
    # (instance, the instance that stands for it): puzzles whose content repeats another's, run once
    repeated: list[tuple[Instance, Instance]] = field(default_factory=list)


def make_spec(sweep: Sweep, instance: Instance, encoding: str, options: dict[str, Any], seed: int,
              code: fingerprint.Scope | None = None, harness: fingerprint.Scope | None = None,
              digests: tuple[str, str] | None = None) -> dict:
    """Everything a run needs, as plain data (it may travel to another machine): the puzzle goes as text.

    `code` is what the encoding's fingerprint covers, `harness` what the harness fingerprint covers
    (each found here when None), `digests` their fingerprints (hashed here when None); the worker
    hashes the same modules and the run is stored only if it gets the same fingerprints.
    """
    code = code or fingerprint.scope(encoding)
    harness = harness or fingerprint.harness_scope()
    code_digest, harness_digest = digests or (fingerprint.digest(code), fingerprint.digest(harness))
    limits = Limits(sweep.time_s, sweep.memory_mb)
    return {
        "identity": identity(instance, encoding, options, seed, limits, code_digest, sweep.unique,
                             harness_digest),
        "code": code.as_dict(),
        "harness_code": harness.as_dict(),
        "name": instance.name,
        "source": instance.source,
        "text": instance.text,  # the kind line included: the worker reads it back with kinds.read_text
        "error": instance.error,
        "known_solution": instance.known_solution,
        "known_answer": instance.known_answer,
        "encoding": encoding,
        "options": options,
        "seed": seed,
        "time_s": sweep.time_s,
        "memory_mb": sweep.memory_mb,
        "unique": sweep.unique,
        "check_time_s": sweep.check_time_s,
        "check_memory_mb": sweep.check_memory_mb,
        "preload": registry.imports([configuration(entry)[0] for entry in sweep.encodings]),
        **({"wall_cap_s": sweep.wall_cap_s} if sweep.wall_cap_s is not None else {}),
    }


def plan(sweep: Sweep, notes: list[str] | None = None) -> tuple[list[dict], int]:
    """One spec per distinct run key, in a seeded shuffled order (load drift must not favour one encoding).

    An encoding is planned only on the kinds it serves (a sweep may mix kinds); the second value
    counts the instance x encoding pairs left out for that. An instance that did not read is
    planned for every encoding, so its error is stored. Each entry's options are resolved once per
    kind (`Sweep.resolve`: that kind's defaults, the options that do nothing there left out, each
    such one said in `notes`), and the spec carries them to the worker, which resolves nothing.
    """
    names = {entry: configuration(entry)[0] for entry in sweep.encodings}
    code = {name: fingerprint.scope(name) for name in set(names.values())}  # once per sweep
    harness = fingerprint.harness_scope()
    # hashed once per sweep too: once per run, the hashing of every module was minutes of a large plan
    harness_digest = fingerprint.digest(harness)
    digests = {name: (fingerprint.digest(scope), harness_digest) for name, scope in code.items()}
    resolved: dict[tuple[str, str | None], dict[str, Any]] = {}
    specs: dict[str, dict] = {}
    unsupported = 0
    for instance in sweep.instances:
        for entry, encoding in names.items():
            if instance.kind is not None and not registry.encodings()[encoding].serves(instance.kind):
                unsupported += 1
                continue
            if (entry, instance.kind) not in resolved:
                options, dropped = sweep.resolve(entry, instance.kind)
                resolved[entry, instance.kind] = options
                if dropped and notes is not None:
                    notes.append(f"{entry} on {instance.kind} instances: {', '.join(dropped)} left out "
                                 "(nothing there)")
            for seed in sweep.seeds:
                spec = fits.planned(make_spec(sweep, instance, encoding, resolved[entry, instance.kind], seed,
                                              code[encoding], harness, digests[encoding]))
                specs.setdefault(spec["identity"]["run_key"], spec)
    ordered = list(specs.values())
    random.Random(sweep.order_seed).shuffle(ordered)
    return ordered, unsupported


def error_row(spec: dict) -> dict:
    """A run that cannot start because its instance did not read: recorded by the coordinator itself."""
    now = provenance.now()
    return fits.storable({
        **spec["identity"], "status": Status.ERROR, "detail": spec["error"], "verified": None,
        "time_limit_s": spec["time_s"], "memory_limit_mb": spec["memory_mb"],
        "started_at": now, "finished_at": now, **provenance.host(), **provenance.versions(),
    })


class Progress:
    """A tqdm bar on a terminal; in a redirected log, one line every `every` runs or 30 s instead."""

    def __init__(self, total: int, enabled: bool = True) -> None:
        self.bar = tqdm(total=total, unit="run", desc="sweep", disable=None if enabled else True)
        self.log = enabled and self.bar.disable
        self.total, self.done, self.counts = total, 0, Counter()
        self.every, self.last = max(10, total // 10), time.monotonic()

    def update(self, status: str) -> None:
        self.done += 1
        self.counts[status] += 1
        self.bar.update()
        self.bar.set_postfix(dict(self.counts.most_common()), refresh=False)
        if self.log and (self.done % self.every == 0 or time.monotonic() - self.last >= 30
                         or self.done == self.total):
            self.last = time.monotonic()
            counts = ", ".join(f"{k} {v}" for k, v in self.counts.most_common())
            print(f"harness.run: {self.done}/{self.total} runs ({counts})", file=sys.stderr, flush=True)

    def close(self) -> None:
        self.bar.close()


def run(sweep: Sweep, progress: bool = True) -> Report:
    """Run the sweep's missing runs and store each as it finishes; what it planned and stored."""
    notes: list[str] = []
    specs, unsupported = plan(sweep, notes)
    repeats = say_repeated(sweep.instances)
    sweep_id = f"{provenance.now()[:19]}-{uuid4().hex[:8]}"
    store = Store(sweep.db)
    try:
        done = store.done_keys()
        if sweep.rerun:
            specs = [rekeyed(s, sweep_id) if s["identity"]["run_key"] in done else s for s in specs]
        todo = [spec for spec in specs if spec["identity"]["run_key"] not in done]
        origin = {**provenance.commit(), **provenance.host()}
        record = {
            "sweep_id": sweep_id,
            "started_at": provenance.now(),
            "argv": sweep.argv or [],
            "config": config(sweep),
            **origin,
            "planned": len(specs),
            "skipped": len(specs) - len(todo),
            "unsupported": unsupported,
        }
        store.begin_sweep(record)
        stamp = {"sweep_id": record["sweep_id"], "commit": origin["commit"], "dirty": origin["dirty"]}
        bar = Progress(len(todo), progress)
        counts: Counter = Counter()
        # a batch with runs to make reads the canary as it starts, between runs and as it ends
        readings = canary.Readings(sweep.db, sweep_id, sweep.canary_every if todo else 0.0)
        try:
            readings.take()
            execute_and_store(sweep, todo, store, stamp, bar, counts, readings.tick)
        finally:
            bar.close()
            readings.take()
            tally = {"recorded": counts["recorded"], "failed": counts["failed"]}
            store.end_sweep({**record, "finished_at": provenance.now(), **tally})
    finally:
        store.close()
    keys = frozenset(spec["identity"]["run_key"] for spec in specs)
    return Report(record["sweep_id"], len(specs), record["skipped"], counts["recorded"], counts["failed"],
                  unsupported, keys, notes, repeats)


def say_repeated(instances: list[Instance], shown: int = 20) -> list[tuple[Instance, Instance]]:
    """The instances whose content repeats another's (`instances.repeated`), the first `shown` of
    them said on stderr with the one that stands for each, so none is dropped in silence."""
    repeats = repeated(instances)
    for instance, kept in repeats[:shown]:
        print(f"harness.run: {instance.source} repeats the puzzle of {kept.source}: run once, as "
              f"{kept.name}", file=sys.stderr)
    if len(repeats) > shown:
        print(f"harness.run: ... and {len(repeats) - shown} more repeated puzzles "
              "(sweep.Report.repeated lists them all)", file=sys.stderr)
    return repeats


def rekeyed(spec: dict, sweep_id: str) -> dict:
    """A stored run planned again by `--rerun`: a key of its own (the old row stays), naming the old key."""
    key = spec["identity"]["run_key"]
    fresh = hashlib.sha256(f"{key}:{sweep_id}".encode()).hexdigest()[:32]
    return {**spec, "identity": {**spec["identity"], "run_key": fresh, "rerun_of": key}}


def execute_and_store(sweep: Sweep, todo: list[dict], store: Store, stamp: dict, bar: Progress,
                      counts: Counter, between: Callable[[], None] = lambda: None) -> None:
    """Record each run as it finishes (one transaction each); counts `recorded` and `failed` as it goes,
    and calls `between` after each (the canary's chance to read)."""
    for spec in [s for s in todo if s["text"] is None]:
        counts["recorded"] += store.insert({**error_row(spec), **stamp})  # no worker needed
        bar.update(Status.ERROR)
    runnable = [s for s in todo if s["text"] is not None]
    if not runnable:
        return  # nothing to start a cluster for
    with choose.make(sweep.executor, sweep.jobs, sweep.scheduler, sweep.runs_per_worker,
                        sweep.slurm, sweep.pin, sweep.cores_per_run) as executor:
        for spec, row, error in executor.run(runnable):
            if error is not None:
                counts["failed"] += 1
                key = spec["identity"]["run_key"]
                print(f"harness.run: run {key} failed in the harness (not stored): {error!r}",
                      file=sys.stderr)
                bar.update("failed")
                continue
            row = fits.storable(row)  # made by a worker: a count past the store is an error row, not a crash
            counts["recorded"] += store.insert({**steps.spill(row, spec["text"], sweep.db), **stamp})
            bar.update(row["status"])
            between()


def by_kind(sweep: Sweep) -> dict[str, dict[str, dict[str, Any]]]:
    """Each entry's options on each kind its plan resolved it for."""
    out: dict[str, dict[str, dict[str, Any]]] = {entry: {} for entry in sweep.encodings}
    for (entry, kind), (options, _) in sweep.resolutions.items():
        if kind is not None and entry in out:
            out[entry][kind] = options
    return out


def config(sweep: Sweep) -> dict[str, Any]:
    """The sweep's settings as stored in the `sweeps` table."""
    return {
        "encodings": sweep.encodings,
        "options": sweep.resolved_options(),
        # what each entry resolved to on each kind the plan met (the runs' options)
        "options_by_kind": by_kind(sweep),
        "instances": sweep.instance_specs or sorted({i.source for i in sweep.instances}),
        "seeds": sweep.seeds,
        "time_limit_s": sweep.time_s,
        "memory_limit_mb": sweep.memory_mb,
        "wall_cap_s": sweep.wall_cap_s,
        "executor": sweep.executor,
        "jobs": sweep.jobs,
        "pin": sweep.pin,
        **({"cores_per_run": sweep.cores_per_run} if sweep.cores_per_run != 1 else {}),
        "check_time_limit_s": sweep.check_time_s,
        "check_memory_limit_mb": sweep.check_memory_mb,
        "scheduler": sweep.scheduler,
        **({"slurm": sweep.slurm} if sweep.slurm else {}),
        "order_seed": sweep.order_seed,
        "rerun": sweep.rerun,
        "unique": sweep.unique,
    }
