#!/usr/bin/env python3
"""Transcription benchmark: VoiceNotes against whisper.cpp's CLI and faster-whisper.

Builds a 2+ minute test recording from the LibriVox utterances in Debian's pocketsphinx-testdata,
then runs each tool on it as a separate process, alternating in rounds after one warm-up run
each, and reports the median wall time, the real-time factor, the median peak memory (RSS) and
the word error rate against the reference transcript.

Every tool runs with the same decoding settings (threads, beam size, best-of, Silero VAD and its
parameters, language); see README.md beside this file. Standard library only: faster-whisper
runs in its own venv through faster_whisper_run.py (scripts/bench-deps.sh sets that up).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchsupport import CLOCK_TICKS, cpu_busy, die, log, proc_stat, word_errors  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DEFAULT_CACHE = Path(
    os.environ.get("VOICENOTES_BENCH_CACHE")
    or Path(os.environ.get("VOICENOTES_CACHE") or Path.home() / ".cache" / "voicenotes") / "bench"
)
LIBRIVOX = Path("/usr/share/pocketsphinx/test/data/librivox")
SAMPLE_RATE = 16000

# `ours` runs `voicenotes transcribe` with no model and no decoding settings at all: what a user
# gets (the default model, base-q8: base's weights in 8 bits, as faster-whisper int8 has them).
# `ours-fw` runs it at the settings every other tool gets (threads, beam size, VAD), set through
# the environment EngineConfiguration reads (VOICENOTES_THREADS, VOICENOTES_BEAM_SIZE,
# VOICENOTES_VAD), so that row compares like for like with faster-whisper. `ours-base` runs the
# defaults with --model (base unless told), the same 16-bit weights whisper-cli loads.

# A run during which other processes used more CPU time than this is flagged as disturbed.
NOISE_CPU_S = 1.0

ALL_TOOLS = ["ours", "ours-fw", "ours-base", "whisper-cli", "fw-int8", "fw-f32"]
DEFAULT_MODEL = "base-q8"
TOOL_LABELS = {
    "ours": "voicenotes (ours, defaults)",
    "ours-fw": "voicenotes (ours, fw settings)",
    "ours-base": "voicenotes (ours, --model base)",
    "whisper-cli": "whisper.cpp whisper-cli",
    "fw-int8": "faster-whisper int8",
    "fw-f32": "faster-whisper float32",
}






# ---------------------------------------------------------------------------------------------
# Settings


@dataclass(frozen=True)
class Settings:
    threads: int
    beam_size: int
    best_of: int
    vad: bool
    language: str
    # Silero VAD parameters as `voicenotes` sets them (whisper.cpp's defaults, but 250 ms of
    # padding instead of 30 ms, which clips word onsets), passed explicitly to whisper-cli and to
    # faster-whisper (whose own defaults differ: 2000 ms minimum silence, 400 ms padding).
    vad_threshold: float = 0.5
    vad_min_speech_ms: int = 250
    vad_min_silence_ms: int = 100
    vad_speech_pad_ms: int = 250

    def describe(self) -> str:
        vad = (
            f"Silero VAD on (threshold {self.vad_threshold}, min speech {self.vad_min_speech_ms} ms, "
            f"min silence {self.vad_min_silence_ms} ms, pad {self.vad_speech_pad_ms} ms)"
            if self.vad
            else "VAD off"
        )
        return (
            f"{self.threads} threads, beam size {self.beam_size}, best-of {self.best_of}, "
            f"language {self.language}, {vad}"
        )


# ---------------------------------------------------------------------------------------------
# Test audio and reference


def read_references(folder: Path) -> list[tuple[str, str]]:
    """(file id, words) pairs from a pocketsphinx `transcription` file, in file order."""
    refs = []
    pattern = re.compile(r"^(?:<s>)?\s*(.*?)\s*(?:</s>)?\s*\(([^()]+)\)\s*$")
    for line in (folder / "transcription").read_text().splitlines():
        if not line.strip():
            continue
        m = pattern.match(line.strip())
        if not m:
            die(f"cannot parse reference line: {line!r}")
        refs.append((m.group(2), m.group(1)))
    return refs


def wav_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / w.getframerate()


def wav_format(path: Path) -> tuple[int, int, int]:
    with wave.open(str(path), "rb") as w:
        return w.getframerate(), w.getnchannels(), w.getsampwidth()


def build_audio(cache: Path, min_seconds: float, gap: float) -> tuple[Path, str, float]:
    """Concatenates the LibriVox utterances, `gap` seconds of silence after each, repeated until
    the whole lasts at least `min_seconds`. Returns (wav path, reference text, seconds)."""
    if not (LIBRIVOX / "transcription").is_file():
        die(f"{LIBRIVOX} is missing: install Debian's pocketsphinx-testdata (scripts/bench-deps.sh)")
    if not shutil.which("sox"):
        die("sox is missing: run scripts/bench-deps.sh")
    refs = read_references(LIBRIVOX)
    files = [LIBRIVOX / f"{fid}.wav" for fid, _ in refs]
    for f in files:
        if not f.is_file():
            die(f"missing utterance {f}")
    cycle = sum(wav_seconds(f) for f in files) + gap * len(files)
    repeats = max(1, math.ceil(min_seconds / cycle))
    reference = " ".join([" ".join(words for _, words in refs)] * repeats)

    folder = cache / "audio"
    folder.mkdir(parents=True, exist_ok=True)
    name = f"librivox-{repeats}x-gap{int(round(gap * 1000))}ms"
    out = folder / f"{name}.wav"
    expected = cycle * repeats
    if not (out.is_file() and abs(wav_seconds(out) - expected) < 0.05
            and wav_format(out) == (SAMPLE_RATE, 1, 2)):
        log(f"==> building test audio: {len(files)} utterances x {repeats}, {expected:.1f} s -> {out}")
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            silence = Path(tmp) / "silence.wav"
            fmt = ["-r", str(SAMPLE_RATE), "-c", "1", "-b", "16", "-e", "signed-integer"]
            subprocess.run(["sox", "-n", *fmt, str(silence), "trim", "0", f"{gap}"], check=True)
            inputs = [str(p) for _ in range(repeats) for f in files for p in (f, silence)]
            partial = Path(tmp) / "out.wav"
            # "rate" and "channels" keep the result 16 kHz mono even if an input were not.
            subprocess.run(
                ["sox", *inputs, *fmt, str(partial), "channels", "1", "rate", str(SAMPLE_RATE)],
                check=True,
            )
            os.replace(partial, out)
    (folder / f"{name}.txt").write_text(reference + "\n")
    return out, reference, wav_seconds(out)


# ---------------------------------------------------------------------------------------------
# Word error rate

# Spelled-out forms used by the LibriVox references for what Whisper writes abbreviated.
ABBREVIATIONS = {"mr": "mister", "mrs": "missus", "dr": "doctor"}


def normalize(text: str) -> list[str]:
    """Lowercase, drop apostrophes, turn any other punctuation into spaces, split on whitespace,
    and spell out a few abbreviations."""
    text = text.lower().replace("\u2019", "'").replace("'", "")
    text = re.sub(r"[^\w\s]|_", " ", text)
    return [ABBREVIATIONS.get(w, w) for w in text.split()]


def wer(reference: str, hypothesis: str) -> float:
    ref = normalize(reference)
    return word_errors(ref, normalize(hypothesis)) / max(1, len(ref))


# ---------------------------------------------------------------------------------------------
# Tools


@dataclass
class Tool:
    key: str
    label: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    problem: str | None = None  # why it cannot run, if it cannot
    note: str | None = None


def engine_env() -> dict[str, str]:
    env = dict(os.environ)
    env["OMP_WAIT_POLICY"] = "passive"  # spinning OpenMP threads wreck timings on 2 cores
    return env


def make_ours(args, s: Settings, audio: Path, key: str) -> Tool:
    binary = Path(args.voicenotes)
    models = Path(args.models)
    tool = Tool(key, TOOL_LABELS[key], [])
    if not os.access(binary, os.X_OK):
        tool.problem = f"{binary} not found: build it with `swift build -c release` (make build)"
        return tool
    model = args.model if key == "ours-base" else DEFAULT_MODEL
    if not (models / f"ggml-{model}.bin").is_file():
        tool.problem = f"{models}/ggml-{model}.bin missing: run `voicenotes models install {model}`"
        return tool
    argv = [str(binary), "transcribe", str(audio), "--language", s.language, "--format", "txt"]
    if key == "ours-base":
        argv += ["--model", args.model]
    env = engine_env()
    env["VOICENOTES_MODELS"] = str(models)
    for name in ("VOICENOTES_THREADS", "VOICENOTES_BEAM_SIZE", "VOICENOTES_VAD"):
        env.pop(name, None)
    if key == "ours-fw":
        # best-of applies only to sampling at a raised temperature, as in faster-whisper; the
        # CLI keeps whisper.cpp's rule (best-of = beam size), so --best-of is not passed on.
        env["VOICENOTES_THREADS"] = str(s.threads)
        env["VOICENOTES_BEAM_SIZE"] = str(s.beam_size)
        env["VOICENOTES_VAD"] = "1" if s.vad else "0"
        if s.best_of != s.beam_size:
            tool.note = (f"voicenotes uses best-of {s.beam_size} (its beam size), not {s.best_of}: "
                         "that row is not quite like for like")
    tool.argv, tool.env = argv, env
    return tool


def make_whisper_cli(args, s: Settings, audio: Path) -> Tool:
    binary = Path(args.whisper_cli)
    model = Path(args.models) / f"ggml-{args.model}.bin"
    tool = Tool("whisper-cli", TOOL_LABELS["whisper-cli"], [])
    if not os.access(binary, os.X_OK):
        tool.problem = f"{binary} not found: run `scripts/bootstrap.sh` (make deps)"
        return tool
    if not model.is_file():
        tool.problem = f"{model} missing: run `voicenotes models install {args.model}`"
        return tool
    argv = [str(binary), "-m", str(model), "-f", str(audio), "-l", s.language,
            "-t", str(s.threads), "-bs", str(s.beam_size), "-bo", str(s.best_of), "-nt"]
    if s.vad:
        vad_model = find_vad_model(args)
        if vad_model is None:
            tool.problem = "Silero VAD model ggml-silero-vad.bin not found (run scripts/bootstrap.sh)"
            return tool
        argv += ["--vad", "-vm", str(vad_model), "-vt", str(s.vad_threshold),
                 "-vspd", str(s.vad_min_speech_ms), "-vsd", str(s.vad_min_silence_ms),
                 "-vp", str(s.vad_speech_pad_ms)]
    tool.argv, tool.env = argv, engine_env()
    return tool


def find_vad_model(args) -> Path | None:
    for p in (Path(args.models) / "ggml-silero-vad.bin",
              Path(args.whisper_cli).resolve().parent.parent / "share/voicenotes/ggml-silero-vad.bin"):
        if p.is_file():
            return p
    return None


def make_faster_whisper(args, s: Settings, audio: Path, key: str, compute_type: str) -> Tool:
    cache = Path(args.cache)
    python = cache / "venv" / "bin" / "python"
    model_dir = cache / "models" / "whisper-base-ct2"
    tool = Tool(key, TOOL_LABELS[key], [])
    if not os.access(python, os.X_OK) or not (model_dir / ".complete").is_file():
        tool.problem = f"faster-whisper venv or model missing under {cache}: run scripts/bench-deps.sh"
        return tool
    if args.model != "base":
        tool.problem = "faster-whisper runs only the base model (the CTranslate2 weights we ship)"
        return tool
    argv = [str(python), str(HERE / "faster_whisper_run.py"), str(audio),
            "--model-dir", str(model_dir), "--compute-type", compute_type,
            "--threads", str(s.threads), "--beam-size", str(s.beam_size),
            "--best-of", str(s.best_of), "--language", s.language]
    if s.vad:
        argv += ["--vad", "--vad-threshold", str(s.vad_threshold),
                 "--vad-min-speech-ms", str(s.vad_min_speech_ms),
                 "--vad-min-silence-ms", str(s.vad_min_silence_ms),
                 "--vad-speech-pad-ms", str(s.vad_speech_pad_ms)]
    tool.argv, tool.env = argv, engine_env()
    return tool


def make_tool(key: str, args, s: Settings, audio: Path) -> Tool:
    if key in ("ours", "ours-fw", "ours-base"):
        return make_ours(args, s, audio, key)
    if key == "whisper-cli":
        return make_whisper_cli(args, s, audio)
    if key == "fw-int8":
        return make_faster_whisper(args, s, audio, key, "int8")
    if key == "fw-f32":
        return make_faster_whisper(args, s, audio, key, "float32")
    raise ValueError(key)


# ---------------------------------------------------------------------------------------------
# Running and measuring


@dataclass
class Run:
    wall: float  # seconds
    cpu: float  # the child's user + system CPU seconds (less sensitive to a busy machine)
    peak_mib: float  # the child's peak resident set size
    wer: float
    text: str
    others_cpu: float  # CPU seconds other processes used during the run (machine noise)


class RunFailed(Exception):
    pass


def measure(tool: Tool, reference: str, timeout: float) -> Run:
    """Runs the tool once; wall time from spawn to exit, peak RSS from wait4's rusage."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        stat_before = proc_stat()
        start = time.perf_counter()
        proc = subprocess.Popen(tool.argv, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                env=tool.env)
        # A blocking wait (no polling: the parent stays idle); a timer kills a hung child.
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            proc.kill()

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here, not by Popen
        if timed_out.is_set():
            raise RunFailed(f"timed out after {timeout:.0f} s")
        stat_after = proc_stat()
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    if proc.returncode != 0:
        tail = "\n".join(stderr.strip().splitlines()[-15:])
        raise RunFailed(f"exit status {proc.returncode}; end of its stderr:\n{tail}")
    if not stdout.strip():
        raise RunFailed("printed no transcript on stdout")
    others = 0.0
    if stat_before and stat_after:
        busy = (stat_after[0] - stat_after[1]) - (stat_before[0] - stat_before[1])
        others = max(0.0, busy / CLOCK_TICKS - usage.ru_utime - usage.ru_stime)
    return Run(wall=wall, cpu=usage.ru_utime + usage.ru_stime, peak_mib=usage.ru_maxrss / 1024.0, wer=wer(reference, stdout), text=stdout,
               others_cpu=others)


# ---------------------------------------------------------------------------------------------
# Report








def fmt_ratio(value: float, base: float | None) -> str:
    return f"{value / base:.2f}" if base else "-"


def print_table(tools: list[Tool], results: dict[str, list[Run]], seconds: float, baseline: str | None):
    rows = []
    base = results.get(baseline) if baseline else None
    base_wall = statistics.median(r.wall for r in base) if base else None
    base_mem = statistics.median(r.peak_mib for r in base) if base else None
    for t in tools:
        runs = results.get(t.key) or []
        if not runs:
            continue
        wall = statistics.median(r.wall for r in runs)
        cpu = statistics.median(r.cpu for r in runs)
        mem = statistics.median(r.peak_mib for r in runs)
        wers = [r.wer for r in runs]
        w = statistics.median(wers)
        wer_text = f"{w * 100:.1f}" if max(wers) - min(wers) < 1e-9 else \
            f"{w * 100:.1f} ({min(wers) * 100:.1f}-{max(wers) * 100:.1f})"
        rows.append([t.label, f"{wall:.2f}", f"{cpu:.2f}", f"{wall / seconds:.3f}", f"{mem:.0f}", wer_text,
                     fmt_ratio(wall, base_wall), fmt_ratio(mem, base_mem),
                     f"{min(r.wall for r in runs):.2f}-{max(r.wall for r in runs):.2f}"])
    header = ["tool", "wall s (median)", "CPU s", "RTF", "peak MiB", "WER %",
              f"wall x {baseline}", f"mem x {baseline}", "wall range s"]
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    line = lambda cells: "  ".join(  # noqa: E731
        str(c).ljust(w) if i == 0 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths)))
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(line(r))
    sys.stdout.flush()


def print_ratios(tools: list[Tool], results: dict[str, list[Run]]):
    """Each `ours` row against each reference tool: the ratio of the two runs of the same round
    (they ran back to back, so a change in machine load hits both), median over the rounds."""
    ours = [t for t in tools if t.key.startswith("ours") and results.get(t.key)]
    others = [t for t in tools if not t.key.startswith("ours") and results.get(t.key)]
    if not ours or not others:
        return
    print("\nours / reference, per round (median, min-max over rounds; below 1.00 ours is faster):")
    for o in ours:
        cells = []
        for r in others:
            pairs = list(zip(results[o.key], results[r.key]))
            walls = [a.wall / b.wall for a, b in pairs]
            cpus = [a.cpu / b.cpu for a, b in pairs if b.cpu > 0]
            text = (f"{r.key}: wall {statistics.median(walls):.2f} ({min(walls):.2f}-{max(walls):.2f})")
            if cpus:
                text += f", CPU {statistics.median(cpus):.2f}"
            cells.append(text)
        print(f"  {o.label}: " + "; ".join(cells))
    sys.stdout.flush()


def main() -> int:
    ap = argparse.ArgumentParser(
        description="Transcription benchmark: voicenotes vs whisper.cpp's CLI vs faster-whisper.")
    ap.add_argument("--tools", default=",".join(ALL_TOOLS),
                    help=f"comma-separated subset of {','.join(ALL_TOOLS)} (default: all)")
    ap.add_argument("--runs", type=int, default=5, help="measured runs per tool (default 5)")
    ap.add_argument("--warmups", type=int, default=1, help="unmeasured runs per tool first (default 1)")
    ap.add_argument("--threads", type=int, default=2, help="threads for every tool (default 2)")
    ap.add_argument("--beam-size", type=int, default=5, help="beam search size (default 5)")
    ap.add_argument("--best-of", type=int, default=5, help="best-of candidates (default 5)")
    ap.add_argument("--no-vad", action="store_true", help="turn the Silero VAD off for every tool")
    ap.add_argument("--language", default="en")
    ap.add_argument("--model", default="base", help="whisper.cpp model name (default base)")
    ap.add_argument("--min-seconds", type=float, default=120.0, help="minimum audio length (default 120)")
    ap.add_argument("--gap", type=float, default=0.5, help="silence after each utterance, s (default 0.5)")
    ap.add_argument("--timeout", type=float, default=1200.0, help="per-run limit, s (default 1200)")
    ap.add_argument("--voicenotes", default=str(ROOT / ".build" / "release" / "voicenotes"))
    ap.add_argument("--whisper-cli", default=str(ROOT / ".deps" / "engines" / "bin" / "whisper-cli"))
    ap.add_argument("--models", default=os.environ.get("VOICENOTES_MODELS") or str(ROOT / ".deps" / "models"),
                    help="folder with ggml-<model>.bin (default .deps/models)")
    ap.add_argument("--cache", default=str(DEFAULT_CACHE), help=f"benchmark cache (default {DEFAULT_CACHE})")
    ap.add_argument("--json", help="also write every run's numbers and transcripts to this file")
    ap.add_argument("--show-text", action="store_true", help="print each tool's last transcript")
    args = ap.parse_args()

    keys = [k.strip() for k in args.tools.split(",") if k.strip()]
    unknown = [k for k in keys if k not in ALL_TOOLS]
    if unknown or not keys:
        die(f"unknown tool(s) {', '.join(unknown) or '(none)'}; choose from {', '.join(ALL_TOOLS)}")
    keys = list(dict.fromkeys(keys))
    if args.runs < 1 or args.threads < 1 or args.beam_size < 1 or args.best_of < 1:
        die("--runs, --threads, --beam-size and --best-of must be at least 1")

    settings = Settings(threads=args.threads, beam_size=args.beam_size, best_of=args.best_of,
                        vad=not args.no_vad, language=args.language)
    cache = Path(args.cache)
    audio, reference, seconds = build_audio(cache, args.min_seconds, args.gap)

    tools = [make_tool(k, args, settings, audio) for k in keys]
    problems = [t for t in tools if t.problem]
    if problems:
        for t in problems:
            log(f"bench: {t.label}: {t.problem}")
        die("cannot run the tools above; fix them or leave them out with --tools")
    for t in tools:
        if t.note:
            log(f"bench: warning: {t.note}")

    ref_words = len(normalize(reference))
    print(f"audio: {audio} ({seconds:.1f} s, {ref_words} reference words)")
    print(f"settings: {settings.describe()}; OMP_WAIT_POLICY=passive")
    print(f"runs: {args.warmups} warm-up + {args.runs} measured per tool, round-robin "
          f"(order rotates each round); model {args.model}")
    cpu = next((l.split(":", 1)[1].strip() for l in Path("/proc/cpuinfo").read_text().splitlines()
                if l.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    busy = cpu_busy()
    print(f"machine: {os.cpu_count()} cores, {cpu}; CPU {busy:.0f}% busy before the first run")
    sys.stdout.flush()
    if busy > 20:
        log("bench: warning: the machine is busy; timings will be noisy (close builds and tests)")
    for t in tools:
        log(f"    {t.key}: {' '.join(t.argv)}")

    results: dict[str, list[Run]] = {t.key: [] for t in tools}
    failed: dict[str, str] = {}
    total_rounds = args.warmups + args.runs
    for rnd in range(total_rounds):
        warm = rnd < args.warmups
        shift = rnd % len(tools)
        order = tools[shift:] + tools[:shift]
        tag = f"warm-up {rnd + 1}/{args.warmups}" if warm else f"run {rnd - args.warmups + 1}/{args.runs}"
        for t in order:
            if t.key in failed:
                continue
            log(f"[{tag}] {t.label} ...")
            try:
                run = measure(t, reference, args.timeout)
            except RunFailed as e:
                failed[t.key] = str(e)
                log(f"[{tag}] {t.label} FAILED: {e}")
                continue
            log(f"[{tag}] {t.label}: {run.wall:.2f} s wall, {run.cpu:.2f} CPU-s, {run.peak_mib:.0f} MiB peak, "
                f"WER {run.wer * 100:.1f}%, other processes {run.others_cpu:.1f} CPU-s")
            if not warm:
                results[t.key].append(run)

    print()
    baseline = "ours" if results.get("ours") else next((t.key for t in tools if results.get(t.key)), None)
    if baseline and baseline != "ours":
        print(f"(voicenotes not measured: ratios are against {TOOL_LABELS[baseline]})")
    print_table(tools, results, seconds, baseline)
    print_ratios(tools, results)
    print(f"CPU {cpu_busy():.0f}% busy after the last run")
    noisy = [f"{t.label} run {i + 1} ({r.others_cpu:.1f} CPU-s)" for t in tools
             for i, r in enumerate(results.get(t.key) or []) if r.others_cpu > NOISE_CPU_S]
    if noisy:
        print("warning: other processes used the CPU during: " + ", ".join(noisy)
              + "; those timings are inflated (rerun on a quiet machine)")
    for key, why in failed.items():
        print(f"{TOOL_LABELS[key]}: FAILED: {why.splitlines()[0]}")
    if args.show_text:
        for t in tools:
            if results.get(t.key):
                print(f"\n--- {t.label} (last run) ---\n{results[t.key][-1].text.strip()}")
    sys.stdout.flush()

    if args.json:
        data = {
            "audio": str(audio), "audio_seconds": seconds, "reference": reference,
            "settings": settings.__dict__, "runs": args.runs, "warmups": args.warmups,
            "tools": {t.key: {"label": t.label, "argv": t.argv,
                              "runs": [{"wall_s": r.wall, "cpu_s": r.cpu, "peak_mib": r.peak_mib, "wer": r.wer,
                                        "others_cpu_s": r.others_cpu, "text": r.text}
                                       for r in results[t.key]],
                              "failed": failed.get(t.key)} for t in tools},
        }
        Path(args.json).write_text(json.dumps(data, indent=2) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
