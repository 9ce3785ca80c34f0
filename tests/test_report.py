"""The browser report from a real sweep's database: the page, its pictures, and headless Chromium using it."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import time
from html import escape, unescape
from pathlib import Path
from urllib.parse import parse_qs, quote, urlencode, urlparse

import matplotlib
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.analysis import plots
from harness.analysis.summary import summarize
from harness.report import __main__ as report_cli
from harness.report import build
from harness.run import cli as run_cli

matplotlib.use("Agg")

WRONG = ("janko001", "pm-6x6-easy-2581930")  # dummy claims unsat on these: refuted by known solutions
DUMMY = "dummy[status=unsat]"  # its label: alone and off its defaults, it says how it differs
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    """sat on masyu-smoke, a dummy that wrongly says unsat on two of its puzzles, and an older sat version."""
    path = tmp_path_factory.mktemp("report") / "runs.sqlite"
    assert run_cli.main(["--encoding", "sat", "--instances", "masyu-smoke", "--db", str(path),
                         "--time-limit", "20"]) == 0
    from harness import sets

    smoke = {i.name: i.source for i in sets.instances("masyu-smoke")}
    run_cli.main(["--encoding", "dummy", "--option", "status=unsat", "--instances", "masyu-smoke",
                  "--db", str(path), "--time-limit", "5"])
    with sqlite3.connect(path) as conn:
        # The dummy's runs on the other ten puzzles go: two wrong answers are enough to flag.
        keep = tuple(smoke[name] for name in WRONG)
        conn.execute(f"DELETE FROM runs WHERE encoding = 'dummy' AND source NOT IN {keep!r}")
        # An older version of sat's code: its rows again under another fingerprint and commit, run
        # earlier and twice as slow (no second copy of the code exists to run; the rows are the point).
        columns = [row[1] for row in conn.execute("PRAGMA table_info(runs)")]
        changed = {"run_key": "'old' || run_key", "fingerprint": "'0ld0ld0ld0ld0ld0'",
                   '"commit"': "'0123456789abcdef'", "solve_s": "solve_s * 2",
                   "solve_cpu_s": "solve_cpu_s * 2",
                   "started_at": "'2020-01-01T00:00:00' || substr(started_at, 20)",
                   "finished_at": "'2020-01-01T00:00:01' || substr(finished_at, 20)"}
        select = ", ".join(changed.get(f'"{c}"' if c == "commit" else c, f'"{c}"') for c in columns)
        conn.execute(f"INSERT INTO runs SELECT {select} FROM runs WHERE encoding = 'sat'")
    return path


@pytest.fixture(scope="module")
def report(db, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("out")
    assert report_cli.main(["--db", str(db), "--out", str(out), "--draw", "3"]) == 0
    return out


def page_data(out: Path) -> dict:
    text = (out / "index.html").read_text()
    blob = re.search(r'<script type="application/json" id="data-masyu-smoke">(.*?)</script>', text, re.S)[1]
    return json.loads(blob.replace("<\\/", "</"))


def test_the_page_and_its_assets_are_local(report):
    for name in ("index.html", "report.js", "report.css"):
        text = (report / name).read_text()
        # Nothing from another host: no absolute URL in any src, href, url() or import.
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//|@import""",
                             text), name
    html = (report / "index.html").read_text()
    for link in re.findall(r'(?:src|href)="([^"#]+)"', html):
        assert (report / link).is_file(), link
    assert (report / "sets" / "masyu-smoke" / "cactus.svg").is_file()
    scatters = [p.name for p in (report / "sets" / "masyu-smoke").glob("scatter-*.svg")]
    named = r"scatter-(dummy_status_unsat|sat)-\w{10}-vs-(sat|dummy_status_unsat)-\w{10}\.svg"  # slug, hash
    assert len(scatters) == 1 and re.fullmatch(named, scatters[0])


def test_the_summary_is_the_analysis_summary(db, report):
    runs = plots.with_config(plots.load(db))
    expected = summarize(runs, by="config")
    html = (report / "index.html").read_text()
    table = re.search(r'<table class="summary">(.*?)</table>', html, re.S)[1]
    for config, row in expected.iterrows():
        cells = re.search(rf"<tr><th>{re.escape(config)}</th>(.*?)</tr>", table)[1]
        values = re.findall(r"<td[^>]*>([^<]*)</td>", cells)
        for column in ("runs", "solved", "wrong"):
            shown = str(int(row[column])) if row[column] else ""  # a zero count shows as an empty cell
            assert values[list(expected.columns).index(column)] == shown


def test_the_runs_table_marks_and_draws_what_it_should(report):
    data = page_data(report)
    assert sorted(data["configs"]) == [DUMMY, "sat"]
    instances = data["instances"]
    assert len(instances) == 12
    flagged = sorted(v["name"] for v in instances.values() if v["flagged"])
    assert flagged == sorted(WRONG)
    drawn = [k for k, v in instances.items() if v["drawn"]]
    assert set(sorted(instances)[:3]) | {k for k, v in instances.items() if v["flagged"]} == set(drawn)
    for key in drawn:
        entry = instances[key]
        assert (report / entry["puzzle"]).is_file()
        assert (report / entry["answers"]["sat"]["img"]).is_file()  # sat's verified answer, drawn
        assert entry["status"]["sat"] == "solved"
    for name in WRONG:
        entry = next(v for v in instances.values() if v["name"] == name)
        assert entry["status"][DUMMY] == "wrong"
        assert entry["runs"][DUMMY][0]["detail"].startswith("claimed unsat")
    html = (report / "index.html").read_text()
    assert html.count('class="st-wrong"') >= len(WRONG)  # cells coloured as wrong


def test_each_time_is_shown_under_a_name_that_says_its_clock(report):
    from harness.report.data import stats

    sat = next(v for v in page_data(report)["instances"].values())["runs"]["sat"][0]
    assert sat["build_cpu_s"] > 0 and "build_wall_s" not in sat and sat["extra"]["solver_cpu_s"] > 0
    assert sat["answer_check_cpu_s"] >= 0 and sat["solve_wall_s"] > 0
    # An older row: build_s and the phase statistics on the wall clock, the proof check's check_s wall too
    old = stats({"solve_s": 1.0, "build_s": 0.1, "check_s": 0.01,
                 "extra": json.dumps({"solver_s": 0.5, "check_s": 0.2, "drat_s": 0.1})})
    assert (old["build_wall_s"], old["solve_wall_s"], old["answer_check_cpu_s"]) == (0.1, 1.0, 0.01)
    assert old["extra"] == {"solver_wall_s": 0.5, "proof_check_wall_s": 0.2, "drat_wall_s": 0.1}
    new = stats({"build_s": 0.1, "extra": json.dumps({"build_clock": "cpu", "proof_check_cpu_s": 0.2})})
    assert new == {"build_cpu_s": 0.1, "extra": {"proof_check_cpu_s": 0.2}}


def test_the_versions_view_shows_both_fingerprints_of_sat(report):
    html = (report / "index.html").read_text()
    table = re.search(r'<table class="versions">(.*?)</table>', html, re.S)[1]
    rows = re.findall(r"<tr><th>sat</th>(.*?)</tr>", table)
    assert len(rows) == 2
    assert "0ld0ld0ld0ld" in rows[0] and "01234567" in rows[0]  # oldest first, with its commit
    assert (report / "sets" / "masyu-smoke" / "versions.svg").is_file()
    ratio = float(re.findall(r'<td class="num"[^>]*>([^<]*)</td>', rows[1])[-1])
    assert ratio == pytest.approx(0.5, rel=0.01)  # the newer code took half the time


def test_runs_from_two_machines_are_said_so(db, report, tmp_path):
    assert "warning:" not in (report / "index.html").read_text()  # one host, one CPU model
    mixed = tmp_path / "mixed.sqlite"
    shutil.copy(db, mixed)
    with sqlite3.connect(mixed) as conn:
        conn.execute("UPDATE runs SET host = 'elsewhere' WHERE rowid IN (SELECT rowid FROM runs LIMIT 3)")
    out = tmp_path / "out"
    assert report_cli.main(["--db", str(mixed), "--out", str(out), "--draw", "0"]) == 0
    text = unescape((out / "index.html").read_text())
    assert re.search(r"warning: .*hosts.*elsewhere: 3 runs", text), text[:2000]


def test_draw_all_draws_every_instance_and_the_cli_refuses_bad_input(db, tmp_path, capsys):
    build(db, tmp_path / "all", draw=None)
    assert all(v["drawn"] for v in page_data(tmp_path / "all")["instances"].values())
    assert report_cli.main(["--db", str(tmp_path / "none.sqlite"), "--out", str(tmp_path / "x")]) == 2
    assert "no results database" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        report_cli.main(["--db", str(db), "--out", str(tmp_path / "x"), "--draw", "some"])


# --- in a real browser ------------------------------------------------------------------------------

def chromium(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    command = [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--virtual-time-budget=3000", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


@pytest.mark.skipif(BROWSER is None, reason="no chromium installed: the browser test needs Debian's "
                                            "`chromium` (.ci/run installs it with apt-get where it can)")
def test_in_chromium_sort_filter_and_open_an_instance(report, tmp_path):
    data = page_data(report)
    key = next(k for k, v in data["instances"].items() if v["name"] == WRONG[1])
    url = f"{(report / 'index.html').as_uri()}#set=masyu-smoke&sort=sat&desc=1&filter=easy&instance={key}"
    start = time.perf_counter()
    done = chromium("--dump-dom", url)
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout

    rows = re.findall(r'<tr data-key="([^"]+)"([^>]*)>(.*?)</tr>', dom, re.S)
    assert len(rows) == 12
    shown = [(k, body) for k, attrs, body in rows if "hidden" not in attrs]
    assert shown and all("easy" in k for k, _ in shown)  # the filter
    assert len(shown) == sum("easy" in k for k in data["instances"])
    assert re.search(r'<span class="count">(\d+) of 12 instances shown</span>', dom)[1] == str(len(shown))
    # The sort: sat's column, slowest first (rows keep their DOM order, hidden ones too).
    order = [float(re.findall(r'data-sort="([^"]+)"', body)[2 + data["configs"].index("sat")])
             for k, body in shown]
    assert order == sorted(order, reverse=True)
    assert re.search(r'<th data-col="sat"[^>]*aria-sort="descending"', dom)
    # The instance: drawn, with each configuration's answer or why there is none, and the statistics.
    detail = re.search(r'<div class="detail">(.*)</div>\s*<table class="runs">', dom, re.S)
    assert detail, "the instance drawer is open"
    panel = detail[1]
    assert f"<h3>{WRONG[1]} (6x6)</h3>" in panel
    assert data["instances"][key]["puzzle"] in panel
    assert data["instances"][key]["answers"]["sat"]["img"] in panel
    assert "no answer" in panel and 'class="chip st-wrong">wrong</span>' in panel  # the dummy's
    assert re.search(r"<th>detail</th>.*claimed unsat", panel, re.S)
    assert 'class="selected"' in dom

    shot = tmp_path / "report.png"
    done = chromium("--window-size=1400,2400", f"--screenshot={shot}", url)
    took = time.perf_counter() - start
    assert done.returncode == 0 and shot.is_file(), done.stderr[-2000:]
    import matplotlib.image

    pixels = matplotlib.image.imread(shot)
    assert pixels.shape[:2] == (2400, 1400)
    assert pixels[:400].std() > 0.05, "the top of the page is drawn (not a blank screenshot)"
    assert pixels[:, 900:].std() > 0.05, "the drawer on the right is drawn"
    # to look at by eye: pytest keeps the last runs' tmp_path folders (nothing is written into the repository)
    print(f"chromium: DOM and screenshot in {took:.1f} s; screenshot kept at {shot}")


# A page that loads the report in a frame and clicks as a person would (file pages may reach each
# other only with --allow-file-access-from-files); it writes what it saw into its own DOM.
CLICKER = """<!DOCTYPE html>
<html><body><pre id="result">pending</pre>
<iframe id="page" src="index.html" style="width:1400px;height:900px"></iframe>
<script>
const frame = document.getElementById("page");
const settle = () => new Promise((done) => setTimeout(done, 50));
frame.addEventListener("load", async () => {
  const seen = {};
  try {
    const w = frame.contentWindow, d = frame.contentDocument;
    const header = d.querySelector('table.runs th[data-col="sat"]');
    header.click(); await settle();
    seen.sorted = w.location.hash;
    header.click(); await settle();
    seen.reversed = w.location.hash;
    const input = d.querySelector("input.filter");
    input.value = "easy"; input.dispatchEvent(new Event("input")); await settle();
    seen.filtered = w.location.hash;
    seen.shown = Array.from(d.querySelectorAll("table.runs tbody tr")).filter((r) => !r.hidden)
      .map((r) => r.dataset.key);
    d.querySelector("table.runs tbody tr:not([hidden]) a.open").click(); await settle();
    seen.opened = w.location.hash;
    seen.drawer = d.querySelector(".detail").hidden ? "" : d.querySelector(".detail h3").textContent;
  } catch (error) { seen.error = String(error); }
  document.getElementById("result").textContent = JSON.stringify(seen);
});
</script></body></html>
"""


@pytest.mark.skipif(BROWSER is None, reason="no chromium installed: the browser test needs Debian's "
                                            "`chromium` (.ci/run installs it with apt-get where it can)")
def test_in_chromium_clicks_and_typing_update_the_link(report):
    (report / "clicker.html").write_text(CLICKER)
    try:
        done = chromium("--allow-file-access-from-files", "--dump-dom", (report / "clicker.html").as_uri())
    finally:
        (report / "clicker.html").unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(unescape(re.search(r'<pre id="result">(.*?)</pre>', done.stdout, re.S)[1]))
    assert "error" not in seen, seen
    assert seen["sorted"] == "#set=masyu-smoke&sort=sat"
    assert seen["reversed"] == "#set=masyu-smoke&sort=sat&desc=1"  # a second click reverses
    assert seen["filtered"] == "#set=masyu-smoke&sort=sat&desc=1&filter=easy"
    assert seen["shown"] and all("easy" in key for key in seen["shown"])
    first = seen["shown"][0]
    assert seen["opened"] == f"#set=masyu-smoke&sort=sat&desc=1&filter=easy&instance={quote(first, safe='')}"
    assert seen["drawer"].startswith(first.rpartition("/")[2])


# --- names no report may break on -------------------------------------------------------------------

HOSTILE = {  # file name -> an empty Masyu of its own size (each a puzzle, and a picture, of its own)
    "<!--<script>.txt": (2, 2), '"onmouseover=alert(1).txt': (2, 3), "a b.txt": (3, 3), "a_b.txt": (3, 4),
    "a?b.txt": (4, 4), "semi;colon&.txt": (2, 4),
}
SAME_LEAF = {"c1/sub/g.txt": "3 2\n- -\n- -\n- -\n", "c2/sub/g.txt": "2 2\nb -\n- -\n"}  # solved; unsat


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    """A report of two sweeps: files named to break a page, and two files of one name in two folders."""
    root = tmp_path_factory.mktemp("hostile")
    names = root / "a-names"
    names.mkdir()
    for name, (rows, cols) in HOSTILE.items():
        grid = "\n".join(" ".join("-" * cols) for _ in range(rows))
        (names / name).write_text(f"{rows} {cols}\n{grid}\n")
    for name, text in SAME_LEAF.items():
        (root / "b-same" / name).parent.mkdir(parents=True)
        (root / "b-same" / name).write_text(text)
    db = root / "runs.sqlite"
    for spec in (str(names), str(root / "b-same" / "*" / "sub" / "g.txt")):
        assert run_cli.main(["--encoding", "sat", "--instances", spec, "--db", str(db)]) == 0
    out = root / "out"
    assert report_cli.main(["--db", str(db), "--out", str(out), "--draw", "all"]) == 0
    return out


def blocks(out: Path) -> dict[str, dict]:
    """Every set's data block, as JSON.parse would read it."""
    text = (out / "index.html").read_text()
    return {m[1]: json.loads(m[2]) for m in re.finditer(
        r'<script type="application/json" id="data-([^"]+)">(.*?)</script>', text, re.S)}


def test_hostile_names_keep_their_own_rows_pictures_and_links(hostile):
    text = (hostile / "index.html").read_text()
    found = blocks(hostile)
    assert len(found) == 2
    for blob in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', text, re.S):
        assert not re.search(r"[<>&]", blob)  # nothing in a data block the HTML parser could act on
    instances = {v["name"]: (k, v) for one in found.values() for k, v in one["instances"].items()}
    assert set(instances) == {n.removesuffix(".txt") for n in HOSTILE} | {"g"}
    pictures = [v["puzzle"] for one in found.values() for v in one["instances"].values() if v.get("puzzle")]
    assert len(pictures) == len(set(pictures)) == len(HOSTILE) + 2  # `a b`, `a_b`, `a?b`: a file each
    assert all((hostile / p).is_file() for p in pictures)
    same = [(k, v) for one in found.values() for k, v in one["instances"].items() if v["name"] == "g"]
    assert len(same) == 2 and len({k for k, _ in same}) == 2  # two rows, not one hiding the other
    assert sorted(next(iter(v["status"].values())) for _, v in same) == ["solved", "unproven"]
    assert sorted(k.partition("/")[2] for k, _ in same) == ["c1/sub/g", "c2/sub/g"]  # the whole path
    for slug, one in found.items():
        for key in one["instances"]:  # each row's link, as written, names its set and key exactly
            row = re.search(rf'<tr data-key="{re.escape(escape(key))}".*?href="([^"]+)"', text, re.S)
            href = unescape(row[1])
            assert parse_qs(urlparse(href).fragment) == {"set": [slug], "instance": [key]}


# Opens every row of every set by its own link (the href as written: what a person pastes), and writes
# what each drawer showed into its own DOM.
OPENER = """<!DOCTYPE html>
<html><body><pre id="result">pending</pre>
<iframe id="page" src="index.html" style="width:1400px;height:900px"></iframe>
<script>
const frame = document.getElementById("page");
const settle = () => new Promise((done) => setTimeout(done, 30));
frame.addEventListener("load", async () => {
  const seen = {sets: [], counts: {}, opened: []};
  try {
    const w = frame.contentWindow, d = frame.contentDocument;
    for (const section of d.querySelectorAll("section.set")) {
      seen.sets.push(section.dataset.set);
      seen.counts[section.dataset.set] = section.querySelector(".count").textContent;
      for (const link of section.querySelectorAll("table.runs tbody a.open")) {
        w.location.hash = link.getAttribute("href");
        await settle();
        const panel = section.querySelector(".detail");
        seen.opened.push({set: section.dataset.set, key: link.closest("tr").dataset.key, hidden: panel.hidden,
          title: (panel.querySelector("h3") || {}).textContent || "",
          warn: (panel.querySelector(".warn") || {}).textContent || "",
          images: Array.from(panel.querySelectorAll("img")).map((i) => i.getAttribute("src")),
          chips: Array.from(panel.querySelectorAll(".chip")).map((c) => c.textContent)});
      }
    }
  } catch (error) { seen.error = String(error); }
  document.getElementById("result").textContent = JSON.stringify(seen);
});
</script></body></html>
"""


@pytest.mark.skipif(BROWSER is None, reason="no chromium installed: the browser test needs Debian's "
                                            "`chromium` (.ci/run installs it with apt-get where it can)")
def test_in_chromium_every_set_and_panel_of_hostile_names_is_there_and_report_js_ran(hostile):
    found = blocks(hostile)
    (hostile / "opener.html").write_text(OPENER)
    try:
        done = chromium("--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom",
                        (hostile / "opener.html").as_uri(), timeout=120)
    finally:
        (hostile / "opener.html").unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    seen = json.loads(unescape(re.search(r'<pre id="result">(.*?)</pre>', done.stdout, re.S)[1]))
    assert "error" not in seen, seen
    assert seen["sets"] == list(found)  # the set after the `<!--<script>` one is there: nothing swallowed
    for slug, one in found.items():  # report.js ran over each set: it writes the count
        assert seen["counts"][slug] == f"{len(one['instances'])} of {len(one['instances'])} instances shown"
    assert [(o["set"], o["key"]) for o in seen["opened"]] == [(s, k) for s, one in found.items()
                                                              for k in sorted(one["instances"])]
    for opened in seen["opened"]:
        entry = found[opened["set"]]["instances"][opened["key"]]
        assert not opened["hidden"] and not opened["warn"], opened  # never "no instance"
        assert opened["title"] == f"{entry['name']} ({entry['size']})"
        answer = [entry["answers"]["sat"]["img"]] if "sat" in entry.get("answers", {}) else []
        assert opened["images"] == [entry["puzzle"], *answer]  # the puzzle, and sat's answer if it has one
        assert opened["chips"] == [entry["status"]["sat"]]
    # and the page itself: a direct link to the `semi;colon&` instance opens it, not "no instance"
    slug, key = next((s, k) for s, one in found.items() for k, v in one["instances"].items()
                     if v["name"] == "semi;colon&")
    url = f"{(hostile / 'index.html').as_uri()}#{urlencode({'set': slug, 'instance': key})}"
    dom = chromium("--dump-dom", url).stdout
    assert "<h3>semi;colon&amp; (2x4)</h3>" in dom and "no instance" not in dom


# --- properties (Hypothesis): any name round-trips and never leaves its script element -------------------

PIECES = ["<!--", "<script>", "</script>", "</", "-->", "<", ">", "&", '"', "'", "\\", "\u2028",
          "onmouseover=", " ", "?", ";", "#", "%", "+", "a"]
NAMES = st.text(max_size=40) | st.lists(st.sampled_from(PIECES), max_size=12).map("".join)
BUDGET = settings(max_examples=200, deadline=None, derandomize=True, database=None,
                  suppress_health_check=[HealthCheck.too_slow])


@BUDGET
@given(NAMES, NAMES, NAMES)
def test_any_name_round_trips_through_the_data_block_and_never_breaks_out_of_it(name, key, config):
    from harness.report.page import data_block

    instances = {key: {"name": name, "source": f"{name}/{key}.txt", "runs": {config: [{"detail": name}]}}}
    block = data_block("set-1", [config], instances)
    opening = '<script type="application/json" id="data-set-1">'
    assert block.startswith(opening) and block.endswith("</script>")
    body = block[len(opening):-len("</script>")]
    # No `<` at all: the HTML tokenizer leaves the script data state only at a `<`, so the element ends at
    # its own end tag whatever the names hold (`<!--<script>` included), and nothing else in it is markup.
    assert not re.search(r"[<>&]", body)
    parsed = json.loads(body)
    assert parsed["instances"] == instances and parsed["configs"] == [config]


@BUDGET
@given(NAMES.filter(bool), NAMES.filter(bool))
def test_any_key_makes_one_link_and_names_that_slug_alike_get_files_of_their_own(key, other):
    from harness.report.data import unique_slug
    from harness.report.page import fragment

    assert parse_qs(fragment(set="s", instance=key)[1:]) == {"set": ["s"], "instance": [key]}
    named = unique_slug(key)
    assert re.fullmatch(r"[\w.-]+", named) and len(named) <= 71 and ("/" not in named)
    if key != other:
        assert unique_slug(other) != named


def test_a_set_named_by_a_hundred_files_gets_a_folder_name_a_file_system_takes():
    from harness.report.data import set_slug

    assert set_slug("graph-fhcp-sample") == "graph-fhcp-sample"  # short ones as before: old links still open
    long = ",".join(f"graph{i}.hcp.gz" for i in range(100))  # one sweep's --instances, file by file
    assert len(set_slug(long)) <= 71 and set_slug(long) != set_slug(long[:-1])
