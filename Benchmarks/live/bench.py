#!/usr/bin/env python3
"""Live transcription benchmark: our live path against whisper.cpp's streaming example.

Plays the same 46 s of real speech with pauses (the LibriVox utterances of Debian's
pocketsphinx-testdata and jfk.wav, 1.5 s of silence around each) at real-time pace to:

- ours: Benchmarks/LiveBenchmark, which feeds it in 100 ms AnalyzerInput buffers to
  SpeechAnalyzer.start(inputSequence:) with a SpeechTranscriber reporting .volatileResults;
- whisper-stream: whisper.cpp's examples/stream, recording through SDL2 from a PulseAudio null
  sink's monitor while paplay plays the file into the sink (a private PulseAudio started in user
  mode for the benchmark and stopped after it).

For each spoken word it measures the time from the end of the word (from a reference
transcription of the file with word times) to its first appearance and to its final appearance,
and reports medians, the CPU time per second of audio, whether the tool kept up with real time,
and peak memory, for tiny.en and base, in alternating runs. See README.md beside this file.
Standard library only.
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import platform
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
from benchsupport import CLOCK_TICKS, cpu_busy, die, log, proc_stat  # noqa: E402
import latency  # noqa: E402

DEFAULT_CACHE = Path(
    os.environ.get("VOICENOTES_BENCH_CACHE")
    or Path(os.environ.get("VOICENOTES_CACHE") or Path.home() / ".cache" / "voicenotes") / "bench"
)
LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
JFK = ROOT / ".deps" / "testdata" / "jfk.wav"
SAMPLE_RATE = 16000
PAUSE_SECONDS = 1.5

ALL_TOOLS = ["ours", "whisper-stream"]
TOOL_LABELS = {"ours": "voicenotes (ours)", "whisper-stream": "whisper.cpp whisper-stream"}

# whisper-stream keeps up when its median step takes at most this much longer than --step. (Even
# then each step skips a few tens of milliseconds: SDL delivers audio in blocks of 64 ms, and a
# step decodes only the newest --step of what has arrived.)
STEP_LIMIT = 1.2
# A run during which other processes used more CPU time than this is flagged as disturbed.
NOISE_CPU_S = 2.0


# ---------------------------------------------------------------------------------------------
# Test audio and reference


def librivox_files() -> list[Path]:
    listing = LIBRIVOX / "transcription"
    if not listing.is_file():
        die(f"{LIBRIVOX} is missing: install Debian's pocketsphinx-testdata (scripts/bench-deps.sh)")
    files = []
    for line in listing.read_text().splitlines():
        m = re.search(r"\(([^()]+)\)\s*$", line)
        if m:
            files.append(LIBRIVOX / f"{m.group(1)}.wav")
    return files


def build_passage(cache: Path, pause: float = PAUSE_SECONDS) -> tuple[Path, float]:
    """Joins the LibriVox utterances and jfk.wav with `pause` seconds of silence before, between
    and after them (by default as Benchmarks/LiveBenchmark's default passage and the streaming
    tests do; a short pause makes continuous speech) into a 16 kHz mono 16-bit WAV in the cache.
    Returns (path, seconds)."""
    if not JFK.is_file():
        die(f"{JFK} is missing: run make deps")
    files = librivox_files() + [JFK]
    gap = b"\0\0" * int(pause * SAMPLE_RATE)
    frames = [gap]
    for f in files:
        with wave.open(str(f), "rb") as w:
            if (w.getframerate(), w.getnchannels(), w.getsampwidth()) != (SAMPLE_RATE, 1, 2):
                die(f"{f} is not 16 kHz mono 16-bit")
            frames += [w.readframes(w.getnframes()), gap]
    data = b"".join(frames)
    folder = cache / "audio"
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / ("live-passage.wav" if pause == PAUSE_SECONDS else f"live-passage-pause{int(pause * 1000)}ms.wav")
    current = None
    if out.is_file():
        with wave.open(str(out), "rb") as w:
            current = w.readframes(w.getnframes())
    if current != data:
        log(f"==> writing the test passage ({len(files)} recordings, {len(data) / 2 / SAMPLE_RATE:.1f} s) -> {out}")
        tmp = out.with_suffix(".tmp")
        with wave.open(str(tmp), "wb") as w:
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(SAMPLE_RATE)
            w.writeframes(data)
        os.replace(tmp, out)
    return out, len(data) / 2 / SAMPLE_RATE


# ---------------------------------------------------------------------------------------------
# Processes


def engine_env(threads: int) -> dict[str, str]:
    env = dict(os.environ)
    env["OMP_WAIT_POLICY"] = "passive"  # spinning OpenMP threads wreck timings on 2 cores
    env["VOICENOTES_THREADS"] = str(threads)
    return env


def pinning(cores: int):
    """A preexec_fn that keeps a child (and its threads) on the first `cores` CPUs, or None when
    the machine has no more than that anyway."""
    available = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if not available or len(available) <= cores:
        return None
    chosen = set(available[:cores])
    return lambda: os.sched_setaffinity(0, chosen)


def process_cpu(pid: int) -> float | None:
    """CPU seconds (user + system, all threads) a running process has used, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class StampedReader(threading.Thread):
    """Reads a pipe as it is written and stamps each chunk with the monotonic clock."""

    def __init__(self, pipe):
        super().__init__(daemon=True)
        self.fd = pipe.fileno()
        self.chunks: list[tuple[float, bytes]] = []
        self.lock = threading.Lock()
        self.arrived = threading.Condition(self.lock)

    def run(self):
        while True:
            try:
                data = os.read(self.fd, 65536)
            except OSError:
                data = b""
            now = time.monotonic()
            with self.arrived:
                if data:
                    self.chunks.append((now, data))
                self.arrived.notify_all()
            if not data:
                return

    def text(self) -> str:
        with self.lock:
            return b"".join(c for _, c in self.chunks).decode("utf-8", "replace")

    def wait_for(self, predicate, timeout: float) -> bool:
        """Waits until predicate(all bytes so far) holds or the pipe closes."""
        deadline = time.monotonic() + timeout
        with self.arrived:
            while True:
                data = b"".join(c for _, c in self.chunks)
                if predicate(data):
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self.is_alive():
                    return predicate(data)
                self.arrived.wait(min(remaining, 0.5))


class RunFailed(Exception):
    pass


def reap(proc: subprocess.Popen, timeout: float):
    """Waits for `proc` (killing it after `timeout`) and returns its rusage."""
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage


# ---------------------------------------------------------------------------------------------
# PulseAudio, in user mode, for the duration of the benchmark


class PulseAudio:
    """A private PulseAudio server (its own runtime folder and socket) with a 16 kHz mono null
    sink whose monitor is the default source: what is played into the sink is what a recorder
    hears, at real-time pace."""

    def __init__(self):
        self.folder = Path(tempfile.mkdtemp(prefix="voicenotes-pulse-"))
        self.socket = self.folder / "native"
        self.proc: subprocess.Popen | None = None

    @property
    def client_env(self) -> dict[str, str]:
        return {"PULSE_SERVER": f"unix:{self.socket}", "SDL_AUDIODRIVER": "pulseaudio"}

    def start(self):
        if not shutil.which("pulseaudio") or not shutil.which("paplay"):
            raise RunFailed("pulseaudio or paplay is missing: run scripts/bench-deps.sh")
        script = self.folder / "bench.pa"
        script.write_text(
            f"load-module module-native-protocol-unix auth-anonymous=1 socket={self.socket}\n"
            "load-module module-null-sink sink_name=bench format=s16le rate=16000 channels=1\n"
            "set-default-sink bench\n"
            "set-default-source bench.monitor\n")
        env = dict(os.environ, HOME=str(self.folder), XDG_RUNTIME_DIR=str(self.folder),
                   PULSE_RUNTIME_PATH=str(self.folder / "runtime"), PULSE_STATE_PATH=str(self.folder / "state"))
        env.pop("PULSE_SERVER", None)
        self.log = open(self.folder / "pulseaudio.log", "wb")
        self.proc = subprocess.Popen(
            ["pulseaudio", "-n", "-F", str(script), "--daemonize=no", "--exit-idle-time=-1",
             "--use-pid-file=no", "--system=false", "--disallow-exit", "--log-target=stderr"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, env=env)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            probe = subprocess.run(["pactl", "info"], capture_output=True, text=True,
                                   env=dict(os.environ, **self.client_env))
            if probe.returncode == 0 and "Default Source: bench.monitor" in probe.stdout:
                return
            time.sleep(0.2)
        tail = (self.folder / "pulseaudio.log").read_text(errors="replace").strip().splitlines()[-5:]
        self.stop()
        raise RunFailed("PulseAudio did not start: " + " | ".join(tail))

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None
        shutil.rmtree(self.folder, ignore_errors=True)


# ---------------------------------------------------------------------------------------------
# One run of each tool


@dataclass
class Run:
    tool: str
    model: str
    medians: dict
    counts: dict
    rtf: float  # CPU seconds per second of audio
    kept_up: bool
    keep_up_note: str
    peak_mib: float
    others_cpu: float  # CPU seconds other processes used during the run (machine noise)
    transcript: str
    details: dict = field(default_factory=dict)
    wer: float | None = None  # of the final text against the reference (the file transcription)


def others_cpu(before, after, own_cpu: float) -> float:
    if not before or not after:
        return 0.0
    busy = (after[0] - after[1]) - (before[0] - before[1])
    return max(0.0, busy / CLOCK_TICKS - own_cpu)


def run_ours(args, model: str, audio: Path, reference_file: Path, reference: list[dict]) -> Run:
    """One run of LiveBenchmark; its JSON has the events, which latency.py re-measures."""
    with tempfile.TemporaryDirectory(prefix="voicenotes-live-") as tmp:
        out = Path(tmp) / "live.json"
        argv = [args.binary, "live", "--input", str(audio), "--model", model, "--reference", str(reference_file),
                "--buffer-ms", str(args.buffer_ms), "--output", str(out)]
        env = engine_env(args.threads)
        env["VOICENOTES_MODELS"] = args.models
        with tempfile.TemporaryFile() as err:
            before = proc_stat()
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, env=env,
                                    preexec_fn=pinning(args.threads))
            usage = reap(proc, args.timeout)
            after = proc_stat()
            err.seek(0)
            stderr = err.read().decode("utf-8", "replace")
        if proc.returncode != 0 or not out.is_file():
            tail = "\n".join(stderr.strip().splitlines()[-10:])
            raise RunFailed(f"exit status {proc.returncode}; end of its stderr:\n{tail}")
        report = json.loads(out.read_text())
    own = usage.ru_utime + usage.ru_stime
    measured = latency.summarize(reference, report["events"])
    # The same procedure in Swift and Python must give the same medians.
    for key, value in measured["medians"].items():
        theirs = report["medians"].get(key)
        if (value is None) != (theirs is None) or (value is not None and abs(value - theirs) > 1e-6):
            log(f"bench: warning: latency.py and LiveBenchmark disagree on {key}: {value} vs {theirs}")
    lag = report["max_final_lag_seconds"]
    note = f"finals at most {lag:.1f} s after their audio" + ("" if report["kept_up"] else " (fell behind)")
    return Run("ours", model, measured["medians"], measured["counts"], report["real_time_factor"], report["kept_up"],
               note, usage.ru_maxrss / 1024, others_cpu(before, after, own), report["transcript"],
               wer=latency.word_error_rate(report["transcript"], reference),
               details={"argv": argv, "load_s": report["load_seconds"], "process_cpu_s": own,
                "max_final_lag_s": lag, "drain_s": report["drain_seconds"],
                "feed_lateness_s": report["feed_lateness_seconds"], "words": measured["words"],
                "events": report["events"]})


def stream_events(chunks: list[tuple[float, bytes]], playback_start: float, keep_s: float,
                  length_s: float) -> tuple[list[dict], list[float]]:
    """Turns whisper-stream's stdout into events. In its sliding-window mode it clears the line
    (ESC[2K and a carriage return) and prints the transcript of the current window after each
    step; every few steps it ends the line with a newline and starts a new one, keeping only
    `keep` of the audio. Each print is a volatile event; the newline makes the line's text final
    (it never changes after that). Times are those of the chunk that completed each piece.
    Returns (events, times of the steps: each step clears the line with a row of spaces)."""
    data = b"".join(c for _, c in chunks)
    ends, stamps, offset = [], [], 0
    for stamp, chunk in chunks:
        offset += len(chunk)
        ends.append(offset)
        stamps.append(stamp - playback_start)

    def arrival(position: int) -> float:
        return stamps[bisect.bisect_left(ends, position)]

    events: list[dict] = []
    steps: list[float] = []
    line = ""
    # The audio a line covers: from about when the line before it ended, less what was kept,
    # less what the last decode of that line took (generously: a whole window).
    block_start = -1000.0
    for m in re.finditer(rb"\x1b\[2K|\r|\n|[^\x1b\r\n]+|\x1b", data):
        piece, t = m.group(0), arrival(m.end())
        if piece in (b"\x1b[2K", b"\r"):
            line = ""
        elif piece == b"\n":
            text = line.strip()
            if text and text != "[Start speaking]":
                events.append({"time": t, "is_final": True, "start": block_start, "end": t, "text": text})
            block_start = t - keep_s - length_s
            line = ""
        elif piece != b"\x1b":
            if len(piece) >= 50 and not piece.strip():
                steps.append(t)
            line += piece.decode("utf-8", "replace")
            text = line.strip()
            if text and text != "[Start speaking]":
                events.append({"time": t, "is_final": False, "start": block_start, "end": t, "text": text})
    return events, steps


def run_stream(args, model: str, audio: Path, seconds: float, reference: list[dict], pulse: PulseAudio) -> Run:
    """One run of whisper-stream recording from the null sink while paplay plays the passage."""
    model_file = Path(args.models) / f"ggml-{model}.bin"
    argv = [args.whisper_stream, "-m", str(model_file), "-t", str(args.threads), "--step", str(args.step),
            "--length", str(args.length), "--keep", str(args.keep), "-l", "en"]
    env = dict(engine_env(args.threads), **pulse.client_env)
    with tempfile.TemporaryFile() as err:
        before = proc_stat()
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err, env=env,
                                preexec_fn=pinning(args.threads))
        out = StampedReader(proc.stdout)
        out.start()
        player = None
        failure = None
        try:
            if not out.wait_for(lambda d: b"[Start speaking]" in d, 120):
                raise RunFailed("never printed [Start speaking]")
            time.sleep(1.0)  # a few steps over silence first, as a user would start talking
            cpu_start, cpu_from = process_cpu(proc.pid), time.monotonic()
            player = subprocess.Popen(["paplay", "-v", str(audio)], stdin=subprocess.DEVNULL,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                      env=dict(os.environ, **pulse.client_env))
            clock = StampedReader(player.stderr)
            clock.start()
            try:
                player.wait(seconds + 60)
            except subprocess.TimeoutExpired:
                raise RunFailed("paplay did not finish playing") from None
            cpu_end, cpu_to = process_cpu(proc.pid), time.monotonic()
            clock.join(5)
            # After the audio, wait for whisper-stream to end its current line (so that the last
            # words become final), or give up after a generous while.
            lines_then = out.text().count("\n")
            out.wait_for(lambda d: d.decode("utf-8", "replace").count("\n") > lines_then, args.length / 1000 * 6 + 30)
        except RunFailed as e:
            failure = str(e)
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)  # SDL turns it into a quit event: a clean exit
            usage = reap(proc, 15)
            if player and player.poll() is None:
                player.kill()
                player.wait()
        after = proc_stat()
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    out.join(5)
    tail = "\n".join(stderr.strip().splitlines()[-10:])
    if failure is None and (player is None or player.returncode != 0):
        failure = f"paplay failed (status {player.returncode if player else '-'})"
    if failure is None and (cpu_start is None or cpu_end is None):
        failure = "whisper-stream ended before the speech did"
    if failure:
        raise RunFailed(f"{failure} (whisper-stream status {proc.returncode}); end of its stderr:\n{tail}")
    # paplay -v reports the playback position ("Time: 12.345 sec") as it plays: the moment the
    # first sample was played is the median of (arrival - position).
    starts = [stamp - float(m.group(1)) for stamp, data in clock.chunks
              for m in re.finditer(rb"Time: ([0-9.]+) sec", data) if float(m.group(1)) > 0]
    if not starts:
        raise RunFailed("paplay -v reported no playback times")
    playback_start = statistics.median(starts)
    events, steps = stream_events(out.chunks, playback_start, args.keep / 1000, args.length / 1000)
    measured = latency.summarize(reference, events)

    # whisper-stream never queues audio: a step that takes longer than --step makes it skip
    # audio (it decodes only the last --step of what arrived). Skipped audio is the excess of
    # the time between steps over --step while the speech played.
    during = [t for t in steps if 0 <= t <= seconds + args.step / 1000]
    gaps = [b - a for a, b in zip(during, during[1:])]
    dropped = sum(max(0.0, g - args.step / 1000) for g in gaps)
    step_median = statistics.median(gaps) if gaps else float("nan")
    kept_up = step_median <= STEP_LIMIT * args.step / 1000
    note = f"{dropped:.1f} s of audio skipped; a step every {step_median:.2f} s (median)"
    # CPU seconds per second of audio, over the playback.
    rtf = (cpu_end - cpu_start) / max(cpu_to - cpu_from, 1e-9)
    own = usage.ru_utime + usage.ru_stime
    finals = " ".join(e["text"] for e in events if e["is_final"])
    return Run("whisper-stream", model, measured["medians"], measured["counts"], rtf,
               kept_up, note, usage.ru_maxrss / 1024, others_cpu(before, after, own), finals,
               wer=latency.word_error_rate(finals, reference),
               details={"argv": argv, "dropped_audio_s": dropped, "median_step_s": step_median,
                "playback_start_spread_s": max(starts) - min(starts), "process_cpu_s": own,
                "exit_status": proc.returncode,
                "words": measured["words"], "events": events})


# ---------------------------------------------------------------------------------------------
# Report


def fmt(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}" if a is not None and b else "-"


def summarize_runs(runs: list[Run]) -> dict:
    """Medians over runs of each run's figures."""

    def med(values):
        values = [v for v in values if v is not None]
        return statistics.median(values) if values else None

    keys = ("first", "first_volatile", "final", "final_after_pause", "settled")
    counts = runs[0].counts
    return {
        **{k: med(r.medians.get(k) for r in runs) for k in keys},
        "first_words": med(r.counts["first"] for r in runs),
        "final_words": med(r.counts["final"] for r in runs),
        "reference_words": counts["reference_words"],
        "rtf": med(r.rtf for r in runs),
        "kept_up": sum(r.kept_up for r in runs),
        "runs": len(runs),
        "peak_mib": med(r.peak_mib for r in runs),
        "wer": med(r.wer for r in runs),
    }


def print_table(models: list[str], tools: list[str], results: dict) -> None:
    header = ["model", "tool", "first s", "final after pause s", "final s", "settled s", "words shown/final",
              "CPU s per audio s", "kept up", "peak MiB", "WER %"]
    rows = []
    for model in models:
        figures = {}
        for tool in tools:
            runs = results.get((model, tool)) or []
            if not runs:
                continue
            s = figures[tool] = summarize_runs(runs)
            rows.append([model, TOOL_LABELS[tool], fmt(s["first"]), fmt(s["final_after_pause"]), fmt(s["final"]),
                         fmt(s["settled"]), f"{s['first_words']:.0f}/{s['final_words']:.0f} of {s['reference_words']}",
                         fmt(s["rtf"]), f"{s['kept_up']}/{s['runs']} runs", f"{s['peak_mib']:.0f}",
                         fmt(None if s["wer"] is None else 100 * s["wer"], 1)])
        if "ours" in figures and "whisper-stream" in figures:
            o, w = figures["ours"], figures["whisper-stream"]
            rows.append([model, "whisper-stream / ours", ratio(w["first"], o["first"]),
                         ratio(w["final_after_pause"], o["final_after_pause"]), ratio(w["final"], o["final"]),
                         ratio(w["settled"], o["settled"]), "", ratio(w["rtf"], o["rtf"]), "",
                         ratio(w["peak_mib"], o["peak_mib"]), ""])
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]

    def line(cells):
        return "  ".join(str(c).ljust(w) if i < 2 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))

    print(line(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))
    sys.stdout.flush()


def print_verdict(models: list[str], results: dict, first_limit: float, final_limit: float,
                  final_key: str = "final_after_pause") -> None:
    """Which model our live path runs in real time with on these cores, and the acceptance
    figures for it: first text, and final text by `final_key` ("final_after_pause" on speech
    with pauses, "final" on continuous speech)."""
    if not any(results.get((model, "ours")) for model in models):
        return
    keeping = []
    for model in models:
        runs = results.get((model, "ours")) or []
        if runs:
            s = summarize_runs(runs)
            behind = s["runs"] - s["kept_up"]
            state = "keeps up" if behind == 0 else f"fell behind in {behind} of {s['runs']} runs"
            print(f"ours, {model}: {state} in real time; CPU {fmt(s['rtf'])} s per s of audio")
            if s["kept_up"] == s["runs"]:
                keeping.append((model, s))
    if not keeping:
        print("acceptance: no model kept up in every run; nothing to judge (rerun on a quiet machine)")
        return
    final_label = "after a pause" if final_key == "final_after_pause" else "(every word)"

    def met(t):
        return (t["first"] is not None and t["first"] <= first_limit
                and t[final_key] is not None and t[final_key] <= final_limit)

    # The most accurate model that keeps up: base before tiny.en.
    keeping.sort(key=lambda m: 0 if m[0] == "base" else 1)
    model, s = keeping[0]
    print(f"acceptance with {model} (the most accurate model that keeps up): first text {fmt(s['first'])} s "
          f"(limit {first_limit} s), final text {fmt(s[final_key])} s {final_label} (limit {final_limit} s), "
          f"medians: {'met' if met(s) else 'NOT met'}; WER against the file transcription "
          f"{fmt(None if s['wer'] is None else 100 * s['wer'], 1)}%")
    for other, t in keeping[1:]:
        print(f"  with {other}: first {fmt(t['first'])} s, final {final_label} {fmt(t[final_key])} s: "
              f"{'met' if met(t) else 'not met'}")


def main() -> int:
    ap = argparse.ArgumentParser(
        description="Live transcription benchmark: voicenotes' live path vs whisper.cpp's whisper-stream.")
    ap.add_argument("--tools", default=",".join(ALL_TOOLS), help="comma-separated subset of ours,whisper-stream")
    ap.add_argument("--models", dest="model_names", default="tiny.en,base", help="models (default tiny.en,base)")
    ap.add_argument("--runs", type=int, default=3, help="runs per tool and model (default 3)")
    ap.add_argument("--threads", type=int, default=2, help="threads, and cores to pin to (default 2)")
    ap.add_argument("--buffer-ms", type=int, default=100, help="our buffer length (default 100)")
    ap.add_argument("--step", type=int, default=500, help="whisper-stream --step in ms (default 500)")
    ap.add_argument("--length", type=int, default=5000, help="whisper-stream --length in ms (default 5000)")
    ap.add_argument("--keep", type=int, default=200, help="whisper-stream --keep in ms (default 200)")
    ap.add_argument("--input", help="a speech file to play instead of the LibriVox + jfk passage")
    ap.add_argument("--pause", type=float, default=PAUSE_SECONDS,
                    help=f"silence between the passage's recordings, s (default {PAUSE_SECONDS}; "
                    "0.1 makes continuous speech)")
    ap.add_argument("--reference-model", default="base", help="model for the reference word times (default base)")
    ap.add_argument("--timeout", type=float, default=600.0, help="per-run limit, s (default 600)")
    ap.add_argument("--binary", default=str(ROOT / ".build" / "release" / "LiveBenchmark"),
                    help="our LiveBenchmark (default .build/release/LiveBenchmark)")
    ap.add_argument("--whisper-stream", default=None,
                    help="whisper-stream (default <cache>/whisper-tools/bin/whisper-stream)")
    ap.add_argument("--models-dir", dest="models",
                    default=os.environ.get("VOICENOTES_MODELS") or str(ROOT / ".deps" / "models"),
                    help="folder with ggml-<model>.bin (default .deps/models)")
    ap.add_argument("--cache", default=str(DEFAULT_CACHE), help=f"benchmark cache (default {DEFAULT_CACHE})")
    ap.add_argument("--json", help="also write every run's figures, words and events to this file")
    ap.add_argument("--show-text", action="store_true", help="print each tool's last final transcript")
    args = ap.parse_args()

    cache = Path(args.cache)
    args.whisper_stream = args.whisper_stream or str(cache / "whisper-tools" / "bin" / "whisper-stream")
    tools = list(dict.fromkeys(t.strip() for t in args.tools.split(",") if t.strip()))
    models = list(dict.fromkeys(m.strip() for m in args.model_names.split(",") if m.strip()))
    if not tools or any(t not in ALL_TOOLS for t in tools):
        die(f"--tools takes a subset of {','.join(ALL_TOOLS)}")
    if args.runs < 1 or args.threads < 1:
        die("--runs and --threads must be at least 1")
    if not os.access(args.binary, os.X_OK):
        die(f"{args.binary} not found: build it with `swift build -c release --product LiveBenchmark` (or --binary)")
    if "whisper-stream" in tools and not os.access(args.whisper_stream, os.X_OK):
        die(f"{args.whisper_stream} not found: run scripts/bench-deps.sh")
    for m in models + [args.reference_model]:
        if not (Path(args.models) / f"ggml-{m}.bin").is_file():
            die(f"{args.models}/ggml-{m}.bin missing: run `voicenotes models install {m}`")

    if args.input:
        audio, seconds = Path(args.input).resolve(), None
    else:
        audio, seconds = build_passage(cache, args.pause)

    # The truth: the file transcribed once, with word times.
    reference_file = cache / "audio" / f"{audio.stem}.reference.json"
    reference_file.parent.mkdir(parents=True, exist_ok=True)
    log(f"==> reference: transcribing {audio.name} with {args.reference_model} (file path, word times)")
    env = engine_env(args.threads)
    env["VOICENOTES_MODELS"] = args.models
    r = subprocess.run([args.binary, "reference", "--input", str(audio), "--model", args.reference_model,
                        "--output", str(reference_file)], stdin=subprocess.DEVNULL, capture_output=True,
                       text=True, env=env)
    if r.returncode != 0:
        die(f"the reference transcription failed: {r.stderr.strip().splitlines()[-1:]}")
    ref = json.loads(reference_file.read_text())
    reference = ref["words"]
    seconds = seconds or ref["audio_seconds"]

    print(f"audio: {audio} ({seconds:.1f} s, {len(reference)} reference words, "
          f"{sum(w['pause_after'] for w in reference)} of them before a pause)")
    print(f"reference: {ref['model']} through the file path with word times (ends trimmed to the last loud sound)")
    print(f"ours: SpeechAnalyzer.start(inputSequence:), SpeechTranscriber .volatileResults, {args.buffer_ms} ms "
          f"buffers at real-time pace, {args.threads} threads")
    print(f"whisper-stream: -t {args.threads} --step {args.step} --length {args.length} --keep {args.keep} -l en "
          "(its README's real-time setting), SDL2 capture from a PulseAudio null sink fed by paplay")
    cpu_name = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                     if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    busy = cpu_busy()
    pinned = " (runs pinned to the first %d)" % args.threads if pinning(args.threads) else ""
    print(f"machine: {os.cpu_count()} cores{pinned}, {cpu_name}; CPU {busy:.0f}% busy before the first run; "
          f"load average {os.getloadavg()[0]:.1f}")
    sys.stdout.flush()
    if busy > 20:
        log("bench: warning: the machine is busy; latencies and CPU figures will be noisy")

    pulse = PulseAudio() if "whisper-stream" in tools else None
    results: dict[tuple[str, str], list[Run]] = {}
    failed: dict[tuple[str, str], str] = {}
    try:
        if pulse:
            pulse.start()
        for rnd in range(args.runs):
            for model in models:
                order = tools if rnd % 2 == 0 else tools[::-1]
                for tool in order:
                    key = (model, tool)
                    if key in failed:
                        continue
                    tag = f"run {rnd + 1}/{args.runs}"
                    log(f"[{tag}] {TOOL_LABELS[tool]}, {model} ...")
                    try:
                        if tool == "ours":
                            run = run_ours(args, model, audio, reference_file, reference)
                        else:
                            run = run_stream(args, model, audio, seconds, reference, pulse)
                    except RunFailed as e:
                        failed[key] = str(e)
                        log(f"[{tag}] {TOOL_LABELS[tool]}, {model} FAILED: {e}")
                        continue
                    m = run.medians
                    log(f"[{tag}] {TOOL_LABELS[tool]}, {model}: first {fmt(m['first'])} s, final after a pause "
                        f"{fmt(m['final_after_pause'])} s, final {fmt(m['final'])} s; {run.counts['final']}/"
                        f"{run.counts['reference_words']} words final; CPU {run.rtf:.2f} s/s; "
                        f"{'kept up' if run.kept_up else 'fell behind'} ({run.keep_up_note}); "
                        f"{run.peak_mib:.0f} MiB; other processes {run.others_cpu:.1f} CPU-s")
                    results.setdefault(key, []).append(run)
    except KeyboardInterrupt:
        log("bench: interrupted; reporting what was measured")
    except RunFailed as e:
        die(str(e))
    finally:
        if pulse:
            pulse.stop()

    print()
    print("latencies in seconds after the end of each spoken word, medians over words, then over runs:")
    print("first = first result showing the word; final after pause = the last word before each pause until final;")
    print("final = every word until final; settled = until it stopped changing")
    print_table(models, tools, results)
    print()
    if any(w["pause_after"] for w in reference):
        print_verdict(models, results, 1.5, 2.5)
    else:
        # Continuous speech: every word's final latency, against issue 18's live targets.
        print_verdict(models, results, 0.8, 3.0, final_key="final")
    print(f"CPU {cpu_busy():.0f}% busy after the last run")
    noisy = [f"{tool} {model} run {i + 1} ({r.others_cpu:.1f} CPU-s)" for (model, tool), runs in results.items()
             for i, r in enumerate(runs) if r.others_cpu > NOISE_CPU_S]
    if noisy:
        print("warning: other processes used the CPU during: " + ", ".join(noisy)
              + "; those figures are inflated (rerun on a quiet machine)")
    for (model, tool), why in failed.items():
        print(f"{TOOL_LABELS[tool]}, {model}: FAILED: {why.splitlines()[0]}")
    if args.show_text:
        for (model, tool), runs in results.items():
            print(f"\n--- {TOOL_LABELS[tool]}, {model} (last run, finals) ---\n{runs[-1].transcript.strip()}")
    sys.stdout.flush()

    if args.json:
        data = {
            "audio": str(audio), "audio_seconds": seconds, "reference": ref,
            "settings": {"threads": args.threads, "buffer_ms": args.buffer_ms, "step_ms": args.step,
                         "length_ms": args.length, "keep_ms": args.keep},
            "runs": [{"tool": r.tool, "model": r.model, "medians": r.medians, "counts": r.counts, "rtf": r.rtf,
                      "kept_up": r.kept_up, "keep_up_note": r.keep_up_note, "peak_mib": r.peak_mib,
                      "others_cpu_s": r.others_cpu, "transcript": r.transcript, **r.details}
                     for runs in results.values() for r in runs],
            "failed": {f"{tool} {model}": why for (model, tool), why in failed.items()},
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
