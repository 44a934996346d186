"""The report in a real browser: headless Chromium (the Debian package `chromium`; without it the test is skipped
and says `apt-get install -y chromium`) opens the rating sheet of a real build offline, the sections' counts are
the manifest's, mouse clicks rate pairs, the ratings survive a reload (localStorage), the download button saves
ratings.csv, and `paranmt report --ratings` turns that file into the per-band table; a blind sheet (`--rate
--blind`) rated in the browser saves the CSV the open sheet saves for the same answers.

Chromium is driven over the DevTools protocol with websocket-client (in requirements/lock.txt): no driver package.
"""
import csv
import json
import shutil
import subprocess
import time

import pytest

from paranmt.pipelines.cli import main

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
INSTALL = "apt-get install -y chromium"


class Browser:
    """One headless Chromium and one page of it, over the DevTools protocol."""

    def __init__(self, binary: str, profile, downloads):
        import websocket

        self.process = subprocess.Popen(
            [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
             "--remote-debugging-port=0", f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file, deadline = profile / "DevToolsActivePort", time.time() + 60
        while not (port_file.exists() and len(port_file.read_text().split()) == 2):
            assert self.process.poll() is None and time.time() < deadline, "chromium did not start"
            time.sleep(0.1)
        port, path = port_file.read_text().split()
        self.socket = websocket.create_connection(f"ws://127.0.0.1:{port}{path}", timeout=60, suppress_origin=True)
        self.calls, self.events, self.session = 0, [], None
        self.send("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(downloads), eventsEnabled=True)
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Page.enable")
        self.send("Runtime.enable")

    def send(self, method: str, **params) -> dict:
        self.calls += 1
        message = {"id": self.calls, "method": method, "params": params}
        if self.session and not method.startswith(("Browser.", "Target.")):
            message["sessionId"] = self.session
        self.socket.send(json.dumps(message))
        while True:
            reply = json.loads(self.socket.recv())
            if reply.get("id") == self.calls:
                assert "error" not in reply, (method, reply["error"])
                return reply.get("result", {})
            self.events.append(reply)

    def evaluate(self, expression: str):
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        assert "exceptionDetails" not in result, result["exceptionDetails"]
        return result["result"].get("value")

    def open(self, url: str) -> None:
        self.send("Page.navigate", url=url)
        self.wait_for("document.readyState === 'complete' && location.href === " + json.dumps(url))

    def reload(self) -> None:
        self.evaluate("window.__before_reload = true")
        self.send("Page.reload")
        self.wait_for("document.readyState === 'complete' && window.__before_reload === undefined")

    def wait_for(self, condition: str, seconds: float = 30) -> None:
        deadline = time.time() + seconds
        while not self.evaluate(condition):
            assert time.time() < deadline, f"still not true after {seconds} s: {condition}"
            time.sleep(0.05)

    def click(self, selector: str) -> None:
        """A mouse click (pressed and released) in the middle of the element, scrolled into view first."""
        x, y = self.evaluate(f"""(function () {{
            var element = document.querySelector({json.dumps(selector)});
            element.scrollIntoView({{block: "center"}});
            var box = element.getBoundingClientRect();
            return [box.left + box.width / 2, box.top + box.height / 2]; }})()""")
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def errors(self) -> list:
        return [e for e in self.events if e.get("method") in ("Runtime.exceptionThrown", "Log.entryAdded")
                and (e["method"] == "Runtime.exceptionThrown" or e["params"]["entry"]["level"] == "error")]

    def close(self) -> None:
        self.socket.close()
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture
def browser(tmp_path):
    binary = next((found for name in BROWSERS if (found := shutil.which(name))), None)
    if binary is None:
        pytest.skip(f"no Chromium for the browser test: {INSTALL}")
    (tmp_path / "profile").mkdir()
    (tmp_path / "downloads").mkdir()
    chromium = Browser(binary, tmp_path / "profile", tmp_path / "downloads")
    yield chromium
    chromium.close()


def test_the_rating_sheet_in_chromium_round_trips_through_the_csv(report_build, browser, tmp_path, capsys):
    output = tmp_path / "sheet"
    assert main(["report", "--input", str(report_build), "--output", str(output), "--rate", "--per-band", "3"]) == 0
    browser.open((output / "index.html").as_uri())
    manifest = json.loads((report_build / "__paranmt__" / "manifest.json").read_text())
    build = browser.evaluate("Object.assign({}, document.querySelector('#build').dataset)")
    assert {key: int(build[key]) for key in ("read", "written", "rejected")} == {
        key: sum(shard[key] for shard in manifest["shards"]) for key in ("read", "written", "rejected")}
    assert browser.evaluate("Array.from(document.querySelectorAll('main > section')).map(s => s.id)") == [
        "build", "distributions", "statistics", "templates", "samples", "filters"]
    assert browser.evaluate("document.querySelectorAll('svg.histogram').length") >= 8
    pairs = browser.evaluate("Array.from(document.querySelectorAll('article.pair[data-rate]'))"
                             ".map(a => [a.dataset.pairId, a.dataset.band, a.dataset.bandRows])")
    assert len(pairs) == int(browser.evaluate("document.querySelector('#samples').dataset.shown")) > 2
    assert browser.evaluate("document.getElementById('rating-progress').textContent") == \
        f"0 of {len(pairs)} pairs rated"

    browser.click("input[name='paraphrase-0'][value='3']")     # the radios of the n-th pair: QUESTION-n
    browser.click("input[name='fluency-0'][value='2']")
    browser.click("input[name='paraphrase-1'][value='1']")
    assert browser.evaluate("document.getElementById('rating-progress').textContent") == \
        f"1 of {len(pairs)} pairs rated"
    browser.reload()            # the ratings are kept in the browser
    assert browser.evaluate("document.querySelector(\"input[name='paraphrase-0'][value='3']\").checked") is True
    assert browser.evaluate("document.getElementById('rating-progress').textContent") == \
        f"1 of {len(pairs)} pairs rated"

    browser.click("#rating-download")
    saved = tmp_path / "downloads" / "ratings.csv"
    deadline = time.time() + 30
    while not saved.exists():
        assert time.time() < deadline, "no ratings.csv downloaded"
        time.sleep(0.1)
    rows = list(csv.DictReader(saved.read_text(encoding="utf-8").splitlines()))
    first_band = pairs[0][1]
    assert [(r["pair_id"], r["band"], r["paraphrase"], r["fluency"]) for r in rows] == [
        (pairs[0][0], first_band, "3", "2"), (pairs[1][0], pairs[1][1], "1", "")]
    assert rows[0]["band_rows"] == pairs[0][2] and rows[0]["by"] == "para_score"
    assert not browser.errors()

    capsys.readouterr()
    assert main(["report", "--ratings", str(saved), "--output", str(tmp_path / "table")]) == 0
    printed = capsys.readouterr().out
    table = json.loads((tmp_path / "table" / "ratings.json").read_text())
    rated = {band["band"]: band for band in table["bands"]}
    assert rated[first_band]["paraphrase"]["3"] >= 1 and sum(b["rated"] for b in table["bands"]) == 2
    assert f"| para_score {first_band} |" in printed and "| (0.8, 1] | 18.0 | 1/13/86 |" in printed
    assert (tmp_path / "table" / "ratings.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def download(browser, folder) -> list[str]:
    """The lines of the ratings.csv the sheet's download button saves into `folder`."""
    folder.mkdir()
    browser.send("Browser.setDownloadBehavior", behavior="allow", downloadPath=str(folder), eventsEnabled=True)
    browser.click("#rating-download")
    saved, deadline = folder / "ratings.csv", time.time() + 30
    while not saved.exists():
        assert time.time() < deadline, "no ratings.csv downloaded"
        time.sleep(0.1)
    return saved.read_text(encoding="utf-8").splitlines()


def test_a_blind_sheet_in_chromium_saves_the_csv_of_the_open_sheet(report_build, browser, tmp_path):
    """Every pair of the blind sheet rated by its number (answers cycling through 1-3), the CSV downloaded; the
    same answers given to the same pairs of the sheet without --blind save the same lines, and the same table."""
    for name, flags in (("blind", ["--blind"]), ("open", [])):
        assert main(["report", "--input", str(report_build), "--output", str(tmp_path / name), "--rate",
                     "--per-band", "3", *flags]) == 0
    browser.open((tmp_path / "blind" / "index.html").as_uri())
    shown = browser.evaluate("document.querySelectorAll('article.pair[data-rate]').length")
    assert shown > 5 and browser.evaluate("document.querySelector('article.pair[data-band], .scores, mark')") is None
    browser.evaluate(f"""for (var i = 0; i < {shown}; i += 1) {{
        document.querySelector("input[name='paraphrase-" + i + "'][value='" + (1 + i % 3) + "']").click();
        document.querySelector("input[name='fluency-" + i + "'][value='" + (1 + Math.floor(i / 3) % 3) + "']").click();
    }}""")
    assert browser.evaluate("document.getElementById('rating-progress').textContent") == \
        f"{shown} of {shown} pairs rated"
    blind = download(browser, tmp_path / "blind-csv")
    answers = {row["pair_id"]: (row["paraphrase"], row["fluency"]) for row in csv.DictReader(blind)}
    assert len(answers) == shown and all(row["band"] and row["band_rows"] for row in csv.DictReader(blind))

    browser.open((tmp_path / "open" / "index.html").as_uri())
    browser.evaluate(f"""(function (answers) {{
        document.querySelectorAll("article.pair[data-rate]").forEach(function (pair, i) {{
            var given = answers[pair.dataset.pairId];
            document.querySelector("input[name='paraphrase-" + i + "'][value='" + given[0] + "']").click();
            document.querySelector("input[name='fluency-" + i + "'][value='" + given[1] + "']").click();
        }}); }})({json.dumps(answers)})""")
    opened = download(browser, tmp_path / "open-csv")
    assert opened[0] == blind[0] and sorted(opened) == sorted(blind) and opened != blind    # another order
    assert not browser.errors()
    tables = []
    for name in ("blind", "open"):
        assert main(["report", "--ratings", str(tmp_path / f"{name}-csv" / "ratings.csv"), "--output",
                     str(tmp_path / f"{name}-table")]) == 0
        tables.append(json.loads((tmp_path / f"{name}-table" / "ratings.json").read_text())["bands"])
    assert tables[0] == tables[1] and sum(band["rated"] for band in tables[0]) == shown
