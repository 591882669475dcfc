#!/usr/bin/env python3
"""The web app in a real browser: `voicenotes serve` driven through headless Chromium.

Run from the repository root (make test does, after swift test):

    python3 Tests/browser/test_webapp.py --program .build/debug/voicenotes

It starts the real server on a fresh temporary library, opens one Chromium session whose fake
microphone plays LibriVox speech (built here with sox), and walks through the app as a person
would: record, import, restore the samples, search, play, rename, export, tick action items,
delete, the models screen, a server killed in the middle of a recording, and (on a library of its
own, analysed by --ask-model) asking the notes, the search modes and related notes. Every scenario prints
`PASS name (seconds)` or `FAIL name: reason`; the last line is `N passed, N failed` and the exit
status is 1 if anything failed. Screenshots of each screen go to .build/test-artifacts/web/.

Python standard library only; the WebDriver client is webdriver.py beside this file.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.parse
import wave
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from webdriver import ENTER, Browser, WaitTimeout, WebDriverError, wait_until  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / ".build" / "test-artifacts" / "web"
LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
JFK = ROOT / ".deps" / "testdata" / "jfk.wav"
SAMPLE_FILES = {"book-idea.mp3", "groceries.opus", "team-sync.m4a"}
EXPORT_FORMATS = {"md", "json", "txt", "srt", "vtt"}
STATES = {"recording", "saved", "transcribing", "speakers", "analysing", "indexing", "done", "failed"}

# Bounds. Transcription and analysis of one note on two cores take well under a minute; the
# waits below are generous so that a slow machine is not mistaken for a broken app.
SERVER_START_S = 120.0
PROCESSING_S = 240.0
UI_S = 15.0
ASK_S = 300.0  # one answer from the language model on two cores, with its tool calls


def info(msg: str) -> None:
    print(f"  {msg}", flush=True)


class Failure(Exception):
    """An expectation did not hold."""


class Skip(Exception):
    """The scenario cannot run here (a model is missing); printed as SKIP, counted as neither."""


def expect(condition: Any, message: str) -> None:
    if not condition:
        raise Failure(message)


def tid(name: str, extra: str = "") -> str:
    """The CSS selector of the element with data-testid `name`."""
    return f'[data-testid="{name}"]{extra}'


# ---------------------------------------------------------------------------------------------
# Word error rate (our own small normaliser: case, punctuation, a few abbreviations)

SPELLED = {"mr": "mister", "mrs": "missus", "dr": "doctor"}
TIME_TOKEN = re.compile(r"^\d{1,2}:\d{2}(:\d{2})?(\.\d+)?$")


def words(text: str) -> list[str]:
    out = []
    for token in text.split():
        if TIME_TOKEN.match(token):  # a segment's time shown beside its text is not a spoken word
            continue
        token = token.lower().replace("\u2019", "'").replace("'", "")
        token = re.sub(r"[^\w]|_", " ", token)
        out += [SPELLED.get(w, w) for w in token.split()]
    return out


def edit_distance(a: list[str], b: list[str]) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous_diagonal, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            current = min(row[j] + 1, row[j - 1] + 1, previous_diagonal + (x != y))
            previous_diagonal, row[j] = row[j], current
    return row[len(b)]


def word_error_rate(reference: str, hypothesis: str) -> float:
    ref = words(reference)
    return edit_distance(ref, words(hypothesis)) / max(1, len(ref))


# ---------------------------------------------------------------------------------------------
# Fixtures


def run(argv: list[str], timeout: float = 60.0) -> None:
    r = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if r.returncode != 0:
        raise RuntimeError(f"{argv[0]} failed ({r.returncode}): {r.stderr.strip()[-300:]}")


def wav_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())


def librivox_references() -> list[tuple[str, str]]:
    """(file id, reference words) for each utterance, in the `transcription` file's order."""
    pairs = []
    for line in (LIBRIVOX / "transcription").read_text().splitlines():
        m = re.match(r"^\s*(?:<s>)?(.*?)(?:</s>)?\s*\(([^()]+)\)\s*$", line)
        if m:
            pairs.append((m.group(2).strip(), m.group(1).strip()))
    return pairs


def build_speech(folder: Path) -> tuple[Path, str, float]:
    """The fake microphone's file: 1 s of silence, the five utterances 0.4 s apart, 4 s of
    silence, 16 kHz mono 16-bit. Returns (path, reference text, seconds)."""
    refs = librivox_references()
    if len(refs) != 5:
        raise RuntimeError(f"expected 5 LibriVox utterances in {LIBRIVOX}/transcription, found {len(refs)}")
    fmt = ["-r", "16000", "-c", "1", "-b", "16", "-e", "signed-integer"]
    parts: list[str] = []
    for name, seconds in (("lead", 1.0), ("gap", 0.4), ("tail", 4.0)):
        run(["sox", "-n", *fmt, str(folder / f"{name}.wav"), "trim", "0", str(seconds)])
    parts.append(str(folder / "lead.wav"))
    for i, (fid, _) in enumerate(refs):
        if i:
            parts.append(str(folder / "gap.wav"))
        parts.append(str(LIBRIVOX / f"{fid}.wav"))
    parts.append(str(folder / "tail.wav"))
    out = folder / "speech.wav"
    run(["sox", *parts, *fmt, str(out), "channels", "1", "rate", "16000"])
    return out, " ".join(words for _, words in refs), wav_seconds(out)


# ---------------------------------------------------------------------------------------------
# The server and its API


class Server:
    """`voicenotes serve` on a library, with the URL it prints on stdout."""

    def __init__(self, program: Path, library: Path, log: Path, extra: list[str],
                 env_extra: dict[str, str] | None = None):
        env = dict(os.environ)
        env.update(env_extra or {})
        env.setdefault("OMP_WAIT_POLICY", "passive")
        if "VOICENOTES_MODELS" not in env and (ROOT / ".deps" / "models").is_dir():
            env["VOICENOTES_MODELS"] = str(ROOT / ".deps" / "models")
        self.log = open(log, "ab")
        self.log.write(f"\n==== {program} serve --library {library} {' '.join(extra)}\n".encode())
        self.log.flush()
        self.proc = subprocess.Popen(
            [str(program), "serve", "--library", str(library), "--port", "0", *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, env=env, start_new_session=True)
        lines: queue.Queue[bytes] = queue.Queue()

        def pump() -> None:  # stdout: the URL line, then anything else (kept in the log)
            assert self.proc.stdout
            for raw in self.proc.stdout:
                lines.put(raw)
            lines.put(b"")

        threading.Thread(target=pump, daemon=True).start()
        try:
            first = lines.get(timeout=SERVER_START_S)
        except queue.Empty:
            self.kill()
            raise RuntimeError(f"the server printed no URL within {SERVER_START_S:.0f} s (log: {log})")
        url = first.decode("utf-8", "replace").strip()
        parsed = urllib.parse.urlparse(url)
        if not first or parsed.scheme != "http" or parsed.hostname not in ("127.0.0.1", "localhost") \
                or not parsed.port:
            code = self.proc.poll()
            self.kill()
            raise RuntimeError(f"expected the server's URL on stdout, got {url!r}"
                               + (f" (it exited with {code}; see {log})" if code is not None else ""))
        self.url = f"http://127.0.0.1:{parsed.port}/"
        self.port = parsed.port
        self.api = Api(self.port)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """SIGKILL, at once (the crash test)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                self.proc.kill()
        self.proc.wait(timeout=10)
        self.log.close()

    def stop(self, grace: float = 60.0) -> None:
        """SIGTERM, then SIGKILL after `grace` seconds."""
        if self.proc.poll() is None:
            asked = time.monotonic()
            self.proc.terminate()
            try:
                self.proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                info(f"the server did not stop within {grace:.0f} s of SIGTERM: killed")
            else:
                info(f"the server stopped {time.monotonic() - asked:.1f} s after SIGTERM")
        self.kill()


class Api:
    """JSON over HTTP to the server on 127.0.0.1, one short connection per request."""

    def __init__(self, port: int):
        self.port = port

    def request(self, method: str, path: str, body: bytes | dict | None = None,
                headers: dict[str, str] | None = None, timeout: float = 30.0) -> tuple[int, Any, dict]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            hdrs = dict(headers or {})
            if isinstance(body, dict):
                body = json.dumps(body).encode()
                hdrs.setdefault("Content-Type", "application/json")
            conn.request(method, path, body=body, headers=hdrs)
            r = conn.getresponse()
            data = r.read()
            ctype = r.getheader("Content-Type") or ""
            value: Any = data
            if "json" in ctype:
                value = json.loads(data or b"null")
            return r.status, value, {k.lower(): v for k, v in r.getheaders()}
        finally:
            conn.close()

    def get(self, path: str) -> Any:
        status, value, _ = self.request("GET", path)
        if status != 200:
            raise Failure(f"GET {path} answered {status}: {value!r}"[:300])
        return value

    def note(self, note_id: str) -> dict:
        return self.get(f"/api/notes/{note_id}")

    def all_notes(self) -> list[dict]:
        notes, cursor = [], None
        for _ in range(50):  # bounded: 50 pages of 200
            page = self.get("/api/notes?limit=200" + (f"&before={urllib.parse.quote(cursor)}" if cursor else ""))
            notes += page["notes"]
            cursor = page.get("next")
            if not cursor:
                break
        return notes


# ---------------------------------------------------------------------------------------------
# The run


class Run:
    def __init__(self, args):
        self.args = args
        self.passed = 0
        self.failed = 0
        self.tmp = Path(tempfile.mkdtemp(prefix="vn-browser-"))
        self.library = self.tmp / "library"
        self.server: Server | None = None
        self.browser: Browser | None = None
        self.speech: Path | None = None
        self.reference = ""
        self.speech_seconds = 0.0
        self.recorded_id: str | None = None
        self.recorded_stop_at = 0.0
        self.imported: dict[str, str] = {}  # file name -> note id
        self.samples: list[str] = []
        self.ask_library: AskLibrary | None = None

    # -- scenario plumbing

    def scenario(self, name: str, body: Callable[[], None], needs: Callable[[], bool] | None = None,
                 why: str = "") -> bool:
        only = getattr(self.args, "only", None)
        # TEXT matches from the start of a word ("ask" is not "tasks"); commas separate several.
        wanted = [t for t in (only or "").split(",") if t]
        if wanted and not any(re.search(rf"(?<![a-z]){re.escape(t)}", name) for t in wanted) \
                and name != "server and browser start":
            return False
        start = time.monotonic()
        if needs is not None and not needs():
            self.failed += 1
            print(f"FAIL {name}: not run: {why}", flush=True)
            return False
        try:
            body()
        except Skip as e:
            print(f"SKIP {name}: {e}", flush=True)
            return False
        except Exception as e:  # noqa: BLE001 (any error fails this scenario, not the run)
            self.failed += 1
            reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            if not isinstance(e, (Failure, WaitTimeout)):
                reason = f"{type(e).__name__}: {reason}"
                tb = traceback.extract_tb(e.__traceback__)
                here = [f for f in tb if f.filename == __file__]
                if here:
                    reason += f" (test_webapp.py line {here[-1].lineno})"
            print(f"FAIL {name}: {reason}", flush=True)
            self.shot(f"failed-{re.sub(r'[^a-z0-9]+', '-', name.lower()).strip('-')}.png")
            return False
        self.passed += 1
        print(f"PASS {name} ({time.monotonic() - start:.1f} s)", flush=True)
        return True

    def shot(self, name: str, browser: Browser | None = None) -> None:
        b = browser or self.browser
        if b is None:
            return
        try:
            if not name.startswith("failed-"):  # a screen from its top, as it opens
                b.execute("window.scrollTo(0, 0);")
            b.screenshot(ARTIFACTS / name)
        except (WebDriverError, OSError) as e:
            info(f"screenshot {name} failed: {e}")

    @property
    def b(self) -> Browser:
        assert self.browser is not None
        return self.browser

    @property
    def api(self) -> Api:
        assert self.server is not None
        return self.server.api

    def open(self, route: str = "#/") -> None:
        """Loads the page at `route` (a full load: only when the page is elsewhere or stale)."""
        assert self.server is not None
        self.b.get(self.server.url + route)
        self.b.wait_until(lambda: self.b.execute("return document.readyState") == "complete",
                          timeout=UI_S, what="the page to load")

    def go(self, route: str) -> None:
        """Moves the running page to `route` by its hash, as a link inside the app would."""
        if not self.b.url.startswith(self.server.url):
            self.open(route)
            return
        self.b.execute("location.hash = arguments[0];", route)

    def shown(self, css: str) -> list:
        return rendered(self.b, css)

    def wait_shown(self, css: str, timeout: float = UI_S, what: str | None = None):
        return self.b.wait_until(lambda: self.shown(css), timeout=timeout, what=what or f"{css} to be shown")[0]

    def row(self, note_id: str) -> str:
        return tid("note-row", f'[data-id="{note_id}"]')

    def row_state(self, note_id: str) -> str | None:
        rows = self.b.find_all(self.row(note_id))
        if not rows:
            return None
        states = rows[0].find_all(tid("note-state"))
        return states[0].attribute("data-state") if states else None

    def list_ids(self) -> list[str]:
        return self.b.execute(
            "return [...document.querySelectorAll('[data-testid=\"note-row\"]')].map(e => e.dataset.id);")

    def set_select(self, select_css: str, value: str) -> None:
        """Picks an option of a <select> by clicking it, as a person would."""
        option = self.b.execute(
            "const s = document.querySelector(arguments[0]);"
            "return s ? [...s.options].find(o => o.value === arguments[1]) || null : null;", select_css, value)
        expect(option, f"{select_css} has no option with value {value!r}")
        option.click()
        self.b.wait_until(lambda: self.b.find(select_css).property("value") == value, timeout=5,
                          what=f"{select_css} to hold {value!r}")

    def wait_note(self, note_id: str, states: set[str], timeout: float) -> dict:
        def reached():
            n = self.api.note(note_id)
            if n["state"] == "failed" and "failed" not in states:
                raise Failure(f"note {note_id[:8]} failed: {n.get('error')}")
            return n if n["state"] in states else None

        return wait_until(reached, timeout=timeout, interval=1.0, what=f"note {note_id[:8]} to be {'/'.join(states)}")

    # -- setup

    def start(self) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        for old in [*ARTIFACTS.glob("*.png"), ARTIFACTS / "server.log", ARTIFACTS / "chromedriver.log"]:
            old.unlink(missing_ok=True)
        for tool in ("sox", "espeak-ng", "/usr/bin/chromium", "/usr/bin/chromedriver"):
            if not shutil.which(tool):
                raise RuntimeError(f"{tool} is missing (scripts/bootstrap.sh system installs it)")
        self.speech, self.reference, self.speech_seconds = build_speech(self.tmp)
        info(f"fake microphone: {self.speech_seconds:.1f} s of LibriVox speech, {len(words(self.reference))} words")
        self.server = Server(self.program, self.library, ARTIFACTS / "server.log", self.server_args)
        info(f"server: {self.server.url} on {self.library}")
        self.browser = Browser(fake_audio=self.speech, log_path=ARTIFACTS / "chromedriver.log")
        self.browser.get("about:blank")
        self.browser.set_viewport(1280, 900)

    @property
    def program(self) -> Path:
        return Path(self.args.program).resolve()

    @property
    def server_args(self) -> list[str]:
        return ["--language-model", self.args.language_model]

    def finish(self) -> None:
        if self.ask_library:
            self.ask_library.server.stop(grace=10)
        if self.browser:
            errors = [m for m in self.browser.browser_log() if m.get("level") == "SEVERE"]
            for m in errors[:10]:
                info(f"browser console: {m.get('message', '')[:200]}")
            self.browser.quit()
        if self.server:
            self.server.stop()
        if not self.args.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            info(f"kept {self.tmp}")

    # -----------------------------------------------------------------------------------------
    # Scenarios

    def first_page(self) -> None:
        self.open("#/")
        self.wait_shown(tid("notes-list"))
        for name in ("nav-notes", "nav-tasks", "nav-models", "search-input", "search-scope", "record-button",
                     "import-input", "drop-zone"):
            expect(self.b.find_all(tid(name)), f"no element with data-testid={name} on the first page")
        scopes = self.b.execute("return [...document.querySelectorAll('[data-testid=\"search-scope\"] option')]"
                                ".map(o => o.value);")
        wanted = ["all", "title", "transcript", "summary", "tags", "people", "action-items"]
        expect(sorted(scopes) == sorted(wanted), f"search-scope offers {scopes}, expected {wanted}")
        expect(self.b.find(tid("record-button")).text.strip() == "Record",
               f"record-button says {self.b.find(tid('record-button')).text!r}, expected 'Record'")
        expect(self.list_ids() == [], "a fresh library shows note rows")
        status = self.api.get("/api/status")
        lm = status["languageModel"]
        banner = self.shown(tid("lm-banner"))
        if lm.get("available"):
            expect(not banner, f"lm-banner is shown although the language model {lm.get('name')} is available")
        else:
            expect(banner, f"the language model is unavailable ({lm.get('reason')}) but no lm-banner is shown")
        info(f"status: speech {status['speechModel']}, language {lm.get('name')} available={lm.get('available')}")

    def models_screen(self) -> None:
        self.b.find(tid("nav-models")).click()
        self.wait_shown(tid("models-view"))
        expect("#/models" in self.b.url, f"nav-models led to {self.b.url}, not #/models")
        models = self.api.get("/api/models")
        expected = {m["name"]: m["status"] for m in models["speech"] + models["language"] + models["speakers"] + models["embedding"]}
        expect(models["speakers"] and models["embedding"], f"/api/models lists no speaker or search model: {models}")
        rows = self.b.wait_until(
            lambda: (lambda r: r if len(r) >= len(expected) else None)(self.b.find_all(tid("model-row"))),
            timeout=UI_S, what=f"{len(expected)} model rows")
        seen = {}
        for r in rows:
            name = r.attribute("data-name")
            status_el = r.find_all(tid("model-status"))
            expect(status_el, f"model row {name} has no model-status")
            seen[name] = status_el[0].text.strip()
        missing = sorted(set(expected) - set(seen))
        expect(not missing, f"models missing from the screen: {missing}")
        for name, status in expected.items():
            text = seen[name].lower()
            expect(text, f"model {name} shows an empty status")
            if status == "installed":
                expect("installed" in text and "not installed" not in text,
                       f"model {name} is installed but shows {seen[name]!r}")
            else:
                expect(text != "installed", f"model {name} is {status} but shows 'installed'")
                row = next(r for r in rows if r.attribute("data-name") == name)
                if status == "supported":
                    expect(row.find_all(tid("model-install")), f"model {name} is not installed but has no model-install")
        info("models: " + ", ".join(f"{n}={s}" for n, s in sorted(seen.items())))
        self.shot("models.png")

    def record_live(self) -> None:
        self.b.find(tid("nav-notes")).click()
        self.wait_shown(tid("notes-list"))
        before = {n["id"] for n in self.api.all_notes()}
        button = self.b.find(tid("record-button"))
        button.click()
        self.b.wait_until(lambda: self.b.find(tid("record-button")).text.strip() == "Stop", timeout=UI_S,
                          what="record-button to say Stop")
        started = time.monotonic()

        def new_recording():
            notes = [n for n in self.api.all_notes() if n["id"] not in before]
            return notes[0] if notes else None

        note = wait_until(new_recording, timeout=10, interval=0.2, what="the recording's note in /api/notes")
        self.recorded_id = note["id"]
        expect(note["state"] == "recording", f"the new note is {note['state']}, expected recording")
        info(f"recording note {note['id'][:8]}")
        self.b.wait_until(lambda: self.row_state(note["id"]) == "recording", timeout=UI_S,
                          what="the recording's row with note-state recording")
        stop_at = started + self.speech_seconds - 1.5  # inside the 4 s of silence at the end
        live_text, times = "", []
        for _ in range(int(self.speech_seconds * 4) + 10):  # bounded: 4 looks a second
            if time.monotonic() >= stop_at:
                break
            if not live_text:
                live_text = self.b.execute(
                    "const e = document.querySelector('[data-testid=\"live-transcript\"]');"
                    "if (!e || !e.checkVisibility()) return '';"
                    "return [...e.querySelectorAll('.final, .volatile')].map(x => x.textContent).join(' ').trim();")
                if live_text:
                    info(f"live text after {time.monotonic() - started:.1f} s: {live_text[:60]!r}")
                    self.shot("recording.png")
            t = self.b.find_all(tid("record-time"))
            if t:
                times.append(t[0].text.strip())
            time.sleep(0.25)
        final = self.b.execute("const e = document.querySelector('[data-testid=\"live-transcript\"]');"
                               "return e ? [...e.querySelectorAll('.final')].map(x => x.textContent).join(' ') : '';")
        expect(live_text, "live-transcript showed no text (.final or .volatile) while recording")
        expect(len(set(times)) >= 3, f"record-time did not advance while recording: {sorted(set(times))[:5]}")
        self.b.find(tid("record-button")).click()
        self.recorded_stop_at = time.monotonic()
        self.b.wait_until(lambda: self.b.find(tid("record-button")).text.strip() == "Record", timeout=UI_S,
                          what="record-button to say Record again")
        info(f"recorded {self.recorded_stop_at - started:.1f} s; final live text: {final.strip()[:80]!r}")
        expect(words(final), "no final live text (.final) during a 30 s recording")
        live_wer = word_error_rate(self.reference, final)
        info(f"live final text WER {live_wer * 100:.1f}% (not gated)")
        n = wait_until(lambda: (lambda x: x if x["state"] != "recording" else None)(self.api.note(note["id"])),
                       timeout=10, interval=0.3, what="the note to leave the recording state after Stop")
        expect(abs(n["duration"] - (self.recorded_stop_at - started)) < 3.0,
               f"the note lasts {n['duration']:.1f} s, recorded for {self.recorded_stop_at - started:.1f} s")

    def import_files(self) -> None:
        self.go("#/")
        self.wait_shown(tid("notes-list"))
        espeak = self.tmp / "reminder.wav"
        run(["espeak-ng", "-w", str(espeak), "Remember to call Priya about the budget on Friday."])
        second = JFK
        if not JFK.is_file():
            info(f"{JFK} is missing (make deps copies it): importing a second espeak-ng file instead")
            second = self.tmp / "second.wav"
            run(["espeak-ng", "-w", str(second), "The quarterly review moves to Tuesday afternoon."])
        before = {n["id"] for n in self.api.all_notes()}
        field = self.b.find(tid("import-input"))
        expect(field.attribute("type") == "file", "import-input is not an input type=file")
        expect(field.property("multiple"), "import-input does not take several files (multiple)")
        self.b.execute("arguments[0].value = '';", field)
        field.send_keys(f"{espeak}\n{second}")

        def two_new():
            new = [n for n in self.api.all_notes() if n["id"] not in before]
            return new if len(new) >= 2 else None

        new = wait_until(two_new, timeout=60, interval=0.5, what="two imported notes in /api/notes")
        expect(len(new) == 2, f"{len(new)} notes were added for 2 files")
        names = {n["originalFileName"]: n["id"] for n in new}
        expect(set(names) == {espeak.name, second.name}, f"imported names {sorted(names)}")
        self.imported = names
        for note_id in names.values():
            self.b.wait_until(lambda: self.b.find_all(self.row(note_id)), timeout=UI_S,
                              what=f"a row for imported note {note_id[:8]}")
            state = self.row_state(note_id)
            expect(state in STATES, f"imported row {note_id[:8]} has note-state {state!r}")
        info("imported " + ", ".join(f"{k} -> {v[:8]}" for k, v in names.items()))

    def import_by_drop(self) -> None:
        source = self.imported.get("reminder.wav")
        expect(source, "no imported reminder.wav to drop again")
        self.go("#/")
        self.wait_shown(tid("notes-list"))
        zone = self.b.find(tid("drop-zone"))
        before = {n["id"] for n in self.api.all_notes()}
        # A drop as the browser delivers it: dragenter, dragover, drop, with the file in a
        # DataTransfer (the file's bytes are fetched from the server: the page cannot read disks).
        result = self.b.execute_async(
            "const [zone, url, done] = arguments;"
            "fetch(url).then(r => r.blob()).then(blob => {"
            "  const dt = new DataTransfer();"
            "  dt.items.add(new File([blob], 'dropped.wav', {type: 'audio/wav'}));"
            "  for (const type of ['dragenter', 'dragover', 'drop'])"
            "    zone.dispatchEvent(new DragEvent(type, {bubbles: true, cancelable: true, dataTransfer: dt}));"
            "  done(blob.size);"
            "}).catch(e => done(String(e)));", zone, f"/api/notes/{source}/audio", timeout=30)
        expect(isinstance(result, int) and result > 44, f"could not build the dropped file: {result}")
        note = wait_until(lambda: next((n for n in self.api.all_notes() if n["id"] not in before), None),
                          timeout=30, interval=0.5, what="a note for the dropped file")
        expect(note["originalFileName"] == "dropped.wav", f"the dropped file became {note['originalFileName']!r}")
        self.b.wait_until(lambda: self.b.find_all(self.row(note["id"])), timeout=UI_S, what="a row for the drop")
        self.imported["dropped.wav"] = note["id"]

    def import_rejects_text(self) -> None:
        memo = self.tmp / "memo.txt"
        memo.write_text("Not a recording, just a line of text.\n")
        # The server's own refusals (a failed request changes nothing): for the bytes as
        # octet-stream (422) and with the file's type, as a browser may send it (415).
        messages = {}
        for ctype, code in (("application/octet-stream", 422), ("text/plain", 415)):
            status, body, _ = self.api.request("POST", f"/api/imports?name={memo.name}", memo.read_bytes(),
                                               {"Content-Type": ctype})
            expect(status == code, f"POST /api/imports of a text file as {ctype} answered {status}, expected {code}")
            messages[ctype] = body["error"]
        before = self.api.get("/api/notes?limit=1")["total"]
        rows_before = len(self.list_ids())
        field = self.b.find(tid("import-input"))
        self.b.execute("arguments[0].value = '';", field)
        field.send_keys(str(memo))
        error = self.wait_shown(tid("upload-error"), timeout=30, what="upload-error to be shown")
        text = self.b.wait_until(lambda: error.text.strip(), timeout=5, what="upload-error text")
        info(f"upload-error: {text!r}")
        expect(any(m in text for m in messages.values()),
               f"upload-error says {text!r}; the server says {' or '.join(map(repr, messages.values()))}")
        time.sleep(1.0)
        expect(self.api.get("/api/notes?limit=1")["total"] == before, "a note was added for a text file")
        expect(len(self.list_ids()) == rows_before, "a row was added for a text file")

    def restore_samples(self) -> None:
        self.go("#/")
        button = self.wait_shown(tid("restore-samples"))
        before = {n["id"] for n in self.api.all_notes()}
        button.click()

        def three():
            new = [n for n in self.api.all_notes() if n["id"] not in before]
            return new if len(new) >= 3 else None

        new = wait_until(three, timeout=60, interval=0.5, what="the 3 sample notes in /api/notes")
        expect(len(new) == 3, f"{len(new)} notes restored, expected 3")
        expect({n["originalFileName"] for n in new} == SAMPLE_FILES,
               f"restored {sorted(n['originalFileName'] for n in new)}, expected {sorted(SAMPLE_FILES)}")
        self.samples = [n["id"] for n in new]
        for note_id in self.samples:
            self.b.wait_until(lambda: self.b.find_all(self.row(note_id)), timeout=UI_S,
                              what=f"a row for sample {note_id[:8]}")
        status, body, _ = self.api.request("POST", "/api/samples/restore", b"")
        expect(status == 200 and body.get("imported") == [] and body.get("alreadyPresent") == 3,
               f"a second restore answered {status} {body!r}, expected nothing imported and 3 present")

    def recorded_transcript(self) -> None:
        note_id = self.recorded_id
        self.go("#/")
        self.wait_shown(tid("notes-list"))
        deadline = self.recorded_stop_at + PROCESSING_S
        seen: list[str] = []

        def done():
            state = self.row_state(note_id)
            if state and (not seen or not seen[-1].startswith(state + " ")):
                seen.append(f"{state} ({time.monotonic() - self.recorded_stop_at:.0f} s)")
            if state == "failed":
                raise Failure(f"the recorded note failed: {self.api.note(note_id).get('error')}")
            return state == "done"

        self.b.wait_until(done, timeout=max(5.0, deadline - time.monotonic()), interval=0.5,
                          what="the recorded note's row to reach done")
        info(f"row states seen: {' -> '.join(seen)}; done {time.monotonic() - self.recorded_stop_at:.0f} s after Stop")
        row = self.b.find(self.row(note_id))
        titles = row.find_all(tid("note-title"))
        (titles[0] if titles else row).click()
        self.wait_shown(tid("note-page"))
        # The page is shown before the note it was opened for has loaded into it.
        self.b.wait_until(lambda: self.b.find(tid("note-page")).attribute("data-id") == note_id, timeout=UI_S,
                          interval=0.2, what="the note page to show the recorded note")
        page = self.b.find(tid("note-page"))
        expect(page.attribute("data-id") == note_id, f"note-page is for {page.attribute('data-id')}, not {note_id}")
        expect(f"#/notes/{note_id}" in self.b.url or f"#/notes/{note_id[:8]}" in self.b.url,
               f"the note's route is {self.b.url}")
        self.b.wait_until(lambda: self.b.find_all(tid("segment")), timeout=UI_S, what="transcript segments")
        shown = " ".join(s.text for s in self.b.find_all(tid("segment")))
        note = self.api.note(note_id)
        expect(note["state"] == "done" and note["transcript"], f"/api/notes/{note_id[:8]} is {note['state']}")
        api_text = " ".join(s["text"] for s in note["transcript"]["segments"])
        wer_page = word_error_rate(self.reference, shown)
        wer_api = word_error_rate(self.reference, api_text)
        info(f"WER {wer_page * 100:.1f}% on the page, {wer_api * 100:.1f}% from the API "
             f"({len(words(self.reference))} reference words); page: {shown.strip()[:100]!r}")
        expect(words(shown) == words(api_text), "the page's transcript differs from /api/notes/ID's")
        expect(wer_page <= 0.05, f"WER {wer_page * 100:.1f}% > 5%")
        title_input = self.b.find(tid("note-title-input"))
        expect(title_input.property("value") == note["title"],
               f"note-title-input shows {title_input.property('value')!r}, the API says {note['title']!r}")
        expect(len(note["transcript"]["segments"]) == len(self.b.find_all(tid("segment"))),
               "the page shows a different number of segments than the API has")
        self.shot("note-page.png")

    def samples_analysed(self) -> None:
        notes = [self.wait_note(i, {"done"}, timeout=PROCESSING_S) for i in self.samples]
        with_items = [n for n in notes if n["actionItems"]]
        with_people = [n for n in notes if n["people"]]
        info("samples: " + "; ".join(f"{n['title']!r} people={n['people']} items={len(n['actionItems'])}"
                                     for n in notes))
        expect(with_items, "no sample note has action items after analysis")
        expect(with_people, "no sample note has people after analysis")
        self.go("#/")
        for i in self.samples:
            self.b.wait_until(lambda: self.row_state(i) == "done", timeout=UI_S, what=f"sample row {i[:8]} done")

    def search(self) -> None:
        notes = [self.api.note(i) for i in self.samples]
        person = next((p for n in notes for p in n["people"] if len(p) >= 3), None)
        expect(person, "no person of at least 3 letters in the samples to search for")
        query = person.split()[0]
        api_ids = [r["note"]["id"] for r in
                   self.api.get(f"/api/search?q={urllib.parse.quote(query)}&scope=people&limit=100")["results"]]
        expect(api_ids, f"/api/search finds no note for person {query!r}")
        self.go("#/")
        self.wait_shown(tid("notes-list"))
        self.set_select(tid("search-scope"), "people")
        box = self.b.find(tid("search-input"))
        box.clear()
        box.send_keys(query)

        def results():
            rows = self.shown(tid("search-result"))
            ids = [r.attribute("data-id") for r in rows]
            return ids if ids and set(ids) <= set(api_ids) and len(ids) == min(len(api_ids), 20) else None

        ids = self.b.wait_until(results, timeout=UI_S, what=f"search results for {query!r} in people")
        expect(self.wait_shown(tid("search-results")), "no search-results list")
        marks = [m.text for m in self.b.find_all(tid("search-result") + " mark")]
        expect(marks, "no <mark> in the search results")
        expect(all(query.lower() in m.lower() or m.lower() in query.lower() for m in marks),
               f"marks {marks[:5]} do not match the query {query!r}")
        route = urllib.parse.unquote(self.b.url.split("#", 1)[-1])
        expect(route.startswith("/search") and f"q={query}" in route and "scope=people" in route,
               f"the route while searching is #{route}")
        info(f"person {person!r}: {len(ids)} result(s), marks {marks[:3]}")
        self.shot("search.png")
        first = self.shown(tid("search-result"))[0]
        target = first.attribute("data-id")
        links = first.find_all("a")
        (links[0] if links else first).click()
        page = self.wait_shown(tid("note-page"))
        self.b.wait_until(lambda: self.b.find(tid("note-page")).attribute("data-id") == target, timeout=UI_S,
                          what=f"note-page for {target[:8]}")
        expect(self.shown(tid("note-page")), "note-page not shown")
        # The route alone restores a search: another scope, typed into the address bar.
        spoken = self.pick_note_with_segments()["transcript"]["segments"]
        word = next((w.lower() for s in spoken for w in re.findall(r"[A-Za-z]{6,}", s["text"])), None)
        expect(word, "no word of 6 letters in a transcript to search for")
        self.go(f"#/search?q={word}&scope=transcript")
        self.b.wait_until(lambda: self.shown(tid("search-result")), timeout=UI_S,
                          what=f"results for #/search?q={word}&scope=transcript")
        expect(self.b.find(tid("search-input")).property("value") == word,
               "search-input does not show the route's query")
        expect(self.b.find(tid("search-scope")).property("value") == "transcript",
               "search-scope does not show the route's scope")
        ui = {r.attribute("data-id") for r in self.shown(tid("search-result"))}
        api = {r["note"]["id"] for r in self.api.get(f"/api/search?q={word}&scope=transcript&limit=100")["results"]}
        expect(ui and ui <= api, f"transcript search for {word!r}: page {sorted(ui)}, API {sorted(api)}")

    def pick_note_with_segments(self) -> dict:
        for note_id in [self.recorded_id, *self.samples]:
            if note_id:
                n = self.api.note(note_id)
                if n["state"] == "done" and n["transcript"] and len(n["transcript"]["segments"]) >= 2:
                    return n
        raise Failure("no done note with 2 or more segments to play")

    def note_page(self) -> None:
        note = self.pick_note_with_segments()
        note_id = note["id"]
        self.go(f"#/notes/{note_id}")
        self.b.wait_until(lambda: self.b.find(tid("note-page")).attribute("data-id") == note_id, timeout=UI_S,
                          what="the note page")
        audio = self.b.find(tid("note-audio"))
        duration = self.b.wait_until(
            lambda: (lambda d: d if d and d > 0 and d != float("inf") else None)(
                self.b.execute("const a = arguments[0]; return isFinite(a.duration) ? a.duration : null;", audio)),
            timeout=UI_S, what="the audio element's duration")
        expect(abs(duration - note["duration"]) < 1.0,
               f"the audio lasts {duration:.2f} s, the note {note['duration']:.2f} s")
        for name in ("transcript", "note-summary", "note-tags", "note-people", "note-tasks", "note-delete"):
            expect(self.b.find_all(tid(name)), f"no {name} on the note page")
        segments = self.b.find_all(tid("segment"))
        target = segments[min(2, len(segments) - 1)]
        start_text = target.attribute("data-start")
        start = float(start_text)
        end = float(target.attribute("data-end"))
        expect(end > start, f"segment data-end {end} is not after data-start {start}")
        target.click()
        css = tid("segment", f'[data-start="{start_text}"]')

        def at_segment():
            t, paused = self.b.execute("const a = arguments[0]; return [a.currentTime, a.paused];", audio)
            cls = self.b.find(css).attribute("class") or ""
            return (t, paused) if start - 0.3 <= t <= end + 0.5 and "playing" in cls.split() else None

        t, paused = self.b.wait_until(at_segment, timeout=10, interval=0.1,
                                      what=f"audio at the clicked segment ({start:.2f}-{end:.2f} s) and class playing")
        playing = [s.attribute("data-start") for s in self.b.find_all(tid("segment", ".playing"))]
        expect(len(playing) == 1, f"{len(playing)} segments have class playing: {playing}")
        info(f"clicked segment {start:.2f}-{end:.2f} s: currentTime {t:.2f} s, paused={paused}")
        if not paused:
            time.sleep(1.0)
            t2 = self.b.execute("return arguments[0].currentTime;", audio)
            expect(t2 > t, f"the audio is not paused but did not advance ({t:.2f} -> {t2:.2f})")
        self.b.execute("arguments[0].pause();", audio)
        # Exports: every format, each answering 200 as an attachment.
        links = self.b.find_all(tid("export-link"))
        formats = {l.attribute("data-format"): l.property("href") for l in links}
        expect(set(formats) >= EXPORT_FORMATS, f"export links for {sorted(formats)}, expected {sorted(EXPORT_FORMATS)}")
        answers = self.b.execute_async(
            "const done = arguments[arguments.length - 1];"
            "Promise.all(arguments[0].map(u => fetch(u).then(r => r.text().then(t =>"
            " [u, r.status, r.headers.get('content-disposition'), t.length]))))"
            ".then(done, e => done(String(e)));", list(formats.values()), timeout=30)
        expect(isinstance(answers, list), f"fetching the export links failed: {answers}")
        for url, status, disposition, size in answers:
            expect(status == 200, f"{url} answered {status}")
            expect(disposition and "attachment" in disposition, f"{url} is not an attachment ({disposition})")
            expect(size > 0, f"{url} is empty")
        info("exports: " + ", ".join(f"{f} {s} ({n} chars)" for f, (_, s, _, n) in zip(formats, answers)))
        # Rename: type a new title and press Enter.
        title = "Renamed in the browser test"
        field = self.b.find(tid("note-title-input"))
        field.click()
        self.b.execute("arguments[0].select();", field)
        field.send_keys(title + ENTER)
        wait_until(lambda: self.api.note(note_id)["title"] == title, timeout=10, interval=0.3,
                   what="/api/notes/ID to have the new title")
        expect(self.api.note(note_id)["hasCustomTitle"], "hasCustomTitle is false after a rename")
        self.b.find(tid("nav-notes")).click()
        self.wait_shown(tid("notes-list"))
        self.b.wait_until(lambda: self.b.find(self.row(note_id)).find(tid("note-title")).text.strip() == title,
                          timeout=UI_S, what="the list to show the new title")

    def deep_link_time(self) -> None:
        note = self.pick_note_with_segments()
        seg = note["transcript"]["segments"][1]
        self.go("#/")
        self.wait_shown(tid("notes-list"))
        self.go(f"#/notes/{note['id']}?t={seg['start']:.2f}")
        self.b.wait_until(lambda: self.b.find(tid("note-page")).attribute("data-id") == note["id"], timeout=UI_S,
                          what="the note page")
        audio = self.b.find(tid("note-audio"))
        t = self.b.wait_until(
            lambda: (lambda v: v if v is not None and abs(v - seg["start"]) < 1.0 else None)(
                self.b.execute("return arguments[0].readyState > 0 ? arguments[0].currentTime : null;", audio)),
            timeout=UI_S, what=f"currentTime near {seg['start']:.2f} s from ?t=")
        info(f"?t={seg['start']:.2f}: currentTime {t:.2f} s")
        self.b.execute("arguments[0].pause();", audio)

    def action_items(self) -> None:
        notes = [self.api.note(i) for i in self.samples]
        note = next((n for n in notes if n["actionItems"]), None)
        expect(note, "no sample note has action items")
        item = next((i for i in note["actionItems"] if not i["done"]), None)
        expect(item, "every action item of the note is done already")
        self.go(f"#/notes/{note['id']}")
        self.b.wait_until(lambda: self.b.find(tid("note-page")).attribute("data-id") == note["id"], timeout=UI_S,
                          what="the note page")
        box = self.wait_shown(tid("task-checkbox", f'[data-id="{item["id"]}"]'))
        expect(not box.is_selected(), "the task's checkbox is ticked before it was clicked")
        box.click()
        wait_until(lambda: next(i for i in self.api.note(note["id"])["actionItems"] if i["id"] == item["id"])["done"],
                   timeout=10, interval=0.3, what="the action item to be done in /api/notes/ID")
        expect(self.b.find(tid("task-checkbox", f'[data-id="{item["id"]}"]')).is_selected(),
               "the checkbox is not ticked after the click")
        self.b.find(tid("nav-tasks")).click()
        self.wait_shown(tid("tasks-view"))
        toggle = self.b.find(tid("show-completed"))
        if toggle.is_selected():
            toggle.click()
        open_ids = {i["id"] for g in self.api.get("/api/tasks?completed=false")["groups"] for i in g["items"]}

        def ui_items():
            return {e.attribute("data-id") for e in self.shown(tid("task-item"))}

        self.b.wait_until(lambda: ui_items() == open_ids, timeout=UI_S,
                          what=f"the {len(open_ids)} open tasks (and no others) with show-completed off")
        expect(item["id"] not in ui_items(), "the ticked task is listed with show-completed off")
        self.b.find(tid("show-completed")).click()
        self.b.wait_until(lambda: item["id"] in ui_items(), timeout=UI_S,
                          what="the ticked task to be listed with show-completed on")
        # The list may render once more as events arrive: each read is retried on a stale element.
        ticked = tid("task-item", f'[data-id="{item["id"]}"]') + ' input[type="checkbox"]'
        self.b.wait_until(lambda: self.b.find(ticked).is_selected(), timeout=UI_S,
                          what="the completed task to be listed checked")
        self.b.wait_until(lambda: note["id"] in {g.attribute("data-note-id") for g in self.shown(tid("task-group"))},
                          timeout=UI_S, what="a task-group for the note")
        everything = self.b.wait_until(ui_items, timeout=UI_S, what="the listed tasks")
        self.shot("tasks.png")
        # The person filter: pick someone whose tasks are fewer than all of them, if anyone.
        people = self.api.get("/api/tasks?completed=true")["people"]
        expect(people, "/api/tasks lists no people")

        def options() -> list[str]:
            return self.b.execute("return [...document.querySelectorAll('[data-testid=\"person-filter\"] option')]"
                                  ".map(o => o.value);")

        # Notes imported earlier may still be finishing: the screen reloads when one does, so the
        # filter catches up with the API's people (read again each time) rather than at once.
        def caught_up() -> bool:
            nonlocal people
            people = self.api.get("/api/tasks?completed=true")["people"]
            return set(people) <= set(options())

        self.b.wait_until(caught_up, timeout=UI_S, what="the person-filter to offer every person /api/tasks lists")

        def person_items(p: str) -> set[str]:
            q = urllib.parse.quote(p)
            return {i["id"] for c in ("true", "false")
                    for g in self.api.get(f"/api/tasks?completed={c}&person={q}")["groups"] for i in g["items"]}

        sets = {p: person_items(p) for p in people}
        person = min((p for p in people if sets[p]), key=lambda p: len(sets[p]), default=people[0])
        self.set_select(tid("person-filter"), person)
        self.b.wait_until(lambda: ui_items() == sets[person], timeout=UI_S,
                          what=f"the tasks of {person} ({len(sets[person])}) after person-filter")
        info(f"tasks: {len(everything)} with completed, {len(sets[person])} for {person!r}")
        if len(sets[person]) < len(everything):
            expect(len(ui_items()) < len(everything), "person-filter did not narrow the list")

    def delete_note(self) -> None:
        note_id = next(iter(self.imported.values()), None)
        expect(note_id, "no imported note to delete")
        # Deleted as a person would, whatever the worker is doing with it: it must stay deleted.
        info(f"deleting note {note_id[:8]} while it is {self.api.note(note_id)['state']}")
        self.go(f"#/notes/{note_id}")
        self.b.wait_until(lambda: self.b.find(tid("note-page")).attribute("data-id") == note_id, timeout=UI_S,
                          what="the note page")
        self.b.find(tid("note-delete")).click()
        self.wait_shown(tid("confirm-dialog"))
        self.b.find(tid("confirm-no")).click()
        self.b.wait_until(lambda: not self.shown(tid("confirm-dialog")), timeout=5, what="the dialog to close on No")
        expect(self.api.request("GET", f"/api/notes/{note_id}")[0] == 200, "the note is gone after confirm-no")
        self.b.find(tid("note-delete")).click()
        self.wait_shown(tid("confirm-dialog"))
        self.b.find(tid("confirm-yes")).click()
        wait_until(lambda: self.api.request("GET", f"/api/notes/{note_id}")[0] == 404, timeout=10, interval=0.3,
                   what="/api/notes/ID to answer 404")
        self.go("#/")
        self.wait_shown(tid("notes-list"))
        self.b.wait_until(lambda: note_id not in self.list_ids() and self.list_ids(), timeout=UI_S,
                          what="the deleted note's row to go")
        wait_until(lambda: self.api.get("/api/status")["worker"]["noteID"] != note_id, timeout=PROCESSING_S,
                   interval=0.5, what="the worker to leave the deleted note")
        expect(self.api.request("GET", f"/api/notes/{note_id}")[0] == 404, "the deleted note came back")
        audio = list((self.library / "audio").glob(f"{note_id}*"))
        expect(not audio, f"the deleted note's audio is still there: {[a.name for a in audio]}")

    def screens(self) -> None:
        self.b.get("about:blank")  # then a fresh load: the list as a person opening the app sees it
        self.open("#/")
        self.wait_shown(tid("notes-list"))
        self.b.wait_until(lambda: self.b.find_all(tid("note-row")), timeout=UI_S, what="note rows")
        self.shot("notes-list.png")
        note = self.pick_note_with_segments()
        reached = self.b.set_viewport(360, 740)
        expect(reached == (360, 740), f"the phone viewport is {reached}, not 360x740")
        self.shot("notes-list-phone.png")
        width = self.b.execute("return document.documentElement.scrollWidth;")
        self.go(f"#/notes/{note['id']}")
        self.wait_shown(tid("note-page"))
        self.b.wait_until(lambda: self.b.find_all(tid("segment")), timeout=UI_S, what="segments")
        self.shot("note-page-phone.png")
        note_width = self.b.execute("return document.documentElement.scrollWidth;")
        self.go("#/ask")
        self.wait_shown(tid("ask-input"))
        self.shot("ask-phone.png")
        ask_width = self.b.execute("return document.documentElement.scrollWidth;")
        self.go("#/search?q=the")
        self.wait_shown(tid("search-modes"))
        search_width = self.b.execute("return document.documentElement.scrollWidth;")
        self.b.set_viewport(1280, 900)
        expect(width <= 360 and note_width <= 360 and ask_width <= 360 and search_width <= 360,
               f"the page scrolls sideways on a phone: {width} px (list), {note_width} px (note), "
               f"{ask_width} px (ask), {search_width} px (search) for 360 px")

    def dark_mode(self) -> None:
        note = self.pick_note_with_segments()
        light = self.b.execute("return getComputedStyle(document.body).backgroundColor;")
        with Browser(extra_args=["--force-dark-mode", "--blink-settings=preferredColorScheme=0"],
                     log_path=ARTIFACTS / "chromedriver.log") as dark:
            dark.get(self.server.url + "#/")
            expect(dark.execute("return matchMedia('(prefers-color-scheme: dark)').matches;"),
                   "the dark session does not prefer a dark colour scheme")
            dark.wait_until(lambda: rendered(dark, tid("notes-list")), timeout=UI_S,
                            what="notes-list in the dark session")
            self.shot("notes-list-dark.png", dark)
            background = dark.execute("return getComputedStyle(document.body).backgroundColor;")
            dark.get(self.server.url + f"#/notes/{note['id']}")
            dark.wait_until(lambda: dark.find_all(tid("segment")), timeout=UI_S, what="segments (dark)")
            self.shot("note-page-dark.png", dark)
        info(f"body background: light {light}, dark {background}")
        expect(luminance(background) < luminance(light),
               f"dark mode does not darken the page: {background} vs {light}")

    def kill_while_recording(self) -> None:
        self.go("#/")
        self.wait_shown(tid("notes-list"))
        before = {n["id"] for n in self.api.all_notes()}
        self.b.find(tid("record-button")).click()
        self.b.wait_until(lambda: self.b.find(tid("record-button")).text.strip() == "Stop", timeout=UI_S,
                          what="record-button to say Stop")
        started = time.monotonic()
        note = wait_until(lambda: next((n for n in self.api.all_notes() if n["id"] not in before), None),
                          timeout=10, interval=0.2, what="the recording's note")
        note_id = note["id"]
        time.sleep(max(0.0, started + 6.0 - time.monotonic()))
        shown_time = self.b.find(tid("record-time")).text.strip()
        elapsed = time.monotonic() - started
        self.server.kill()
        info(f"SIGKILL after {elapsed:.1f} s of recording (record-time {shown_time!r})")
        self.b.get("about:blank")  # ends the page's capture and its requests to the dead server
        folder = self.library / "audio"
        files = list(folder.glob(f"{note_id}*.wav"))
        if not files:  # not named after the note: the one WAV written during the recording
            recent = [p for p in folder.glob("*.wav") if p.stat().st_mtime >= time.time() - elapsed - 2]
            if len(recent) == 1:
                info(f"the recording's WAV is {recent[0].name}, not named after note {note_id}")
                files = recent
        expect(files, f"no WAV for note {note_id[:8]} in {folder}: {sorted(p.name for p in folder.iterdir())}")
        wav = files[0]
        size = wav.stat().st_size
        kept = wav_seconds(wav)
        info(f"{wav.name}: {kept:.2f} s by its header, {(size - 44) / 32000:.2f} s by its size")
        expect(kept >= elapsed - 1.5, f"the WAV holds {kept:.2f} s after {elapsed:.1f} s of recording")
        self.server = Server(self.program, self.library, ARTIFACTS / "server.log", self.server_args)
        info(f"restarted: {self.server.url}")
        done = self.wait_note(note_id, {"done"}, timeout=PROCESSING_S)
        expect(done["duration"] >= elapsed - 1.5, f"the finished note lasts {done['duration']:.2f} s")
        expect(wav_seconds(wav) >= kept - 0.01, "the WAV lost audio on restart")
        status, body, headers = self.api.request("GET", f"/api/notes/{note_id}/audio")
        expect(status == 200 and len(body) == wav.stat().st_size,
               f"GET audio answered {status} with {len(body)} bytes for a {wav.stat().st_size}-byte file")
        text = " ".join(s["text"] for s in done["transcript"]["segments"])
        info(f"after restart: done, {done['duration']:.2f} s, transcript {text.strip()[:80]!r}")
        expect(words(text), "the recovered note has an empty transcript")
        self.open("#/")
        self.b.wait_until(lambda: self.row_state(note_id) == "done", timeout=UI_S,
                          what="the recovered note's row to show done")


def model_unavailable(r: "Run") -> None:
    """With the language model turned off, the page says so, and a note is still saved and
    transcribed, then waits (not failed) for the model."""
    library = r.tmp / "no-language-model"
    server = Server(r.program, library, ARTIFACTS / "server.log", r.server_args,
                    env_extra={"VOICENOTES_LANGUAGE_MODEL": "off"})
    try:
        r.b.get(server.url + "#/")
        banner = r.b.wait_until(lambda: rendered(r.b, tid("lm-banner")), timeout=UI_S,
                                what="the language-model banner")[0]
        text = banner.text.lower()
        expect("turned off" in text or "unavailable" in text or "not available" in text,
               f"the banner does not say the model is unavailable: {banner.text!r}")
        status = server.api.get("/api/status")
        expect(status["languageModel"]["available"] is False, f"status says available: {status['languageModel']}")
        jfk = (ROOT / ".deps" / "testdata" / "jfk.wav").read_bytes()
        code, created, _ = server.api.request("POST", "/api/imports?name=jfk.wav", body=jfk,
                                              headers={"Content-Type": "audio/wav"})
        expect(code == 201, f"import answered {code}: {created!r}"[:300])

        def waiting():
            n = server.api.note(created["id"])
            if n["state"] == "failed":
                raise Failure(f"the note failed instead of waiting: {n.get('error')}")
            return n if n["state"] == "analysing" and n.get("transcript") else None

        note = wait_until(waiting, timeout=180, interval=1.0, what="the note to be transcribed and wait")
        heard = " ".join(seg["text"] for seg in note["transcript"]["segments"]).lower()
        expect("ask not what your country" in heard, f"transcript: {heard!r}")
        row_state = r.b.wait_until(
            lambda: r.b.execute("const e = document.querySelector(arguments[0]);"
                                "return e ? e.dataset.state : null;", tid("note-row", f'[data-id="{note["id"]}"] ')
                                + tid("note-state")) == "analysing",
            timeout=UI_S, what="the row to show analysing")
        expect(row_state, "the row does not show analysing")
        r.shot("notes-list-no-language-model.png")
    finally:
        server.stop(grace=10)


def conversation_wav(path: Path) -> None:
    """A LibriVox reader, Kennedy, the reader again: two real people, 0.7 s of faint noise
    between them, each clip scaled to one loudness (one microphone, one room)."""
    import array
    import math
    import random
    clips = [LIBRIVOX / "sense_and_sensibility_01_austen_64kb-0870.wav", JFK,
             LIBRIVOX / "sense_and_sensibility_01_austen_64kb-0890.wav"]
    rng = random.Random(7)
    out = array.array("h")

    def pause() -> None:
        out.extend(int(rng.uniform(-65, 65)) for _ in range(11200))

    pause()
    for clip in clips:
        with wave.open(str(clip)) as w:
            if w.getframerate() != 16000 or w.getnchannels() != 1 or w.getsampwidth() != 2:
                raise Failure(f"{clip} is not 16 kHz mono 16-bit")
            samples = array.array("h", w.readframes(w.getnframes()))
        rms = math.sqrt(sum(x * x for x in samples) / max(len(samples), 1)) or 1.0
        scale = 1638.0 / rms  # 0.05 of full scale
        out.extend(max(-32768, min(32767, int(x * scale))) for x in samples)
        pause()
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(out.tobytes())


def speakers(r: "Run") -> None:
    """A conversation of two people is labelled "Speaker 1" / "Speaker 2" on the transcript;
    clicking a label names that speaker; the Speakers screen renames and forgets the voice.
    Its own library with the language model off, so only transcription and speakers run."""
    library = r.tmp / "speakers"
    server = Server(r.program, library, ARTIFACTS / "server-speakers.log", r.server_args,
                    env_extra={"VOICENOTES_LANGUAGE_MODEL": "off"})
    try:
        wav = r.tmp / "conversation.wav"
        conversation_wav(wav)
        code, created, _ = server.api.request("POST", "/api/imports?name=conversation.wav", body=wav.read_bytes(),
                                              headers={"Content-Type": "audio/wav"})
        expect(code == 201, f"import answered {code}: {created!r}"[:300])

        def labelled():
            n = server.api.note(created["id"])
            if n["state"] == "failed":
                raise Failure(f"the note failed: {n.get('error')}")
            return n if n["state"] == "analysing" and n.get("transcript") else None

        note = wait_until(labelled, timeout=PROCESSING_S, interval=1.0, what="the note to be transcribed and labelled")
        expect(len(note["speakers"]) == 2, f"speakers: {note['speakers']}")
        kennedy = [seg for seg in note["transcript"]["segments"] if "americans" in seg["text"].lower()]
        expect(kennedy and all(seg["speaker"] == "Speaker 2" for seg in kennedy), f"Kennedy's segments: {kennedy}")

        r.b.get(server.url + f"#/notes/{note['id']}")
        labels = r.b.wait_until(lambda: rendered(r.b, tid("segment-speaker")), timeout=UI_S,
                                what="speaker labels on the transcript")
        texts = [label.text for label in labels]
        expect(texts[0] == "Speaker 1" and "Speaker 2" in texts, f"labels: {texts}")
        r.shot("note-speakers.png")
        r.b.find(tid("segment-speaker", '[data-number="2"]')).click()
        field = r.b.wait_until(lambda: rendered(r.b, tid("speaker-name-input")), timeout=UI_S,
                               what="the speaker's name field")[0]
        field.send_keys("John Kennedy" + ENTER)
        r.b.wait_until(lambda: "John Kennedy" in [e.text for e in rendered(r.b, tid("segment-speaker"))],
                       timeout=UI_S, what="the name on Speaker 2's segments")
        named = server.api.note(note["id"])
        expect([s.get("name") for s in named["speakers"]] == [None, "John Kennedy"], f"speakers: {named['speakers']}")

        r.b.get(server.url + "#/speakers")
        r.b.wait_until(lambda: [e.text for e in rendered(r.b, tid("speaker-name"))] == ["John Kennedy"],
                       timeout=UI_S, what="the named speaker on the Speakers screen")
        rename = r.b.find(tid("speaker-rename-input"))
        rename.clear()
        rename.send_keys("JFK")
        r.b.find(tid("speaker-rename")).click()
        r.b.wait_until(lambda: [e.text for e in rendered(r.b, tid("speaker-name"))] == ["JFK"],
                       timeout=UI_S, what="the new name")
        r.shot("speakers.png")
        r.b.find(tid("speaker-forget")).click()
        r.b.find(tid("speaker-forget")).click()  # "Really forget?"
        r.b.wait_until(lambda: not rendered(r.b, tid("speaker-item")), timeout=UI_S, what="the voice to be forgotten")
        expect(server.api.get("/api/speakers")["speakers"] == [], "the voice is still listed")
        forgotten = server.api.note(note["id"])
        expect([s.get("name") for s in forgotten["speakers"]] == [None, None], f"speakers: {forgotten['speakers']}")
    finally:
        server.stop(grace=10)


def cli_changes_appear(r: "Run") -> None:
    """While the page is open, a rename made with the command line on the same library shows in
    the list without a reload (the server watches the database for other processes' commits)."""
    r.open("#/")
    r.wait_shown(tid("notes-list"))
    note_id = r.b.wait_until(lambda: r.list_ids(), timeout=UI_S, what="note rows")[0]
    title = f"Renamed from the command line {int(time.time()) % 1000}"
    env = dict(os.environ)
    env.setdefault("OMP_WAIT_POLICY", "passive")
    done = subprocess.run([str(r.program), "rename", note_id[:8], title, "--library", str(r.library)],
                          capture_output=True, text=True, timeout=60, env=env)
    expect(done.returncode == 0, f"voicenotes rename failed: {done.stderr.strip()}")
    css = tid("note-row", f'[data-id="{note_id}"] ') + tid("note-title")
    r.b.wait_until(lambda: r.b.execute("const e = document.querySelector(arguments[0]);"
                                       "return e ? e.textContent.trim() : null;", css) == title,
                   timeout=UI_S, what="the CLI's new title to show in the open page")

# ---------------------------------------------------------------------------------------------
# Asking, search modes and related notes: their own library with the samples, analysed by the
# language model that answers questions (--ask-model, default qwen-1.5b).


class AskLibrary:
    """A server on its own library holding the three samples, every one done."""

    def __init__(self, r: "Run"):
        model = r.args.ask_model
        self.server = Server(r.program, r.tmp / "ask", ARTIFACTS / "server-ask.log", ["--language-model", model])
        api = self.server.api
        status = api.get("/api/status")
        lm = status["languageModel"]
        if not lm.get("available"):
            self.server.stop(grace=10)
            raise Skip(f"the language model {lm.get('name')} is not available: {lm.get('reason')}")
        code, restored, _ = api.request("POST", "/api/samples/restore", b"")
        expect(code == 200 and len(restored.get("imported", [])) == 3, f"restoring the samples answered {code} {restored!r}")
        self.samples = {n["originalFileName"]: n["id"] for n in restored["imported"]}
        expect(set(self.samples) == SAMPLE_FILES, f"restored {sorted(self.samples)}")
        began = time.monotonic()
        self.notes: dict[str, dict] = {}
        for name, note_id in self.samples.items():
            left = max(5.0, 3 * PROCESSING_S - (time.monotonic() - began))

            def done(note_id=note_id):
                n = api.note(note_id)
                if n["state"] == "failed":
                    raise Failure(f"sample {n['originalFileName']} failed: {n.get('error')}")
                return n if n["state"] == "done" else None

            self.notes[name] = wait_until(done, timeout=left, interval=1.0, what=f"sample {name} to be done")
        info(f"ask library: samples done in {time.monotonic() - began:.0f} s with {model}")
        code, body, _ = api.request("GET", "/api/search?q=shopping&mode=semantic")
        self.semantic = code == 200
        self.semantic_reason = "" if self.semantic else f"{code} {body.get('error') if isinstance(body, dict) else body!r}"

    @property
    def url(self) -> str:
        return self.server.url

    @property
    def api(self) -> Api:
        return self.server.api


def ask_library(r: "Run") -> AskLibrary:
    if r.ask_library is None or not r.ask_library.server.alive():
        r.ask_library = AskLibrary(r)
    return r.ask_library


def turns(r: "Run") -> list[dict]:
    """The Ask screen's thread: each turn's state, question, answer text, citations and sources."""
    return r.b.execute(
        "return [...document.querySelectorAll('[data-testid=\"ask-turn\"]')].map(t => ({"
        " state: t.dataset.state,"
        " question: t.querySelector('[data-testid=\"ask-question\"]').textContent,"
        " text: t.querySelector('[data-testid=\"ask-answer-text\"]').textContent,"
        " abstained: t.querySelector('[data-testid=\"ask-answer\"]').classList.contains('abstained'),"
        " error: t.querySelector('[data-testid=\"ask-error\"]').hidden ? '' :"
        "   t.querySelector('[data-testid=\"ask-error\"]').textContent,"
        " citations: [...t.querySelectorAll('[data-testid=\"citation-link\"]')].map(a =>"
        "   ({note: a.dataset.noteId, number: a.dataset.number, href: a.getAttribute('href')})),"
        " sources: [...t.querySelectorAll('[data-testid=\"ask-source\"]')].map(s => ({note: s.dataset.noteId,"
        "   text: s.textContent}))}));")


WATCH_STREAM = """
window.__askStream = {streamed: 0, states: []};
const seen = (root) => {
  const all = root.querySelectorAll('[data-testid="ask-turn"]');
  const last = all[all.length - 1];
  if (!last) return;
  const s = window.__askStream;
  if (s.states[s.states.length - 1] !== last.dataset.state) s.states.push(last.dataset.state);
  if (last.dataset.state === 'streaming') {
    const n = last.querySelector('[data-testid="ask-answer-text"]').textContent.length;
    s.streamed = Math.max(s.streamed, n);
  }
};
if (window.__askObserver) window.__askObserver.disconnect();
window.__askObserver = new MutationObserver(() => seen(document));
window.__askObserver.observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true,
  attributeFilter: ['data-state']});
"""


def ask_in_page(r: "Run", question: str, count: int) -> dict:
    """Types `question` in the Ask screen and presses Enter; waits for turn `count` to finish."""
    r.b.execute(WATCH_STREAM)
    box = r.wait_shown(tid("ask-input"))
    box.send_keys(question + ENTER)
    r.b.wait_until(lambda: len(turns(r)) == count, timeout=UI_S, what=f"turn {count} in the thread")
    r.b.wait_until(lambda: r.shown(tid("ask-waiting")) or turns(r)[-1]["state"] != "waiting", timeout=UI_S,
                   what="the waiting state (or an answer)")
    began = time.monotonic()
    turn = r.b.wait_until(lambda: (lambda t: t if t["state"] in ("done", "error") else None)(turns(r)[-1]),
                          timeout=ASK_S, interval=0.5, what=f"the answer to {question!r}")
    stream = r.b.execute("return window.__askStream;")
    info(f"asked {question!r} in {time.monotonic() - began:.0f} s: states {stream['states']}, "
         f"{stream['streamed']} characters streamed before the answer; answer {turn['text']!r}"[:400])
    expect(turn["state"] == "done", f"the question {question!r} got an error: {turn['error']}")
    turn["streamed"] = stream["streamed"]
    return turn


def ask(r: "Run") -> None:
    """The Ask screen: a question answered from the groceries note, streamed, with citations that
    open the cited note; a follow-up in the same conversation; and a question the notes cannot
    answer, which abstains with no citations."""
    lib = ask_library(r)
    groceries = lib.notes["groceries.opus"]
    spoken = " ".join(s["text"] for s in groceries["transcript"]["segments"])
    info(f"groceries note: {spoken.strip()[:200]!r}")
    # Errors before streaming are one JSON line.
    code, body, _ = lib.api.request("POST", "/api/ask", {"question": "  "})
    expect(code == 400 and isinstance(body, dict) and body.get("error"), f"an empty question answered {code} {body!r}")

    r.b.get(lib.url + "#/")
    r.wait_shown(tid("nav-ask")).click()
    r.wait_shown(tid("ask-view"))
    expect("#/ask" in r.b.url, f"the Ask link went to {r.b.url}")
    expect(r.b.find(tid("nav-ask")).attribute("aria-current") == "page", "nav-ask is not marked as the current page")
    expect(r.b.execute("return document.activeElement && document.activeElement.dataset.testid;") == "ask-input",
           "the question field does not have the focus when the Ask screen opens")
    if turns(r):  # a conversation left from an earlier scenario in this page
        r.b.find(tid("ask-new")).click()
        r.b.wait_until(lambda: not turns(r), timeout=UI_S, what="New conversation to clear the thread")
    label = r.b.execute("const i = document.querySelector('[data-testid=\"ask-input\"]');"
                        "return i.labels.length ? i.labels[0].textContent : null;")
    expect(label, "the question field has no label")
    r.shot("ask-empty.png")

    # The groceries sample says to pick up the dry cleaning before noon on Saturday, and to ask
    # Helena whether she still needs a lift to the airport.
    question = "When do I need to pick up the dry cleaning?"
    first = ask_in_page(r, question, 1)
    expect(first["streamed"] > 0, "no answer text appeared before the answer was finished (not streamed)")
    expect(not first["abstained"], f"the answer abstained: {first['text']!r}")
    expect(first["citations"], f"the answer has no citation links: {first['text']!r}")
    expect(first["sources"], "the answer has no sources listed")
    cited = {c["note"] for c in first["citations"]}
    for note_id in cited:
        code, _, _ = lib.api.request("GET", f"/api/notes/{note_id}")
        expect(code == 200, f"a citation points to note {note_id}, which answers {code}")
    expect(groceries["id"] in cited, f"the answer cites {sorted(cited)}, not the groceries note {groceries['id'][:8]}")
    expect({s["note"] for s in first["sources"]} == cited, "the sources list differs from the cited notes")
    times = r.b.execute("return [...document.querySelectorAll('[data-testid=\"ask-source-time\"]')]"
                        ".map(e => e.textContent);")
    expect(all(re.fullmatch(r"\d+:\d{2}", t) for t in times), f"source times {times} are not m:ss")
    r.shot("ask.png")

    link = r.b.find(tid("citation-link"))
    target, href = link.attribute("data-note-id"), link.attribute("href")
    link.click()
    r.b.wait_until(lambda: rendered(r.b, tid("note-page")) and r.b.find(tid("note-page")).attribute("data-id") == target,
                   timeout=UI_S, what=f"the cited note {target[:8]} to open")
    m = re.search(r"[?&]t=([\d.]+)", href)
    if m:
        audio = r.b.find(tid("note-audio"))
        # The time is wrapped in a list: a citation at 0:00 would be falsy and never end the wait.
        [t] = r.b.wait_until(lambda: (lambda v: [v] if v is not None and abs(v - float(m.group(1))) < 1.0 else None)(
            r.b.execute("return arguments[0].readyState > 0 ? arguments[0].currentTime : null;", audio)),
            timeout=UI_S, what=f"the cited note's audio at {m.group(1)} s")
        info(f"citation {href}: opened at {t:.2f} s")
    r.b.execute("history.back();")
    r.wait_shown(tid("ask-view"))
    expect(len(turns(r)) == 1, "coming back to Ask lost the conversation")

    follow = ask_in_page(r, "And what should I ask Helena?", 2)
    both = turns(r)
    expect(len(both) == 2 and all(t["state"] == "done" and t["text"].strip() for t in both),
           f"the thread does not hold two answers: {both}")
    r.shot("ask-follow-up.png")
    # A new conversation: the thread is cleared, and a question the notes don't answer abstains.
    r.b.find(tid("ask-new")).click()
    r.b.wait_until(lambda: not turns(r), timeout=UI_S, what="New conversation to clear the thread")
    none = ask_in_page(r, "What is my passport number?", 1)
    expect("The notes don't say." in none["text"].replace("\u2019", "'"),
           f"the unanswerable question got {none['text']!r}, not an abstention")
    expect(none["abstained"], "the abstention is not marked as one")
    expect(not none["citations"] and not none["sources"], f"the abstention has citations: {none}")
    r.shot("ask-abstained.png")
    del follow

SCRIPTED_ASK = """
const note = arguments[0];
const real = window.__realFetch || window.fetch;
window.__realFetch = real;
window.__asks = [];
let release = null;
window.__release = () => { if (release) release(); };
const encoder = new TextEncoder();
const event = (name, data) => `event: ${name}\\ndata: ${JSON.stringify(data)}\\n\\n`;
window.fetch = async (url, options) => {
  if (String(url) !== '/api/ask') return real(url, options);
  const body = JSON.parse(options.body);
  window.__asks.push(body);
  const n = window.__asks.length;
  if (body.question.includes('refuse')) {
    return new Response(JSON.stringify({error: 'the language model qwen-9b is not installed'}),
      {status: 409, headers: {'Content-Type': 'application/json'}});
  }
  const parts = [event('conversation', {id: 'scripted-conversation'}), ': keep-alive\\n\\n'];
  let last;
  if (body.question.includes('fail')) {
    last = event('error', {error: 'the model stopped'});
  } else {
    const number = n;
    parts.push(event('text', {text: 'Before noon '}), event('text', {text: 'on Saturday'}));
    last = event('answer', {text: `Before noon on Saturday [${number}].`, abstained: false, citations: [
      {number, noteID: note.id, title: note.title, recordedAt: note.createdAt, time: note.time,
       text: 'Pick up the dry cleaning before noon on Saturday'}]});
  }
  const gate = new Promise((resolve) => { release = resolve; });
  const stream = new ReadableStream({
    async start(controller) {
      // Split across chunks in the middle of lines, as a network may.
      const head = parts.join('');
      for (let i = 0; i < head.length; i += 7) controller.enqueue(encoder.encode(head.slice(i, i + 7)));
      await gate;
      controller.enqueue(encoder.encode(last));
      controller.close();
    },
  });
  return new Response(stream, {status: 200, headers: {'Content-Type': 'text/event-stream'}});
};
"""


def ask_scripted(r: "Run") -> None:
    """The Ask screen against a scripted answer stream (the page's fetch replaced), so what the page
    does with each event is checked whatever the model says: text shown while it streams, [n]
    links to the cited note at its time, the sources, the conversation sent back with a follow-up,
    an error event and a refusal before streaming as one line each."""
    lib = ask_library(r)
    groceries = lib.notes["groceries.opus"]
    seg = groceries["transcript"]["segments"][-1]
    note = {"id": groceries["id"], "title": groceries["title"], "createdAt": groceries["createdAt"],
            "time": seg["start"]}
    r.b.get(lib.url + "#/ask")
    r.wait_shown(tid("ask-view"))
    r.b.execute(SCRIPTED_ASK, note)
    if r.shown(tid("ask-turn")):
        r.b.find(tid("ask-new")).click()
    r.wait_shown(tid("ask-input")).send_keys("When is the dry cleaning due?" + ENTER)
    r.b.wait_until(lambda: (lambda t: t and t[-1]["state"] == "streaming" and t[-1]["text"] == "Before noon on Saturday")(
        turns(r)), timeout=UI_S, what="the streamed text before the answer event")
    expect(r.b.find(tid("ask-submit")).property("disabled"), "the Ask button is not disabled while answering")
    expect(r.b.find(tid("ask-answer")).attribute("aria-live") == "polite", "the answer is not an aria-live region")
    r.b.execute("window.__release();")
    first = r.b.wait_until(lambda: (lambda t: t[-1] if t[-1]["state"] == "done" else None)(turns(r)), timeout=UI_S,
                           what="the scripted answer")
    expect(first["text"] == "Before noon on Saturday [1].", f"the answer reads {first['text']!r}")
    expect([c["note"] for c in first["citations"]] == [groceries["id"]], f"citations: {first['citations']}")
    expect(f"t={seg['start']:g}" in first["citations"][0]["href"] or seg["start"] == 0,
           f"the citation link {first['citations'][0]['href']} is not at {seg['start']} s")
    expect(len(first["sources"]) == 1 and groceries["title"] in first["sources"][0]["text"]
           and "Pick up the dry cleaning" in first["sources"][0]["text"], f"sources: {first['sources']}")
    expect(r.b.execute("return window.__asks[0].conversation === undefined;"),
           "the first question sent a conversation")
    r.shot("ask-scripted.png")
    r.b.find(tid("citation-link")).click()
    r.b.wait_until(lambda: rendered(r.b, tid("note-page")) and r.b.find(tid("note-page")).attribute("data-id") == groceries["id"],
                   timeout=UI_S, what="the cited note to open")
    r.b.execute("history.back();")
    r.wait_shown(tid("ask-view"))
    expect(len(turns(r)) == 1, "coming back to Ask lost the thread")
    r.wait_shown(tid("ask-input")).send_keys("And the airport?" + ENTER)
    r.b.wait_until(lambda: len(turns(r)) == 2 and turns(r)[-1]["state"] == "streaming", timeout=UI_S,
                   what="the follow-up streaming")
    r.b.execute("window.__release();")
    r.b.wait_until(lambda: turns(r)[-1]["state"] == "done", timeout=UI_S, what="the follow-up's answer")
    sent = r.b.execute("return window.__asks[1];")
    expect(sent.get("conversation") == "scripted-conversation", f"the follow-up sent {sent}")
    expect([c["number"] for c in turns(r)[-1]["citations"]] == ["2"], f"follow-up citations: {turns(r)[-1]['citations']}")
    # An error event, and a refusal before the stream: one line each.
    r.wait_shown(tid("ask-input")).send_keys("Please fail" + ENTER)
    r.b.wait_until(lambda: len(turns(r)) == 3, timeout=UI_S, what="the third turn")
    r.b.execute("window.__release();")
    failed = r.b.wait_until(lambda: (lambda t: t if t["state"] == "error" else None)(turns(r)[-1]), timeout=UI_S,
                            what="the error event shown")
    expect("the model stopped" in failed["error"] and "\n" not in failed["error"], f"error: {failed['error']!r}")
    r.wait_shown(tid("ask-input")).send_keys("Please refuse" + ENTER)
    refused = r.b.wait_until(lambda: (lambda t: t if len(t) == 4 and t[-1]["state"] == "error" else None)(turns(r)),
                             timeout=UI_S, what="the refusal shown")[-1]
    expect("qwen-9b is not installed" in refused["error"], f"refusal: {refused['error']!r}")
    expect(r.b.execute("return window.__asks[3].conversation;") == "scripted-conversation",
           "the conversation was not kept after an error")
    r.b.find(tid("ask-new")).click()
    r.b.wait_until(lambda: not turns(r), timeout=UI_S, what="New conversation to clear the thread")
    r.wait_shown(tid("ask-input")).send_keys("When is the dry cleaning due?" + ENTER)
    r.b.wait_until(lambda: len(turns(r)) == 1, timeout=UI_S, what="the new conversation's question")
    r.b.execute("window.__release();")
    r.b.wait_until(lambda: turns(r)[-1]["state"] == "done", timeout=UI_S, what="the new conversation's answer")
    expect(r.b.execute("return window.__asks[4].conversation === undefined;"),
           "a new conversation sent the old conversation's id")
    r.b.execute("window.fetch = window.__realFetch;")


def search_modes(r: "Run") -> None:
    """The search screen's mode control: the mode used is shown; keyword results for a word in a
    sample; meaning results for a paraphrase (or the server's message when there is no embedding
    model); results still open at their segment."""
    lib = ask_library(r)
    groceries = lib.notes["groceries.opus"]
    segments = groceries["transcript"]["segments"]
    word = next((w.lower() for s in segments for w in re.findall(r"[A-Za-z]{5,}", s["text"])
                 if w.lower() not in {"there", "about", "would", "should", "think", "going"}), None)
    expect(word, "no word of 5 letters in the groceries transcript")
    default = lib.api.get(f"/api/search?q={word}")["mode"]
    r.b.get(lib.url + f"#/search?q={word}")
    used = lambda: r.b.execute(  # noqa: E731
        "const e = document.querySelector('[data-testid=\"search-mode-used\"]'); return e ? e.dataset.mode : null;")
    checked = lambda: r.b.execute(  # noqa: E731
        "const e = document.querySelector('[data-testid=\"search-mode\"]:checked'); return e ? e.value : null;")
    r.b.wait_until(lambda: used() == default, timeout=UI_S, what=f"the page to say it searched by {default}")
    expect(checked() == default, f"the mode control shows {checked()!r}, the server used {default!r}")

    def pick(mode: str) -> None:
        r.b.find(f'label[for="search-mode-{mode}"]').click()
        r.b.wait_until(lambda: f"mode={mode}" in r.b.url, timeout=UI_S, what=f"mode={mode} in the route")

    pick("keyword")
    r.b.wait_until(lambda: used() == "keyword" and r.shown(tid("search-result")), timeout=UI_S,
                   what="keyword results")
    api = [h["note"]["id"] for h in lib.api.get(f"/api/search?q={word}&mode=keyword")["results"]]
    ui = [e.attribute("data-id") for e in r.shown(tid("search-result"))]
    expect(ui == api[:20], f"keyword search for {word!r}: page {ui}, API {api}")
    expect(groceries["id"] in ui, f"keyword search for {word!r} does not find the groceries note")
    r.shot("search-keyword.png")

    paraphrase = "food to pick up from the supermarket"
    code, body, _ = lib.api.request("GET", f"/api/search?q={urllib.parse.quote(paraphrase)}&mode=semantic")
    r.b.execute("location.hash = arguments[0];", f"#/search?q={urllib.parse.quote(paraphrase)}&mode=keyword")
    pick("semantic")
    if code == 200:
        r.b.wait_until(lambda: used() == "semantic" and r.shown(tid("search-result")), timeout=UI_S,
                       what="meaning results")
        ui = [e.attribute("data-id") for e in r.shown(tid("search-result"))]
        expect(ui == [h["note"]["id"] for h in body["results"]][:20], f"meaning search: page {ui}, API {body}")
        expect(groceries["id"] in ui[:2], f"meaning search for {paraphrase!r} does not put groceries first or second")
        snippets = [e.text for e in r.shown(tid("search-result") + " .snippet")]
        expect(all(s.strip() for s in snippets), f"a meaning result has no snippet: {snippets}")
        r.shot("search-meaning.png")
        pick("hybrid")
        r.b.wait_until(lambda: used() == "hybrid" and r.shown(tid("search-result")), timeout=UI_S,
                       what="hybrid results")
    else:
        expect(code == 409 and body.get("error"), f"meaning search without the embedding model answered {code} {body!r}")
        message = body["error"]
        r.b.wait_until(lambda: message in r.b.find(tid("search-summary")).text, timeout=UI_S,
                       what=f"the server's message {message!r} on the page")
        expect(checked() == "semantic", "the mode control does not show Meaning after a 409")
        info(f"meaning search: 409 {message!r} shown (no embedding model)")
        r.shot("search-meaning-unavailable.png")
        r.wait_shown(tid("search-keyword-instead")).click()
        r.b.wait_until(lambda: used() == "keyword", timeout=UI_S, what="the keyword fallback")
    # A transcript result opens at its segment.
    r.b.execute("location.hash = arguments[0];", f"#/search?q={word}&scope=transcript&mode=keyword")
    r.b.wait_until(lambda: used() == "keyword", timeout=UI_S, what="the page to search by keyword again")

    def open_hit() -> tuple[float, str] | None:
        # The list may still be re-rendered under the test (the previous mode's answer arriving
        # late); a result replaced between finding and clicking it is looked up again.
        hits = [e for e in r.shown(tid("search-result")) if e.attribute("data-segment-start")]
        if not hits:
            return None
        try:
            found = (float(hits[0].attribute("data-segment-start")), hits[0].attribute("data-id"))
            hits[0].find("a").click()
            return found
        except WebDriverError as e:
            if "stale element" in str(e):
                return None
            raise

    start, target = r.b.wait_until(open_hit, timeout=UI_S, what="a transcript result with a segment start, opened")
    r.b.wait_until(lambda: rendered(r.b, tid("note-page")) and r.b.find(tid("note-page")).attribute("data-id") == target,
                   timeout=UI_S, what="the result's note")
    audio = r.b.find(tid("note-audio"))
    r.b.wait_until(lambda: (lambda v: v is not None and abs(v - start) < 1.0)(
        r.b.execute("return arguments[0].readyState > 0 ? arguments[0].currentTime : null;", audio)),
        timeout=UI_S, what=f"the note's audio at the result's segment ({start:.2f} s)")


def related(r: "Run") -> None:
    """A note's page lists the notes closest in meaning, each a link that opens it."""
    lib = ask_library(r)
    if not lib.semantic:
        raise Skip(f"no semantic index (GET /api/search?mode=semantic answered {lib.semantic_reason})")
    note = lib.notes["groceries.opus"]
    api = [h["note"]["id"] for h in lib.api.get(f"/api/notes/{note['id']}/related")["results"]]
    r.b.get(lib.url + f"#/notes/{note['id']}")
    r.b.wait_until(lambda: r.b.find(tid("note-page")).attribute("data-id") == note["id"], timeout=UI_S,
                   what="the note page")
    if not api:
        time.sleep(1.0)
        expect(not r.shown(tid("related-notes")), "related-notes is shown although the API has none")
        raise Skip("the semantic index has no notes related to the groceries note")
    section = r.wait_shown(tid("related-notes"))
    ui = [e.attribute("data-id") for e in r.shown(tid("related-note"))]
    expect(ui == api, f"related notes: page {ui}, API {api}")
    expect(note["id"] not in ui, "a note is related to itself")
    r.b.execute("arguments[0].scrollIntoView({block: 'center'});", section)
    r.b.screenshot(ARTIFACTS / "note-related.png")
    r.b.find(tid("related-link")).click()
    r.b.wait_until(lambda: r.b.find(tid("note-page")).attribute("data-id") == ui[0], timeout=UI_S,
                   what="the related note to open")


def rendered(browser: Browser, css: str) -> list:
    """The elements matching `css` that are rendered: not display:none (themselves or an
    ancestor), not hidden, not visibility:hidden. An empty list element still counts."""
    return browser.execute(
        "return [...document.querySelectorAll(arguments[0])]"
        ".filter(e => e.checkVisibility({visibilityProperty: true}));", css)


def luminance(css_color: str) -> float:
    m = re.findall(r"[\d.]+", css_color)
    if len(m) < 3:
        return 1.0
    r, g, b = (float(x) for x in m[:3])
    alpha = float(m[3]) if len(m) > 3 else 1.0
    if alpha == 0:  # transparent body: the canvas is white unless the page says otherwise
        return 255.0
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def main() -> int:
    ap = argparse.ArgumentParser(description="The VoiceNotes web app in headless Chromium.")
    ap.add_argument("--program", default=str(ROOT / ".build" / "debug" / "voicenotes"),
                    help="the voicenotes binary (default .build/debug/voicenotes)")
    ap.add_argument("--language-model", default="qwen-0.5b", help="the server's language model (default qwen-0.5b)")
    ap.add_argument("--ask-model", default="qwen-1.5b",
                    help="the language model of the ask, search-modes and related scenarios' library (default qwen-1.5b)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary library and fixtures")
    ap.add_argument("--only", metavar="TEXT",
                    help="run only the scenarios with a word starting with TEXT (TEXT,TEXT for several) "
                         "(after the server and browser start)")
    args = ap.parse_args()
    if not os.access(args.program, os.X_OK):
        print(f"FAIL setup: {args.program} is not an executable (build it first)")
        print("0 passed, 1 failed")
        return 1

    r = Run(args)
    began = time.monotonic()
    try:
        if not r.scenario("server and browser start", r.start):
            r.finish()
            print(f"{r.passed} passed, {r.failed} failed")
            return 1
        recorded = lambda: r.recorded_id is not None  # noqa: E731
        have_samples = lambda: len(r.samples) == 3  # noqa: E731
        r.scenario("first page", r.first_page)
        r.scenario("models screen", r.models_screen)
        r.scenario("record: live transcript while recording", r.record_live)
        r.scenario("import two files by the file input", r.import_files)
        r.scenario("import by dropping a file on the drop zone", r.import_by_drop)
        r.scenario("import of a text file is refused", r.import_rejects_text)
        r.scenario("restore samples", r.restore_samples)
        r.scenario("record: final transcript WER <= 5%", r.recorded_transcript, recorded, "nothing was recorded")
        r.scenario("samples analysed", r.samples_analysed, have_samples, "the samples were not restored")
        r.scenario("search by person", r.search, have_samples, "the samples were not restored")
        r.scenario("note page: play, rename, export", r.note_page)
        r.scenario("note page: ?t= starts there", r.deep_link_time)
        r.scenario("action items and the tasks screen", r.action_items, have_samples, "the samples were not restored")
        r.scenario("delete a note", r.delete_note)
        r.scenario("the command line's changes appear in the open page", lambda: cli_changes_appear(r))
        r.scenario("screens at phone size", r.screens)
        r.scenario("dark mode", r.dark_mode)
        r.scenario("server killed while recording", r.kill_while_recording)
        r.scenario("language model unavailable: banner, note transcribed and waiting", lambda: model_unavailable(r))
        r.scenario("speakers: labelled, named on the transcript, renamed and forgotten", lambda: speakers(r))
        r.scenario("ask-ui: a scripted answer stream, citations, follow-up, errors", lambda: ask_scripted(r))
        r.scenario("ask: streamed answer with citations, follow-up, abstention", lambda: ask(r))
        r.scenario("search-modes: hybrid, keyword and meaning", lambda: search_modes(r))
        r.scenario("related notes on a note's page", lambda: related(r))
    finally:
        r.finish()
    info(f"{time.monotonic() - began:.0f} s in all; screenshots in {ARTIFACTS}")
    print(f"{r.passed} passed, {r.failed} failed", flush=True)
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
