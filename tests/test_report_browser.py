"""The HTML report as a person sees it: headless Chromium loads the page (no script of its
own), the test reads the rendered text, clicks the filters and saves screenshots.

Chromium is driven through its DevTools protocol over a pipe (``--remote-debugging-pipe``:
JSON messages ending in a NUL byte on file descriptors 3 and 4), with the standard library
only. The screenshots go to ``$TOOLMATCH_SCREENSHOTS`` (CI keeps that folder as an
artifact), else to the test's temporary folder. Outside CI the test skips, saying so, when
no browser is installed; in CI (``CI=true``) a missing browser fails it.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from commands import ROOT, toolmatch

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


def browser() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI") == "true":
        pytest.fail(f"no browser in CI: .ci/run installs Debian's chromium (looked for {BROWSERS})")
    pytest.skip(
        f"no browser installed (looked for {', '.join(BROWSERS)}): apt-get install chromium"
    )


class DevTools:
    """A headless Chromium and one page of it, driven over the DevTools pipe."""

    def __init__(self, executable: str, profile: Path) -> None:
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        os.set_inheritable(to_browser_r, True)
        os.set_inheritable(from_browser_w, True)

        def descriptors() -> None:  # the browser reads fd 3 and writes fd 4
            os.dup2(to_browser_r, 3)
            os.dup2(from_browser_w, 4)

        self.process = subprocess.Popen(
            [
                executable,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--remote-debugging-pipe",
                f"--user-data-dir={profile}",
                "about:blank",
            ],
            preexec_fn=descriptors,
            close_fds=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        self._buffer = b""
        self._next = 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        attached = self.call("Target.attachToTarget", targetId=target, flatten=True)
        self.session = attached["sessionId"]

    def call(self, method: str, session: str | None = None, **params: object) -> dict:  # type: ignore[type-arg]
        self._next += 1
        message: dict[str, object] = {"id": self._next, "method": method, "params": params}
        if session is not None:
            message["sessionId"] = session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            while b"\0" not in self._buffer:
                chunk = os.read(self._from_browser, 1 << 16)
                if not chunk:
                    raise RuntimeError("the browser closed the pipe")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            reply = json.loads(raw)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]  # type: ignore[no-any-return]

    def page(self, method: str, **params: object) -> dict:  # type: ignore[type-arg]
        return self.call(method, self.session, **params)

    def evaluate(self, expression: str) -> object:
        """What the test reads of the page (the page itself runs no script)."""
        result = self.page("Runtime.evaluate", expression=expression, returnByValue=True)
        return result["result"].get("value")

    def load(self, url: str) -> None:
        self.page("Page.enable")
        self.page(
            "Emulation.setDeviceMetricsOverride",
            width=1200,
            height=900,
            deviceScaleFactor=1,
            mobile=False,
        )
        self.page("Page.navigate", url=url)
        for _ in range(200):  # until the document is complete
            if self.evaluate("document.readyState") == "complete":
                return
        raise RuntimeError(f"{url} did not load")

    def screenshot(self, path: Path) -> None:
        data = self.page("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        path.write_bytes(base64.b64decode(data["data"]))

    def close(self) -> None:
        with contextlib.suppress(RuntimeError, OSError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


FLAKY_SPEC = """test_cases:
  - name: weather
    expected_tools: [{name: get_weather, args: {city: {$fuzzy: rome}, when: {day: 1}}}]
  - name: steady
    expected_tools: [send_email]
"""


def flaky_traces() -> str:
    rome = {"name": "get_weather", "args": {"city": "Rome", "when": {"day": 1}}}
    lyon = {"name": "get_weather", "args": {"city": "Lyon", "when": {"day": 2}}}
    email = {"name": "send_email", "args": {"to": "ada@example.com"}}
    runs = [("weather", rome), ("weather", lyon), ("weather", rome), ("steady", email)]
    runs += [("steady", email)]
    return "".join(json.dumps({"case": case, "turns": [[call]]}) + "\n" for case, call in runs)


@pytest.fixture
def devtools(tmp_path: Path):  # type: ignore[no-untyped-def]
    driver = DevTools(browser(), tmp_path / "profile")
    yield driver
    driver.close()


def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("TOOLMATCH_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_page_as_rendered(devtools: DevTools, tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(FLAKY_SPEC)
    page = tmp_path / "report.html"
    result = toolmatch("check", spec, "-", "--html", page, stdin=flaky_traces())
    assert result.returncode == 1
    devtools.load(page.as_uri())
    folder = shots(tmp_path)
    devtools.screenshot(folder / "report-everything.png")

    failure = str(devtools.evaluate("document.getElementById('failure-1').innerText"))
    lines = [line.strip() for line in failure.splitlines() if line.strip()]
    assert lines[:4] == [
        "FAIL weather (run 2) FLAKY CASE",
        "at <stdin>:2",
        "turns[0].expected_tools[0] expected ExpectedTool('get_weather', {'city': "
        "Fuzzy('rome'), 'when': {'day': 1}})",
        "call 0: 2 mismatches (city, when.day)",
    ]
    assert "when.day\t1\t2\texpected 1, got 2" in lines

    def shown_cases() -> list[str]:
        rows = devtools.evaluate(
            "[...document.querySelectorAll('#cases tr')].filter(r => r.offsetParent !== null)"
            ".slice(1).map(r => r.cells[0].innerText)"
        )
        assert isinstance(rows, list)
        return rows

    assert shown_cases() == ["weather flaky", "steady"]
    # The filters are labels of radio buttons: a click, as a person clicks, and CSS alone.
    devtools.evaluate("document.querySelector('label[for=show-failures]').click()")
    assert shown_cases() == ["weather flaky"]
    devtools.screenshot(folder / "report-failures.png")
    devtools.evaluate("document.querySelector('label[for=show-flaky]').click()")
    assert shown_cases() == ["weather flaky"]
    assert devtools.evaluate("document.getElementById('failures').offsetParent") is None
    devtools.evaluate("document.querySelector('label[for=show-all]').click()")
    assert shown_cases() == ["weather flaky", "steady"]
    assert devtools.evaluate("document.scripts.length") == 0


def test_the_examples_report(devtools: DevTools, tmp_path: Path) -> None:
    page = tmp_path / "examples.html"
    result = toolmatch(
        "check", "examples/spec.yaml", "examples/traces.jsonl", "--html", page, cwd=ROOT
    )
    assert result.returncode == 1
    devtools.load(page.as_uri())
    body = str(devtools.evaluate("document.body.innerText"))
    assert "FAIL refund_damaged_order" in body
    devtools.screenshot(shots(tmp_path) / "report-examples.png")
