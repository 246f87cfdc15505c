"""A small Chrome DevTools Protocol client: headless Chromium, one page, driven from a test.

Why not Playwright: it needs its own driver (a bundled Node.js) and wants to download its own
browser build; this drives Debian's `chromium` over the DevTools websocket with the `websockets`
package and nothing else.
"""

from __future__ import annotations

import base64
import itertools
import json
import os
import shutil
import subprocess
import tempfile
import time
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any, Self

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

# As root Chromium needs --no-sandbox; the rest keeps a headless run from phoning home.
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-default-browser-check",
    "--disable-extensions",
    "--hide-scrollbars",
    "--mute-audio",
    "--font-render-hinting=none",
    "--remote-debugging-port=0",
]


# No network but this machine's loopback: every other host name resolves to nothing, and any
# request that still tried to leave would go to a proxy on a port where nothing listens.
OFFLINE_FLAGS = (
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--proxy-server=http://127.0.0.1:9",
)


class CdpError(RuntimeError):
    """A protocol error, a script exception in the page, or a wait that ran out."""


def find_chromium() -> str | None:
    """$STEPGRADE_CHROMIUM, else `chromium` on PATH (Debian's package), else None."""
    return shutil.which(os.environ.get("STEPGRADE_CHROMIUM") or "chromium")


class Browser:
    """`with Browser(path) as b:` one headless page; `b.goto(url)`, `b.eval(js)`, `b.wait(js)`."""

    def __init__(self, executable: str, timeout: float = 30.0, flags: tuple[str, ...] = ()) -> None:
        self.executable = executable
        self.timeout = timeout
        self.flags = flags
        self.events: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self._profile = Path(tempfile.mkdtemp(prefix="stepgrade-chromium-"))
        self._process: subprocess.Popen[bytes] | None = None
        self._ws: ClientConnection | None = None
        self._stack = ExitStack()
        self._session = ""

    # ---- lifecycle ----------------------------------------------------------------------

    def __enter__(self) -> Self:
        self._process = subprocess.Popen(
            [
                self.executable,
                *FLAGS,
                *self.flags,
                f"--user-data-dir={self._profile}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        self._ws = self._stack.enter_context(
            connect(self._browser_url(), max_size=None, proxy=None, open_timeout=self.timeout)
        )
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.send(
            "Target.attachToTarget",
            {"targetId": target["targetId"], "flatten": True},
            session=False,
        )
        self._session = attached["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.send(f"{domain}.enable")
        return self

    def _browser_url(self) -> str:
        """Chromium writes its port and websocket path to DevToolsActivePort when it listens."""
        active = self._profile / "DevToolsActivePort"
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            assert self._process is not None
            if self._process.poll() is not None:
                err = (
                    self._process.stderr.read().decode(errors="replace")
                    if self._process.stderr
                    else ""
                )
                raise CdpError(f"chromium exited with {self._process.returncode}: {err[-2000:]}")
            if active.is_file() and len(lines := active.read_text().split()) >= 2:
                return f"ws://127.0.0.1:{lines[0]}{lines[1]}"
            time.sleep(0.05)
        raise CdpError("chromium did not open its DevTools port in time")

    def __exit__(self, *exc: object) -> None:
        if self._ws is not None:
            with suppress(CdpError, ConnectionClosed):  # it may hang up before answering
                self.send("Browser.close", session=False, timeout=5)
        self._stack.close()
        if self._process is not None:
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=10)
        shutil.rmtree(self._profile, ignore_errors=True)

    # ---- protocol -----------------------------------------------------------------------

    def send(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        session: bool = True,
        timeout: float | None = None,
    ) -> dict[str, Any]:
        """Send one command and wait for its answer; events arriving meanwhile are kept."""
        assert self._ws is not None
        number = next(self._ids)
        message: dict[str, Any] = {"id": number, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = self._session
        self._ws.send(json.dumps(message))
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise CdpError(f"{method}: no answer within {timeout or self.timeout} s")
            try:
                reply = json.loads(self._ws.recv(timeout=left))
            except TimeoutError:
                continue
            if reply.get("id") == number:
                if "error" in reply:
                    raise CdpError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def pump(self, seconds: float = 0.05) -> None:
        """Collect events for a moment (console messages, load events)."""
        assert self._ws is not None
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                reply = json.loads(self._ws.recv(timeout=left))
            except TimeoutError:
                return
            if "method" in reply:
                self.events.append(reply)

    # ---- page ---------------------------------------------------------------------------

    def goto(self, url: str) -> None:
        """Navigate, and wait for the new document's load event: the page that was there reads
        readyState 'complete' too until the navigation commits. A URL that differs from the
        current one only in its fragment is a same-document navigation (no reload, no loader)."""
        self.events.clear()
        result = self.send("Page.navigate", {"url": url})
        if result.get("errorText"):
            raise CdpError(f"cannot open {url}: {result['errorText']}")
        if result.get("loaderId"):
            self.wait_event("Page.loadEventFired")
        self.wait("document.readyState === 'complete'")

    def wait_event(self, method: str, timeout: float | None = None) -> dict[str, Any]:
        """The first event `method` collected since the events were last cleared."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            found = next((e for e in self.events if e.get("method") == method), None)
            if found is not None:
                return found
            self.pump(0.1)
        raise CdpError(f"no {method} within {timeout or self.timeout} s")

    def eval(self, expression: str) -> Any:
        """The value of a JS expression (promises awaited), or CdpError with the page's message."""
        result = self.send(
            "Runtime.evaluate",
            {
                "expression": expression,
                "awaitPromise": True,
                "returnByValue": True,
                "userGesture": True,
            },
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            raise CdpError(f"page script failed: {text}\n{expression}")
        return result["result"].get("value")

    def wait(self, condition: str, timeout: float | None = None) -> Any:
        """Poll a JS expression until it is truthy; returns its value."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            value = self.eval(condition)
            if value:
                return value
            self.pump(0.1)
        raise CdpError(f"timed out waiting for: {condition}")

    def key(
        self, key: str, code: str | None = None, key_code: int = 0, shift: bool = False
    ) -> None:
        """One key press through Chromium's input pipeline (so Tab moves focus, Enter submits)."""
        base = {
            "key": key,
            "code": code or key,
            "windowsVirtualKeyCode": key_code,
            "modifiers": 8 if shift else 0,
        }
        text = {"Enter": "\r", " ": " "}.get(key)
        self.send(
            "Input.dispatchKeyEvent",
            {**base, "type": "keyDown", **({"text": text} if text else {})},
        )
        self.send("Input.dispatchKeyEvent", {**base, "type": "keyUp"})

    def click(self, selector: str) -> None:
        """A real mouse click (pressed and released) at the middle of the element `selector`,
        scrolled into view first; CdpError when nothing matches."""
        box = self.eval(f"""(() => {{
          const node = document.querySelector({json.dumps(selector)});
          if (!node) return null;
          node.scrollIntoView({{ block: "center" }});
          const r = node.getBoundingClientRect();
          return [r.left + r.width / 2, r.top + r.height / 2];
        }})()""")
        if box is None:
            raise CdpError(f"nothing to click: {selector}")
        base = {"x": box[0], "y": box[1], "button": "left", "clickCount": 1}
        self.send("Input.dispatchMouseEvent", {**base, "type": "mousePressed"})
        self.send("Input.dispatchMouseEvent", {**base, "type": "mouseReleased"})

    def tab(self, shift: bool = False) -> None:
        self.key("Tab", key_code=9, shift=shift)

    def enter(self) -> None:
        self.key("Enter", key_code=13)

    def type_text(self, text: str) -> None:
        self.send("Input.insertText", {"text": text})

    def viewport(self, width: int, height: int, mobile: bool = False) -> None:
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile},
        )

    def screenshot(self, path: Path, full_page: bool = True) -> Path:
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": full_page}
        if full_page:
            width, height = self.eval(
                "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
            )
            params["clip"] = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
        data = self.send("Page.captureScreenshot", params)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def problems(self) -> list[str]:
        """Console errors, uncaught exceptions and browser log errors (CSP violations) so far."""
        self.pump(0.1)
        out = []
        for event in self.events:
            params = event.get("params", {})
            if event["method"] == "Runtime.exceptionThrown":
                out.append(
                    params["exceptionDetails"].get("exception", {}).get("description", "exception")
                )
            elif event["method"] == "Runtime.consoleAPICalled" and params.get("type") == "error":
                out.append(
                    " ".join(str(a.get("value", a.get("description"))) for a in params["args"])
                )
            elif event["method"] == "Log.entryAdded" and params["entry"]["level"] == "error":
                out.append(params["entry"]["text"])
        return out
