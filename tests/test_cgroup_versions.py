"""Memory cgroups v1 and v2: the worker's cgroup found (mountinfo's root), limits lifted, peaks reset.

Most v2 tests run on a hierarchy of files made for them. `test_v2_on_a_real_mount_...` mounts a
cgroup2 hierarchy itself (`mount -t cgroup2`, as root) and runs the v2 path there when the kernel
offers the memory controller in it; where it does not (this machine binds memory to v1, so its
cgroup2 root offers `hugetlb` alone) it runs what the real mount allows (the v2 cgroup found through
the real mountinfo line, a child made in the real hierarchy refused for want of `memory.max` and
removed) and the rest on files, and prints and records (`record_property("cgroup_v2", ...)`) which
ran. The v1 tests at the end run on the real delegated hierarchy where one is there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.run import memory
from harness.run.memory import MOUNTS, Cgroup, Guard, _own_cgroup, proc_status_kb

V1_MOUNT = "35 31 0:32 {root} {point} rw,relatime - cgroup cgroup rw,memory\n"
V2_MOUNT = "41 31 0:38 {root} {point} rw,relatime - cgroup2 cgroup2 rw\n"


def tables(tmp_path, cgroup: str, mounts: str) -> tuple[str, str]:
    (tmp_path / "cgroup").write_text(cgroup)
    (tmp_path / "mountinfo").write_text(mounts)
    return str(tmp_path / "cgroup"), str(tmp_path / "mountinfo")


def test_v1_on_the_host_is_the_mount_point_plus_the_path(tmp_path):
    mounts = V1_MOUNT.format(root="/", point="/mnt/mem")
    found = _own_cgroup(*tables(tmp_path, "4:memory:/a/b\n0::/\n", mounts))
    assert found == ("v1", memory.Path("/mnt/mem/a/b"))


def test_v1_in_a_container_honours_the_mounts_root(tmp_path):
    # The container sees its hierarchy from /process_api/x: its cgroup's folder is below the mount point.
    mounts = V1_MOUNT.format(root="/process_api/x", point="/sys/fs/cgroup/memory")
    found = _own_cgroup(*tables(tmp_path, "4:memory:/process_api/x/run\n", mounts))
    assert found == ("v1", memory.Path("/sys/fs/cgroup/memory/run"))
    assert _own_cgroup(*tables(tmp_path, "4:memory:/process_api/x\n", mounts))[1] == memory.Path(
        "/sys/fs/cgroup/memory")
    # A mount whose root is not above the cgroup does not show it (nor does /process_api/xy).
    assert _own_cgroup(*tables(tmp_path, "4:memory:/process_api/xy\n", mounts)) is None


def fake_v2(folder, peak: str | None = "0") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cgroup.controllers").write_text("cpu memory pids\n")
    (folder / "memory.max").write_text("max\n")
    (folder / "memory.current").write_text(str(50 << 20))
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    if peak is not None:
        (folder / "memory.peak").write_text(peak)


def test_v2_is_found_below_the_mounts_root_where_it_has_the_memory_controller(tmp_path):
    fake_v2(tmp_path / "hierarchy" / "job")
    mounts = V2_MOUNT.format(root="/outer", point=tmp_path / "hierarchy")
    found = _own_cgroup(*tables(tmp_path, "0::/outer/job\n", mounts))
    assert found == ("v2", tmp_path / "hierarchy" / "job")
    (tmp_path / "hierarchy" / "job" / "cgroup.controllers").write_text("cpu pids\n")
    assert _own_cgroup(*tables(tmp_path, "0::/outer/job\n", mounts)) is None


def test_a_lifted_limit_is_max_on_v2_and_minus_one_on_v1(tmp_path):
    fake_v2(tmp_path / "v2")
    group = Cgroup("v2", tmp_path / "v2")
    group.limit(300 << 20)
    assert (tmp_path / "v2" / "memory.max").read_text() == str(300 << 20)
    group.limit(None)
    assert (tmp_path / "v2" / "memory.max").read_text() == "max"
    assert group.oom_kills() == 1
    (tmp_path / "v1").mkdir()
    Cgroup("v1", tmp_path / "v1").limit(None)
    assert (tmp_path / "v1" / "memory.limit_in_bytes").read_text() == "-1"


def test_a_peak_that_resets_is_judged_with_the_processes_own(tmp_path):
    fake_v2(tmp_path / "v2", peak=str(900 << 20))
    guard = Guard("cgroup-v2", Cgroup("v2", tmp_path / "v2"))
    assert guard.peak_resets  # the write went in and the peak now reads below the usage
    guard.hold(400)
    assert (tmp_path / "v2" / "memory.peak").read_text() == "0"
    (tmp_path / "v2" / "memory.peak").write_text(str(350 << 20))  # the run's own peak, children included
    peaks = guard.peaks()
    assert peaks["cgroup_peak_mb"] >= 350
    assert peaks["peak_rss_mb"] == max(peaks["vmhwm_mb"], peaks["cgroup_peak_mb"])


def test_a_peak_the_kernel_will_not_reset_is_reported_apart_and_not_judged(tmp_path):
    # A kernel before 6.12: memory.peak is read-only and spans the cgroup's life. A read-only
    # integer file of /proc stands in for it (root cannot write it either).
    fake_v2(tmp_path / "v2", peak=None)
    (tmp_path / "v2" / "memory.peak").symlink_to("/proc/sys/kernel/ngroups_max")
    guard = Guard("cgroup-v2", Cgroup("v2", tmp_path / "v2"))
    assert not guard.peak_resets
    guard.hold(400)
    assert not guard.peak_resets and guard.describe()["peak_resets"] is False
    peaks = guard.peaks()
    assert peaks["cgroup_peak_mb"] is not None  # reported apart ...
    assert peaks["peak_rss_mb"] == peaks["vmhwm_mb"] == proc_status_kb("VmHWM") / 1024  # ... judged: VmHWM


REAL_V1 = """
import json
from harness.run.memory import Guard
guard = Guard.choose()
out = guard.describe()
if guard.cgroup is not None:
    name = "memory.limit_in_bytes" if guard.cgroup.version == "v1" else "memory.max"
    guard.hold(300)
    out["held"] = guard.cgroup._read(name)
    guard.release()
    out["released"] = guard.cgroup._read(name)
    guard.cgroup.leave()
print(json.dumps(out))
"""


def test_the_real_hierarchy_takes_a_limit_resets_its_peak_and_lifts_the_limit():
    done = subprocess.run([sys.executable, "-c", REAL_V1], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout)
    if said["cgroup"] is None:
        pytest.skip("no memory cgroup can be made here: the real-hierarchy path did not run")
    assert said["peak_resets"] is True  # v1's max_usage_in_bytes, or v2 on a kernel >= 6.12
    assert 0 < int(said["held"]) <= 300 << 20
    assert said["released"].strip() == "max" or int(said["released"]) > 1 << 40


V2_PATH = """
import json, sys
from pathlib import Path
from harness.run.memory import Cgroup, Guard
folder, real = Path(sys.argv[1]), sys.argv[2] == "real"
group = Cgroup.make(("v2", folder)) if real else Cgroup("v2", folder)
said = {"made": group is not None}
if group is not None:
    guard = Guard("cgroup-v2", group)
    guard.hold(300)
    said["held"] = group._read("memory.max").strip()
    guard.release()
    said["released"] = group._read("memory.max").strip()
    said["peak_resets"], said["peaks"] = guard.peak_resets, guard.peaks()
    if real:
        group.leave()
print(json.dumps(said))
"""


def v2_path(folder: Path, real: bool) -> dict:
    """The worker's v2 steps in a process of their own (a real cgroup takes the process in):
    make or take the cgroup, hold a 300 MB limit, lift it, reset and read the peak."""
    done = subprocess.run([sys.executable, "-c", V2_PATH, str(folder), "real" if real else "files"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def v2_mount(tmp_path):
    """A cgroup2 hierarchy mounted for the test, unmounted after it: (mount point, '') or (None, why not)."""
    point = tmp_path / "cgroup2"
    point.mkdir()
    if shutil.which("mount") is None or os.geteuid() != 0:
        yield None, "cannot mount here (no mount command, or not root)"
        return
    done = subprocess.run(["mount", "-t", "cgroup2", "none", str(point)], capture_output=True, text=True)
    if done.returncode != 0:
        yield None, f"mount -t cgroup2 refused: {done.stderr.strip() or done.returncode}"
        return
    try:
        yield point, ""
    finally:
        subprocess.run(["umount", str(point)], check=False)


def test_v2_on_a_real_mount_where_the_kernel_gives_it_memory_else_on_files(v2_mount, tmp_path,
                                                                           record_property):
    point, why = v2_mount
    ran = ""
    if point is not None:
        # The real mount's line of mountinfo alone, so the v2 hierarchy is the one found (root field honoured)
        line = next(row for row in Path(MOUNTS).read_text().splitlines() if row.split()[4] == str(point))
        own = [row.split(":", 2)[2] for row in Path("/proc/self/cgroup").read_text().splitlines()
               if row.startswith("0::")]
        folder = memory._below(str(point), line.split()[3], own[0])  # this process's v2 cgroup there
        controllers = (folder / "cgroup.controllers").read_text().split() if folder else []
        found = _own_cgroup("/proc/self/cgroup", tables(tmp_path, "", line + "\n")[1])
        if folder is None:
            why = f"mounted, but this process's cgroup {own[0]} is not below the mount's root"
        elif "memory" in controllers:
            assert found == ("v2", folder)
            said = v2_path(folder, real=True)
            if said["made"]:
                assert 0 < int(said["held"]) <= 300 << 20 and said["released"] == "max", said
                resets = tuple(map(int, os.uname().release.split(".")[:2])) >= (6, 12)
                assert said["peak_resets"] is resets, said  # memory.peak takes a write from 6.12 on
                ran = f"real cgroup2 mount at {point}: limit held, lifted with max, peak reset {resets}"
            else:
                why = f"mounted; memory offered at {folder}, but a child of it gets no memory.max"
        else:
            # Without the memory controller the v2 path must refuse the real hierarchy, and clean up after it
            assert found is None
            assert Cgroup.make(("v2", folder)) is None
            assert not [p for p in folder.iterdir() if p.name.startswith("loopbench-worker-")]
            why = (f"mounted; its cgroup offers {' '.join(controllers) or 'no controller'}, not memory (the "
                   f"kernel binds memory to v1): on the real mount the v2 cgroup was refused for want of "
                   f"memory and a child made in it refused and removed; limits and peaks ran on files")
    if not ran:
        fake_v2(tmp_path / "files")
        said = v2_path(tmp_path / "files", real=False)
        assert said["made"] and said["released"] == "max" and said["peak_resets"] is True, said
        assert 0 < int(said["held"]) <= 300 << 20
        ran = f"files made for the test ({why})"
    record_property("cgroup_v2", ran)
    print(f"cgroup v2 path ran on: {ran}")
