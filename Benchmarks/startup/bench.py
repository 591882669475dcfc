#!/usr/bin/env python3
"""Start-up: how soon each command shows something, against whisper.cpp's own CLI.

- `voicenotes transcribe` on a 5 s clip (the first 5 s of jfk.wav) against `whisper-cli` on the
  same clip, same model, same settings (2 threads, beam 5, language en): time to the first byte
  on stdout and to exit, as whole processes (binary start, model load, decoding, output); and
  ours with the default model (base-q8).
- `voicenotes list` on a library of 10,000 notes (made once by `AppBenchmark library`): time to
  the first line and to exit.

Runs alternate, after a warm-up each; the table gives medians and ranges. Standard library only.
See README.md beside this file.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
from benchsupport import cpu_busy, die, log  # noqa: E402


def five_seconds_of_jfk(folder: Path) -> Path:
    source = ROOT / ".deps" / "testdata" / "jfk.wav"
    if not source.is_file():
        die(f"{source} is missing: run make deps")
    out = folder / "jfk-5s.wav"
    with wave.open(str(source), "rb") as w:
        params = w.getparams()
        frames = w.readframes(5 * w.getframerate())
    with wave.open(str(out), "wb") as w:
        w.setparams(params)
        w.writeframes(frames)
    return out


def timed(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Seconds from spawn to the first byte on stdout, and to exit."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    first = proc.stdout.read(1)
    first_at = time.perf_counter() - start
    proc.stdout.read()
    if proc.wait() != 0 or not first:
        die(f"{' '.join(argv)} failed (exit {proc.returncode})")
    return first_at, time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description="Start-up of voicenotes transcribe and list, against whisper-cli.")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--notes", type=int, default=10_000, help="notes in the library for `list` (default 10,000)")
    ap.add_argument("--voicenotes", default=str(ROOT / ".build" / "release" / "voicenotes"))
    ap.add_argument("--app-benchmark", default=str(ROOT / ".build" / "release" / "AppBenchmark"))
    ap.add_argument("--whisper-cli", default=str(ROOT / ".deps" / "engines" / "bin" / "whisper-cli"))
    ap.add_argument("--models", default=os.environ.get("VOICENOTES_MODELS") or str(ROOT / ".deps" / "models"))
    args = ap.parse_args()
    for tool in (args.voicenotes, args.app_benchmark, args.whisper_cli):
        if not os.access(tool, os.X_OK):
            die(f"{tool} not found: run make build (and swift build -c release --product AppBenchmark)")

    env = dict(os.environ, OMP_WAIT_POLICY="passive", VOICENOTES_MODELS=args.models)
    with tempfile.TemporaryDirectory() as folder:
        clip = five_seconds_of_jfk(Path(folder))
        log(f"==> making a library of {args.notes} notes")
        made = subprocess.run([args.app_benchmark, "library", str(Path(folder) / "library"), "--notes", str(args.notes)],
                              check=True, capture_output=True, text=True)
        library = made.stdout.strip().splitlines()[-1]
        commands = {
            "voicenotes transcribe (5 s)": [args.voicenotes, "transcribe", str(clip), "--model", "base",
                                            "--language", "en", "--format", "txt", "--quiet"],
            "voicenotes transcribe (5 s, base-q8)": [args.voicenotes, "transcribe", str(clip), "--model", "base-q8",
                                                     "--language", "en", "--format", "txt", "--quiet"],
            "whisper-cli (5 s)": [args.whisper_cli, "-m", str(Path(args.models) / "ggml-base.bin"), "-f", str(clip),
                                  "-t", "2", "-bs", "5", "-bo", "5", "-l", "en", "-nt", "-np"],
            f"voicenotes list ({args.notes} notes)": [args.voicenotes, "list", "--library", library],
        }
        busy = cpu_busy()
        print(f"machine: {os.cpu_count()} cores; CPU {busy:.0f}% busy before the first run; "
              f"{args.runs} runs each after a warm-up, alternating")
        results: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for round in range(args.runs + 1):
            for name, argv in commands.items():
                first, total = timed(argv, env)
                if round > 0:
                    results[name].append((first, total))
                    log(f"[run {round}/{args.runs}] {name}: first output {first:.3f} s, exit {total:.3f} s")

    print(f"{'command':40} {'first output s':>15} {'exit s':>8} {'first range s':>16}")
    for name, runs in results.items():
        firsts = [r[0] for r in runs]
        print(f"{name:40} {statistics.median(firsts):15.3f} {statistics.median(r[1] for r in runs):8.3f} "
              f"{min(firsts):7.3f}-{max(firsts):.3f}")
    ours = statistics.median(r[0] for r in results["voicenotes transcribe (5 s)"])
    theirs = statistics.median(r[0] for r in results["whisper-cli (5 s)"])
    print(f"voicenotes transcribe / whisper-cli, first output: {ours / theirs:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
