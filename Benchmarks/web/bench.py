#!/usr/bin/env python3
"""Web benchmark: `voicenotes serve` over HTTP on a 100,000-note library.

Starts the server on the library (building the library first with `AppBenchmark library` when
the folder has no notes.sqlite), then measures, over keep-alive HTTP/1.1 connections to
127.0.0.1:

- page load: GET / and every asset it references (scripts, their module imports, stylesheets,
  icons), /api/status and /api/notes?limit=50, as a browser's first load asks for them;
- search as you type: every prefix (2+ letters) of ~20 words taken from the library's own titles
  and people, in every scope;
- the notes list: the first page, deeper pages through `before` cursors, and requests per second
  with concurrent clients (wrk when installed, otherwise Python threads).

Each run measures everything once; the table gives the median over runs of each figure. Standard
library only. See README.md beside this file.
"""
from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import platform
import queue
import re
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchsupport import cpu_busy, die, log  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEFAULT_LIBRARY = Path(
    os.environ.get("VOICENOTES_BENCH_CACHE")
    or Path(os.environ.get("VOICENOTES_CACHE") or Path.home() / ".cache" / "voicenotes") / "bench"
) / "web-library"
SCOPES = ["all", "title", "transcript", "summary", "tags", "people", "action-items"]
HOST = "127.0.0.1"
WRK = "/usr/bin/wrk"


# ---------------------------------------------------------------------------------------------
# Statistics


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile (0-100), nearest rank, of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100.0 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def summary_ms(latencies_s: list[float]) -> dict[str, float]:
    if not latencies_s:
        return {"n": 0, "p50": float("nan"), "p99": float("nan"), "max": float("nan")}
    ms = [x * 1000.0 for x in latencies_s]
    return {"n": len(ms), "p50": percentile(ms, 50), "p99": percentile(ms, 99), "max": max(ms)}


# ---------------------------------------------------------------------------------------------
# HTTP


class Client:
    """One keep-alive HTTP/1.1 connection to the server; reconnects if the server closes it
    (and counts that: a browser would pay a new connection each time)."""

    def __init__(self, port: int, timeout: float = 60.0):
        self.port = port
        self.timeout = timeout
        self.conn: http.client.HTTPConnection | None = None
        self.connects = 0

    def get(self, path: str) -> tuple[int, bytes, dict[str, str]]:
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
                self.conn.connect()
                # As browsers do: no Nagle delay on our side of the connection.
                self.conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.connects += 1
            try:
                self.conn.request("GET", path, headers={"Accept-Encoding": "identity"})
                r = self.conn.getresponse()
                body = r.read()
                headers = {k.lower(): v for k, v in r.getheaders()}
                if r.will_close:
                    self.close()
                return r.status, body, headers
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # The server closed an idle keep-alive connection: one retry on a new one.
                self.close()
                if attempt:
                    raise
        raise RuntimeError("unreachable")

    def json(self, path: str):
        status, body, _ = self.get(path)
        if status != 200:
            raise RuntimeError(f"GET {path} answered {status}: {body[:200]!r}")
        return json.loads(body)

    def timed(self, path: str, expect: int = 200) -> tuple[float, int]:
        """Seconds for one GET, from sending to the last byte; and the body's size."""
        start = time.perf_counter()
        status, body, _ = self.get(path)
        elapsed = time.perf_counter() - start
        if status != expect:
            raise RuntimeError(f"GET {path} answered {status}, expected {expect}: {body[:200]!r}")
        return elapsed, len(body)

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


# ---------------------------------------------------------------------------------------------
# The server


class Server:
    def __init__(self, program: Path, library: Path, extra: list[str], log_path: Path, timeout: float):
        env = dict(os.environ)
        env.setdefault("OMP_WAIT_POLICY", "passive")
        if "VOICENOTES_MODELS" not in env and (ROOT / ".deps" / "models").is_dir():
            env["VOICENOTES_MODELS"] = str(ROOT / ".deps" / "models")
        log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log = open(log_path, "ab")
        self.proc = subprocess.Popen(
            [str(program), "serve", "--library", str(library), "--port", "0", *extra],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log, env=env, start_new_session=True)
        lines: queue.Queue[bytes] = queue.Queue()

        def pump() -> None:
            assert self.proc.stdout
            for raw in self.proc.stdout:
                lines.put(raw)
            lines.put(b"")

        threading.Thread(target=pump, daemon=True).start()
        started = time.monotonic()
        try:
            first = lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            die(f"the server printed no URL within {timeout:.0f} s (see {log_path})")
        url = urllib.parse.urlparse(first.decode("utf-8", "replace").strip())
        if url.scheme != "http" or not url.port:
            self.stop()
            die(f"expected the server's URL on stdout, got {first!r} (see {log_path})")
        self.port = url.port
        self.startup_s = time.monotonic() - started

    def cpu_seconds(self) -> float:
        """User + system CPU time of the server so far, from /proc."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return float("nan")

    def memory_mib(self) -> tuple[float, float]:
        """(current, peak) resident memory of the server in MiB."""
        now = peak = float("nan")
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    now = int(line.split()[1]) / 1024.0
                elif line.startswith("VmHWM:"):
                    peak = int(line.split()[1]) / 1024.0
        except OSError:
            pass
        return now, peak

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, 9)
                self.proc.wait(timeout=10)
        self.log.close()


# ---------------------------------------------------------------------------------------------
# What a first load fetches


class AssetParser(HTMLParser):
    """The URLs an HTML page makes a browser fetch at once: scripts, stylesheets, icons,
    preloads, images."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "script" and a.get("src"):
            self.urls.append(a["src"])
        elif tag == "link" and a.get("href"):
            rel = (a.get("rel") or "").lower().split()
            if set(rel) & {"stylesheet", "icon", "modulepreload", "preload", "manifest", "apple-touch-icon"}:
                self.urls.append(a["href"])
        elif tag in ("img", "source") and a.get("src"):
            self.urls.append(a["src"])


# Module imports a browser follows: `import x from '...'`, `import '...'`, `export ... from '...'`
# (each at the start of a line) and `import('...')` with a literal path.
JS_IMPORT = re.compile(
    r"""^\s*(?:import\s+(?:[^'";]+?\s+from\s+)?|export\s+[^'";]*?\s+from\s+)['"]([^'"]+)['"]"""
    r"""|\bimport\(\s*['"]([^'"]+)['"]\s*\)""", re.M)
CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)|@import\s+["']([^"']+)["']""")


def same_origin_path(base: str, ref: str) -> str | None:
    """`ref` resolved against the page path `base`, as a path on this server, or None if it is
    elsewhere (another host, a data: URL)."""
    if ref.startswith(("data:", "blob:", "#", "javascript:")):
        return None
    resolved = urllib.parse.urljoin(f"http://{HOST}{base}", ref)
    parsed = urllib.parse.urlparse(resolved)
    if parsed.hostname != HOST:
        return None
    return parsed.path + (f"?{parsed.query}" if parsed.query else "")


def discover_assets(client: Client) -> list[str]:
    """Every asset the page needs on a first load, in the order a browser would find them:
    the HTML's references, then what scripts import and stylesheets reference, recursively."""
    status, body, _ = client.get("/")
    if status != 200:
        die(f"GET / answered {status}")
    parser = AssetParser()
    parser.feed(body.decode("utf-8", "replace"))
    pending = [p for p in (same_origin_path("/", u) for u in parser.urls) if p]
    seen: list[str] = []
    for _ in range(500):  # bounded: no page has 500 assets
        if not pending:
            break
        path = pending.pop(0)
        if path in seen:
            continue
        seen.append(path)
        status, data, headers = client.get(path)
        if status != 200:
            die(f"GET {path} (referenced by the page) answered {status}")
        ctype = headers.get("content-type", "")
        text = data.decode("utf-8", "replace")
        refs: list[str] = []
        if "javascript" in ctype or path.endswith((".js", ".mjs")):
            refs = [a or b for a, b in JS_IMPORT.findall(text)]
            refs = [r for r in refs if r.startswith(("./", "../", "/"))]  # what a browser resolves
        elif "css" in ctype or path.endswith(".css"):
            refs = [a or b for a, b in CSS_URL.findall(text)]
        for ref in refs:
            p = same_origin_path(path, ref)
            if p and p not in seen and p not in pending:
                pending.append(p)
    return seen


# ---------------------------------------------------------------------------------------------
# Measurements


@dataclass
class RunResult:
    page_load: list[float] = field(default_factory=list)
    page_bytes: int = 0
    search: dict[str, list[float]] = field(default_factory=dict)  # scope -> latencies
    search_empty: int = 0
    first_page: list[float] = field(default_factory=list)
    deep_pages: list[float] = field(default_factory=list)
    deepest_page: list[float] = field(default_factory=list)
    deepest_offset: int = 0
    rps: dict[int, dict] = field(default_factory=dict)  # concurrency -> {rps, p50, p99, errors}
    reconnects: int = 0


def measure_page_loads(port: int, assets: list[str], loads: int) -> tuple[list[float], int]:
    """A first load, `loads` times: a new connection each time (a fresh tab), then every request
    of the load in order over it."""
    paths = ["/", *assets, "/api/status", "/api/notes?limit=50"]
    times, size = [], 0
    for _ in range(loads):
        client = Client(port)
        start = time.perf_counter()
        size = 0
        for p in paths:
            _, n = client.timed(p)
            size += n
        times.append(time.perf_counter() - start)
        client.close()
    return times, size


def pick_words(client: Client, count: int) -> list[str]:
    """~count distinct words people would type, from the library's own titles and people."""
    notes = client.json("/api/notes?limit=100")["notes"]
    titles, people = [], []
    for n in notes[: max(count * 2, 40)]:
        note = client.json(f"/api/notes/{n['id']}")
        titles += re.findall(r"[^\W\d_]{5,}", note.get("title") or "")
        for p in note.get("people") or []:
            people += re.findall(r"[^\W\d_]{3,}", p)
    stop = {"about", "after", "again", "before", "being", "there", "their", "these", "those", "which",
            "while", "where", "would", "could", "should", "other", "every", "under", "above"}
    chosen: list[str] = []
    # Alternate people and title words so both kinds are typed.
    pools = [list(dict.fromkeys(w.lower() for w in people)), list(dict.fromkeys(w.lower() for w in titles))]
    for i in range(count * 4):
        pool = pools[i % 2] or pools[(i + 1) % 2]
        while pool and (pool[0] in chosen or pool[0] in stop):
            pool.pop(0)
        if pool:
            chosen.append(pool.pop(0))
        if len(chosen) >= count or not (pools[0] or pools[1]):
            break
    return chosen


def measure_search(client: Client, words: list[str], result: RunResult) -> None:
    for scope in SCOPES:
        result.search.setdefault(scope, [])
    for word in words:
        for end in range(2, len(word) + 1):
            prefix = urllib.parse.quote(word[:end])
            for scope in SCOPES:
                start = time.perf_counter()
                status, body, _ = client.get(f"/api/search?q={prefix}&scope={scope}&limit=20")
                result.search[scope].append(time.perf_counter() - start)
                if status != 200:
                    raise RuntimeError(f"search {word[:end]!r} in {scope} answered {status}: {body[:200]!r}")
                if not json.loads(body)["results"]:
                    result.search_empty += 1


def measure_notes_list(client: Client, requests: int, pages: int, result: RunResult) -> None:
    for _ in range(requests):
        result.first_page.append(client.timed("/api/notes?limit=50")[0])
    cursor = None
    for _ in range(pages):
        path = "/api/notes?limit=50" + (f"&before={urllib.parse.quote(cursor)}" if cursor else "")
        start = time.perf_counter()
        page = client.json(path)
        result.deep_pages.append(time.perf_counter() - start)
        cursor = page.get("next")
        if not cursor:
            break
        result.deepest_offset += len(page["notes"])
    if cursor:
        path = f"/api/notes?limit=50&before={urllib.parse.quote(cursor)}"
        for _ in range(requests):
            result.deepest_page.append(client.timed(path)[0])


def measure_rps_wrk(port: int, concurrency: int, seconds: float, path: str) -> dict:
    threads = max(1, min(concurrency, 2))
    r = subprocess.run([WRK, f"-t{threads}", f"-c{concurrency}", f"-d{seconds:g}s", "--latency",
                        f"http://{HOST}:{port}{path}"], capture_output=True, text=True, timeout=seconds + 60)
    if r.returncode != 0:
        raise RuntimeError(f"wrk failed: {r.stderr.strip()[-300:]}")
    out = r.stdout

    def ms(token: str) -> float:
        m = re.match(r"([\d.]+)(us|ms|s)", token)
        if not m:
            return float("nan")
        return float(m.group(1)) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[m.group(2)]

    found = re.search(r"Requests/sec:\s+([\d.]+)", out)
    if not found:
        raise RuntimeError(f"wrk printed no Requests/sec: {out.strip()[-300:]}")
    rps = float(found.group(1))
    p50 = re.search(r"^\s+50%\s+(\S+)", out, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", out, re.M)
    errors = 0
    m = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    if m:
        errors += int(m.group(1))
    m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    if m:
        errors += sum(int(x) for x in m.groups())
    return {"rps": rps, "p50": ms(p50.group(1)) if p50 else float("nan"),
            "p99": ms(p99.group(1)) if p99 else float("nan"), "errors": errors, "client": "wrk"}


def measure_rps_threads(port: int, concurrency: int, seconds: float, path: str) -> dict:
    latencies: list[list[float]] = [[] for _ in range(concurrency)]
    errors = [0] * concurrency
    stop_at = time.perf_counter() + seconds

    def worker(i: int) -> None:
        client = Client(port, timeout=30)
        for _ in range(10_000_000):  # bounded by the clock below
            if time.perf_counter() >= stop_at:
                break
            start = time.perf_counter()
            try:
                status, _, _ = client.get(path)
            except (OSError, http.client.HTTPException):
                errors[i] += 1
                client.close()
                continue
            latencies[i].append(time.perf_counter() - start)
            if status != 200:
                errors[i] += 1
        client.close()

    began = time.perf_counter()
    workers = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(concurrency)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(timeout=seconds + 60)
    elapsed = time.perf_counter() - began
    every = [x for lst in latencies for x in lst]
    s = summary_ms(every)
    return {"rps": len(every) / elapsed, "p50": s["p50"], "p99": s["p99"], "errors": sum(errors),
            "client": "python threads"}


# ---------------------------------------------------------------------------------------------
# Report


def fmt(x: float, digits: int = 1) -> str:
    return "-" if x != x else f"{x:.{digits}f}"  # NaN -> "-"


def median_of(runs: list[RunResult], pick) -> float:
    values = [v for v in (pick(r) for r in runs) if v == v]
    return statistics.median(values) if values else float("nan")


def spread(runs: list[RunResult], pick, digits: int = 1) -> str:
    values = [v for v in (pick(r) for r in runs) if v == v]
    if len(values) < 2:
        return "-"
    return f"{min(values):.{digits}f}-{max(values):.{digits}f}"


def print_table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]

    def line(cells):
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))

    print(line(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))
    sys.stdout.flush()


def report(runs: list[RunResult], concurrencies: list[int]) -> None:
    rows = []

    def add(label: str, pick_list, unit_digits: int = 1):
        stats = [summary_ms(pick_list(r)) for r in runs]
        n = statistics.median(s["n"] for s in stats)
        p50 = statistics.median(s["p50"] for s in stats)
        p99 = statistics.median(s["p99"] for s in stats)
        mx = statistics.median(s["max"] for s in stats)
        p50s = [s["p50"] for s in stats]
        rng = f"{min(p50s):.{unit_digits}f}-{max(p50s):.{unit_digits}f}" if len(stats) > 1 else "-"
        rows.append([label, f"{n:.0f}", fmt(p50, unit_digits), fmt(p99, unit_digits), fmt(mx, unit_digits), rng])

    add("page load (all requests)", lambda r: r.page_load)
    add("search, every scope", lambda r: [x for v in r.search.values() for x in v], 2)
    for scope in SCOPES:
        add(f"  search, {scope}", lambda r, s=scope: r.search.get(s, []), 2)
    add("notes list, first page", lambda r: r.first_page, 2)
    add("notes list, walking pages", lambda r: r.deep_pages, 2)
    depth = runs[0].deepest_offset if runs else 0
    add(f"notes list, page after {depth:,}", lambda r: r.deepest_page, 2)
    print_table(["request", "n/run", "p50 ms", "p99 ms", "max ms", "p50 range ms"], rows)
    print()
    rows = []
    for c in concurrencies:
        client = runs[0].rps.get(c, {}).get("client", "-") if runs else "-"
        rows.append([f"GET /api/notes?limit=50, {c} connection{'s' if c > 1 else ''}",
                     fmt(median_of(runs, lambda r, c=c: r.rps.get(c, {}).get("rps", float("nan"))), 0),
                     spread(runs, lambda r, c=c: r.rps.get(c, {}).get("rps", float("nan")), 0),
                     fmt(median_of(runs, lambda r, c=c: r.rps.get(c, {}).get("p50", float("nan"))), 2),
                     fmt(median_of(runs, lambda r, c=c: r.rps.get(c, {}).get("p99", float("nan"))), 2),
                     str(sum(r.rps.get(c, {}).get("errors", 0) for r in runs)), client])
    print_table(["throughput", "req/s (median)", "req/s range", "p50 ms", "p99 ms", "errors", "client"], rows)


def run_all(args, server: Server, assets: list[str], words: list[str], concurrencies: list[int],
            use_wrk: bool, runs: list[RunResult]) -> None:
    """The warm-up runs, then the measured ones (appended to `runs`)."""
    for rnd in range(args.warmups + args.runs):
        warm = rnd < args.warmups
        tag = f"warm-up {rnd + 1}/{args.warmups}" if warm else f"run {rnd - args.warmups + 1}/{args.runs}"
        result = RunResult()
        t0 = time.monotonic()
        log(f"[{tag}] page loads ...")
        result.page_load, result.page_bytes = measure_page_loads(server.port, assets, args.loads)
        log(f"[{tag}] search as you type ...")
        client = Client(server.port)
        measure_search(client, words, result)
        log(f"[{tag}] notes list ...")
        measure_notes_list(client, args.requests, args.pages, result)
        result.reconnects = client.connects - 1
        client.close()
        for c in concurrencies:
            log(f"[{tag}] throughput, {c} connections ...")
            measure = measure_rps_wrk if use_wrk else measure_rps_threads
            result.rps[c] = measure(server.port, c, args.seconds, "/api/notes?limit=50")
        s = summary_ms([x for v in result.search.values() for x in v])
        log(f"[{tag}] {time.monotonic() - t0:.0f} s: page load p50 {summary_ms(result.page_load)['p50']:.1f} ms, "
            f"search p50 {s['p50']:.2f} ms p99 {s['p99']:.2f} ms, "
            + ", ".join(f"{c} conn {result.rps[c]['rps']:.0f} req/s" for c in concurrencies))
        if not warm:
            runs.append(result)


def main() -> int:
    ap = argparse.ArgumentParser(description="Web benchmark: the voicenotes server on a large library.")
    ap.add_argument("--program", default=str(ROOT / ".build" / "release" / "voicenotes"),
                    help="the voicenotes binary (default .build/release/voicenotes)")
    ap.add_argument("--library", default=str(DEFAULT_LIBRARY), help=f"the library (default {DEFAULT_LIBRARY})")
    ap.add_argument("--notes", type=int, default=100_000, help="notes to create if the library is new (default 100000)")
    ap.add_argument("--app-benchmark", default=str(ROOT / ".build" / "release" / "AppBenchmark"),
                    help="AppBenchmark binary that builds the library (default .build/release/AppBenchmark)")
    ap.add_argument("--runs", type=int, default=3, help="measured runs (default 3), after one warm-up")
    ap.add_argument("--warmups", type=int, default=1, help="unmeasured runs first (default 1)")
    ap.add_argument("--loads", type=int, default=200, help="page loads per run (default 200)")
    ap.add_argument("--words", type=int, default=20, help="words typed per run (default 20)")
    ap.add_argument("--requests", type=int, default=200, help="first-page requests per run (default 200)")
    ap.add_argument("--pages", type=int, default=400, help="pages walked through cursors per run (default 400)")
    ap.add_argument("--concurrency", default="1,8,32", help="connections for the throughput test (default 1,8,32)")
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds per throughput test (default 10)")
    ap.add_argument("--no-wrk", action="store_true", help="use Python threads even if wrk is installed")
    ap.add_argument("--server-arg", action="append", default=[], help="extra argument for serve (repeatable)")
    ap.add_argument("--start-timeout", type=float, default=300.0, help="seconds to wait for the server's URL")
    ap.add_argument("--json", help="also write every run's figures to this file")
    args = ap.parse_args()

    program = Path(args.program)
    library = Path(args.library)
    if not os.access(program, os.X_OK):
        die(f"{program} not found: build it with `swift build -c release` (make build)")
    if args.runs < 1 or args.loads < 1 or args.words < 1 or args.requests < 1:
        die("--runs, --loads, --words and --requests must be at least 1")
    try:
        concurrencies = [int(c) for c in args.concurrency.split(",") if c.strip()]
    except ValueError:
        die(f"--concurrency {args.concurrency!r} is not a comma-separated list of numbers")
    if not concurrencies or min(concurrencies) < 1:
        die("--concurrency needs at least one count of 1 or more")

    if not (library / "notes.sqlite").is_file():
        tool = Path(args.app_benchmark)
        if not os.access(tool, os.X_OK):
            die(f"{library} has no notes.sqlite and {tool} is missing: "
                "build it with `swift build -c release --product AppBenchmark`")
        log(f"==> building a {args.notes:,}-note library in {library} (AppBenchmark library)")
        library.parent.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        r = subprocess.run([str(tool), "library", str(library), "--notes", str(args.notes)], stdout=sys.stderr)
        if r.returncode != 0 or not (library / "notes.sqlite").is_file():
            die(f"AppBenchmark library failed ({r.returncode})")
        log(f"==> library built in {time.monotonic() - started:.0f} s")

    busy = cpu_busy()
    use_wrk = os.access(WRK, os.X_OK) and not args.no_wrk
    log_path = library.parent / f"{library.name}-serve.log"
    server = Server(program, library, args.server_arg, log_path, args.start_timeout)
    try:
        client = Client(server.port)
        status = client.json("/api/status")
        total = client.json("/api/notes?limit=1")["total"]
        cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                    if l.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
        print(f"server: {program} serve --library {library} (up in {server.startup_s:.1f} s, "
              f"version {status.get('version')})")
        print(f"library: {total:,} notes; worker busy: {status.get('worker', {}).get('busy')}")
        print(f"machine: {os.cpu_count()} cores, {cpu}; CPU {busy:.0f}% busy before the first run")
        if busy > 20:
            log("bench: warning: the machine is busy; timings will be noisy (close builds and tests)")
        if status.get("worker", {}).get("busy"):
            log("bench: warning: the server's worker is processing a note; timings include that load")
        if total < 10_000:
            log(f"bench: warning: only {total:,} notes: this is not the 100,000-note benchmark")
        assets = discover_assets(client)
        words = pick_words(client, args.words)
        if not words:
            die("found no words to type in the library's titles and people")
        prefixes = sum(max(0, len(w) - 1) for w in words)
        print(f"page load: GET / + {len(assets)} assets ({', '.join(assets[:6])}{', ...' if len(assets) > 6 else ''})"
              f" + /api/status + /api/notes?limit=50, a new keep-alive connection per load, {args.loads} loads")
        print(f"search: {len(words)} words ({', '.join(words)}), {prefixes} prefixes x {len(SCOPES)} scopes "
              f"= {prefixes * len(SCOPES)} requests, limit 20")
        print(f"notes list: {args.requests} first pages, {args.pages} pages of 50 through cursors, "
              f"{args.requests} of the deepest; throughput with {args.concurrency} connections for "
              f"{args.seconds:g} s ({'wrk' if use_wrk else 'Python threads: the client may be the limit'})")
        print(f"runs: {args.warmups} warm-up + {args.runs} measured")
        sys.stdout.flush()

        runs: list[RunResult] = []
        cpu_before = server.cpu_seconds()
        try:
            run_all(args, server, assets, words, concurrencies, use_wrk, runs)
        except (RuntimeError, OSError, http.client.HTTPException, subprocess.TimeoutExpired) as e:
            die(f"a request failed: {e}")
        cpu_used = server.cpu_seconds() - cpu_before
        now_mib, peak_mib = server.memory_mib()

        print()
        report(runs, concurrencies)
        print()
        print(f"page: {len(assets) + 3} requests, {runs[0].page_bytes / 1024:.0f} KiB per load; "
              f"searches with no result: {statistics.median(r.search_empty for r in runs):.0f} per run; "
              f"keep-alive reconnects: {sum(r.reconnects for r in runs)}")
        print(f"server: {cpu_used:.1f} CPU s over all runs, RSS {fmt(now_mib, 0)} MiB (peak {fmt(peak_mib, 0)} MiB)")
        print(f"CPU {cpu_busy():.0f}% busy after the last run")
        sys.stdout.flush()
        if args.json:
            data = {
                "library": str(library), "notes": total, "assets": assets, "words": words,
                "concurrency": concurrencies, "seconds": args.seconds,
                "runs": [{
                    "page_load_ms": summary_ms(r.page_load), "page_bytes": r.page_bytes,
                    "search_ms": {s: summary_ms(v) for s, v in r.search.items()},
                    "search_empty": r.search_empty,
                    "first_page_ms": summary_ms(r.first_page), "deep_pages_ms": summary_ms(r.deep_pages),
                    "deepest_page_ms": summary_ms(r.deepest_page), "deepest_offset": r.deepest_offset,
                    "rps": {str(c): v for c, v in r.rps.items()},
                } for r in runs],
                "server_cpu_s": cpu_used, "server_rss_mib": now_mib, "server_peak_rss_mib": peak_mib,
            }
            Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
