"""Memory cgroups v1 and v2: the worker's cgroup found (mountinfo's root), limits lifted, peaks reset.

The v2 tests run on a hierarchy of files made for them: this machine's kernel binds the memory
controller to v1, so no v2 hierarchy with it can be mounted here. The v1 tests at the end run on
the real delegated hierarchy where one is there (skipped, saying so, where not).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from harness.run import memory
from harness.run.memory import Cgroup, Guard, _own_cgroup, proc_status_kb

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
