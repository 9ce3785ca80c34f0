"""The report's summary tables fit the page's width: their long column names wrap, in headless Chromium."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html import unescape

import pytest

from harness.report import __main__ as report_cli

BROWSER = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
# px: a laptop's window, where the summary's twenty-odd columns, their names unbroken, ran off the
# page (2,100 px wide); and a phone's, where the table scrolls in its own box and the page stays put
LAPTOP, PHONE = 1024, 480

# The report in a frame so many px wide; what it measured goes into the page's own DOM.
MEASURE = """<!DOCTYPE html>
<html><body><pre id="result">pending</pre>
<iframe id="page" src="index.html" style="width:%dpx;height:900px;border:0"></iframe>
<script>
const frame = document.getElementById("page");
frame.addEventListener("load", () => {
  const seen = {};
  try {
    const w = frame.contentWindow, d = frame.contentDocument;
    seen.width = w.innerWidth;
    seen.tables = Array.from(d.querySelectorAll("table.summary")).map((t) => {
      const box = t.parentElement;  // the summary's own box: it scrolls if nothing else will do
      return {right: t.getBoundingClientRect().right, scroll: box.scrollWidth, client: box.clientWidth,
              boxRight: box.getBoundingClientRect().right};
    });
  } catch (error) { seen.error = String(error); }
  document.getElementById("result").textContent = JSON.stringify(seen);
});
</script></body></html>
"""


@pytest.mark.skipif(BROWSER is None, reason="no chromium installed: the browser test needs Debian's "
                                            "`chromium` (.ci/run installs it with apt-get where it can)")
def test_the_summary_table_fits_a_narrow_page(smoke_db, tmp_path):
    out = tmp_path / "report"
    assert report_cli.main(["--db", str(smoke_db), "--out", str(out), "--draw", "0"]) == 0
    html = (out / "index.html").read_text()
    assert "speedup_<wbr>vs_<wbr>" in html  # the long names may wrap after each `_`
    for width, fits in ((LAPTOP, True), (PHONE, False)):
        (out / "measure.html").write_text(MEASURE % width)
        done = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                               "--allow-file-access-from-files", "--virtual-time-budget=3000", "--dump-dom",
                               (out / "measure.html").as_uri()], capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        seen = json.loads(unescape(re.search(r'<pre id="result">(.*?)</pre>', done.stdout, re.S)[1]))
        assert "error" not in seen and seen["tables"] and seen["width"] == width, seen
        for table in seen["tables"]:
            assert table["boxRight"] <= width, seen  # the summary's box stays on the page
            if fits:  # and on a laptop the whole table is in it, nothing to scroll
                assert table["right"] <= width and table["scroll"] <= table["client"], seen


def test_without_out_the_report_goes_beside_the_database(smoke_db, tmp_path, capsys):
    db = tmp_path / "study" / "runs.sqlite"
    db.parent.mkdir()
    shutil.copyfile(smoke_db, db)
    assert report_cli.main(["--db", str(db), "--draw", "0"]) == 0
    assert (tmp_path / "study" / "report" / "index.html").is_file()
    assert str(tmp_path / "study" / "report" / "index.html") in capsys.readouterr().out
