"""The kernel's hold on a worker's memory: a cgroup of its own where the machine allows one, else RLIMIT_DATA.

The supervisor's RSS poll sees a fast allocator only every POLL_S (and later on a loaded machine),
so alone it lets a run overshoot its limit, or lose the race to the CPU limit. The worker, once
its imports are done, therefore asks the kernel to hold the limit:

- `cgroup`: a child of the worker's own memory cgroup (v2 `memory.max`, or v1
  `memory.limit_in_bytes` in a delegated hierarchy), made by the worker and entered by it. The
  kernel reclaims, then OOM-kills the worker (SIGKILL) at the limit; the cgroup's `oom_kill`
  counter says it was the cgroup. What the worker held before entering stays charged to its old
  cgroup (cgroup v1 no longer moves charges on a kernel 6.x), so each run's limit is the run's
  limit minus that part of the RSS, and RSS stays within the limit.
- `rlimit`: RLIMIT_DATA (private writable memory) sized so that a run may touch its whole
  limit: data now + (limit - RSS now) + DATA_SLACK. Not RLIMIT_AS, which also counts shared
  libraries, thread stacks and the address space malloc reserves per thread (64 MB each), none
  of which is memory used; a refused allocation is a MemoryError in Python or std::bad_alloc in
  a native solver.
- `poll`: neither (forced with LOOPBENCH_MEMORY_GUARD=poll, for the overshoot benchmark); a
  cgroup is still made where allowed, with no limit, so that the peak recorded after a kill is
  the kernel's count and not the last poll's.

The cgroup's peak (v1 `memory.max_usage_in_bytes`, v2 `memory.peak`) counts the worker's child
processes too, and is restarted per run by a write; where the kernel refuses that (v2 before
6.12) it would carry an earlier run's peak into every later run, so it is then reported apart
(`cgroup_peak_mb`) and the verdict is VmHWM's alone (`Guard.peaks`). A limit is lifted with `max`
on v2, `-1` on v1. The cgroup's folder is the mount point plus its path below the mount's root
(mountinfo's fourth field: not `/` inside a container).

LOOPBENCH_MEMORY_GUARD=cgroup|rlimit|poll forces one; the default takes the first that works.
"""

from __future__ import annotations

import contextlib
import os
import resource
import time
from pathlib import Path

GUARD_ENV = "LOOPBENCH_MEMORY_GUARD"
DATA_SLACK = 0.05  # of the limit: room for memory reserved but never touched (malloc's slack)
MOUNTS = "/proc/self/mountinfo"
PEAK_SLACK = 8 << 20  # a peak just reset may exceed the usage read after it by what was freed between


def _own_cgroup(cgroups: str = "/proc/self/cgroup", mounts: str = MOUNTS) -> tuple[str, Path] | None:
    """('v1' or 'v2', the folder of this process's memory cgroup) if the memory controller is mounted.

    A mount shows its hierarchy from its root (mountinfo's fourth field: `/` on the host, the
    container's own cgroup inside one), so the folder is the mount point plus the cgroup's path
    below that root; a mount whose root is not above the cgroup does not show it.
    """
    try:
        lines = Path(cgroups).read_text().splitlines()
        table = Path(mounts).read_text().splitlines()
    except OSError:
        return None
    entries = {}
    for line in lines:
        number, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else ["" if number == "0" else "?"]:
            entries[controller] = path
    for mount in table:
        left, right = mount.split(" - ", 1)
        fstype, _source, options = right.split()[:3]
        root, point = left.split()[3:5]
        if fstype == "cgroup" and "memory" in options.split(",") and "memory" in entries:
            folder = _below(point, root, entries["memory"])
            if folder is not None:
                return "v1", folder
        if fstype == "cgroup2" and "" in entries:
            folder = _below(point, root, entries[""])
            with contextlib.suppress(OSError, AttributeError):
                if "memory" in (folder / "cgroup.controllers").read_text().split():
                    return "v2", folder
    return None


def _below(point: str, root: str, path: str) -> Path | None:
    """Where cgroup `path` is under a mount at `point` showing the hierarchy from `root` (None: not shown)."""
    root = root.rstrip("/")
    if path != root and not path.startswith(root + "/"):
        return None
    return Path(point + path[len(root):])


class Cgroup:
    """A memory cgroup the worker made for itself: limit, peak, OOM kills, removal."""

    def __init__(self, version: str, path: Path) -> None:
        self.version, self.path = version, Path(path)

    @classmethod
    def make(cls, found: tuple[str, Path] | None = None) -> Cgroup | None:
        """A new child of this process's memory cgroup with this process in it, or None if not allowed.

        `found`: ('v1' or 'v2', the parent's folder), where not `_own_cgroup()`'s (a test's own mount)."""
        found = found or _own_cgroup()
        if found is None:
            return None
        version, parent = found
        child = parent / f"loopbench-worker-{os.getpid()}"
        try:
            child.mkdir()
        except OSError:
            return None
        group = cls(version, child)
        try:
            if version == "v2" and not (child / "memory.max").exists():
                raise OSError("no memory controller in the child (the parent does not delegate it)")
            group._write("cgroup.procs", str(os.getpid()))
        except OSError:
            group.remove()
            return None
        return group

    def _read(self, name: str) -> str:
        return (self.path / name).read_text()

    def _write(self, name: str, value: str) -> None:
        with open(self.path / name, "w") as handle:
            handle.write(value)

    def usage(self) -> int:
        return int(self._read("memory.usage_in_bytes" if self.version == "v1" else "memory.current"))

    def peak(self) -> int:
        """Bytes at the highest since reset_peak (v1; v2 kernels before 6.12 give the cgroup's whole life)."""
        with contextlib.suppress(OSError, ValueError):
            return int(self._read("memory.max_usage_in_bytes" if self.version == "v1" else "memory.peak"))
        return 0

    def reset_peak(self) -> bool:
        """Restart the peak from the current usage; False where the kernel does not allow it (v2
        before 6.12: `memory.peak` is read-only and spans the cgroup's life)."""
        try:
            self._write("memory.max_usage_in_bytes" if self.version == "v1" else "memory.peak", "0")
        except OSError:
            return False
        with contextlib.suppress(OSError, ValueError):  # a write the kernel took but ignored
            return self.peak() <= self.usage() + PEAK_SLACK
        return False

    def limit(self, limit_bytes: int | None) -> None:
        """Limit usage to `limit_bytes`; None lifts the limit (v2 takes `max`, v1 `-1`)."""
        if limit_bytes is None:
            value = "-1" if self.version == "v1" else "max"
        else:
            value = str(limit_bytes)
        self._write("memory.limit_in_bytes" if self.version == "v1" else "memory.max", value)

    def oom_kills(self) -> int:
        """How many processes the kernel killed at this cgroup's limit."""
        with contextlib.suppress(OSError, ValueError):
            text = self._read("memory.oom_control" if self.version == "v1" else "memory.events")
            for line in text.splitlines():
                if line.startswith("oom_kill "):
                    return int(line.split()[1])
        return 0

    def leave(self) -> None:
        """Move this process back to the parent cgroup and remove this one (a worker ending on its own)."""
        with contextlib.suppress(OSError):
            with open(self.path.parent / "cgroup.procs", "w") as handle:
                handle.write(str(os.getpid()))
            self.remove()

    def remove(self) -> None:
        """Remove the folder once its processes are gone (a killed one's memory takes a moment to go)."""
        for _ in range(100):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                time.sleep(0.01)


def proc_status_kb(field: str, pid: str = "self") -> int:
    """A `kB` field of /proc/PID/status (VmHWM, VmRSS, VmData, VmSize); 0 if the process is gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return 0


def set_soft_limit(which: int, soft: int) -> None:
    """Set a soft rlimit, kept within the hard one (RLIM_INFINITY included)."""
    hard = resource.getrlimit(which)[1]
    if hard != resource.RLIM_INFINITY and (soft == resource.RLIM_INFINITY or soft > hard):
        soft = hard
    resource.setrlimit(which, (soft, hard))


class Guard:
    """What holds the worker's memory limit in the kernel, set per run by `hold`."""

    def __init__(self, how: str, cgroup: Cgroup | None = None) -> None:
        self.how, self.cgroup = how, cgroup
        self.outside = 0  # bytes of this run's RSS charged elsewhere (cgroup: held before entering)
        # Whether the cgroup's peak restarts per run; without it, it is reported apart, never judged.
        self.peak_resets = cgroup.reset_peak() if cgroup is not None else False

    @classmethod
    def choose(cls) -> Guard:
        wanted = os.environ.get(GUARD_ENV, "auto")
        if wanted not in ("auto", "cgroup", "rlimit", "poll"):
            raise ValueError(f"{GUARD_ENV}={wanted!r}: expected auto, cgroup, rlimit or poll")
        group = Cgroup.make() if wanted != "rlimit" else None
        if wanted == "poll":
            return cls("poll", group)
        if group is not None:
            return cls(f"cgroup-{group.version}", group)
        if wanted == "cgroup":
            raise RuntimeError(f"{GUARD_ENV}=cgroup, but no memory cgroup can be made here")
        return cls("rlimit-data")

    def hold(self, memory_mb: int) -> None:
        """Set this run's limit: RSS up to `memory_mb` MB."""
        limit = memory_mb << 20
        if self.cgroup is not None:
            self.outside = max(0, (proc_status_kb("VmRSS") << 10) - self.cgroup.usage())
            with contextlib.suppress(OSError):  # below what is held already (EBUSY): the poll's to enforce
                self.cgroup.limit(max(limit - self.outside, 1 << 20) if self.how != "poll" else None)
            self.peak_resets = self.cgroup.reset_peak()
        elif self.how == "rlimit-data":
            room = max(0, limit - (proc_status_kb("VmRSS") << 10)) + int(DATA_SLACK * limit)
            set_soft_limit(resource.RLIMIT_DATA, (proc_status_kb("VmData") << 10) + room)

    def release(self) -> None:
        """Between runs nothing is limited (the answer must still be written)."""
        if self.cgroup is not None:
            with contextlib.suppress(OSError):
                self.cgroup.limit(None)
        elif self.how == "rlimit-data":
            set_soft_limit(resource.RLIMIT_DATA, resource.RLIM_INFINITY)

    def peak_bytes(self) -> int:
        """The run's peak as the cgroup saw it (plus what was charged elsewhere); 0 without a cgroup."""
        return self.cgroup.peak() + self.outside if self.cgroup is not None else 0

    def peaks(self) -> dict[str, float | None]:
        """The peak since `hold`, in MB: `peak_rss_mb` the one the verdict uses, the others apart.

        `vmhwm_mb`: this process's VmHWM (reset per run by clear_refs); `cgroup_peak_mb`: the
        cgroup's (child processes included), part of the verdict only where it restarts per run:
        otherwise it may be an earlier run's, and the verdict is VmHWM's alone.
        """
        own = proc_status_kb("VmHWM") / 1024
        group = self.peak_bytes() / (1 << 20) if self.cgroup is not None else None
        judged = max(own, group) if group is not None and self.peak_resets else own
        return {"peak_rss_mb": judged, "vmhwm_mb": own, "cgroup_peak_mb": group}

    def describe(self) -> dict:
        group = self.cgroup
        return {"guard": self.how, "cgroup": str(group.path) if group else None,
                "version": group.version if group else None, "peak_resets": self.peak_resets}

