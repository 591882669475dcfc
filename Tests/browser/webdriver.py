"""A small W3C WebDriver client for the browser tests: Debian's chromedriver and headless Chromium.

Python standard library only. It starts `/usr/bin/chromedriver` on a free loopback port, opens one
session of `/usr/bin/chromium` (headless, fake microphone, autoplay allowed) and offers the few
commands the tests use. It only ever talks to 127.0.0.1, and every wait is bounded in time and in
the number of tries.

    with Browser(fake_audio="speech.wav") as browser:
        browser.get("http://127.0.0.1:8080/")
        browser.find("[data-testid=record-button]").click()
        browser.wait_until(lambda: browser.find_all(".final"), timeout=10, what="live text")
        browser.screenshot("page.png")
"""

from __future__ import annotations

import base64
import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Callable, Sequence

CHROMEDRIVER = "/usr/bin/chromedriver"
CHROMIUM = "/usr/bin/chromium"
LOOPBACK = "127.0.0.1"

# The key under which the W3C protocol passes a web element in JSON.
ELEMENT_KEY = "element-6066-11e4-a52e-4f735466cecf"

# Keys for send_keys (W3C "normalised key values").
ENTER = "\ue007"
TAB = "\ue004"
ESCAPE = "\ue00c"
BACKSPACE = "\ue003"

# Requests never go through a proxy, whatever the environment says: everything is loopback.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


class WebDriverError(Exception):
    """A WebDriver command failed: `error` is the protocol's error code (e.g. "no such element")."""

    def __init__(self, error: str, message: str, command: str = ""):
        self.error = error
        self.message = message
        self.command = command
        first = message.strip().splitlines()[0] if message.strip() else ""
        super().__init__(f"{command}: {error}: {first}" if command else f"{error}: {first}")


class WaitTimeout(Exception):
    """wait_until gave up: the condition did not hold within its time."""


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def wait_until(predicate: Callable[[], Any], timeout: float, interval: float = 0.2, what: str = "condition",
               ignore: tuple[type[BaseException], ...] = ()) -> Any:
    """Calls `predicate` until it returns something truthy and returns that; raises WaitTimeout
    after `timeout` seconds. Exceptions of the types in `ignore` count as "not yet". Bounded both
    in time and in the number of calls."""
    deadline = time.monotonic() + timeout
    tries = max(1, int(timeout / max(interval, 0.01)) + 2)
    last_error: BaseException | None = None
    for _ in range(tries):
        try:
            value = predicate()
            if value:
                return value
        except ignore as e:  # noqa: PERF203 (a retry loop by design)
            last_error = e
        if time.monotonic() >= deadline:
            break
        time.sleep(min(interval, max(0.0, deadline - time.monotonic())))
    detail = f" (last error: {last_error})" if last_error else ""
    raise WaitTimeout(f"timed out after {timeout:.0f} s waiting for {what}{detail}")


class Element:
    """One element of the page, as the driver knows it."""

    def __init__(self, browser: "Browser", element_id: str):
        self.browser = browser
        self.id = element_id

    def __repr__(self) -> str:
        return f"<Element {self.id[:8]}>"

    def _url(self, tail: str = "") -> str:
        return f"/element/{self.id}{tail}"

    def find(self, css: str) -> "Element":
        value = self.browser._session("POST", self._url("/element"), {"using": "css selector", "value": css})
        return Element(self.browser, value[ELEMENT_KEY])

    def find_all(self, css: str) -> list["Element"]:
        value = self.browser._session("POST", self._url("/elements"), {"using": "css selector", "value": css})
        return [Element(self.browser, v[ELEMENT_KEY]) for v in value]

    def click(self) -> None:
        """Scrolls the element to the middle of the viewport (clear of sticky headers and
        footers), then clicks its centre as a person would."""
        self.browser._session("POST", "/execute/sync", {
            "script": "arguments[0].scrollIntoView({block: 'center', inline: 'center'});",
            "args": [{ELEMENT_KEY: self.id}]})
        self.browser._session("POST", self._url("/click"), {})

    def clear(self) -> None:
        self.browser._session("POST", self._url("/clear"), {})

    def send_keys(self, text: str) -> None:
        """Types `text` into the element (for a file input: one or more paths, one a line)."""
        self.browser._session("POST", self._url("/value"), {"text": text})

    @property
    def text(self) -> str:
        """The rendered text, as a person sees it."""
        return self.browser._session("GET", self._url("/text"))

    def attribute(self, name: str) -> str | None:
        return self.browser._session("GET", self._url(f"/attribute/{name}"))

    def property(self, name: str) -> Any:
        return self.browser._session("GET", self._url(f"/property/{name}"))

    def is_displayed(self) -> bool:
        return bool(self.browser._session("GET", self._url("/displayed")))

    def is_selected(self) -> bool:
        return bool(self.browser._session("GET", self._url("/selected")))

    def screenshot(self, path: str | os.PathLike) -> Path:
        data = self.browser._session("GET", self._url("/screenshot"))
        return _write_png(path, data)


def _write_png(path: str | os.PathLike, data: str) -> Path:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    png = base64.b64decode(data)
    if not png.startswith(b"\x89PNG"):
        raise WebDriverError("invalid screenshot", "the driver did not return a PNG", "screenshot")
    out.write_bytes(png)
    return out


class Browser:
    """A chromedriver process and one Chromium session. Use as a context manager, or call
    `quit()`: it always ends the driver (and with it the browser)."""

    def __init__(self, fake_audio: str | os.PathLike | None = None, window: tuple[int, int] = (1280, 900),
                 extra_args: Sequence[str] = (), start_timeout: float = 30.0, command_timeout: float = 90.0,
                 log_path: str | os.PathLike | None = None):
        self.command_timeout = command_timeout
        self.session_id: str | None = None
        self.port = free_port()
        self.base = f"http://{LOOPBACK}:{self.port}"
        self._profile = tempfile.TemporaryDirectory(prefix="vn-chromium-", ignore_cleanup_errors=True)
        self._log = open(log_path, "ab") if log_path else subprocess.DEVNULL
        self.driver = subprocess.Popen(
            [CHROMEDRIVER, f"--port={self.port}", "--allowed-ips=127.0.0.1"],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log, start_new_session=True)
        try:
            wait_until(self._ready, timeout=start_timeout, interval=0.1, what="chromedriver /status",
                       ignore=(OSError, ValueError))
            args = ["--headless=new", "--no-sandbox", "--disable-gpu", f"--window-size={window[0]},{window[1]}",
                    "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                    "--autoplay-policy=no-user-gesture-required", "--no-first-run",
                    "--no-default-browser-check", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-features=Translate,MediaRouter,OptimizationHints",
                    f"--user-data-dir={self._profile.name}"]
            if fake_audio:
                args.append(f"--use-file-for-fake-audio-capture={Path(fake_audio).resolve()}")
            args += list(extra_args)
            capabilities = {"capabilities": {"alwaysMatch": {
                "browserName": "chrome",
                "pageLoadStrategy": "normal",
                "goog:chromeOptions": {"binary": CHROMIUM, "args": args},
                "goog:loggingPrefs": {"browser": "ALL"},
            }}}
            value = self._request("POST", "/session", capabilities, timeout=start_timeout + 30)
            self.session_id = value["sessionId"]
            self._session("POST", "/timeouts", {"implicit": 0, "pageLoad": 60_000, "script": 60_000})
        except BaseException:
            self.quit()
            raise

    # -- plumbing

    def _ready(self) -> bool:
        with _OPENER.open(f"{self.base}/status", timeout=2) as r:
            return bool(json.loads(r.read()).get("value", {}).get("ready"))

    def _request(self, method: str, path: str, body: Any = None, timeout: float | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.base}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json; charset=utf-8"})
        try:
            with _OPENER.open(request, timeout=timeout or self.command_timeout) as r:
                payload = r.read()
        except urllib.error.HTTPError as e:
            payload = e.read()
            try:
                value = json.loads(payload).get("value", {})
            except ValueError:
                value = {"error": f"HTTP {e.code}", "message": payload.decode("utf-8", "replace")[:300]}
            raise WebDriverError(value.get("error", f"HTTP {e.code}"), value.get("message", ""),
                                 f"{method} {path}") from None
        except (urllib.error.URLError, OSError) as e:
            raise WebDriverError("driver unreachable", str(e), f"{method} {path}") from None
        return json.loads(payload or b"{}").get("value")

    def _session(self, method: str, tail: str, body: Any = None, timeout: float | None = None) -> Any:
        if not self.session_id:
            raise WebDriverError("no session", "the browser session has ended", tail)
        return self._request(method, f"/session/{self.session_id}{tail}", body, timeout)

    def _wrap(self, value: Any) -> Any:
        """JSON from a script with web elements turned into Element objects."""
        if isinstance(value, dict):
            if ELEMENT_KEY in value and len(value) == 1:
                return Element(self, value[ELEMENT_KEY])
            return {k: self._wrap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self._wrap(v) for v in value]
        return value

    @staticmethod
    def _unwrap(value: Any) -> Any:
        if isinstance(value, Element):
            return {ELEMENT_KEY: value.id}
        if isinstance(value, (list, tuple)):
            return [Browser._unwrap(v) for v in value]
        if isinstance(value, dict):
            return {k: Browser._unwrap(v) for k, v in value.items()}
        return value

    # -- commands

    def get(self, url: str) -> None:
        if not url.startswith((f"http://{LOOPBACK}:", "about:", "data:")):
            raise ValueError(f"refusing to open {url}: the tests only talk to {LOOPBACK}")
        self._session("POST", "/url", {"url": url})

    @property
    def url(self) -> str:
        return self._session("GET", "/url")

    @property
    def title(self) -> str:
        return self._session("GET", "/title")

    def refresh(self) -> None:
        self._session("POST", "/refresh", {})

    def find(self, css: str) -> Element:
        """The first element matching `css`; raises WebDriverError ("no such element") if none."""
        value = self._session("POST", "/element", {"using": "css selector", "value": css})
        return Element(self, value[ELEMENT_KEY])

    def find_all(self, css: str) -> list[Element]:
        value = self._session("POST", "/elements", {"using": "css selector", "value": css})
        return [Element(self, v[ELEMENT_KEY]) for v in value]

    def exists(self, css: str) -> bool:
        return bool(self.find_all(css))

    def execute(self, script: str, *args: Any) -> Any:
        """Runs `script` (a function body; `arguments` holds `args`) and returns its value."""
        value = self._session("POST", "/execute/sync", {"script": script, "args": self._unwrap(list(args))})
        return self._wrap(value)

    def execute_async(self, script: str, *args: Any, timeout: float = 60.0) -> Any:
        """Runs `script` with a callback as its last argument and returns what it passes to it."""
        self._session("POST", "/timeouts", {"script": int(timeout * 1000)})
        value = self._session("POST", "/execute/async", {"script": script, "args": self._unwrap(list(args))},
                              timeout=timeout + 15)
        return self._wrap(value)

    def screenshot(self, path: str | os.PathLike) -> Path:
        """A PNG of the viewport, written to `path`."""
        return _write_png(path, self._session("GET", "/screenshot"))

    def set_window_size(self, width: int, height: int) -> dict:
        return self._session("POST", "/window/rect", {"width": width, "height": height})

    def window_size(self) -> tuple[int, int]:
        rect = self._session("GET", "/window/rect")
        return rect["width"], rect["height"]

    def viewport(self) -> tuple[int, int]:
        w, h = self.execute("return [window.innerWidth, window.innerHeight];")
        return int(w), int(h)

    def set_viewport(self, width: int, height: int, tries: int = 4) -> tuple[int, int]:
        """Resizes the window so that the page's viewport is width x height (window frame
        included in the rect is compensated for); returns the viewport reached."""
        target_w, target_h = width, height
        reached = self.viewport()
        for _ in range(tries):
            self.set_window_size(target_w, target_h)
            reached = self.viewport()
            if reached == (width, height):
                break
            target_w += width - reached[0]
            target_h += height - reached[1]
        return reached

    def browser_log(self) -> list[dict]:
        """The console messages logged since the last call (chromedriver's log extension)."""
        try:
            return self._session("POST", "/se/log", {"type": "browser"}) or []
        except WebDriverError:
            return []

    def wait_until(self, predicate: Callable[[], Any], timeout: float = 10.0, interval: float = 0.2,
                   what: str = "condition") -> Any:
        """Like the module's wait_until, with "no such element" and stale elements counted as "not yet"."""
        return wait_until(predicate, timeout, interval, what, ignore=(WebDriverError,))

    def quit(self) -> None:
        """Ends the session and always the driver process (SIGTERM, then SIGKILL)."""
        if self.session_id:
            try:
                self._request("DELETE", f"/session/{self.session_id}", timeout=15)
            except WebDriverError:
                pass
            self.session_id = None
        if self.driver.poll() is None:
            self.driver.terminate()
            try:
                self.driver.wait(timeout=5)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.driver.pid, 9)  # the driver and any browser it left behind
                except OSError:
                    self.driver.kill()
                self.driver.wait(timeout=5)
        try:
            os.killpg(self.driver.pid, 0)
            os.killpg(self.driver.pid, 9)  # a browser that outlived its driver
        except OSError:
            pass
        if self._log is not subprocess.DEVNULL:
            self._log.close()
            self._log = subprocess.DEVNULL
        self._profile.cleanup()

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.quit()
